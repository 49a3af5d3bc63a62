// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "driver/core/breadcrumbs/pm4-decode.h"
#include "fake-gpu.h"

static int record_write(void *ctx, uint64_t va, uint32_t value, enum gpurobust_bc_write_mode mode)
{
	struct fake_ib *ib = ctx;
	struct gpurobust_bc_target target = { .level = ib->level, .eop_bug_va = FAKE_EOP_BUG_VA };
	int need = gpurobust_bc_write_dwords(&target, ib->queue, mode);
	int n;

	/* Reserve, as a driver's emitter does, and fail when there is no room. */
	assert_true(need > 0);
	if (ib->ndw + (size_t)need > (ib->room ? ib->room : sizeof(ib->dw) / sizeof(ib->dw[0])))
		return -ENOSPC;
	assert_true(ib->packets < sizeof(ib->packet_start) / sizeof(ib->packet_start[0]));
	n = gpurobust_bc_encode_write(&target, ib->queue, mode, va, value, ib->dw + ib->ndw);
	assert_int_equal(n, need);
	ib->packet_start[ib->packets++] = ib->ndw;
	ib->ndw += (size_t)n;
	return 0;
}

struct gpurobust_bc_emitter fake_ib_emitter(struct fake_ib *ib)
{
	struct gpurobust_bc_emitter e = { .write = record_write, .ctx = ib };

	return e;
}

static bool is_out_write(enum gpurobust_bc_queue queue, unsigned int opcode)
{
	return queue == GPUROBUST_BC_QUEUE_SDMA ? opcode == 5 /* FENCE */ :
	       opcode == 0x49 /* RELEASE_MEM */ || opcode == 0x47 /* EVENT_WRITE_EOP */;
}

void fake_gpu_run(const struct fake_ib *ib, size_t me_packets, size_t eop_packets, void *map,
		  uint64_t gpu_va)
{
	assert_true(eop_packets <= me_packets && me_packets <= ib->packets);
	for (size_t p = 0; p < me_packets; p++) {
		size_t end = p + 1 < ib->packets ? ib->packet_start[p + 1] : ib->ndw;

		/* One write may be several packets: workarounds, then the write. */
		for (size_t at = ib->packet_start[p]; at < end;) {
			struct bc_decoded_write w;
			int n = grb_bc_decode_write(ib->queue, ib->dw + at, end - at, &w);

			assert_true(n > 0);
			at += (size_t)n;
			if (w.opcode == 0x46) {	/* ZPASS_DONE into the driver's scratch */
				assert_int_equal(w.va, FAKE_EOP_BUG_VA);
				continue;
			}
			if (is_out_write(ib->queue, w.opcode) && p >= eop_packets)
				continue;
			assert_true(w.va >= gpu_va);
			bc_write_le32((uint8_t *)map + (w.va - gpu_va), w.value);
		}
	}
}

void fake_pool_init(struct fake_pool *fp, size_t size, uint32_t max_scopes)
{
	struct gpurobust_bc_pool_config cfg = {
		.size = size, .gpu_va = FAKE_GPU_VA, .max_scopes_per_stream = max_scopes,
	};

	fp->size = size ? size : GPUROBUST_BC_DEFAULT_POOL_SIZE;
	fp->map = calloc(1, fp->size);
	assert_non_null(fp->map);
	cfg.cpu_map = fp->map;
	assert_int_equal(gpurobust_bc_pool_create(&cfg, &fp->pool), 0);
}

void fake_pool_fini(struct fake_pool *fp)
{
	gpurobust_bc_pool_destroy(fp->pool);
	free(fp->map);
}

uint32_t intern(struct gpurobust_bc_pool *pool, const char *name)
{
	uint32_t id;

	assert_int_equal(gpurobust_bc_intern(pool, name, &id), 0);
	return id;
}
