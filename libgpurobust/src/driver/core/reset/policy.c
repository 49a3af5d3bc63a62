// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * L13: what happens when a context that did not ask for reset notification
 * is lost. Skipping its submissions would look like a freeze, so the default
 * is Mesa's: terminate with a message that says why. A caller that can do
 * better (a compositor that recreates its context) installs a handler.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"
#include "driver/core/reset/context.h"

GPUROBUST_EXPORT int gpurobust_ctx_set_lost_handler(struct gpurobust_ctx *ctx,
						    gpurobust_lost_handler handler,
						    void *user_data)
{
	if (!ctx)
		return -EINVAL;
	pthread_mutex_lock(&ctx->handler_lock);
	ctx->lost_handler = handler;
	ctx->lost_handler_data = user_data;
	pthread_mutex_unlock(&ctx->handler_lock);
	return 0;
}

void grb_ctx_run_lost_policy(struct gpurobust_ctx *ctx,
			 const struct gpurobust_reset_status *status)
{
	gpurobust_lost_handler handler;
	void *data;

	pthread_mutex_lock(&ctx->handler_lock);
	handler = ctx->lost_handler;
	data = ctx->lost_handler_data;
	pthread_mutex_unlock(&ctx->handler_lock);

	if (handler) {
		handler(ctx, status, data);
		return;
	}
	fprintf(stderr,
		"gpurobust: a GPU context of this process was lost (%s%s%s) and it was not "
		"created robust, so the process is terminated (contract row L13). "
		"Create the context with GPUROBUST_CTX_ROBUST or install a handler with "
		"gpurobust_ctx_set_lost_handler() to recover instead.\n",
		gpurobust_reset_class_name(status->reset_class),
		status->first_errno ? ", " : "",
		status->first_errno ? strerror(-status->first_errno) : "");
	fflush(stderr);
	abort();
}
