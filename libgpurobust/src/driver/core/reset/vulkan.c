// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * From a context's classification to Vulkan's sticky device loss (L9) and
 * to the answer of a wait that must finish (L10). The values come from the
 * real Vulkan headers.
 */
#include <errno.h>

#include "common/export.h"
#include "driver/core/reset/context.h"
#include "gpurobust/reset-vulkan.h"

static uint64_t load_state(const struct gpurobust_ctx *ctx)
{
	return atomic_load_explicit((_Atomic uint64_t *)&ctx->state, memory_order_acquire);
}

GPUROBUST_EXPORT VkResult gpurobust_ctx_vk_result(const struct gpurobust_ctx *ctx)
{
	/* No context, no evidence: the driver's own error path decides. */
	if (!ctx)
		return VK_SUCCESS;
	return gpurobust_reset_is_lost(ctx_state_class(load_state(ctx))) ?
	       VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

GPUROBUST_EXPORT int gpurobust_ctx_vk_wait_result(struct gpurobust_ctx *ctx, int wait_err,
						  VkResult *out)
{
	struct gpurobust_reset_status verdict;
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_ERRNO, .err = wait_err };
	int r;

	if (!ctx || !out)
		return -EINVAL;
	r = gpurobust_ctx_update(ctx, &ev);
	if (r)
		return r;
	r = gpurobust_classify(&ev, ctx->semantics, &verdict);
	if (r)
		return r;
	/* An error that is not about a reset leaves the wait unfinished unless
	 * the context is lost anyway, which answers every wait. */
	*out = gpurobust_ctx_vk_result(ctx);
	if (wait_err && verdict.reset_class == GPUROBUST_RESET_NONE &&
	    *out == VK_SUCCESS)
		return wait_err;
	return 0;
}
