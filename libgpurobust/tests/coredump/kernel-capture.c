// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Prints, as a C array of dwords, the breadcrumb pool that a
 * hung process leaves in its dumpable mapping: the bytes that the
 * series' devcoredump KUnit test (D4_fixture, kernel/patches) puts in the
 * buffer it maps dumpable, so that the printer's fixture
 * (kernel/fixtures/series-d4-full-reset.devcoredump) carries breadcrumbs
 * that `gpurobust report` decodes from the dump alone. The pool mirrors its
 * scopes (B3), and the GPU writes come from the real packet encoders replayed
 * by tests/breadcrumbs' fake GPU.
 *
 * The kernel treats the buffer as opaque bytes; only this library reads
 * them. Rerun this and update the test when the pool's layout changes:
 * test-kernel-fixture fails until then.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <gpurobust/breadcrumbs.h>

#include "driver/core/breadcrumbs/internal.h"
#include "fake-gpu.h"

/* The size of the buffer the kernel test maps dumpable (CAPTURE_SIZE there). */
#define CAPTURE_BYTES 4096

static struct fake_ib gfx;

int main(void)
{
	struct gpurobust_bc_pool_config cfg = {
		.size = CAPTURE_BYTES, .gpu_va = FAKE_GPU_VA,
		.mirror_scopes = 8, .mirror_name_bytes = 256,
	};
	struct gpurobust_bc_pool *pool;
	struct gpurobust_bc_stream *stream;
	uint8_t *map = calloc(1, CAPTURE_BYTES);
	size_t hung_at, i, column;

	if (!map)
		return 1;
	cfg.cpu_map = map;
	if (gpurobust_bc_pool_create(&cfg, &pool))
		return 1;
	gfx = (struct fake_ib){ .level = GPUROBUST_BC_GFX11, .queue = GPUROBUST_BC_QUEUE_GFX };
	if (fake_stream_create(pool, GPUROBUST_BC_QUEUE_GFX, "main", &gfx, &stream))
		return 1;

	/* Frame 1042 drew its shadows, then hung in its second draw of the
	 * lighting pass: the GPU started Draw 7 and never finished it. */
	fake_begin(stream);
	fake_push(stream, intern(pool, "Frame 1042"));
	fake_push(stream, intern(pool, "Shadows"));
	fake_pop(stream);
	fake_push(stream, intern(pool, "Lighting"));
	fake_push(stream, intern(pool, "Draw 6"));
	fake_pop(stream);
	fake_push(stream, intern(pool, "Draw 7"));
	hung_at = fake_ib_mark(&gfx);
	fake_pop(stream);
	fake_push(stream, intern(pool, "Draw 8"));
	fake_pop(stream);
	fake_pop(stream);
	fake_pop(stream);
	/* the GPU started Draw 7, after finishing everything before it */
	fake_gpu_run(&gfx, hung_at, hung_at, map, FAKE_GPU_VA);

	/* designated initializers of the dwords that are not zero */
	printf("static const u32 breadcrumb_pool[CAPTURE_SIZE / 4] = {\n");
	for (i = 0, column = 0; i < CAPTURE_BYTES / 4; i++) {
		uint32_t dword = bc_read_le32(map + 4 * i);

		if (!dword)
			continue;
		printf("%s[%zu] = 0x%08x,", column ? " " : "\t", i, dword);
		if (++column == 3) {
			printf("\n");
			column = 0;
		}
	}
	printf("%s};\n", column ? "\n" : "");
	gpurobust_bc_stream_destroy(stream);
	gpurobust_bc_pool_destroy(pool);
	free(map);
	return 0;
}
