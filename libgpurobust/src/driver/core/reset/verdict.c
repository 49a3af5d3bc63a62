// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Evidence to verdict: contract rows L1-L8, one piece of evidence at a time.
 *
 * The table below is the whole policy for errnos. QUERY_STATE2 and
 * QUERY_STATE answers depend on whether the kernel reports them per context
 * (this project's series) or device-wide (upstream 6.12): on the latter a
 * bare RESET only tells that someone, somewhere, was reset (L7).
 */
#include <errno.h>

#include "common/amdgpu-uapi.h"
#include "common/export.h"
#include "driver/core/reset/verdict.h"

struct errno_rule {
	int err;
	enum gpurobust_reset_class per_ctx;	/* kernel with the series */
	enum gpurobust_reset_class legacy;	/* upstream kernel */
	uint32_t flags;				/* GPUROBUST_RESET_FLAG_* */
};

static const struct errno_rule errno_rules[] = {
	{ -ENODATA,   GPUROBUST_RESET_GUILTY_SOFT, GPUROBUST_RESET_GUILTY_SOFT, 0 }, /* L1 */
	{ -ETIME,     GPUROBUST_RESET_GUILTY_HARD, GPUROBUST_RESET_GUILTY_HARD, 0 }, /* L2 */
	/* L3; L4: upstream also rejects a guilty context's CS with -ECANCELED
	 * and overwrites a guilty job's -ETIME with it, so it proves nothing
	 * until QUERY_STATE2 GUILTY resolves it. */
	{ -ECANCELED, GPUROBUST_RESET_INNOCENT,    GPUROBUST_RESET_UNKNOWN,     0 },
	/* L5: the device is unplugged or wedged, or RAS found it broken. */
	{ -ENODEV,    GPUROBUST_RESET_UNKNOWN,     GPUROBUST_RESET_UNKNOWN,
	  GPUROBUST_RESET_FLAG_DEVICE_GONE },
	{ -EHWPOISON, GPUROBUST_RESET_UNKNOWN,     GPUROBUST_RESET_UNKNOWN,
	  GPUROBUST_RESET_FLAG_DEVICE_GONE },
};

/* Any other errno (L8: -ENOMEM, -EINVAL, -EAGAIN, -ERESTARTSYS, -ESRCH, ...)
 * is not about a reset and leaves the classification alone. */
static int verdict_from_errno(int err, bool per_ctx, struct reset_verdict *out)
{
	if (err > 0)
		return -EINVAL;
	for (size_t i = 0; i < sizeof(errno_rules) / sizeof(errno_rules[0]); i++) {
		if (errno_rules[i].err != err)
			continue;
		out->status.reset_class = per_ctx ? errno_rules[i].per_ctx
						  : errno_rules[i].legacy;
		out->status.flags = errno_rules[i].flags;
		out->status.first_errno = err;
		out->guilt_kind_known = true;
		return 0;
	}
	return 0;
}

static void set_guilty_by_query(struct reset_verdict *out)
{
	/* Reported as HARD until an errno names the kind: upstream sets GUILTY
	 * only after a full reset, and the series also after soft recovery. */
	out->status.reset_class = GPUROBUST_RESET_GUILTY_HARD;
	out->guilt_kind_known = false;
}

/*
 * Internal callers ask this, not the exported function: a call to an
 * exported function goes through the PLT, which would give
 * gpurobust_classify() a stack frame it otherwise does without.
 */
static bool query2_is_per_ctx(uint64_t query2_flags)
{
	return query2_flags & AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET;
}

GPUROBUST_EXPORT enum gpurobust_semantics gpurobust_semantics_from_query2(uint64_t query2_flags)
{
	return query2_is_per_ctx(query2_flags) ? GPUROBUST_SEMANTICS_PER_CTX :
						 GPUROBUST_SEMANTICS_LEGACY;
}

static void verdict_from_query2(uint64_t flags, bool per_ctx, struct reset_verdict *out)
{
	per_ctx = per_ctx || query2_is_per_ctx(flags);

	out->sets_in_progress = true;
	if (flags & AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS)
		out->status.flags |= GPUROBUST_RESET_FLAG_IN_PROGRESS;

	/* VRAM contents of this context are gone on either kernel: upstream
	 * compares the device's loss counter with the context's creation. That
	 * proves innocence only per context: upstream sets it for the guilty
	 * context too, and 7.2 can lose its GUILTY when a full reset overwrites
	 * the hung job's -ETIME (L4). */
	if (flags & AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST) {
		out->status.flags |= GPUROBUST_RESET_FLAG_VRAM_LOST;
		out->status.reset_class = per_ctx ? GPUROBUST_RESET_INNOCENT :
						    GPUROBUST_RESET_UNKNOWN;
	}
	/* Upstream sets GUILTY from this context's karma: per context there too. */
	if (flags & AMDGPU_CTX_QUERY2_FLAGS_GUILTY) {
		set_guilty_by_query(out);
		return;
	}
	if (!(flags & AMDGPU_CTX_QUERY2_FLAGS_RESET))
		return;
	if (per_ctx)
		out->status.reset_class = GPUROBUST_RESET_INNOCENT;	/* L6 */
	else
		out->status.flags |= GPUROBUST_RESET_FLAG_ELSEWHERE;	/* L7 */
}

static int verdict_from_query1(uint32_t status, bool per_ctx, struct reset_verdict *out)
{
	switch (status) {
	case AMDGPU_CTX_NO_RESET:
		return 0;
	case AMDGPU_CTX_GUILTY_RESET:
		set_guilty_by_query(out);
		return 0;
	case AMDGPU_CTX_INNOCENT_RESET:
		out->status.reset_class = GPUROBUST_RESET_INNOCENT;
		return 0;
	case AMDGPU_CTX_UNKNOWN_RESET:
		/* Upstream answers UNKNOWN_RESET whenever the device-global reset
		 * counter moved: the same non-evidence as L7. */
		if (per_ctx)
			out->status.reset_class = GPUROBUST_RESET_UNKNOWN;
		else
			out->status.flags |= GPUROBUST_RESET_FLAG_ELSEWHERE;
		return 0;
	default:
		return -EINVAL;
	}
}

int grb_reset_verdict_from_evidence(const struct gpurobust_evidence *evidence,
				enum gpurobust_semantics semantics,
				struct reset_verdict *out)
{
	bool per_ctx = semantics == GPUROBUST_SEMANTICS_PER_CTX;

	if (!evidence || !out)
		return -EINVAL;
	if (semantics != GPUROBUST_SEMANTICS_LEGACY && !per_ctx)
		return -EINVAL;
	*out = (struct reset_verdict){ .status.reset_class = GPUROBUST_RESET_NONE };

	switch (evidence->kind) {
	case GPUROBUST_EVIDENCE_ERRNO:
		return verdict_from_errno(evidence->err, per_ctx, out);
	case GPUROBUST_EVIDENCE_QUERY2:
		verdict_from_query2(evidence->query2_flags, per_ctx, out);
		return 0;
	case GPUROBUST_EVIDENCE_QUERY1:
		return verdict_from_query1(evidence->query1_status, per_ctx, out);
	}
	return -EINVAL;
}

int grb_reset_most_telling_errno(const int *errs, size_t count,
			     enum gpurobust_semantics semantics)
{
	enum gpurobust_reset_class best_class = GPUROBUST_RESET_NONE;
	int best = 0;

	for (size_t i = 0; i < count; i++) {
		struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_ERRNO,
						 .err = errs[i] };
		struct reset_verdict v;

		if (grb_reset_verdict_from_evidence(&ev, semantics, &v))
			continue;
		if (v.status.reset_class > best_class) {
			best_class = v.status.reset_class;
			best = errs[i];
		} else if (!best && errs[i] < 0) {
			best = errs[i];	/* an L8 error still beats "no error" */
		}
	}
	return best;
}

GPUROBUST_EXPORT int gpurobust_classify(const struct gpurobust_evidence *evidence,
				    enum gpurobust_semantics semantics,
				    struct gpurobust_reset_status *out)
{
	struct reset_verdict v;
	int r;

	if (!out)
		return -EINVAL;
	r = grb_reset_verdict_from_evidence(evidence, semantics, &v);
	if (r)
		return r;
	*out = v.status;
	return 0;
}
