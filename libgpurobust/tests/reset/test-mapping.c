// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* Contract rows L9-L13: classification to Vulkan, GL and the lost policy. */
#include <errno.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/amdgpu-uapi.h"
#include "test-helpers.h"

#define Q2_RESET AMDGPU_CTX_QUERY2_FLAGS_RESET
#define Q2_GUILTY AMDGPU_CTX_QUERY2_FLAGS_GUILTY
#define Q2_IN_PROGRESS AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS
#define Q2_PER_CTX AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET

static void test_L9_every_lost_class_is_device_lost(void **state)
{
	const int errs[] = { -ENODATA, -ETIME, -ECANCELED, -ENODEV };

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

		assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_SUCCESS);
		gpurobust_ctx_note_errno(ctx, errs[i]);
		assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_ERROR_DEVICE_LOST);
		assert_int_equal(VK_ERROR_DEVICE_LOST, -4);
		gpurobust_ctx_destroy(ctx);
	}
}

static void test_L9_device_lost_is_sticky(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	for (int i = 0; i < 3; i++) {
		gpurobust_ctx_note_errno(ctx, 0);
		gpurobust_ctx_note_query2(ctx, 0);
		assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_ERROR_DEVICE_LOST);
	}
	gpurobust_ctx_destroy(ctx);
}

static void test_L9_reset_elsewhere_is_not_device_lost(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_IN_PROGRESS);
	gpurobust_ctx_note_query1(ctx, AMDGPU_CTX_UNKNOWN_RESET);
	assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_SUCCESS);
	gpurobust_ctx_destroy(ctx);
}

/* A driver that could not create a context passes NULL: the answers say
 * "nothing known", the calls that need a context fail cleanly. */
static void test_null_context_vouches_for_nothing(void **state)
{
	VkResult res = VK_INCOMPLETE;
	struct gpurobust_reset_status st;

	assert_int_equal(gpurobust_ctx_vk_result(NULL), VK_SUCCESS);
	assert_int_equal(gpurobust_ctx_gl_reset_status(NULL), GL_NO_ERROR);
	assert_int_equal(gpurobust_ctx_vk_wait_result(NULL, -ETIME, &res), -EINVAL);
	assert_int_equal(res, VK_INCOMPLETE);
	assert_int_equal(gpurobust_ctx_note_errno(NULL, -ETIME), -EINVAL);
	assert_int_equal(gpurobust_ctx_note_query2(NULL, Q2_RESET), -EINVAL);
	assert_int_equal(gpurobust_ctx_get_status(NULL, &st), -EINVAL);
	assert_int_equal(gpurobust_ctx_set_lost_handler(NULL, NULL, NULL), -EINVAL);
	gpurobust_ctx_destroy(NULL);
}

static void test_L9_wait_returns_only_success_or_device_lost(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);
	VkResult res = VK_INCOMPLETE;

	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, 0, &res), 0);
	assert_int_equal(res, VK_SUCCESS);
	/* Not about a reset: handed back for the caller to retry. */
	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, -EAGAIN, &res), -EAGAIN);
	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, -ETIME, &res), 0);
	assert_int_equal(res, VK_ERROR_DEVICE_LOST);
	/* Once lost, every wait is answered. */
	res = VK_INCOMPLETE;
	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, -EAGAIN, &res), 0);
	assert_int_equal(res, VK_ERROR_DEVICE_LOST);
	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, 0, &res), 0);
	assert_int_equal(res, VK_ERROR_DEVICE_LOST);
	assert_int_equal(gpurobust_ctx_vk_wait_result(NULL, 0, &res), -EINVAL);
	gpurobust_ctx_destroy(ctx);
}

static void test_L11_gl_status_repeats_until_reset_completes(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	gpurobust_ctx_note_query2(ctx, Q2_PER_CTX | Q2_RESET | Q2_GUILTY | Q2_IN_PROGRESS);
	for (int i = 0; i < 3; i++)
		assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_GUILTY_CONTEXT_RESET);
	assert_int_equal(GL_GUILTY_CONTEXT_RESET, 0x8253);
	gpurobust_ctx_note_query2(ctx, Q2_PER_CTX | Q2_RESET | Q2_GUILTY);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	/* Vulkan stays lost: GL's NO_ERROR only means "recreate now". */
	assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_ERROR_DEVICE_LOST);
	gpurobust_ctx_destroy(ctx);
}

static void test_L11_gl_status_reported_once_when_reset_already_complete(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_INNOCENT_CONTEXT_RESET);
	assert_int_equal(GL_INNOCENT_CONTEXT_RESET, 0x8254);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	gpurobust_ctx_destroy(ctx);

	ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);
	gpurobust_ctx_note_errno(ctx, -ENODEV);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_UNKNOWN_CONTEXT_RESET);
	assert_int_equal(GL_UNKNOWN_CONTEXT_RESET, 0x8255);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	gpurobust_ctx_destroy(ctx);
}

static void test_L11_new_status_is_reported_again(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_UNKNOWN_CONTEXT_RESET);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	/* L4 resolved: the application learns it was guilty after all. */
	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_GUILTY);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_GUILTY_CONTEXT_RESET);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	gpurobust_ctx_destroy(ctx);
}

struct lost_calls {
	int count;
	struct gpurobust_reset_status last;
};

static void count_lost(struct gpurobust_ctx *ctx, const struct gpurobust_reset_status *st,
		       void *user_data)
{
	struct lost_calls *calls = user_data;

	calls->count++;
	calls->last = *st;
}

static void test_L12_no_reset_notification_always_gl_no_error(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, 0);
	struct lost_calls calls = { 0 };

	gpurobust_ctx_set_lost_handler(ctx, count_lost, &calls);
	gpurobust_ctx_note_query2(ctx, Q2_PER_CTX | Q2_RESET | Q2_GUILTY | Q2_IN_PROGRESS);
	gpurobust_ctx_note_errno(ctx, -ETIME);
	for (int i = 0; i < 3; i++)
		assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), GL_NO_ERROR);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
	assert_int_equal(calls.count, 1);
	gpurobust_ctx_destroy(ctx);
}

static void test_L13_handler_runs_once_for_non_robust_context(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, 0);
	struct lost_calls calls = { 0 };

	assert_int_equal(gpurobust_ctx_set_lost_handler(ctx, count_lost, &calls), 0);
	gpurobust_ctx_note_errno(ctx, -ENOMEM);
	gpurobust_ctx_note_query2(ctx, Q2_PER_CTX);
	assert_int_equal(calls.count, 0);
	gpurobust_ctx_note_errno(ctx, -ETIME);
	assert_int_equal(calls.count, 1);
	assert_int_equal(calls.last.reset_class, GPUROBUST_RESET_GUILTY_HARD);
	assert_int_equal(calls.last.first_errno, -ETIME);
	gpurobust_ctx_note_errno(ctx, -ETIME);
	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	assert_int_equal(calls.count, 1);
	assert_int_equal(gpurobust_ctx_set_lost_handler(NULL, count_lost, &calls), -EINVAL);
	gpurobust_ctx_destroy(ctx);
}

static void test_L13_robust_context_never_runs_the_policy(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);
	struct lost_calls calls = { 0 };

	gpurobust_ctx_set_lost_handler(ctx, count_lost, &calls);
	gpurobust_ctx_note_errno(ctx, -ETIME);
	assert_int_equal(calls.count, 0);
	gpurobust_ctx_destroy(ctx);
}

/* The default policy ends the process, so it runs in a child. */
static void test_L13_default_policy_terminates_with_a_message(void **state)
{
	int pipe_fds[2], status;
	char message[1024] = { 0 };
	ssize_t n, got = 0;
	pid_t pid;

	assert_int_equal(pipe(pipe_fds), 0);
	fflush(stdout);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct gpurobust_ctx *ctx = NULL;

		/* Keep a core dump out of the test run. */
		setrlimit(RLIMIT_CORE, &(struct rlimit){ 0, 0 });
		dup2(pipe_fds[1], STDERR_FILENO);
		close(pipe_fds[0]);
		if (gpurobust_ctx_create(PER_CTX, 0, &ctx))
			_exit(10);
		gpurobust_ctx_note_errno(ctx, -ETIME);
		_exit(0);	/* not reached when the policy works */
	}
	close(pipe_fds[1]);
	while ((n = read(pipe_fds[0], message + got, sizeof(message) - 1 - (size_t)got)) > 0)
		got += n;
	close(pipe_fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(message, "not created robust"));
	assert_non_null(strstr(message, "guilty_hard"));
	assert_non_null(strstr(message, "L13"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_L9_every_lost_class_is_device_lost),
		cmocka_unit_test(test_L9_device_lost_is_sticky),
		cmocka_unit_test(test_L9_reset_elsewhere_is_not_device_lost),
		cmocka_unit_test(test_null_context_vouches_for_nothing),
		cmocka_unit_test(test_L9_wait_returns_only_success_or_device_lost),
		cmocka_unit_test(test_L11_gl_status_repeats_until_reset_completes),
		cmocka_unit_test(test_L11_gl_status_reported_once_when_reset_already_complete),
		cmocka_unit_test(test_L11_new_status_is_reported_again),
		cmocka_unit_test(test_L12_no_reset_notification_always_gl_no_error),
		cmocka_unit_test(test_L13_handler_runs_once_for_non_robust_context),
		cmocka_unit_test(test_L13_robust_context_never_runs_the_policy),
		cmocka_unit_test(test_L13_default_policy_terminates_with_a_message),
	};

	return cmocka_run_group_tests_name("reset-mapping", tests, NULL, NULL);
}
