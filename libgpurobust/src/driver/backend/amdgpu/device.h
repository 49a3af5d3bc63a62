/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BACKEND_AMDGPU_DEVICE_H
#define GPUROBUST_BACKEND_AMDGPU_DEVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "gpurobust/amdgpu.h"

/* AMDGPU_INFO_GPUVM_FAULT (Linux 6.10, KMS 3.55): the device's last VM
 * fault. libdrm 2.4.114's amdgpu_drm.h predates it, so this is a copy of
 * the uAPI (struct drm_amdgpu_info_gpuvm_fault). */
#ifndef AMDGPU_INFO_GPUVM_FAULT
#define AMDGPU_INFO_GPUVM_FAULT 0x23
#endif
#define AMDGPU_GPUVM_FAULT_KMS_MINOR 55

struct amdgpu_info_gpuvm_fault_uapi {
	uint64_t addr;
	uint32_t status;
	uint32_t vmhub;
};

struct gpurobust_amdgpu_device {
	/* The DRM file: ours to close only when we opened it by path. */
	int fd;
	bool owns_fd;
	amdgpu_device_handle handle;
	/* Whether close() drops our libdrm reference; a wrapped handle stays
	 * the driver's. */
	bool owns_handle;
	struct gpurobust_amdgpu_info info;
	/* amdgpu_cs_ctx_create() said -EPERM: the series banned this file (K8) */
	bool banned;
	/* -EINVAL once the kernel rejected AMDGPU_VM_DUMPABLE (D3): it lacks
	 * the flag, so later mappings do not ask again; 0 until then. */
	int dumpable_refused;
};

/* What the probe learnt, also when it failed: enough for an error message
 * that names the device, the driver and the failing call. */
struct amdgpu_open_report {
	char driver[32];		/* "" until drmGetVersion() answered */
	int version_major;
	int version_minor;
	int version_patchlevel;
	const char *failed_call;	/* NULL on success */
};

/**
 * grb_amdgpu_open_reporting() - open a node, saying what went wrong
 * @path: the node to open and probe, or NULL to use @fd
 * @fd: an open DRM file when @path is NULL; borrowed, not probed
 * @out: the device on success
 * @report: filled as far as opening got
 *
 * Return: as gpurobust_amdgpu_open() or gpurobust_amdgpu_open_fd().
 */
int grb_amdgpu_open_reporting(const char *path, int fd,
			  struct gpurobust_amdgpu_device **out,
			  struct amdgpu_open_report *report);

#endif
