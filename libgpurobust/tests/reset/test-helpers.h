/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_TESTS_RESET_HELPERS_H
#define GPUROBUST_TESTS_RESET_HELPERS_H

/* cmocka needs these before its own header. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpurobust/reset-gl.h"
#include "gpurobust/reset-vulkan.h"
#include "gpurobust/reset.h"

static inline struct gpurobust_ctx *new_ctx(enum gpurobust_semantics semantics, uint32_t flags)
{
	struct gpurobust_ctx *ctx = NULL;

	assert_int_equal(gpurobust_ctx_create(semantics, flags, &ctx), 0);
	assert_non_null(ctx);
	return ctx;
}

static inline struct gpurobust_reset_status status_of(const struct gpurobust_ctx *ctx)
{
	struct gpurobust_reset_status st;

	assert_int_equal(gpurobust_ctx_get_status(ctx, &st), 0);
	return st;
}

static inline struct gpurobust_reset_status classify_errno(int err,
							   enum gpurobust_semantics semantics)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_ERRNO, .err = err };
	struct gpurobust_reset_status st;

	assert_int_equal(gpurobust_classify(&ev, semantics, &st), 0);
	return st;
}

static inline struct gpurobust_reset_status classify_query2(uint64_t flags,
							    enum gpurobust_semantics semantics)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_QUERY2,
					 .query2_flags = flags };
	struct gpurobust_reset_status st;

	assert_int_equal(gpurobust_classify(&ev, semantics, &st), 0);
	return st;
}

#define LEGACY GPUROBUST_SEMANTICS_LEGACY
#define PER_CTX GPUROBUST_SEMANTICS_PER_CTX

#endif
