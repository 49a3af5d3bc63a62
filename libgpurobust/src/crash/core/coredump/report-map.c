// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * What the application saw: the evidence a guilty and an innocent context
 * receive for this kind of recovery on this kind of kernel, run through the
 * library core's classification (contract rows L1-L7) and API mapping (L9,
 * L11). A report thus says what the library would have told the process,
 * not a guess of its own.
 */
#include <errno.h>

#include <gpurobust/reset-gl.h>
#include <gpurobust/reset-vulkan.h>
#include <gpurobust/reset.h>

#include "common/amdgpu-uapi.h"
#include "crash/core/coredump/report-internal.h"

struct evidence_pair {
	int err;		/* the fence or CS errno the context sees, 0 for none */
	uint64_t query2;	/* the QUERY_STATE2 flags it reads */
};

/* K1, K3-K5 with the series; the contract's "what 6.12 does" rows without. */
static bool evidence_for(const struct gpurobust_report *r, enum gpurobust_role role,
			 struct evidence_pair *ev)
{
	bool series = r->sources & GPUROBUST_REPORT_FROM_SERIES;
	bool guilty = role == GPUROBUST_ROLE_GUILTY;

	ev->err = 0;
	ev->query2 = AMDGPU_CTX_QUERY2_FLAGS_RESET;
	if (series) {
		ev->query2 |= AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET;
		if (guilty)
			ev->query2 |= AMDGPU_CTX_QUERY2_FLAGS_GUILTY;
	}
	if (r->vram_lost)
		ev->query2 |= AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST;

	switch (r->type) {
	case GPUROBUST_RECOVERY_SOFT:
		/* 6.12 too sets -ENODATA on the hung fence; nobody else loses work */
		if (guilty)
			ev->err = -ENODATA;
		else if (series)
			return false;	/* K1: no innocent context exists */
		return true;
	case GPUROBUST_RECOVERY_RING:
		/* 6.12 overwrites the guilty -ETIME with -ECANCELED (row 3) */
		ev->err = series && guilty ? -ETIME : -ECANCELED;
		return true;
	case GPUROBUST_RECOVERY_FULL:
		ev->err = series && guilty ? -ETIME : -ECANCELED;
		/* 6.12 marks the guilty context only on a full reset (row 5) */
		if (guilty)
			ev->query2 |= AMDGPU_CTX_QUERY2_FLAGS_GUILTY;
		return true;
	case GPUROBUST_RECOVERY_NONE:
	case GPUROBUST_RECOVERY_UNKNOWN:
		break;
	}
	return false;
}

static bool map_role(const struct gpurobust_report *r, enum gpurobust_role role,
		     struct gpurobust_report_outcome *out)
{
	enum gpurobust_semantics sem = r->sources & GPUROBUST_REPORT_FROM_SERIES ?
				       GPUROBUST_SEMANTICS_PER_CTX : GPUROBUST_SEMANTICS_LEGACY;
	struct gpurobust_reset_status status;
	struct evidence_pair ev;
	struct gpurobust_ctx *ctx;
	bool ok = false;

	if (!evidence_for(r, role, &ev))
		return false;
	/* robust, so that a lost context reports instead of terminating (L13) */
	if (gpurobust_ctx_create(sem, GPUROBUST_CTX_ROBUST, &ctx))
		return false;
	if ((!ev.err || !gpurobust_ctx_note_errno(ctx, ev.err)) &&
	    !gpurobust_ctx_note_query2(ctx, ev.query2) &&
	    !gpurobust_ctx_get_status(ctx, &status)) {
		out->vk_result = gpurobust_ctx_vk_result(ctx);
		out->gl_status = gpurobust_ctx_gl_reset_status(ctx);
		out->classification = gpurobust_reset_class_name(status.reset_class);
		ok = true;
	}
	gpurobust_ctx_destroy(ctx);
	return ok;
}

void grb_report_map(struct gpurobust_report *r)
{
	r->mapped = map_role(r, GPUROBUST_ROLE_GUILTY, &r->guilty);
	if (r->mapped && !map_role(r, GPUROBUST_ROLE_INNOCENT, &r->innocent)) {
		/* no innocent context can exist (K1) */
		r->innocent.vk_result = VK_SUCCESS;
		r->innocent.gl_status = 0;
		r->innocent.classification = gpurobust_reset_class_name(GPUROBUST_RESET_NONE);
	}
}
