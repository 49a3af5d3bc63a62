// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The amdgpu backend through the real libdrm and libdrm_amdgpu (Debian's
 * 2.4.114) against the fake amdgpu kernel of tests/fake-kernel, loaded with
 * LD_PRELOAD: every call below reaches the ioctls the kernel would see, with
 * their uAPI sizes checked. Each test acts as a driver does: it initializes
 * libdrm on the node and creates and submits on its own contexts, then hands
 * them to the backend. What is checked is the backend's side: which ioctls
 * it makes and how many (none on the submit path, one QUERY_STATE2 per
 * context), how it reads the answers (semantics, L6/L7; fence errors, L1-L3,
 * L9, L10) and which call an error names.
 */
#include <amdgpu_drm.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "driver/backend/amdgpu/device.h"
#include "fake-amdgpu.h"
#include "gpurobust/amdgpu.h"
#include "gpurobust/syncfile.h"
#include "test-helpers.h"

/* The driver's side of a test: its file, its libdrm device, one context. */
struct driver {
	int fd;
	uint32_t drm_major, drm_minor;
	amdgpu_device_handle dev;
	amdgpu_context_handle ctx;
	uint32_t ctx_id;
};

static int driver_setup(void **state)
{
	struct driver *d = calloc(1, sizeof(*d));

	fake_amdgpu_reset();
	d->fd = open(fake_amdgpu_node(), O_RDWR | O_CLOEXEC);
	assert_true(d->fd >= 0);
	assert_int_equal(amdgpu_device_initialize(d->fd, &d->drm_major, &d->drm_minor, &d->dev), 0);
	assert_int_equal(amdgpu_cs_ctx_create(d->dev, &d->ctx), 0);
	d->ctx_id = fake_amdgpu_last_ctx();
	*state = d;
	return 0;
}

static int driver_teardown(void **state)
{
	struct driver *d = *state;

	assert_int_equal(amdgpu_cs_ctx_free(d->ctx), 0);
	assert_int_equal(amdgpu_device_deinitialize(d->dev), 0);
	close(d->fd);
	free(d);
	/* Every request had the uAPI's number and size. */
	assert_null(fake_amdgpu_violation());
	return 0;
}

/* Tools open the node themselves: nothing of a driver's exists. */
static int kernel_setup(void **state)
{
	fake_amdgpu_reset();
	return 0;
}

static int kernel_teardown(void **state)
{
	assert_null(fake_amdgpu_violation());
	return 0;
}

/* The lowest free descriptor: it moves when anything opens or dups a file. */
static int lowest_free_fd(void)
{
	int fd = dup(0);

	close(fd);
	return fd;
}

/* One submission with one IB, as a driver makes it. */
static int submit(struct driver *d, uint64_t *seq_no)
{
	struct drm_amdgpu_cs_chunk_ib ib = {
		.va_start = 0x400000, .ib_bytes = 64, .ip_type = AMDGPU_HW_IP_GFX,
	};
	struct drm_amdgpu_cs_chunk chunk = {
		.chunk_id = AMDGPU_CHUNK_ID_IB,
		.length_dw = sizeof(ib) / 4,
		.chunk_data = (uint64_t)(uintptr_t)&ib,
	};

	return amdgpu_cs_submit_raw2(d->dev, d->ctx, 0, 1, &chunk, seq_no);
}

static struct amdgpu_cs_fence fence_of(struct driver *d, uint64_t seq_no)
{
	struct amdgpu_cs_fence f = {
		.context = d->ctx, .ip_type = AMDGPU_HW_IP_GFX, .fence = seq_no,
	};

	return f;
}

static void test_fake_kernel_answers_libdrm_device_setup(void **state)
{
	struct driver *d = *state;

	/* amdgpu_device_initialize(): GET_CLIENT (no render node), VERSION
	 * twice (drmGetVersion), ACCEL_WORKING, DEV_INFO, GB_ADDR_CONFIG. */
	assert_int_equal(d->drm_major, 3);
	assert_int_equal(d->drm_minor, 59);
	assert_int_equal(fake_amdgpu_calls(FAKE_GET_CLIENT), 1);
	assert_int_equal(fake_amdgpu_calls(FAKE_VERSION), 2);
	assert_int_equal(fake_amdgpu_calls(FAKE_INFO), 3);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_ALLOC), 1);
	assert_true(d->ctx_id != 0);
}

/* A request whose number says another size is refused and reported: the
 * check every test's teardown relies on. */
static void test_fake_kernel_checks_request_sizes(void **state)
{
	struct driver *d = *state;
	char small[8] = { 0 };

	assert_int_equal(ioctl(d->fd, DRM_IOWR(DRM_COMMAND_BASE + DRM_AMDGPU_CTX, small), small), -1);
	assert_int_equal(errno, ENOTTY);
	assert_non_null(fake_amdgpu_violation());
	assert_non_null(strstr(fake_amdgpu_violation(), "nr 0x42, size 8"));
	fake_amdgpu_clear_violation();
}

static void test_wrap_makes_no_system_call(void **state)
{
	struct driver *d = *state;
	struct gpurobust_amdgpu_device *dev = NULL;
	struct gpurobust_amdgpu_info info;
	unsigned int before = fake_amdgpu_calls_total();
	int free_fd = lowest_free_fd();

	assert_int_equal(gpurobust_amdgpu_wrap(d->dev, d->drm_major, d->drm_minor, &dev), 0);
	assert_ptr_equal(gpurobust_amdgpu_handle(dev), d->dev);
	assert_int_equal(gpurobust_amdgpu_get_info(dev, &info), 0);
	assert_int_equal(info.version_minor, 59);
	assert_false(info.semantics_probed);
	gpurobust_amdgpu_close(dev);
	assert_int_equal(fake_amdgpu_calls_total(), before);
	assert_int_equal(lowest_free_fd(), free_fd);
	/* The driver's device is still its own. */
	assert_int_equal(amdgpu_cs_query_reset_state2(d->ctx, &(uint64_t){ 0 }), 0);
}

/* open_fd() neither dups the file nor sets libdrm up again nor creates a
 * context: libdrm hands back the driver's device. */
static void test_open_fd_borrows_the_driver_file_and_device(void **state)
{
	struct driver *d = *state;
	struct gpurobust_amdgpu_device *dev = NULL;
	unsigned int info_calls = fake_amdgpu_calls(FAKE_INFO);
	int free_fd = lowest_free_fd();

	assert_int_equal(gpurobust_amdgpu_open_fd(d->fd, &dev), 0);
	assert_ptr_equal(gpurobust_amdgpu_handle(dev), d->dev);
	assert_int_equal(lowest_free_fd(), free_fd);
	assert_int_equal(fake_amdgpu_calls(FAKE_INFO), info_calls);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_ALLOC), 1);
	gpurobust_amdgpu_close(dev);
	/* The driver's file and device outlive the wrapper. */
	assert_int_equal(fcntl(d->fd, F_GETFD), FD_CLOEXEC);
	assert_int_equal(amdgpu_cs_query_reset_state2(d->ctx, &(uint64_t){ 0 }), 0);
}

/* L6/L7: the context's one QUERY_STATE2 decides its semantics. */
static void test_ctx_create_reads_one_query_state2(void **state)
{
	struct driver *d = *state;
	struct gpurobust_ctx *legacy = NULL, *per_ctx = NULL;
	unsigned int before = fake_amdgpu_calls_total();

	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, GPUROBUST_CTX_ROBUST, &legacy), 0);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_QUERY_STATE2), 1);
	assert_int_equal(fake_amdgpu_calls_total(), before + 1);
	fake_amdgpu_set_per_ctx(true);
	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, GPUROBUST_CTX_ROBUST, &per_ctx), 0);
	assert_int_equal(fake_amdgpu_calls_total(), before + 2);

	/* The same -ECANCELED: ambiguous upstream (L4), innocent with the
	 * series (L3). */
	gpurobust_ctx_note_errno(legacy, -ECANCELED);
	gpurobust_ctx_note_errno(per_ctx, -ECANCELED);
	assert_int_equal(status_of(legacy).reset_class, GPUROBUST_RESET_UNKNOWN);
	assert_int_equal(status_of(per_ctx).reset_class, GPUROBUST_RESET_INNOCENT);
	gpurobust_ctx_destroy(legacy);
	gpurobust_ctx_destroy(per_ctx);

	fake_amdgpu_fail_next(FAKE_CTX_QUERY_STATE2, -ENODEV);
	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, GPUROBUST_CTX_ROBUST, &legacy),
			 -ENODEV);
	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, 0x80, &legacy), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_ctx_create(NULL, 0, &legacy), -EINVAL);
}

/* The submit path: the CS ioctl is the driver's, the classification is
 * pure. L3 on a series kernel, then the context stays lost. */
static void test_submit_path_adds_no_ioctl(void **state)
{
	struct driver *d = *state;
	struct gpurobust_ctx *ctx = NULL;
	unsigned int before;
	uint64_t seq_no = 0;

	fake_amdgpu_set_per_ctx(true);
	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, GPUROBUST_CTX_ROBUST, &ctx), 0);
	before = fake_amdgpu_calls_total();
	for (int i = 0; i < 3; i++) {
		assert_int_equal(submit(d, &seq_no), 0);
		assert_int_equal(gpurobust_ctx_note_errno(ctx, 0), 0);
		assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_SUCCESS);
	}
	assert_int_equal(seq_no, 3);
	fake_amdgpu_ctx_cs_error(d->ctx_id, -ECANCELED);
	assert_int_equal(submit(d, &seq_no), -ECANCELED);
	assert_int_equal(gpurobust_ctx_note_errno(ctx, -ECANCELED), 0);
	assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_ERROR_DEVICE_LOST);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_INNOCENT);
	assert_int_equal(fake_amdgpu_calls(FAKE_CS), 4);
	assert_int_equal(fake_amdgpu_calls_total(), before + 4);
	gpurobust_ctx_destroy(ctx);
}

/* L1, L9: DRM_AMDGPU_WAIT_CS returns a signalled fence's error. */
static void test_L1_wait_cs_returns_the_fence_error(void **state)
{
	struct driver *d = *state;
	struct gpurobust_ctx *ctx = NULL;
	struct amdgpu_cs_fence fence;
	VkResult res = VK_INCOMPLETE;
	uint64_t seq_no = 0;
	int signaled = 0;

	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, GPUROBUST_CTX_ROBUST, &ctx), 0);
	assert_int_equal(submit(d, &seq_no), 0);
	fence = fence_of(d, seq_no);
	fake_amdgpu_fence(d->ctx_id, seq_no, -ENODATA);
	assert_int_equal(gpurobust_amdgpu_wait_fences(&fence, 1, 1, 1000000, &signaled), -ENODATA);
	assert_int_equal(fake_amdgpu_calls(FAKE_WAIT_CS), 1);
	assert_int_equal(fake_amdgpu_calls(FAKE_WAIT_FENCES), 0);
	assert_int_equal(gpurobust_ctx_vk_wait_result(ctx, -ENODATA, &res), 0);
	assert_int_equal(res, VK_ERROR_DEVICE_LOST);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_SOFT);
	gpurobust_ctx_destroy(ctx);
}

/* L9: a timeout is no error; more fences go through WAIT_FENCES, whose
 * wait-any answers with the first signalled fence's error. */
static void test_L9_wait_timeout_is_not_an_error(void **state)
{
	struct driver *d = *state;
	struct amdgpu_cs_fence fences[2];
	uint64_t first = 0, second = 0;
	int signaled = 1;

	assert_int_equal(submit(d, &first), 0);
	assert_int_equal(submit(d, &second), 0);
	fences[0] = fence_of(d, first);
	fences[1] = fence_of(d, second);

	fake_amdgpu_fence(d->ctx_id, second, FAKE_FENCE_BUSY);
	assert_int_equal(gpurobust_amdgpu_wait_fences(&fences[1], 1, 1, 1000, &signaled), 0);
	assert_false(signaled);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 2, 1, 1000, &signaled), 0);
	assert_false(signaled);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 2, 0, 1000, &signaled), 0);
	assert_true(signaled);
	assert_int_equal(fake_amdgpu_calls(FAKE_WAIT_FENCES), 2);

	fake_amdgpu_fence(d->ctx_id, first, -ECANCELED);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 2, 0, 1000, &signaled), -ECANCELED);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 2, 1, 1000, &signaled), -ECANCELED);
}

/* L7: one QUERY_STATE2 per call, none of v1; RESET alone upstream is
 * someone else's reset. */
static void test_L7_query_ctx_on_legacy_kernel_is_reset_elsewhere(void **state)
{
	struct driver *d = *state;
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);
	uint64_t q2 = 0;

	fake_amdgpu_ctx_state(d->ctx_id, AMDGPU_CTX_QUERY2_FLAGS_RESET, AMDGPU_CTX_UNKNOWN_RESET);
	assert_int_equal(gpurobust_amdgpu_query_ctx(d->ctx, ctx, &q2), 0);
	assert_int_equal(q2, AMDGPU_CTX_QUERY2_FLAGS_RESET);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_QUERY_STATE2), 1);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_QUERY_STATE), 0);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_NONE);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_ELSEWHERE);
	gpurobust_ctx_destroy(ctx);
}

static void test_L6_query_ctx_on_series_kernel_makes_guilty(void **state)
{
	struct driver *d = *state;
	struct gpurobust_ctx *ctx = NULL;

	fake_amdgpu_set_per_ctx(true);
	assert_int_equal(gpurobust_amdgpu_ctx_create(d->ctx, GPUROBUST_CTX_ROBUST, &ctx), 0);
	fake_amdgpu_ctx_state(d->ctx_id, AMDGPU_CTX_QUERY2_FLAGS_RESET |
			      AMDGPU_CTX_QUERY2_FLAGS_GUILTY, AMDGPU_CTX_GUILTY_RESET);
	assert_int_equal(gpurobust_amdgpu_query_ctx(d->ctx, ctx, NULL), 0);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);

	/* A failing query leaves the context alone and says so. */
	fake_amdgpu_fail_next(FAKE_CTX_QUERY_STATE2, -ENODEV);
	assert_int_equal(gpurobust_amdgpu_query_ctx(d->ctx, ctx, NULL), -ENODEV);
	assert_int_equal(gpurobust_amdgpu_query_ctx(NULL, ctx, NULL), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_query_ctx(d->ctx, NULL, NULL), -EINVAL);
	gpurobust_ctx_destroy(ctx);
}

/* L10: a syncobj's fences, exported to a sync_file and read with
 * SYNC_IOC_FILE_INFO (count first, then the records). */
static void test_L10_syncobj_probe_reads_the_exported_fences(void **state)
{
	struct driver *d = *state;
	const int statuses[] = { 1, -ETIME, 0 };
	struct gpurobust_fence_probe probe;

	fake_amdgpu_syncobj(7, -EINVAL, NULL, 0);
	assert_int_equal(gpurobust_syncobj_probe(d->fd, 7, &probe), -EINVAL);
	assert_int_equal(gpurobust_syncobj_probe(d->fd, 9, &probe), -ENOENT);

	fake_amdgpu_syncobj(8, 0, statuses, 3);
	assert_int_equal(gpurobust_syncobj_probe(d->fd, 8, &probe), 0);
	assert_int_equal(probe.error, -ETIME);
	assert_int_equal(probe.fence_count, 3);
	assert_int_equal(probe.active_count, 1);
	assert_int_equal(fake_amdgpu_calls(FAKE_SYNC_FILE_INFO), 2);
}

/* AMDGPU_INFO_GPUVM_FAULT, and its absence before KMS 3.55 (Linux 6.10),
 * where the helper does not ask, since the kernel's -EINVAL would read as a
 * bad call. */
static void test_gpuvm_fault_query(void **state)
{
	struct driver *d = *state;
	struct gpurobust_amdgpu_device *dev = NULL;
	struct gpurobust_gpuvm_fault f;
	unsigned int info_calls;

	assert_int_equal(gpurobust_amdgpu_wrap(d->dev, 3, 59, &dev), 0);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), -ENODATA);
	fake_amdgpu_gpuvm_fault(0x800012340000ull, 0x00040a40u, 0);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), 0);
	assert_int_equal(f.addr, 0x800012340000ull);
	assert_int_equal(f.status, 0x00040a40u);
	assert_int_equal(f.vmhub, 0);
	fake_amdgpu_fail_next(FAKE_INFO, -EACCES);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), -EACCES);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(NULL, &f), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, NULL), -EINVAL);
	gpurobust_amdgpu_close(dev);

	assert_int_equal(gpurobust_amdgpu_wrap(d->dev, 3, 54, &dev), 0);
	info_calls = fake_amdgpu_calls(FAKE_INFO);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), -EOPNOTSUPP);
	assert_int_equal(fake_amdgpu_calls(FAKE_INFO), info_calls);
	gpurobust_amdgpu_close(dev);
}

/* Tools: open() probes with a context of its own, freed again. */
static void test_L6_open_probes_with_a_fresh_context(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	struct gpurobust_amdgpu_info info;

	assert_int_equal(gpurobust_amdgpu_open(fake_amdgpu_node(), &dev), 0);
	assert_int_equal(gpurobust_amdgpu_semantics(dev), GPUROBUST_SEMANTICS_LEGACY);
	assert_int_equal(gpurobust_amdgpu_get_info(dev, &info), 0);
	assert_true(info.semantics_probed);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_ALLOC), 1);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_QUERY_STATE2), 1);
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_FREE), 1);
	gpurobust_amdgpu_close(dev);

	fake_amdgpu_set_per_ctx(true);
	assert_int_equal(gpurobust_amdgpu_open(fake_amdgpu_node(), &dev), 0);
	assert_int_equal(gpurobust_amdgpu_get_info(dev, &info), 0);
	assert_int_equal(info.semantics, GPUROBUST_SEMANTICS_PER_CTX);
	assert_int_equal(info.fresh_ctx_query2_flags, GPUROBUST_QUERY2_PER_CTX_RESET);
	assert_int_equal(info.version_major, 3);
	assert_int_equal(info.version_minor, 59);
	assert_false(gpurobust_amdgpu_is_banned(dev));
	gpurobust_amdgpu_close(dev);
}

/* L6/L7 by version: 3.65.0 (the 7.2 series) and 3.61.1 (its 6.12 backport)
 * are per-context even before a context's first answer says so; the
 * upstream versions without the series, 3.61.0 and 3.62.0 to 3.64.0, are
 * not. The fake's contexts answer without PER_CTX_RESET throughout, so only
 * the version decides. */
static void test_L6_versions_of_the_series_are_per_ctx(void **state)
{
	static const struct {
		int minor, patchlevel;
		enum gpurobust_semantics semantics;
	} versions[] = {
		{ 61, 0, GPUROBUST_SEMANTICS_LEGACY },
		{ 61, 1, GPUROBUST_SEMANTICS_PER_CTX },
		{ 61, 2, GPUROBUST_SEMANTICS_PER_CTX },
		{ 62, 0, GPUROBUST_SEMANTICS_LEGACY },
		{ 64, 0, GPUROBUST_SEMANTICS_LEGACY },
		{ 64, 1, GPUROBUST_SEMANTICS_LEGACY },
		{ 65, 0, GPUROBUST_SEMANTICS_PER_CTX },
		{ 66, 0, GPUROBUST_SEMANTICS_PER_CTX },
	};

	for (size_t i = 0; i < sizeof(versions) / sizeof(versions[0]); i++) {
		struct gpurobust_amdgpu_device *dev = NULL;

		fake_amdgpu_set_kms_version(versions[i].minor, versions[i].patchlevel);
		assert_int_equal(gpurobust_amdgpu_open(fake_amdgpu_node(), &dev), 0);
		print_message("3.%d.%d\n", versions[i].minor, versions[i].patchlevel);
		assert_int_equal(gpurobust_amdgpu_semantics(dev), versions[i].semantics);
		gpurobust_amdgpu_close(dev);
	}
}

/* K8: a file the series banned after repeated soft recoveries gets -EPERM
 * for every new context. The probe's context is refused too; that is the
 * ban, not an open failure, and only the series bans. */
static void test_K8_banned_file_opens_with_per_ctx_semantics(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;

	fake_amdgpu_fail_next(FAKE_CTX_ALLOC, -EPERM);
	assert_int_equal(gpurobust_amdgpu_open(fake_amdgpu_node(), &dev), 0);
	assert_true(gpurobust_amdgpu_is_banned(dev));
	assert_int_equal(gpurobust_amdgpu_semantics(dev), GPUROBUST_SEMANTICS_PER_CTX);
	gpurobust_amdgpu_close(dev);
	assert_false(gpurobust_amdgpu_is_banned(NULL));
}

static void test_open_errors_name_the_failing_call(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	struct amdgpu_open_report report;
	const char *node = fake_amdgpu_node();

	fake_amdgpu_set_driver("i915");
	assert_int_equal(grb_amdgpu_open_reporting(node, -1, &dev, &report), -ENODEV);
	assert_string_equal(report.driver, "i915");
	assert_null(report.failed_call);
	fake_amdgpu_set_driver("amdgpu");

	assert_int_equal(grb_amdgpu_open_reporting("/dev/null", -1, &dev, &report), -ENOTTY);
	assert_string_equal(report.failed_call, "drmGetVersion");
	assert_int_equal(grb_amdgpu_open_reporting("/nonexistent/renderD128", -1, &dev, &report),
			 -ENOENT);
	assert_string_equal(report.failed_call, "open");

	/* libdrm's own setup: its ACCEL_WORKING query is refused. */
	fake_amdgpu_fail_next(FAKE_INFO, -EACCES);
	assert_int_equal(grb_amdgpu_open_reporting(node, -1, &dev, &report), -EACCES);
	assert_string_equal(report.failed_call, "amdgpu_device_initialize");

	fake_amdgpu_fail_next(FAKE_CTX_ALLOC, -ENOMEM);
	assert_int_equal(grb_amdgpu_open_reporting(node, -1, &dev, &report), -ENOMEM);
	assert_string_equal(report.failed_call, "amdgpu_cs_ctx_create");

	fake_amdgpu_fail_next(FAKE_CTX_QUERY_STATE2, -EINVAL);
	assert_int_equal(grb_amdgpu_open_reporting(node, -1, &dev, &report), -EINVAL);
	assert_string_equal(report.failed_call, "amdgpu_cs_query_reset_state2");
	assert_null(dev);
	/* The probe's context was freed on the way out. */
	assert_int_equal(fake_amdgpu_calls(FAKE_CTX_ALLOC), fake_amdgpu_calls(FAKE_CTX_FREE) + 1);
}

static void test_bad_arguments_are_refused(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	struct gpurobust_ctx *ctx = NULL;

	assert_int_equal(gpurobust_amdgpu_wrap(NULL, 3, 59, &dev), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_probe(NULL), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_open_fd(-1, &dev), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_ctx_create(NULL, 0, &ctx), -EINVAL);
	assert_null(dev);
	assert_null(ctx);
	assert_int_equal(fake_amdgpu_calls_total(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define DRIVER_TEST(t) cmocka_unit_test_setup_teardown(t, driver_setup, driver_teardown)
#define KERNEL_TEST(t) cmocka_unit_test_setup_teardown(t, kernel_setup, kernel_teardown)
		DRIVER_TEST(test_fake_kernel_answers_libdrm_device_setup),
		DRIVER_TEST(test_fake_kernel_checks_request_sizes),
		DRIVER_TEST(test_wrap_makes_no_system_call),
		DRIVER_TEST(test_open_fd_borrows_the_driver_file_and_device),
		DRIVER_TEST(test_ctx_create_reads_one_query_state2),
		DRIVER_TEST(test_submit_path_adds_no_ioctl),
		DRIVER_TEST(test_L1_wait_cs_returns_the_fence_error),
		DRIVER_TEST(test_L9_wait_timeout_is_not_an_error),
		DRIVER_TEST(test_L7_query_ctx_on_legacy_kernel_is_reset_elsewhere),
		DRIVER_TEST(test_L6_query_ctx_on_series_kernel_makes_guilty),
		DRIVER_TEST(test_L10_syncobj_probe_reads_the_exported_fences),
		DRIVER_TEST(test_gpuvm_fault_query),
		KERNEL_TEST(test_L6_open_probes_with_a_fresh_context),
		KERNEL_TEST(test_L6_versions_of_the_series_are_per_ctx),
		KERNEL_TEST(test_K8_banned_file_opens_with_per_ctx_semantics),
		KERNEL_TEST(test_open_errors_name_the_failing_call),
		KERNEL_TEST(test_bad_arguments_are_refused),
#undef DRIVER_TEST
#undef KERNEL_TEST
	};

	return cmocka_run_group_tests_name("reset-amdgpu", tests, NULL, NULL);
}
