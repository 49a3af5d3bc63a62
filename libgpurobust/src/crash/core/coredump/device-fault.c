// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * VK_EXT_device_fault data for an amdgpu hang: what a driver's
 * vkGetDeviceFaultInfoEXT returns. The address comes from
 * AMDGPU_INFO_GPUVM_FAULT (the last VM fault of the device), the vendor
 * binary is the spec's version-one header followed by the devcoredump text,
 * so that a tool receiving the blob can run the devcoredump parser on it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/report.h>

#include "common/export.h"

/* amdgpu faults are reported per 4 KiB GPU page (AMDGPU_GPU_PAGE_SIZE). */
#define GPU_PAGE_SIZE		4096u
/* RW bit of *VM_L2_PROTECTION_FAULT_STATUS, GFX9 to GFX12. */
#define FAULT_STATUS_RW		(1u << 18)

GPUROBUST_EXPORT
int gpurobust_device_fault_fill(const struct gpurobust_report *report,
				const struct gpurobust_gpuvm_fault *vm_fault,
				const struct gpurobust_device_identity *identity,
				const char *dump_text, size_t dump_len,
				struct gpurobust_device_fault *out)
{
	VkDeviceFaultVendorBinaryHeaderVersionOneEXT header = { 0 };
	uint8_t *blob;

	if (!identity || !out || (!dump_text && dump_len))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (report)
		snprintf(out->description, sizeof(out->description), "%.*s",
			 (int)sizeof(out->description) - 1, report->title);
	else
		snprintf(out->description, sizeof(out->description), "amdgpu job timeout");

	if (vm_fault && (vm_fault->addr || vm_fault->status)) {
		out->address_count = 1;
		out->address.addressType = vm_fault->status & FAULT_STATUS_RW ?
					   VK_DEVICE_FAULT_ADDRESS_TYPE_WRITE_INVALID_EXT :
					   VK_DEVICE_FAULT_ADDRESS_TYPE_READ_INVALID_EXT;
		out->address.reportedAddress = vm_fault->addr;
		out->address.addressPrecision = GPU_PAGE_SIZE;
	}

	header.headerSize = sizeof(header);
	header.headerVersion = VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_EXT;
	header.vendorID = identity->vendor_id;
	header.deviceID = identity->device_id;
	header.driverVersion = identity->driver_version;
	memcpy(header.pipelineCacheUUID, identity->pipeline_cache_uuid, VK_UUID_SIZE);
	/* no application or engine name strings: their offsets stay 0 */
	blob = malloc(sizeof(header) + dump_len);
	if (!blob)
		return -ENOMEM;
	memcpy(blob, &header, sizeof(header));
	if (dump_len)
		memcpy(blob + sizeof(header), dump_text, dump_len);
	out->vendor_binary = blob;
	out->vendor_binary_size = sizeof(header) + dump_len;
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_device_fault_parse_binary(const void *blob, size_t size,
					VkDeviceFaultVendorBinaryHeaderVersionOneEXT *header,
					const char **payload, size_t *payload_len)
{
	if (!blob || !header || !payload || !payload_len)
		return -EINVAL;
	if (size < sizeof(*header))
		return -EBADMSG;
	memcpy(header, blob, sizeof(*header));
	if (header->headerVersion != VK_DEVICE_FAULT_VENDOR_BINARY_HEADER_VERSION_ONE_EXT ||
	    header->headerSize < sizeof(*header) || header->headerSize > size)
		return -EBADMSG;
	*payload = (const char *)blob + header->headerSize;
	*payload_len = size - header->headerSize;
	return 0;
}
