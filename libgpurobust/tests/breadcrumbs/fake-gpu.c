// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "driver/core/breadcrumbs/pm4-decode.h"
#include "fake-gpu.h"

/* Which IB each stream's writes go to, as a command buffer holds its stream. */
static struct {
	const struct gpurobust_bc_stream *s;
	struct fake_ib *ib;
} bound[256];
static pthread_mutex_t bound_lock = PTHREAD_MUTEX_INITIALIZER;

static struct fake_ib *ib_of(const struct gpurobust_bc_stream *s)
{
	struct fake_ib *ib = NULL;

	pthread_mutex_lock(&bound_lock);
	for (size_t i = 0; i < sizeof(bound) / sizeof(bound[0]) && !ib; i++)
		if (bound[i].s == s)
			ib = bound[i].ib;
	pthread_mutex_unlock(&bound_lock);
	assert_non_null(ib);
	return ib;
}

int fake_stream_create(struct gpurobust_bc_pool *pool, enum gpurobust_bc_queue queue,
		       const char *label, struct fake_ib *ib,
		       struct gpurobust_bc_stream **stream_out)
{
	size_t i, free_slot = SIZE_MAX;
	int r = gpurobust_bc_stream_create(pool, queue, label, stream_out);

	if (r)
		return r;
	pthread_mutex_lock(&bound_lock);
	/* A destroyed stream's address may come back: rebind it. */
	for (i = 0; i < sizeof(bound) / sizeof(bound[0]); i++) {
		if (bound[i].s == *stream_out)
			break;
		if (!bound[i].s && free_slot == SIZE_MAX)
			free_slot = i;
	}
	if (i == sizeof(bound) / sizeof(bound[0]))
		i = free_slot;
	assert_true(i < sizeof(bound) / sizeof(bound[0]));
	bound[i].s = *stream_out;
	bound[i].ib = ib;
	pthread_mutex_unlock(&bound_lock);
	return 0;
}

/* Appends one write of value to the stream's "in" or "out" counter. */
static void write_marker(struct gpurobust_bc_stream *s, enum gpurobust_bc_write_mode mode,
			 bool out, uint32_t value)
{
	struct fake_ib *ib = ib_of(s);
	struct gpurobust_bc_target target = { .level = ib->level, .eop_bug_va = FAKE_EOP_BUG_VA };
	int need = gpurobust_bc_write_dwords(&target, ib->queue, mode);
	uint64_t in_va, out_va;
	int n;

	if (ib->failed)
		return;
	/* Reserve, as a driver does, and fail when there is no room. */
	assert_true(need > 0);
	if (ib->ndw + (size_t)need > (ib->room ? ib->room : sizeof(ib->dw) / sizeof(ib->dw[0]))) {
		ib->failed = true;
		gpurobust_bc_stream_write_failed(s, -ENOSPC);
		return;
	}
	assert_true(ib->packets < sizeof(ib->packet_start) / sizeof(ib->packet_start[0]));
	gpurobust_bc_stream_markers(s, &in_va, &out_va);
	n = gpurobust_bc_encode_write(&target, ib->queue, mode,
				      out ? out_va : in_va, value,
				      ib->dw + ib->ndw);
	assert_int_equal(n, need);
	ib->packet_start[ib->packets++] = ib->ndw;
	ib->ndw += (size_t)n;
}

void fake_begin(struct gpurobust_bc_stream *s)
{
	gpurobust_bc_stream_begin(s);
	ib_of(s)->failed = false;
	/* The preamble: both counters back to 0 on every submission. */
	write_marker(s, GPUROBUST_BC_WRITE_RESET, false, 0);
	write_marker(s, GPUROBUST_BC_WRITE_RESET, true, 0);
}

void fake_push(struct gpurobust_bc_stream *s, uint32_t name_id)
{
	write_marker(s, GPUROBUST_BC_WRITE_IN, false, gpurobust_bc_push(s, name_id));
}

void fake_pop(struct gpurobust_bc_stream *s)
{
	uint32_t seq = gpurobust_bc_pop(s);

	if (seq)
		write_marker(s, GPUROBUST_BC_WRITE_OUT, true, seq);
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
