// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * L10: the fence error probe. The summary of SYNC_IOC_FILE_INFO records is
 * pure and tested here with records built by hand; the ioctl path is tested
 * for its error handling here and on real sync_files by probe-syncfile.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "driver/core/reset/fences.h"
#include "gpurobust/amdgpu.h"
#include "gpurobust/reset-vulkan.h"
#include "gpurobust/syncfile.h"
#include "test-helpers.h"

static struct gpurobust_fence_probe summarize(const int *statuses, size_t count)
{
	struct sync_fence_info fences[8];
	struct gpurobust_fence_probe probe;

	assert_true(count <= 8);
	memset(fences, 0, sizeof(fences));
	for (size_t i = 0; i < count; i++)
		fences[i].status = statuses[i];
	grb_sync_fences_summarize(fences, count, &probe);
	return probe;
}

static void test_L10_all_signalled_fences_carry_no_error(void **state)
{
	const int statuses[] = { 1, 1, 1 };
	struct gpurobust_fence_probe p = summarize(statuses, 3);

	assert_int_equal(p.error, 0);
	assert_int_equal(p.fence_count, 3);
	assert_int_equal(p.active_count, 0);
}

static void test_L10_fence_error_is_found_among_signalled_fences(void **state)
{
	const int statuses[] = { 1, -ECANCELED, 1, 0 };
	struct gpurobust_fence_probe p = summarize(statuses, 4);

	assert_int_equal(p.error, -ECANCELED);
	assert_int_equal(p.fence_count, 4);
	assert_int_equal(p.active_count, 1);
}

static void test_L10_guilty_fence_error_wins_over_innocent(void **state)
{
	const int innocent_first[] = { -ECANCELED, -ETIME, -ENOMEM };
	const int soft[] = { -ENOMEM, -ENODATA, -ECANCELED };
	const int other_only[] = { 1, -ENOMEM };

	assert_int_equal(summarize(innocent_first, 3).error, -ETIME);
	assert_int_equal(summarize(soft, 3).error, -ENODATA);
	assert_int_equal(summarize(other_only, 2).error, -ENOMEM);
	assert_int_equal(summarize(NULL, 0).error, 0);
}

/* The whole L10 path: a syncobj wait said success, the probe did not. */
static void test_L10_probed_fence_error_makes_the_wait_device_lost(void **state)
{
	const int statuses[] = { 1, -ENODATA };
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);
	VkResult res = VK_SUCCESS;

	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, summarize(statuses, 2).error, &res), 0);
	assert_int_equal(res, VK_ERROR_DEVICE_LOST);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_SOFT);
	gpurobust_ctx_destroy(ctx);
}

static void test_L10_syncfile_probe_rejects_what_is_not_a_sync_file(void **state)
{
	struct gpurobust_fence_probe p;
	int fds[2];

	assert_int_equal(gpurobust_syncfile_probe(-1, &p), -EINVAL);
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(gpurobust_syncfile_probe(fds[0], NULL), -EINVAL);
	assert_int_equal(gpurobust_syncfile_probe(fds[0], &p), -ENOTTY);
	close(fds[0]);
	close(fds[1]);
	assert_int_equal(gpurobust_syncfile_probe(fds[0], &p), -EBADF);
}

static void test_L10_syncobj_probe_reports_the_failing_export(void **state)
{
	struct gpurobust_fence_probe p;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	assert_true(fd >= 0);
	assert_int_equal(gpurobust_syncobj_probe(-1, 1, &p), -EINVAL);
	assert_int_equal(gpurobust_syncobj_probe(fd, 1, &p), -ENOTTY);
	close(fd);
}

/* Without an amdgpu device the backend still fails cleanly. */
static void test_backend_open_names_the_errno(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	int fd = open("/dev/null", O_RDWR | O_CLOEXEC);

	assert_int_equal(gpurobust_amdgpu_open("/nonexistent/renderD128", &dev), -ENOENT);
	assert_int_equal(gpurobust_amdgpu_open("/dev/null", &dev), -ENOTTY);
	assert_int_equal(gpurobust_amdgpu_open(NULL, &dev), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_open_fd(-1, &dev), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_open_fd(fd, &dev), -ENOTTY);
	assert_null(dev);
	/* The caller's descriptor stays open. */
	assert_int_equal(fcntl(fd, F_GETFD), FD_CLOEXEC);
	close(fd);
	gpurobust_amdgpu_close(NULL);
	assert_int_equal(gpurobust_amdgpu_semantics(NULL), GPUROBUST_SEMANTICS_LEGACY);
	assert_null(gpurobust_amdgpu_handle(NULL));
}

static void test_backend_rejects_null_handles(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);
	struct amdgpu_cs_fence fence = { 0 };
	struct gpurobust_amdgpu_info info;
	int signaled = 1;

	assert_int_equal(gpurobust_amdgpu_query_ctx(NULL, ctx, NULL), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_wait_fences(NULL, 1, 1, 0, &signaled), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_wait_fences(&fence, 0, 1, 0, &signaled), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_get_info(NULL, &info), -EINVAL);
	gpurobust_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_L10_all_signalled_fences_carry_no_error),
		cmocka_unit_test(test_L10_fence_error_is_found_among_signalled_fences),
		cmocka_unit_test(test_L10_guilty_fence_error_wins_over_innocent),
		cmocka_unit_test(test_L10_probed_fence_error_makes_the_wait_device_lost),
		cmocka_unit_test(test_L10_syncfile_probe_rejects_what_is_not_a_sync_file),
		cmocka_unit_test(test_L10_syncobj_probe_reports_the_failing_export),
		cmocka_unit_test(test_backend_open_names_the_errno),
		cmocka_unit_test(test_backend_rejects_null_handles),
	};

	return cmocka_run_group_tests_name("reset-fences", tests, NULL, NULL);
}
