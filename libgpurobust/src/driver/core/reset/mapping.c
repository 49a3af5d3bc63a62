// SPDX-License-Identifier: MIT
/*
 * From a context's classification to what the graphics APIs return:
 * Vulkan's sticky device loss (L9, L10) and GL's reset status with its
 * repeat-until-complete rule (L11, L12). The values come from the real
 * Khronos headers.
 */
#include <errno.h>
#include <GL/gl.h>
#include <GL/glext.h>

#include "common/export.h"
#include "driver/core/reset/context.h"

GPUROBUST_EXPORT int gpurobust_reset_is_lost(enum gpurobust_reset_class reset_class)
{
	switch (reset_class) {
	case GPUROBUST_RESET_UNKNOWN:
	case GPUROBUST_RESET_INNOCENT:
	case GPUROBUST_RESET_GUILTY_SOFT:
	case GPUROBUST_RESET_GUILTY_HARD:
		return 1;
	case GPUROBUST_RESET_NONE:
		break;
	}
	return 0;
}

static uint64_t load_state(const struct gpurobust_ctx *ctx)
{
	return atomic_load_explicit((_Atomic uint64_t *)&ctx->state, memory_order_acquire);
}

GPUROBUST_EXPORT VkResult gpurobust_ctx_vk_result(const struct gpurobust_ctx *ctx)
{
	/* A NULL context cannot vouch for anything; Vulkan has no better code. */
	if (!ctx)
		return VK_ERROR_DEVICE_LOST;
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

GPUROBUST_EXPORT const char *gpurobust_reset_class_name(enum gpurobust_reset_class reset_class)
{
	switch (reset_class) {
	case GPUROBUST_RESET_NONE:
		return "none";
	case GPUROBUST_RESET_UNKNOWN:
		return "unknown";
	case GPUROBUST_RESET_INNOCENT:
		return "innocent";
	case GPUROBUST_RESET_GUILTY_SOFT:
		return "guilty_soft";
	case GPUROBUST_RESET_GUILTY_HARD:
		return "guilty_hard";
	}
	return "invalid";
}

GPUROBUST_EXPORT const char *gpurobust_semantics_name(enum gpurobust_semantics semantics)
{
	switch (semantics) {
	case GPUROBUST_SEMANTICS_LEGACY:
		return "legacy";
	case GPUROBUST_SEMANTICS_PER_CTX:
		return "per_ctx";
	}
	return "invalid";
}
