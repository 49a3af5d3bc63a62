/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_RESET_CONTEXT_H
#define GPUROBUST_CORE_RESET_CONTEXT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpurobust/reset.h"

/*
 * Thread safety: everything a query or an update touches lives in one 64-bit
 * word, changed with a compare-and-swap loop, so readers and writers never
 * block each other and never see a half-applied update. Only the lost
 * handler sits behind a mutex: it is set rarely and read once, on the single
 * transition to lost.
 *
 * Word layout: bits 0-2 class, 3 guilt kind known, 4 GL status reported,
 * 8-15 GPUROBUST_RESET_FLAG_*, 32-63 first errno.
 */
#define CTX_STATE_CLASS_MASK		0x7ull
#define CTX_STATE_GUILT_KIND_KNOWN	(1ull << 3)
#define CTX_STATE_GL_REPORTED		(1ull << 4)
#define CTX_STATE_FLAGS_SHIFT		8
#define CTX_STATE_FLAGS_MASK		(0xffull << CTX_STATE_FLAGS_SHIFT)
#define CTX_STATE_ERRNO_SHIFT		32

struct gpurobust_ctx {
	_Atomic uint64_t state;
	enum gpurobust_semantics semantics;
	uint32_t flags;

	pthread_mutex_t handler_lock;
	gpurobust_lost_handler lost_handler;
	void *lost_handler_data;
};

static inline enum gpurobust_reset_class ctx_state_class(uint64_t state)
{
	return (enum gpurobust_reset_class)(state & CTX_STATE_CLASS_MASK);
}

static inline uint32_t ctx_state_flags(uint64_t state)
{
	return (uint32_t)((state & CTX_STATE_FLAGS_MASK) >> CTX_STATE_FLAGS_SHIFT);
}

void grb_ctx_state_to_status(uint64_t state, struct gpurobust_reset_status *out);

/* L13: runs the handler, or terminates the process. */
void grb_ctx_run_lost_policy(struct gpurobust_ctx *ctx,
			 const struct gpurobust_reset_status *status);

#endif
