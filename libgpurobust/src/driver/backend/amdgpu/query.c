// SPDX-License-Identifier: MIT
/* Asking the kernel about one context and its fences. */
#include <errno.h>
#include <stdbool.h>

#include "common/export.h"
#include "gpurobust/amdgpu.h"

GPUROBUST_EXPORT int gpurobust_amdgpu_query_ctx(amdgpu_context_handle amdgpu_ctx,
						struct gpurobust_ctx *ctx,
						uint64_t *query2_flags,
						uint32_t *query1_status)
{
	uint64_t flags;
	uint32_t status, hangs;
	int r;

	if (!amdgpu_ctx || !ctx)
		return -EINVAL;
	r = amdgpu_cs_query_reset_state2(amdgpu_ctx, &flags);
	if (r)
		return r;
	/* v1 is edge-triggered: ask it even though QUERY2 says more, so that
	 * an UNKNOWN_RESET is not swallowed by whoever asks next. */
	r = amdgpu_cs_query_reset_state(amdgpu_ctx, &status, &hangs);
	if (r)
		return r;
	r = gpurobust_ctx_note_query2(ctx, flags);
	if (!r)
		r = gpurobust_ctx_note_query1(ctx, status);
	if (query2_flags)
		*query2_flags = flags;
	if (query1_status)
		*query1_status = status;
	return r;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_wait_fences(struct amdgpu_cs_fence *fences,
						  uint32_t count, int wait_all,
						  uint64_t timeout_ns, int *signaled)
{
	uint32_t expired = 0, first = 0;
	int r;

	if (!fences || !count || !signaled)
		return -EINVAL;
	*signaled = 0;
	/* DRM_AMDGPU_WAIT_CS exists on every amdgpu kernel; WAIT_FENCES only
	 * since 4.14. One fence needs nothing more. */
	if (count == 1)
		r = amdgpu_cs_query_fence_status(fences, timeout_ns, 0, &expired);
	else
		r = amdgpu_cs_wait_fences(fences, count, wait_all, timeout_ns,
					  &expired, &first);
	if (r)
		return r;
	*signaled = expired != 0;
	return 0;
}
