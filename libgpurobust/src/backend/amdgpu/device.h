/* SPDX-License-Identifier: MIT */
#ifndef GPUROBUST_BACKEND_AMDGPU_DEVICE_H
#define GPUROBUST_BACKEND_AMDGPU_DEVICE_H

#include "gpurobust/amdgpu.h"

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
 * amdgpu_open_reporting() - open and probe a node, saying what went wrong
 * @path: the node to open, or NULL to use @fd
 * @fd: an open DRM file when @path is NULL; duplicated, never taken
 * @out: the device on success
 * @report: filled as far as the probe got
 *
 * Return: as gpurobust_amdgpu_open().
 */
int amdgpu_open_reporting(const char *path, int fd,
			  struct gpurobust_amdgpu_device **out,
			  struct amdgpu_open_report *report);

#endif
