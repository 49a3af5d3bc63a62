// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* Asking the kernel about one context and its fences. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/export.h"
#include "gpurobust/amdgpu.h"

GPUROBUST_EXPORT int gpurobust_amdgpu_ctx_create(amdgpu_context_handle amdgpu_ctx,
						 uint32_t flags, struct gpurobust_ctx **out)
{
	uint64_t query2;
	int r;

	if (!amdgpu_ctx || !out)
		return -EINVAL;
	/* The one QUERY_STATE2 of a context's life that is not asked for: its
	 * PER_CTX_RESET bit tells the semantics, and a fresh context has
	 * nothing else to say yet (RESET_IN_PROGRESS at most). */
	r = amdgpu_cs_query_reset_state2(amdgpu_ctx, &query2);
	if (r)
		return r;
	r = gpurobust_ctx_create(gpurobust_semantics_from_query2(query2), flags, out);
	if (r)
		return r;
	r = gpurobust_ctx_note_query2(*out, query2);
	if (r) {
		gpurobust_ctx_destroy(*out);
		*out = NULL;
	}
	return r;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_query_ctx(amdgpu_context_handle amdgpu_ctx,
						struct gpurobust_ctx *ctx,
						uint64_t *query2_flags)
{
	uint64_t flags;
	int r;

	if (!amdgpu_ctx || !ctx)
		return -EINVAL;
	/* QUERY_STATE2 alone: it says all that QUERY_STATE (v1) says, and v1's
	 * UNKNOWN_RESET only reflects the device-global counter (L7). */
	r = amdgpu_cs_query_reset_state2(amdgpu_ctx, &flags);
	if (r)
		return r;
	if (query2_flags)
		*query2_flags = flags;
	return gpurobust_ctx_note_query2(ctx, flags);
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
