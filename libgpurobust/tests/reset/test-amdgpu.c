// SPDX-License-Identifier: MIT
/*
 * The amdgpu backend's logic without a GPU: libdrm-script.c stands in for
 * libdrm, and each test scripts its answers with cmocka's will_return().
 * What is checked is the backend's side: which call it makes, how it reads
 * the answer (semantics probe, L6/L7; fence errors, L1-L3, L10) and which
 * call an error names.
 */
#include <errno.h>
#include <stdlib.h>

#include "driver/backend/amdgpu/device.h"
#include "common/amdgpu-uapi.h"
#include "gpurobust/amdgpu.h"
#include "gpurobust/report.h"
#include "gpurobust/syncfile.h"
#include "libdrm-script.h"
#include "test-helpers.h"

static struct gpurobust_amdgpu_device *open_scripted(uint64_t fresh_flags)
{
	struct gpurobust_amdgpu_device *dev = NULL;

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, 0);
	will_return(amdgpu_cs_query_reset_state2, fresh_flags);
	will_return(amdgpu_cs_query_reset_state2, 0);
	assert_int_equal(gpurobust_amdgpu_open("/dev/null", &dev), 0);
	return dev;
}

static void test_L6_fresh_ctx_flag_means_per_ctx_semantics(void **state)
{
	struct gpurobust_amdgpu_device *dev =
		open_scripted(AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET);
	struct gpurobust_amdgpu_info info;

	assert_int_equal(gpurobust_amdgpu_get_info(dev, &info), 0);
	assert_int_equal(info.semantics, GPUROBUST_SEMANTICS_PER_CTX);
	assert_int_equal(info.fresh_ctx_query2_flags, AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET);
	assert_int_equal(info.version_major, 3);
	assert_int_equal(info.version_minor, 59);
	assert_int_equal(gpurobust_amdgpu_semantics(dev), GPUROBUST_SEMANTICS_PER_CTX);
	assert_ptr_equal(gpurobust_amdgpu_handle(dev), FAKE_DEVICE);
	gpurobust_amdgpu_close(dev);
}

static void test_L7_no_flag_means_legacy_semantics(void **state)
{
	/* Upstream after some reset: RESET without PER_CTX_RESET. */
	struct gpurobust_amdgpu_device *dev = open_scripted(AMDGPU_CTX_QUERY2_FLAGS_RESET);

	assert_int_equal(gpurobust_amdgpu_semantics(dev), GPUROBUST_SEMANTICS_LEGACY);
	gpurobust_amdgpu_close(dev);
}

static void test_L7_probe_errors_name_the_failing_call(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	struct amdgpu_open_report report;

	will_return(drmGetVersion, "i915");
	assert_int_equal(amdgpu_open_reporting("/dev/null", -1, &dev, &report), -ENODEV);
	assert_string_equal(report.driver, "i915");
	assert_null(report.failed_call);

	will_return(drmGetVersion, NULL);
	assert_int_equal(amdgpu_open_reporting("/dev/null", -1, &dev, &report), -ENOTTY);
	assert_string_equal(report.failed_call, "drmGetVersion");

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, -EACCES);
	assert_int_equal(amdgpu_open_reporting("/dev/null", -1, &dev, &report), -EACCES);
	assert_string_equal(report.failed_call, "amdgpu_device_initialize");

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, -ENOMEM);
	assert_int_equal(amdgpu_open_reporting("/dev/null", -1, &dev, &report), -ENOMEM);
	assert_string_equal(report.failed_call, "amdgpu_cs_ctx_create");

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, 0);
	will_return(amdgpu_cs_query_reset_state2, 0);
	will_return(amdgpu_cs_query_reset_state2, -EINVAL);
	assert_int_equal(amdgpu_open_reporting("/dev/null", -1, &dev, &report), -EINVAL);
	assert_string_equal(report.failed_call, "amdgpu_cs_query_reset_state2");
	assert_null(dev);
}

static void test_L7_query_ctx_folds_both_answers_on_legacy_kernel(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);
	uint64_t q2 = 0;
	uint32_t q1 = 0;

	will_return(amdgpu_cs_query_reset_state2, AMDGPU_CTX_QUERY2_FLAGS_RESET);
	will_return(amdgpu_cs_query_reset_state2, 0);
	will_return(amdgpu_cs_query_reset_state, AMDGPU_CTX_UNKNOWN_RESET);
	assert_int_equal(gpurobust_amdgpu_query_ctx(FAKE_CTX, ctx, &q2, &q1), 0);
	assert_int_equal(q2, AMDGPU_CTX_QUERY2_FLAGS_RESET);
	assert_int_equal(q1, AMDGPU_CTX_UNKNOWN_RESET);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_NONE);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_ELSEWHERE);
	gpurobust_ctx_destroy(ctx);
}

static void test_L6_query_ctx_on_series_kernel_makes_guilty(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	will_return(amdgpu_cs_query_reset_state2, AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET |
		    AMDGPU_CTX_QUERY2_FLAGS_RESET | AMDGPU_CTX_QUERY2_FLAGS_GUILTY);
	will_return(amdgpu_cs_query_reset_state2, 0);
	will_return(amdgpu_cs_query_reset_state, AMDGPU_CTX_GUILTY_RESET);
	assert_int_equal(gpurobust_amdgpu_query_ctx(FAKE_CTX, ctx, NULL, NULL), 0);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);

	/* A failing query leaves the context alone and says so. */
	will_return(amdgpu_cs_query_reset_state2, 0);
	will_return(amdgpu_cs_query_reset_state2, -ENODEV);
	assert_int_equal(gpurobust_amdgpu_query_ctx(FAKE_CTX, ctx, NULL, NULL), -ENODEV);
	gpurobust_ctx_destroy(ctx);
}

static void test_L1_wait_fence_returns_the_fence_error(void **state)
{
	struct amdgpu_cs_fence fence = { .context = FAKE_CTX };
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);
	int signaled = 0;

	will_return(amdgpu_cs_query_fence_status, 1);
	will_return(amdgpu_cs_query_fence_status, -ENODATA);
	assert_int_equal(gpurobust_amdgpu_wait_fences(&fence, 1, 1, 1000, &signaled), -ENODATA);
	gpurobust_ctx_note_errno(ctx, -ENODATA);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_SOFT);
	gpurobust_ctx_destroy(ctx);
}

static void test_L9_wait_timeout_is_not_an_error(void **state)
{
	struct amdgpu_cs_fence fences[2] = { { .context = FAKE_CTX }, { .context = FAKE_CTX } };
	int signaled = 1;

	will_return(amdgpu_cs_query_fence_status, 0);
	will_return(amdgpu_cs_query_fence_status, 0);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 1, 1, 1000, &signaled), 0);
	assert_false(signaled);

	/* More than one fence goes through DRM_AMDGPU_WAIT_FENCES. */
	expect_value(amdgpu_cs_wait_fences, count, 2);
	will_return(amdgpu_cs_wait_fences, 1);
	will_return(amdgpu_cs_wait_fences, 0);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 2, 1, 1000, &signaled), 0);
	assert_true(signaled);

	expect_value(amdgpu_cs_wait_fences, count, 2);
	will_return(amdgpu_cs_wait_fences, 1);
	will_return(amdgpu_cs_wait_fences, -ECANCELED);
	assert_int_equal(gpurobust_amdgpu_wait_fences(fences, 2, 0, 1000, &signaled), -ECANCELED);
}

static void test_L10_syncobj_probe_reports_export_errno(void **state)
{
	struct gpurobust_fence_probe probe;

	/* A syncobj without a fence: the kernel says -EINVAL through errno. */
	will_return(drmSyncobjExportSyncFile, EINVAL);
	assert_int_equal(gpurobust_syncobj_probe(0, 7, &probe), -EINVAL);
	/* The export worked, but what came back is no sync_file. */
	will_return(drmSyncobjExportSyncFile, 0);
	assert_int_equal(gpurobust_syncobj_probe(0, 7, &probe), -ENOTTY);
}

/* K8: a file the series banned after repeated soft recoveries gets -EPERM
 * for every new context. The probe's context is refused too; that is the
 * ban, not an open failure, and only the series bans. */
static void test_K8_banned_file_opens_with_per_ctx_semantics(void **state)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	struct gpurobust_amdgpu_info info;

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, -EPERM);
	assert_int_equal(gpurobust_amdgpu_open("/dev/null", &dev), 0);
	assert_true(gpurobust_amdgpu_is_banned(dev));
	assert_int_equal(gpurobust_amdgpu_get_info(dev, &info), 0);
	assert_int_equal(info.semantics, GPUROBUST_SEMANTICS_PER_CTX);
	gpurobust_amdgpu_close(dev);

	dev = open_scripted(0);
	assert_false(gpurobust_amdgpu_is_banned(dev));
	gpurobust_amdgpu_close(dev);
	assert_false(gpurobust_amdgpu_is_banned(NULL));
}

static void expect_gpuvm_fault_query(const void *answer, int ret)
{
	expect_value(amdgpu_query_info, info_id, 0x23);	/* AMDGPU_INFO_GPUVM_FAULT */
	expect_value(amdgpu_query_info, size, 16);
	will_return(amdgpu_query_info, answer);
	will_return(amdgpu_query_info, ret);
}

/* AMDGPU_INFO_GPUVM_FAULT feeds the VK_EXT_device_fault data: a write fault
 * (RW bit 18 of the status) on gfxhub becomes one WRITE_INVALID address. */
static void test_gpuvm_fault_query_fills_device_fault(void **state)
{
	struct gpurobust_amdgpu_device *dev = open_scripted(AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET);
	/* the uAPI layout: u64 addr, u32 status, u32 vmhub */
	const struct { uint64_t addr; uint32_t status, vmhub; } fault = {
		0x800012340000ull, 0x00040a40u, 0,
	}, none = { 0 };
	struct gpurobust_device_identity id = { .vendor_id = 0x1002, .device_id = 0x7590 };
	struct gpurobust_gpuvm_fault f;
	struct gpurobust_device_fault out;

	expect_gpuvm_fault_query(&fault, 0);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), 0);
	assert_int_equal(f.addr, 0x800012340000ull);
	assert_int_equal(f.status, 0x00040a40u);
	assert_int_equal(f.vmhub, 0);
	assert_int_equal(gpurobust_device_fault_fill(NULL, &f, &id, NULL, 0, &out), 0);
	assert_int_equal(out.address_count, 1);
	assert_int_equal(out.address.reportedAddress, 0x800012340000ull);
	assert_int_equal(out.address.addressType, VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT);
	free(out.vendor_binary);

	/* no fault recorded, and a query the ioctl refused */
	expect_gpuvm_fault_query(&none, 0);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), -ENODATA);
	expect_gpuvm_fault_query(&none, -EACCES);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), -EACCES);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(NULL, &f), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, NULL), -EINVAL);
	gpurobust_amdgpu_close(dev);
}

/* Before KMS 3.55 (Linux 6.10) the query does not exist: the helper says
 * so without asking, since the kernel's -EINVAL would read as a bad call. */
static void test_gpuvm_fault_query_needs_kms_3_55(void **state)
{
	struct gpurobust_amdgpu_device *dev;
	struct gpurobust_gpuvm_fault f;

	script_kms_minor = 54;
	dev = open_scripted(0);
	script_kms_minor = 59;
	assert_int_equal(gpurobust_amdgpu_query_gpuvm_fault(dev, &f), -EOPNOTSUPP);
	gpurobust_amdgpu_close(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_L6_fresh_ctx_flag_means_per_ctx_semantics),
		cmocka_unit_test(test_L7_no_flag_means_legacy_semantics),
		cmocka_unit_test(test_L7_probe_errors_name_the_failing_call),
		cmocka_unit_test(test_L7_query_ctx_folds_both_answers_on_legacy_kernel),
		cmocka_unit_test(test_L6_query_ctx_on_series_kernel_makes_guilty),
		cmocka_unit_test(test_L1_wait_fence_returns_the_fence_error),
		cmocka_unit_test(test_L9_wait_timeout_is_not_an_error),
		cmocka_unit_test(test_L10_syncobj_probe_reports_export_errno),
		cmocka_unit_test(test_K8_banned_file_opens_with_per_ctx_semantics),
		cmocka_unit_test(test_gpuvm_fault_query_fills_device_fault),
		cmocka_unit_test(test_gpuvm_fault_query_needs_kms_3_55),
	};

	return cmocka_run_group_tests_name("reset-amdgpu", tests, NULL, NULL);
}
