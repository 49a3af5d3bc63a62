// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The sticky per-context classification: how a context's history and a new
 * verdict combine (L1-L8), done lock-free so that every thread of a driver
 * can feed and query the same context.
 */
#include <errno.h>
#include <stdlib.h>

#include "common/export.h"
#include "driver/core/reset/context.h"
#include "driver/core/reset/verdict.h"

static bool is_guilty(enum gpurobust_reset_class c)
{
	return c == GPUROBUST_RESET_GUILTY_SOFT || c == GPUROBUST_RESET_GUILTY_HARD;
}

/*
 * The class lattice (Documentation/libgpurobust-api.md, "Class lattice"):
 * whether a verdict of class @to replaces the context's class @from.
 *
 *   NONE     -> any class: the first evidence of a reset.
 *   UNKNOWN  -> INNOCENT or GUILTY: resolves an ambiguous -ECANCELED (L4) or
 *               an UNKNOWN_RESET answer. After the device was lost (L5,
 *               DEVICE_GONE) only GUILTY: a lost device cancels every
 *               pending job and counts all VRAM lost, so a later -ECANCELED
 *               or VRAMLOST is the loss's echo, not proof of innocence;
 *               a guilty fence still names this context's own hang.
 *   INNOCENT -> GUILTY: the context hung later, or its karma surfaced.
 *   GUILTY   -> the other GUILTY: see merge_verdict().
 *   lost     -> NONE, or a class lower in the enum: never (sticky).
 */
static bool class_may_follow(enum gpurobust_reset_class from, uint64_t from_flags,
			     enum gpurobust_reset_class to)
{
	if (to <= from)
		return false;
	if (from == GPUROBUST_RESET_UNKNOWN && (from_flags & GPUROBUST_RESET_FLAG_DEVICE_GONE))
		return is_guilty(to);
	return true;
}

/*
 * Folds a verdict into a context's state word. Between the two GUILTY
 * classes, guilt reported by a query does not know the recovery kind, so it
 * neither overrides a kind an errno named nor blocks one named later; a
 * named SOFT escalates to a named HARD, never back.
 */
static uint64_t merge_verdict(uint64_t old, const struct reset_verdict *v)
{
	enum gpurobust_reset_class old_class = ctx_state_class(old);
	enum gpurobust_reset_class new_class = v->status.reset_class;
	bool old_known = old & CTX_STATE_GUILT_KIND_KNOWN;
	enum gpurobust_reset_class merged = old_class;
	bool known = old_known;
	uint64_t flags = ctx_state_flags(old);
	uint64_t state;

	if (is_guilty(old_class) && is_guilty(new_class)) {
		if (v->guilt_kind_known && !old_known) {
			merged = new_class;
			known = true;
		} else if (v->guilt_kind_known && new_class > old_class) {
			merged = new_class;
		}
	} else if (class_may_follow(old_class, flags, new_class)) {
		merged = new_class;
		known = v->guilt_kind_known;
	}

	flags |= v->status.flags & ~GPUROBUST_RESET_FLAG_IN_PROGRESS;
	if (v->sets_in_progress)
		flags = (flags & ~GPUROBUST_RESET_FLAG_IN_PROGRESS) |
			(v->status.flags & GPUROBUST_RESET_FLAG_IN_PROGRESS);

	state = (uint64_t)merged | (flags << CTX_STATE_FLAGS_SHIFT);
	if (known && is_guilty(merged))
		state |= CTX_STATE_GUILT_KIND_KNOWN;
	/* A new GL status is news that GL has to report again; refining
	 * guilt from hard to soft is not. */
	if (merged == old_class || (is_guilty(merged) && is_guilty(old_class)))
		state |= old & CTX_STATE_GL_REPORTED;
	if (old_class == GPUROBUST_RESET_NONE && merged != GPUROBUST_RESET_NONE)
		state |= (uint64_t)(uint32_t)v->status.first_errno << CTX_STATE_ERRNO_SHIFT;
	else
		state |= old & ~((1ull << CTX_STATE_ERRNO_SHIFT) - 1);
	return state;
}

void grb_ctx_state_to_status(uint64_t state, struct gpurobust_reset_status *out)
{
	out->reset_class = ctx_state_class(state);
	out->flags = ctx_state_flags(state);
	out->first_errno = (int)(uint32_t)(state >> CTX_STATE_ERRNO_SHIFT);
}

GPUROBUST_EXPORT int gpurobust_ctx_create(enum gpurobust_semantics semantics,
					  uint32_t flags, struct gpurobust_ctx **out)
{
	struct gpurobust_ctx *ctx;

	if (!out || (flags & ~GPUROBUST_CTX_ROBUST) ||
	    (semantics != GPUROBUST_SEMANTICS_LEGACY &&
	     semantics != GPUROBUST_SEMANTICS_PER_CTX))
		return -EINVAL;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return -ENOMEM;
	atomic_init(&ctx->state, GPUROBUST_RESET_NONE);
	ctx->semantics = semantics;
	ctx->flags = flags;
	pthread_mutex_init(&ctx->handler_lock, NULL);
	*out = ctx;
	return 0;
}

GPUROBUST_EXPORT void gpurobust_ctx_destroy(struct gpurobust_ctx *ctx)
{
	if (!ctx)
		return;
	pthread_mutex_destroy(&ctx->handler_lock);
	free(ctx);
}

GPUROBUST_EXPORT int gpurobust_ctx_update(struct gpurobust_ctx *ctx,
					  const struct gpurobust_evidence *evidence)
{
	struct reset_verdict v;
	uint64_t old, new;
	int r;

	if (!ctx)
		return -EINVAL;
	r = grb_reset_verdict_from_evidence(evidence, ctx->semantics, &v);
	if (r)
		return r;

	old = atomic_load_explicit(&ctx->state, memory_order_acquire);
	do {
		new = merge_verdict(old, &v);
		if (new == old)
			return 0;
	} while (!atomic_compare_exchange_weak_explicit(&ctx->state, &old, new,
							memory_order_acq_rel,
							memory_order_acquire));

	/* Exactly one thread wins the move off NONE, so the policy runs once. */
	if (ctx_state_class(old) == GPUROBUST_RESET_NONE &&
	    ctx_state_class(new) != GPUROBUST_RESET_NONE &&
	    !(ctx->flags & GPUROBUST_CTX_ROBUST)) {
		struct gpurobust_reset_status status;

		grb_ctx_state_to_status(new, &status);
		grb_ctx_run_lost_policy(ctx, &status);
	}
	return 0;
}

GPUROBUST_EXPORT int gpurobust_ctx_note_errno(struct gpurobust_ctx *ctx, int err)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_ERRNO, .err = err };

	return gpurobust_ctx_update(ctx, &ev);
}

GPUROBUST_EXPORT int gpurobust_ctx_note_query2(struct gpurobust_ctx *ctx, uint64_t flags)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_QUERY2,
					 .query2_flags = flags };

	return gpurobust_ctx_update(ctx, &ev);
}

GPUROBUST_EXPORT int gpurobust_ctx_note_query1(struct gpurobust_ctx *ctx, uint32_t status)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_QUERY1,
					 .query1_status = status };

	return gpurobust_ctx_update(ctx, &ev);
}

GPUROBUST_EXPORT int gpurobust_ctx_get_status(const struct gpurobust_ctx *ctx,
					      struct gpurobust_reset_status *out)
{
	if (!ctx || !out)
		return -EINVAL;
	/* C11 atomic_load takes a non-const pointer; loading never writes. */
	grb_ctx_state_to_status(atomic_load_explicit((_Atomic uint64_t *)&ctx->state,
						 memory_order_acquire), out);
	return 0;
}
