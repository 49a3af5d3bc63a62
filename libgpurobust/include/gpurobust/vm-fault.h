/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_VM_FAULT_H
#define GPUROBUST_VM_FAULT_H

/*
 * The last GPU VM fault of a device, as the amdgpu backend reads it
 * (gpurobust_amdgpu_query_gpuvm_fault()) and the crash library turns it into
 * VK_EXT_device_fault data (gpurobust_device_fault_fill()).
 */
#include <stdint.h>

/* AMDGPU_INFO_GPUVM_FAULT (0x23) answer. Linux 6.10 added it; libdrm 2.4.114
 * lacks it, hence this copy of the uAPI layout. */
struct gpurobust_gpuvm_fault {
	uint64_t addr;
	uint32_t status;
	uint32_t vmhub;
};

#endif
