// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * VK_EXT_device_fault data: the address record from AMDGPU_INFO_GPUVM_FAULT
 * and a vendor binary that round-trips through the devcoredump parser.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <gpurobust/report.h>

#include "fixture.h"

static const struct gpurobust_device_identity identity = {
	.vendor_id = 0x1002, .device_id = 0x73bf, .driver_version = 0x6400004,
	.pipeline_cache_uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
};

static void test_fault_address_and_roundtrip(void **state)
{
	/* status from the dmesg fixture: RW=1, a write */
	const struct gpurobust_gpuvm_fault vm = { .addr = 0x800100000ULL, .status = 0x40a40 };
	VkDeviceFaultVendorBinaryHeaderVersionOneEXT header;
	struct gpurobust_coredump *d, *again;
	struct gpurobust_report *r;
	struct gpurobust_device_fault f;
	const char *payload;
	size_t len, plen;
	char *dump = fixture_read("early-khatri-2024-03.devcoredump", &len);

	(void)state;
	assert_int_equal(gpurobust_coredump_parse(dump, len, &d), 0);
	assert_int_equal(gpurobust_report_build(d, NULL, &r), 0);
	assert_int_equal(gpurobust_device_fault_fill(r, &vm, &identity, dump, len, &f), 0);
	assert_string_equal(f.description, r->title);
	assert_int_equal(f.address_count, 1);
	assert_int_equal(f.address.addressType, VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT);
	assert_int_equal(f.address.reportedAddress, 0x800100000ULL);
	assert_int_equal(f.address.addressPrecision, 4096);

	assert_int_equal(gpurobust_device_fault_parse_binary(f.vendor_binary, f.vendor_binary_size,
							     &header, &payload, &plen), 0);
	assert_int_equal(header.headerSize, sizeof(header));
	assert_int_equal(header.headerVersion,
			 VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_EXT);
	assert_int_equal(header.vendorID, 0x1002);
	assert_int_equal(header.deviceID, 0x73bf);
	assert_memory_equal(header.pipelineCacheUUID, identity.pipeline_cache_uuid, VK_UUID_SIZE);
	assert_int_equal(plen, len);
	assert_int_equal(gpurobust_coredump_parse(payload, plen, &again), 0);
	assert_string_equal(again->process, d->process);
	assert_int_equal(again->fault_status, d->fault_status);
	assert_int_equal(again->generation, d->generation);

	free(f.vendor_binary);
	gpurobust_coredump_free(again);
	gpurobust_coredump_free(d);
	gpurobust_report_free(r);
	free(dump);
}

static void test_no_fault_and_bad_blobs(void **state)
{
	const struct gpurobust_gpuvm_fault none = { 0 };
	VkDeviceFaultVendorBinaryHeaderVersionOneEXT header;
	struct gpurobust_device_fault f;
	const char *payload;
	size_t plen;

	(void)state;
	assert_int_equal(gpurobust_device_fault_fill(NULL, &none, &identity, NULL, 0, &f), 0);
	assert_int_equal(f.address_count, 0);
	assert_int_equal(f.vendor_binary_size, sizeof(header));
	/* short blob, wrong version, headerSize past the end */
	assert_int_equal(gpurobust_device_fault_parse_binary(f.vendor_binary, 8, &header,
							     &payload, &plen), -EBADMSG);
	((VkDeviceFaultVendorBinaryHeaderVersionOneEXT *)f.vendor_binary)->headerSize = 4096;
	assert_int_equal(gpurobust_device_fault_parse_binary(f.vendor_binary, f.vendor_binary_size,
							     &header, &payload, &plen), -EBADMSG);
	((VkDeviceFaultVendorBinaryHeaderVersionOneEXT *)f.vendor_binary)->headerSize =
		sizeof(header);
	((VkDeviceFaultVendorBinaryHeaderVersionOneEXT *)f.vendor_binary)->headerVersion = 2;
	assert_int_equal(gpurobust_device_fault_parse_binary(f.vendor_binary, f.vendor_binary_size,
							     &header, &payload, &plen), -EBADMSG);
	free(f.vendor_binary);
	assert_int_equal(gpurobust_device_fault_fill(NULL, NULL, NULL, NULL, 0, &f), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fault_address_and_roundtrip),
		cmocka_unit_test(test_no_fault_and_bad_blobs),
	};

	return cmocka_run_group_tests_name("device-fault", tests, NULL, NULL);
}
