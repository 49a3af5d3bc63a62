// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* B1: two writes per scope, five states, overflow, streams and threads. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "fake-gpu.h"

static struct fake_ib ib;

static const struct gpurobust_bc_node *node(const struct gpurobust_bc_report *r, uint32_t stream,
					    uint32_t index)
{
	assert_true(stream < r->stream_count);
	assert_true(index < r->streams[stream].node_count);
	return &r->streams[stream].nodes[index];
}

static struct gpurobust_bc_stream *new_stream(struct fake_pool *fp, enum gpurobust_bc_queue queue,
					      struct fake_ib *into)
{
	struct gpurobust_bc_stream *s;

	memset(into, 0, sizeof(*into));
	into->level = GPUROBUST_BC_GFX11;
	into->queue = queue;
	assert_int_equal(fake_stream_create(fp->pool, queue, "test", into, &s), 0);
	fake_begin(s);
	return s;
}

/* Frame { Shadow {} GBuffer { Draw {} Draw {} } Post {} } with the GPU stopped
 * inside the second Draw: every state a healthy stream can have. */
static void B1_every_state(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_report *r;
	size_t me, eop;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	fake_push(s, intern(fp.pool, "Frame"));
	fake_push(s, intern(fp.pool, "Shadow"));
	fake_pop(s);
	fake_push(s, intern(fp.pool, "GBuffer"));
	fake_push(s, intern(fp.pool, "Draw"));
	fake_pop(s);
	eop = fake_ib_mark(&ib);		/* first Draw finished */
	fake_push(s, intern(fp.pool, "Draw"));
	me = fake_ib_mark(&ib);			/* second Draw reached */
	fake_pop(s);
	fake_pop(s);
	fake_push(s, intern(fp.pool, "Post"));
	fake_pop(s);
	fake_pop(s);

	/* Before the GPU ran anything: all not started. */
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(node(r, 0, i)->state, GPUROBUST_BC_NOT_STARTED);
	gpurobust_bc_report_free(r);

	fake_gpu_run(&ib, me, eop, fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_true(r->streams[0].valid);
	assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_IN_PROGRESS);	/* Frame */
	assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_FINISHED);	/* Shadow */
	assert_int_equal(node(r, 0, 2)->state, GPUROBUST_BC_IN_PROGRESS);	/* GBuffer */
	assert_int_equal(node(r, 0, 3)->state, GPUROBUST_BC_FINISHED);	/* Draw */
	assert_int_equal(node(r, 0, 4)->state, GPUROBUST_BC_IN_PROGRESS);	/* Draw */
	assert_int_equal(node(r, 0, 5)->state, GPUROBUST_BC_NOT_STARTED);	/* Post */
	assert_string_equal(node(r, 0, 4)->name, "Draw");
	assert_int_equal(node(r, 0, 4)->parent, 2);
	assert_int_equal(node(r, 0, 4)->depth, 2);
	gpurobust_bc_report_free(r);

	/* All done. */
	fake_gpu_run(&ib, ib.packets, ib.packets, fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	for (uint32_t i = 0; i < 6; i++)
		assert_int_equal(node(r, 0, i)->state, GPUROBUST_BC_FINISHED);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* A scope's pop sequence belongs to one recording, and push does not clear
 * it. Recorded again, scope 0 is open where it was popped first before;
 * with the GPU done, it must read in progress, not finished by the last
 * recording's pop. */
static void B1_rerecording_forgets_old_pops(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_report *r;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	fake_push(s, intern(fp.pool, "P"));
	fake_pop(s);
	fake_push(s, intern(fp.pool, "Q"));
	fake_pop(s);
	ib.ndw = ib.packets = 0;
	fake_begin(s);
	fake_push(s, intern(fp.pool, "A"));
	fake_push(s, intern(fp.pool, "B"));
	fake_pop(s);
	fake_gpu_run(&ib, ib.packets, ib.packets, fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_IN_PROGRESS);	/* A */
	assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_FINISHED);	/* B */
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* The in write lands when the ME reaches the scope, even if earlier work is
 * still running: a scope can be in progress while its elder sibling is too. */
static void B1_in_before_out(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_report *r;
	size_t eop;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_COMPUTE, &ib);
	eop = fake_ib_mark(&ib);
	fake_push(s, intern(fp.pool, "A"));
	fake_pop(s);
	fake_push(s, intern(fp.pool, "B"));
	fake_pop(s);
	fake_gpu_run(&ib, ib.packets, eop, fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(r->streams[0].marker_in, 2);
	assert_int_equal(r->streams[0].marker_out, 0);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* Resubmitting a recording starts from "nothing started" again, thanks to
 * the RESET writes of the preamble. */
static void B1_resubmission_resets(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_report *r;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_SDMA, &ib);
	fake_push(s, intern(fp.pool, "Copy"));
	fake_pop(s);
	fake_gpu_run(&ib, ib.packets, ib.packets, fp.map, FAKE_GPU_VA);
	/* Second run: only the preamble executed so far. */
	fake_gpu_run(&ib, 2, 2, fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_NOT_STARTED);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* The workarounds of the older levels keep the states right: GFX8's two
 * EOPs (the first with the value the counter had) and GFX9's ZPASS_DONE
 * ahead of each timestamp go through the same replay. */
static void B1_every_level_replays(void **state)
{
	for (int level = GPUROBUST_BC_GFX8; level <= GPUROBUST_BC_GFX12; level++) {
		struct fake_pool fp;
		struct gpurobust_bc_stream *s;
		struct gpurobust_bc_report *r;
		size_t me, eop;

		fake_pool_init(&fp, 4096, 0);
		s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
		ib.level = (enum gpurobust_bc_gfx_level)level;
		fake_begin(s);
		fake_push(s, intern(fp.pool, "Frame"));
		fake_push(s, intern(fp.pool, "Draw"));
		fake_pop(s);
		eop = fake_ib_mark(&ib);
		fake_push(s, intern(fp.pool, "Draw"));
		me = fake_ib_mark(&ib);
		fake_pop(s);
		fake_pop(s);
		fake_gpu_run(&ib, me, eop, fp.map, FAKE_GPU_VA);
		assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
		assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_IN_PROGRESS);
		assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_FINISHED);
		assert_int_equal(node(r, 0, 2)->state, GPUROBUST_BC_IN_PROGRESS);
		gpurobust_bc_report_free(r);
		fake_pool_fini(&fp);
	}
}

/* A driver whose command stream ran out of room tells the stream, which
 * keeps the first error, says why, and makes its report invalid rather than
 * wrong. The next recording starts clean. */
static void B1_failed_write_invalidates_the_stream(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_stream_stats stats;
	struct gpurobust_bc_report *r;
	size_t full;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	fake_push(s, intern(fp.pool, "Frame"));
	ib.room = ib.ndw + 3;		/* not even one more WRITE_DATA */
	full = ib.ndw;
	fake_push(s, intern(fp.pool, "Draw"));
	fake_pop(s);
	fake_pop(s);
	assert_int_equal(ib.ndw, full);
	gpurobust_bc_stream_stats(s, &stats);
	assert_int_equal(stats.write_error, -ENOSPC);
	gpurobust_bc_stream_write_failed(s, -ENOMEM);	/* a later failure */
	gpurobust_bc_stream_stats(s, &stats);
	assert_int_equal(stats.write_error, -ENOSPC);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_false(r->streams[0].valid);
	assert_string_equal(r->streams[0].invalid_reason,
			    "the driver could not emit a breadcrumb write");
	gpurobust_bc_report_free(r);

	ib.room = 0;
	fake_begin(s);
	gpurobust_bc_stream_stats(s, &stats);
	assert_int_equal(stats.write_error, 0);
	fake_push(s, intern(fp.pool, "Frame"));
	assert_true(ib.ndw > full);
	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_true(r->streams[0].valid);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* Beyond max_scopes_per_stream pushes are dropped, counted and reported as
 * one overflow node where the first drop happened, and the scopes recorded
 * before keep their states. The GPU still counts the dropped scopes: each
 * keeps its two writes, numbered as if it had been recorded. */
static void B1_overflow_reported(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_stream_stats st;
	struct gpurobust_bc_report *r;
	uint32_t name;
	size_t before;

	fake_pool_init(&fp, 4096, 3);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	name = intern(fp.pool, "Level");
	for (int i = 0; i < 5; i++)
		fake_push(s, name);
	gpurobust_bc_stream_stats(s, &st);
	assert_int_equal(st.scopes, 3);
	assert_int_equal(st.dropped, 2);
	assert_int_equal(st.depth, 5);
	assert_int_equal(ib.packets, 2 + 5);	/* preamble, five "in" writes */
	before = ib.packets;
	fake_pop(s);
	fake_pop(s);
	assert_int_equal(ib.packets, before + 2);	/* the dropped scopes' "out" */
	fake_pop(s);				/* the third, real, scope */
	assert_int_equal(ib.packets, before + 3);
	fake_gpu_run(&ib, ib.packets, ib.packets, fp.map, FAKE_GPU_VA);

	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_true(r->streams[0].valid);
	assert_int_equal(r->streams[0].marker_in, 5);
	assert_int_equal(r->streams[0].marker_out, 3);
	assert_int_equal(r->streams[0].dropped, 2);
	assert_int_equal(r->streams[0].node_count, 4);
	assert_int_equal(node(r, 0, 3)->state, GPUROBUST_BC_OVERFLOW);
	assert_int_equal(node(r, 0, 3)->parent, 2);
	assert_non_null(strstr(node(r, 0, 3)->name, "2 scopes dropped"));
	assert_int_equal(node(r, 0, 2)->state, GPUROBUST_BC_FINISHED);
	assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_IN_PROGRESS);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* A hang past the cut: the counters say the GPU started two dropped scopes
 * and finished one, and the recorded scopes still decode. */
static void B1_overflow_counters_pass_the_cut(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_report *r;
	uint32_t frame, draw;

	fake_pool_init(&fp, 4096, 2);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	frame = intern(fp.pool, "Frame");
	draw = intern(fp.pool, "Draw");
	fake_push(s, frame);
	fake_push(s, draw);
	fake_pop(s);		/* out 1 */
	fake_push(s, draw);	/* dropped, in 3 */
	fake_pop(s);		/* out 2 */
	fake_push(s, draw);	/* dropped, in 4: the hang */
	/* preamble 2, then in, in, out, in, out, in: the ME reached the last
	 * "in", end of pipe the last "out". */
	fake_gpu_run(&ib, ib.packets, ib.packets - 1, fp.map, FAKE_GPU_VA);

	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_true(r->streams[0].valid);
	assert_int_equal(r->streams[0].marker_in, 4);
	assert_int_equal(r->streams[0].marker_out, 2);
	assert_int_equal(r->streams[0].dropped, 2);
	assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_FINISHED);
	assert_int_equal(node(r, 0, 2)->state, GPUROBUST_BC_OVERFLOW);
	assert_int_equal(node(r, 0, 2)->parent, 0);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* A pop without a push is counted and changes nothing. */
static void B1_unbalanced_pop(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_stream_stats st;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	fake_pop(s);
	gpurobust_bc_stream_stats(s, &st);
	assert_int_equal(st.unbalanced_pops, 1);
	assert_int_equal(st.scopes, 0);
	fake_pool_fini(&fp);
}

/* Each stream owns one record; the streams of a pool nest independently and
 * each decodes against its own counters. */
static void B1_nesting_across_streams(void **state)
{
	static struct fake_ib gfx, compute;
	struct fake_pool fp;
	struct gpurobust_bc_stream *a, *b;
	struct gpurobust_bc_report *r;
	size_t gfx_me;

	fake_pool_init(&fp, 4096, 0);
	a = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &gfx);
	b = new_stream(&fp, GPUROBUST_BC_QUEUE_COMPUTE, &compute);
	fake_push(a, intern(fp.pool, "Frame"));
	fake_push(b, intern(fp.pool, "Async"));
	fake_push(a, intern(fp.pool, "GBuffer"));
	gfx_me = fake_ib_mark(&gfx);
	fake_push(b, intern(fp.pool, "Cull"));
	fake_pop(a);
	fake_pop(b);
	fake_pop(b);
	fake_pop(a);
	fake_gpu_run(&gfx, gfx_me, 2, fp.map, FAKE_GPU_VA);
	fake_gpu_run(&compute, compute.packets, compute.packets, fp.map, FAKE_GPU_VA);

	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_int_equal(r->stream_count, 2);
	assert_int_equal(r->streams[0].queue, GPUROBUST_BC_QUEUE_GFX);
	assert_string_equal(node(r, 0, 1)->name, "GBuffer");
	assert_int_equal(node(r, 0, 1)->parent, 0);
	assert_int_equal(node(r, 0, 0)->state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(node(r, 0, 1)->state, GPUROBUST_BC_IN_PROGRESS);
	assert_string_equal(node(r, 1, 1)->name, "Cull");
	assert_int_equal(node(r, 1, 1)->parent, 0);
	assert_int_equal(node(r, 1, 0)->state, GPUROBUST_BC_FINISHED);
	assert_int_equal(node(r, 1, 1)->state, GPUROBUST_BC_FINISHED);
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

/* One 16-byte record per stream: a pool of header + 2 records takes two
 * streams, the third gets -ENOSPC, and destroying one frees its record. */
static void B1_pool_exhaustion(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s[3];
	struct fake_ib *ibs = calloc(3, sizeof(*ibs));

	assert_non_null(ibs);
	fake_pool_init(&fp, 16 + 2 * 16, 0);
	s[0] = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ibs[0]);
	s[1] = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ibs[1]);
	ibs[2].level = GPUROBUST_BC_GFX11;
	assert_int_equal(fake_stream_create(fp.pool, GPUROBUST_BC_QUEUE_GFX, NULL, &ibs[2], &s[2]),
			 -ENOSPC);
	assert_null(s[2]);
	gpurobust_bc_stream_destroy(s[0]);
	assert_int_equal(fake_stream_create(fp.pool, GPUROBUST_BC_QUEUE_GFX, NULL, &ibs[2], &s[2]),
			 0);
	fake_pool_fini(&fp);
	free(ibs);
}

static void B1_bad_arguments(void **state)
{
	struct gpurobust_bc_pool_config tiny = { .size = 8 };
	struct gpurobust_bc_pool_config unaligned = { .gpu_va = 2 };
	struct gpurobust_bc_pool *pool = (void *)1;
	struct gpurobust_bc_stream *s;
	uint32_t id;

	assert_int_equal(gpurobust_bc_pool_create(&tiny, &pool), -EINVAL);
	assert_null(pool);
	assert_int_equal(gpurobust_bc_pool_create(&unaligned, &pool), -EINVAL);
	assert_int_equal(gpurobust_bc_pool_create(NULL, &pool), 0);
	assert_int_equal(gpurobust_bc_intern(pool, NULL, &id), -EINVAL);
	assert_int_equal(gpurobust_bc_stream_create(pool, GPUROBUST_BC_QUEUE_SDMA + 1, NULL, &s),
			 -EINVAL);
	assert_int_equal(gpurobust_bc_stream_create(pool, GPUROBUST_BC_QUEUE_GFX, NULL, NULL), -EINVAL);
	gpurobust_bc_pool_destroy(pool);
}

/* Interning returns one id per distinct string, across table growth. */
static void B1_interning(void **state)
{
	struct gpurobust_bc_pool *pool;
	char name[32];
	uint32_t first;

	assert_int_equal(gpurobust_bc_pool_create(NULL, &pool), 0);
	first = intern(pool, "Frame");
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof(name), "Pass %d", i);
		assert_int_equal(intern(pool, name), (uint32_t)i + 1);
	}
	assert_int_equal(intern(pool, "Frame"), first);
	assert_int_equal(intern(pool, "Pass 517"), 518);
	gpurobust_bc_pool_destroy(pool);
}

/* Recording again reuses the scope array: the second recording of the same
 * shape allocates nothing (capacity unchanged, same array). */
static void B1_steady_state_reuses_memory(void **state)
{
	struct fake_pool fp;
	struct gpurobust_bc_stream *s;
	struct gpurobust_bc_stream_stats st;
	uint32_t name;

	fake_pool_init(&fp, 4096, 0);
	s = new_stream(&fp, GPUROBUST_BC_QUEUE_GFX, &ib);
	struct bc_link *links = NULL;
	uint32_t *pop_seqs = NULL;
	uint32_t capacity = 0;

	name = intern(fp.pool, "Draw");
	for (int round = 0; round < 2; round++) {
		ib.ndw = ib.packets = 0;
		fake_begin(s);
		for (int i = 0; i < 1000; i++) {
			fake_push(s, name);
			fake_pop(s);
		}
		gpurobust_bc_stream_stats(s, &st);
		assert_int_equal(st.scopes, 1000);
		assert_int_equal(st.depth, 0);
		if (round) {
			assert_ptr_equal(s->links, links);
			assert_ptr_equal(s->pop_seqs, pop_seqs);
			assert_int_equal(s->capacity, capacity);
		}
		links = s->links;
		pop_seqs = s->pop_seqs;
		capacity = s->capacity;
	}
	fake_pool_fini(&fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B1_every_state),
		cmocka_unit_test(B1_every_level_replays),
		cmocka_unit_test(B1_failed_write_invalidates_the_stream),
		cmocka_unit_test(B1_rerecording_forgets_old_pops),
		cmocka_unit_test(B1_in_before_out),
		cmocka_unit_test(B1_resubmission_resets),
		cmocka_unit_test(B1_overflow_reported),
		cmocka_unit_test(B1_overflow_counters_pass_the_cut),
		cmocka_unit_test(B1_unbalanced_pop),
		cmocka_unit_test(B1_nesting_across_streams),
		cmocka_unit_test(B1_pool_exhaustion),
		cmocka_unit_test(B1_bad_arguments),
		cmocka_unit_test(B1_interning),
		cmocka_unit_test(B1_steady_state_reuses_memory),
	};

	return cmocka_run_group_tests_name("B1 scopes", tests, NULL, NULL);
}
