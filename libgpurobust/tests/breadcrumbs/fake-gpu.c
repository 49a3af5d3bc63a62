// SPDX-License-Identifier: MIT
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "driver/core/breadcrumbs/pm4-decode.h"
#include "fake-gpu.h"

static void record_write(void *ctx, uint64_t va, uint32_t value, enum gpurobust_bc_write_mode mode)
{
	struct fake_ib *ib = ctx;
	int n;

	assert_true(ib->ndw + GPUROBUST_BC_MAX_WRITE_DWORDS <= sizeof(ib->dw) / sizeof(ib->dw[0]));
	assert_true(ib->packets < sizeof(ib->packet_start) / sizeof(ib->packet_start[0]));
	n = gpurobust_bc_encode_write(ib->level, ib->queue, mode, va, value, ib->dw + ib->ndw);
	assert_true(n > 0);
	ib->packet_start[ib->packets++] = ib->ndw;
	ib->ndw += (size_t)n;
}

struct gpurobust_bc_emitter fake_ib_emitter(struct fake_ib *ib)
{
	struct gpurobust_bc_emitter e = { .write = record_write, .ctx = ib };

	return e;
}

static bool is_out_write(enum gpurobust_bc_queue queue, unsigned int opcode)
{
	return queue == GPUROBUST_BC_QUEUE_SDMA ? opcode == 5 /* FENCE */ :
						  opcode == 0x49 /* RELEASE_MEM */;
}

void fake_gpu_run(const struct fake_ib *ib, size_t me_packets, size_t eop_packets, void *map,
		  uint64_t gpu_va)
{
	assert_true(eop_packets <= me_packets && me_packets <= ib->packets);
	for (size_t p = 0; p < me_packets; p++) {
		struct bc_decoded_write w;
		int n = bc_decode_write(ib->queue, ib->dw + ib->packet_start[p],
					ib->ndw - ib->packet_start[p], &w);

		assert_true(n > 0);
		if (is_out_write(ib->queue, w.opcode) && p >= eop_packets)
			continue;
		assert_true(w.va >= gpu_va);
		bc_write_le32((uint8_t *)map + (w.va - gpu_va), w.value);
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
