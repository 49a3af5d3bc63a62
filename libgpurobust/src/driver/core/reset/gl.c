// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * From a context's classification to GL's reset status with its
 * repeat-until-complete rule (L11, L12). The values come from the real
 * Khronos GL/glext.h.
 */
#include <GL/gl.h>
#include <GL/glext.h>

#include "common/export.h"
#include "driver/core/reset/context.h"
#include "gpurobust/reset-gl.h"

static unsigned int gl_status_of(enum gpurobust_reset_class reset_class)
{
	switch (reset_class) {
	case GPUROBUST_RESET_GUILTY_SOFT:
	case GPUROBUST_RESET_GUILTY_HARD:
		return GL_GUILTY_CONTEXT_RESET;
	case GPUROBUST_RESET_INNOCENT:
		return GL_INNOCENT_CONTEXT_RESET;
	case GPUROBUST_RESET_UNKNOWN:
		return GL_UNKNOWN_CONTEXT_RESET;
	case GPUROBUST_RESET_NONE:
		break;
	}
	return GL_NO_ERROR;
}

GPUROBUST_EXPORT unsigned int gpurobust_ctx_gl_reset_status(struct gpurobust_ctx *ctx)
{
	uint64_t old, new;

	/* L12: NO_RESET_NOTIFICATION never reports, whatever happened. */
	if (!ctx || !(ctx->flags & GPUROBUST_CTX_ROBUST))
		return GL_NO_ERROR;

	old = atomic_load_explicit(&ctx->state, memory_order_acquire);
	do {
		if (ctx_state_class(old) == GPUROBUST_RESET_NONE)
			return GL_NO_ERROR;
		/* L11: once reported and the reset has completed, the application
		 * knows it may recreate its context: say GL_NO_ERROR from now on. */
		if ((old & CTX_STATE_GL_REPORTED) &&
		    !(ctx_state_flags(old) & GPUROBUST_RESET_FLAG_IN_PROGRESS))
			return GL_NO_ERROR;
		new = old | CTX_STATE_GL_REPORTED;
	} while (new != old &&
		 !atomic_compare_exchange_weak_explicit(&ctx->state, &old, new,
							memory_order_acq_rel,
							memory_order_acquire));
	return gl_status_of(ctx_state_class(new));
}
