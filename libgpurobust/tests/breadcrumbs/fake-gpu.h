/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_TESTS_BREADCRUMBS_FAKE_GPU_H
#define GPUROBUST_TESTS_BREADCRUMBS_FAKE_GPU_H

/*
 * A command stream recorder and a tiny "GPU" that replays it: the driver's
 * side encodes every breadcrumb write with the real packet encoders, and
 * fake_gpu_run() decodes the IB with the real decoder and applies the writes
 * to marker memory as far as the ME (in writes) and the end of pipe (out
 * writes) have got. No AMD GPU needed, and the whole path from push to
 * report goes through the bytes a GPU would see.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "gpurobust/breadcrumbs-pm4.h"
#include "gpurobust/breadcrumbs.h"

struct fake_ib {
	enum gpurobust_bc_gfx_level level;
	enum gpurobust_bc_queue queue;
	uint32_t dw[1 << 16];
	size_t ndw;
	size_t room;			/* dwords the IB may hold; 0: all of dw */
	size_t packet_start[1 << 14];	/* dword offset of each packet */
	size_t packets;
	/* A write did not fit: like RADV's failed command buffer, the IB
	 * takes nothing more until the next fake_begin(). */
	bool failed;
};

/* The driver's EOP-bug scratch that GFX9 graphics out-writes name. */
#define FAKE_EOP_BUG_VA 0x800000f00000ull

/* The driver's side, as a command buffer does it: fake_stream_create()
 * binds a new stream to the IB its writes go to, and fake_begin(),
 * fake_push() and fake_pop() call the library and emit the writes it asks
 * for, reserving each write's dwords first. A write past ib->room fails
 * with -ENOSPC, which the fake reports through
 * gpurobust_bc_stream_write_failed(). */
int fake_stream_create(struct gpurobust_bc_pool *pool, enum gpurobust_bc_queue queue,
		       const char *label, struct fake_ib *ib,
		       struct gpurobust_bc_stream **stream_out);
void fake_begin(struct gpurobust_bc_stream *s);
void fake_push(struct gpurobust_bc_stream *s, uint32_t name_id);
void fake_pop(struct gpurobust_bc_stream *s);

/* Applies WRITE_DATA / SDMA WRITE of the first me_packets writes and
 * RELEASE_MEM / EVENT_WRITE_EOP / SDMA FENCE of the first eop_packets writes
 * to `map`, whose GPU address is gpu_va; ZPASS_DONE must go to
 * FAKE_EOP_BUG_VA. */
void fake_gpu_run(const struct fake_ib *ib, size_t me_packets, size_t eop_packets,
		  void *map, uint64_t gpu_va);

/* Packet index of the next packet, to remember "the GPU got this far". */
static inline size_t fake_ib_mark(const struct fake_ib *ib)
{
	return ib->packets;
}

/* A pool over host memory whose pretend GPU address is FAKE_GPU_VA. */
#define FAKE_GPU_VA 0x800000100000ull
struct fake_pool {
	struct gpurobust_bc_pool *pool;
	uint8_t *map;
	size_t size;
};
void fake_pool_init(struct fake_pool *fp, size_t size, uint32_t max_scopes);
void fake_pool_fini(struct fake_pool *fp);

uint32_t intern(struct gpurobust_bc_pool *pool, const char *name);

#endif
