// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * bench-reset OPERATION N: run one hot-path operation N times, for callgrind.
 * callgrind.sh runs it with N and 2N and divides the difference by N, so
 * start-up cost cancels out.
 *   classify   gpurobust_classify() of one CS errno (-ECANCELED, L3)
 *   gl-status  gpurobust_ctx_gl_reset_status() on a context with no reset
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpurobust/reset-gl.h"
#include "gpurobust/reset.h"

int main(int argc, char **argv)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_ERRNO, .err = -ECANCELED };
	struct gpurobust_reset_status st;
	struct gpurobust_ctx *ctx;
	volatile unsigned int sink = 0;
	long n;

	if (argc != 3 || (n = strtol(argv[2], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: bench-reset classify|gl-status N\n");
		return 2;
	}
	if (!strcmp(argv[1], "classify")) {
		for (long i = 0; i < n; i++) {
			gpurobust_classify(&ev, GPUROBUST_SEMANTICS_PER_CTX, &st);
			sink += st.reset_class;
		}
	} else if (!strcmp(argv[1], "gl-status")) {
		if (gpurobust_ctx_create(GPUROBUST_SEMANTICS_PER_CTX, GPUROBUST_CTX_ROBUST, &ctx))
			return 1;
		for (long i = 0; i < n; i++)
			sink += gpurobust_ctx_gl_reset_status(ctx);
		gpurobust_ctx_destroy(ctx);
	} else {
		fprintf(stderr, "bench-reset: unknown operation '%s'\n", argv[1]);
		return 2;
	}
	return sink == 0xffffffff;
}
