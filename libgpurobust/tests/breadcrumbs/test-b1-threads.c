// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * B1 across threads: each thread records its own streams while all of them
 * intern names and create and destroy streams in one pool. Run it under
 * -Db_sanitize=thread to check the locking; the assertions check that no
 * scope went missing or landed in another stream.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "fake-gpu.h"

#define THREADS 4
#define ROUNDS 20
#define SCOPES 500

struct worker {
	struct fake_pool *fp;
	int index;
	struct gpurobust_bc_stream *kept;
};

/* The "GPU" finishes every write at once: store straight into the record.
 * A pop's 0 is no write. */
static void immediate_write(struct fake_pool *fp, uint64_t va, uint32_t value)
{
	if (value)
		bc_write_le32(fp->map + (va - FAKE_GPU_VA), value);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	char name[32];

	for (int round = 0; round < ROUNDS; round++) {
		struct gpurobust_bc_stream *s;
		struct gpurobust_bc_stream_stats st;
		uint64_t in_va, out_va;

		assert_int_equal(gpurobust_bc_stream_create(w->fp->pool, GPUROBUST_BC_QUEUE_COMPUTE,
							    "worker", &s), 0);
		gpurobust_bc_stream_markers(s, &in_va, &out_va);
		gpurobust_bc_stream_begin(s);
		for (int i = 0; i < SCOPES; i++) {
			snprintf(name, sizeof(name), "T%d scope %d", w->index, i % 50);
			immediate_write(w->fp, in_va, gpurobust_bc_push(s, intern(w->fp->pool, name)));
			if (i % 3 == 2) {
				immediate_write(w->fp, out_va, gpurobust_bc_pop(s));
				immediate_write(w->fp, out_va, gpurobust_bc_pop(s));
			}
		}
		gpurobust_bc_stream_stats(s, &st);
		assert_int_equal(st.scopes, SCOPES);
		if (round == ROUNDS - 1)
			w->kept = s;
		else
			gpurobust_bc_stream_destroy(s);
	}
	return NULL;
}

static void B1_threads_share_a_pool(void **state)
{
	struct fake_pool fp;
	struct worker w[THREADS];
	pthread_t t[THREADS];
	struct gpurobust_bc_report *r;

	fake_pool_init(&fp, 4096, 0);
	for (int i = 0; i < THREADS; i++) {
		w[i] = (struct worker){ .fp = &fp, .index = i };
		assert_int_equal(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(t[i], NULL), 0);

	assert_int_equal(gpurobust_bc_pool_read(fp.pool, &r), 0);
	assert_int_equal(r->stream_count, THREADS);
	for (uint32_t s = 0; s < r->stream_count; s++) {
		const char *first = r->streams[s].nodes[0].name;

		assert_true(r->streams[s].valid);
		assert_int_equal(r->streams[s].node_count, SCOPES);
		assert_int_equal(r->streams[s].marker_in, SCOPES);
		/* Every scope of a stream was named by its own thread. */
		for (uint32_t i = 0; i < r->streams[s].node_count; i++)
			assert_memory_equal(r->streams[s].nodes[i].name, first, 3);
	}
	gpurobust_bc_report_free(r);
	fake_pool_fini(&fp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B1_threads_share_a_pool),
	};

	return cmocka_run_group_tests_name("B1 threads", tests, NULL, NULL);
}
