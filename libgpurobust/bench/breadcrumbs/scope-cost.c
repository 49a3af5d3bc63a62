// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Scope cost bench. Run under callgrind, which counts the instructions of
 * record_scopes() and everything it calls (see meson.build):
 *
 *   valgrind --tool=callgrind --toggle-collect=record_scopes bench-bc-scope-cost N
 *
 * record_scopes() does N push+pop pairs on a warm stream, so Ir / N is the
 * library's CPU cost of one scope, loop included. The driver's own emit of
 * the two values push and pop return is its command-stream code, not
 * counted here.
 * Without valgrind it prints the memory and packet figures. A second
 * argument "mirror" measures a pool that mirrors its metadata (B3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "gpurobust/breadcrumbs-pm4.h"

__attribute__((noinline)) void record_scopes(struct gpurobust_bc_stream *s, uint32_t name,
					     unsigned long n);

__attribute__((noinline)) void record_scopes(struct gpurobust_bc_stream *s, uint32_t name,
					     unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		gpurobust_bc_push(s, name);
		gpurobust_bc_pop(s);
	}
}

static int dwords(enum gpurobust_bc_gfx_level level, enum gpurobust_bc_queue queue)
{
	/* Any 8-byte aligned scratch: only GFX9 graphics reads it. */
	struct gpurobust_bc_target target = { .level = level, .eop_bug_va = 0x1000 };

	return gpurobust_bc_write_dwords(&target, queue, GPUROBUST_BC_WRITE_IN) +
	       gpurobust_bc_write_dwords(&target, queue, GPUROBUST_BC_WRITE_OUT);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	/* "mirror": a 64 KiB pool that mirrors its metadata (B3), 64 scopes
	 * per stream, as registered for the devcoredump. */
	bool mirror = argc > 2 && !strcmp(argv[2], "mirror");
	struct gpurobust_bc_pool_config cfg = { .size = 64 << 10, .mirror_scopes = 64 };
	struct gpurobust_bc_pool *pool;
	struct gpurobust_bc_stream *s;
	uint32_t name;

	if (!n || gpurobust_bc_pool_create(mirror ? &cfg : NULL, &pool) ||
	    gpurobust_bc_intern(pool, "Draw", &name) ||
	    gpurobust_bc_stream_create(pool, GPUROBUST_BC_QUEUE_GFX, "bench", &s))
		return 1;
	/* Warm up to steady state: the scope array has its final size. */
	gpurobust_bc_stream_begin(s);
	record_scopes(s, name, n);
	gpurobust_bc_stream_begin(s);
	record_scopes(s, name, n);

	printf("scopes per stream: %lu\n", n);
	printf("marker memory per scope: %.6f bytes (one %u-byte record per stream)\n",
	       (double)BC_RECORD_SIZE / (double)n, BC_RECORD_SIZE);
	printf("cpu memory per scope: %.2f bytes (%zu-byte record, arrays' capacity %u)\n",
	       (double)s->capacity * BC_LIVE_SCOPE_BYTES / (double)n, BC_LIVE_SCOPE_BYTES,
	       s->capacity);
	printf("marker memory per stream of 1 scope: %u bytes (Unreal: 16384 per stack)\n",
	       BC_RECORD_SIZE);
	for (int level = GPUROBUST_BC_GFX8; level <= GPUROBUST_BC_GFX12; level++)
		printf("GFX%d dwords per scope: gfx %d, compute %d, sdma %d\n", level,
		       dwords(level, GPUROBUST_BC_QUEUE_GFX), dwords(level, GPUROBUST_BC_QUEUE_COMPUTE),
		       dwords(level, GPUROBUST_BC_QUEUE_SDMA));
	gpurobust_bc_pool_destroy(pool);
	return 0;
}
