// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Many threads feed and query the same contexts at once, as a driver's
 * submit, wait and GL threads do. Run under ThreadSanitizer by the lib-tsan
 * tier; the assertions check that stickiness and "the L13 policy runs once"
 * hold under contention, not only in sequence.
 */
#include <errno.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <pthread.h>
#include <stdatomic.h>

#include "common/amdgpu-uapi.h"
#include "test-helpers.h"

#define THREADS 64
#define ITERATIONS 400
#define ROUNDS 16

struct shared {
	struct gpurobust_ctx *ctx;
	pthread_barrier_t start;
	atomic_int lost_calls;
	atomic_int violations;
};

static void count_lost(struct gpurobust_ctx *ctx, const struct gpurobust_reset_status *st,
		       void *user_data)
{
	struct shared *s = user_data;

	atomic_fetch_add(&s->lost_calls, 1);
}

struct worker {
	struct shared *shared;
	int index;
};

/* Each worker plays one role; every worker also checks that what it reads
 * never goes back: a lost context stays lost, a class never drops. */
static void *mixed_worker(void *arg)
{
	struct worker *w = arg;
	struct gpurobust_ctx *ctx = w->shared->ctx;
	enum gpurobust_reset_class seen = GPUROBUST_RESET_NONE;
	int seen_lost = 0;

	pthread_barrier_wait(&w->shared->start);
	for (int i = 0; i < ITERATIONS; i++) {
		struct gpurobust_reset_status st;

		switch (w->index % 4) {
		case 0:
			gpurobust_ctx_note_query2(ctx, AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET |
						  (i & 1 ? AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS : 0));
			break;
		case 1:
			gpurobust_ctx_note_errno(ctx, i & 1 ? -ENOMEM : -ECANCELED);
			break;
		case 2:
			if (i == ITERATIONS / 2)
				gpurobust_ctx_note_errno(ctx, -ETIME);
			gpurobust_ctx_gl_reset_status(ctx);
			break;
		default:
			break;
		}
		gpurobust_ctx_get_status(ctx, &st);
		if (st.reset_class < seen)
			atomic_fetch_add(&w->shared->violations, 1);
		seen = st.reset_class;
		if (gpurobust_ctx_vk_result(ctx) == VK_ERROR_DEVICE_LOST)
			seen_lost = 1;
		else if (seen_lost)
			atomic_fetch_add(&w->shared->violations, 1);
	}
	return NULL;
}

static void run_workers(struct shared *s, void *(*fn)(void *))
{
	pthread_t threads[THREADS];
	struct worker workers[THREADS];

	assert_int_equal(pthread_barrier_init(&s->start, NULL, THREADS), 0);
	for (int i = 0; i < THREADS; i++) {
		workers[i] = (struct worker){ .shared = s, .index = i };
		assert_int_equal(pthread_create(&threads[i], NULL, fn, &workers[i]), 0);
	}
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_join(threads[i], NULL), 0);
	pthread_barrier_destroy(&s->start);
}

static void test_L9_sticky_device_lost_under_64_threads(void **state)
{
	struct shared s = { .ctx = new_ctx(PER_CTX, 0) };
	struct gpurobust_reset_status st;

	gpurobust_ctx_set_lost_handler(s.ctx, count_lost, &s);
	run_workers(&s, mixed_worker);

	st = status_of(s.ctx);
	assert_int_equal(atomic_load(&s.violations), 0);
	assert_int_equal(st.reset_class, GPUROBUST_RESET_GUILTY_HARD);
	assert_true(st.first_errno == -ECANCELED || st.first_errno == -ETIME);
	assert_int_equal(gpurobust_ctx_vk_result(s.ctx), VK_ERROR_DEVICE_LOST);
	assert_int_equal(atomic_load(&s.lost_calls), 1);
	gpurobust_ctx_destroy(s.ctx);
}

static void *racing_worker(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&w->shared->start);
	gpurobust_ctx_note_errno(w->shared->ctx, w->index & 1 ? -ETIME : -ENODATA);
	gpurobust_ctx_note_query2(w->shared->ctx, AMDGPU_CTX_QUERY2_FLAGS_RESET |
				  AMDGPU_CTX_QUERY2_FLAGS_GUILTY);
	return NULL;
}

static void test_L13_policy_runs_once_when_64_threads_race(void **state)
{
	for (int round = 0; round < ROUNDS; round++) {
		struct shared s = { .ctx = new_ctx(round & 1 ? PER_CTX : LEGACY, 0) };

		gpurobust_ctx_set_lost_handler(s.ctx, count_lost, &s);
		run_workers(&s, racing_worker);
		assert_int_equal(atomic_load(&s.lost_calls), 1);
		/* Both kinds were named; the harder one wins. */
		assert_int_equal(status_of(s.ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
		gpurobust_ctx_destroy(s.ctx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_L9_sticky_device_lost_under_64_threads),
		cmocka_unit_test(test_L13_policy_runs_once_when_64_threads_race),
	};

	return cmocka_run_group_tests_name("reset-concurrency", tests, NULL, NULL);
}
