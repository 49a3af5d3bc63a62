// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Opening an amdgpu node: driver and interface version from drmGetVersion(),
 * then the reset semantics from a fresh context's QUERY_STATE2 answer or the
 * version: the series reports 3.65.0 upstream (7.2) and 3.61.1 in its 6.12
 * backport (a patchlevel; upstream's 3.62 means other features), and sets
 * PER_CTX_RESET in every answer (Documentation/uapi.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "driver/backend/amdgpu/device.h"
#include "common/amdgpu-uapi.h"
#include "common/export.h"
#include "gpurobust/vm-fault.h"

static int read_version(int fd, struct amdgpu_open_report *report)
{
	drmVersionPtr version = drmGetVersion(fd);

	if (!version) {
		report->failed_call = "drmGetVersion";
		/* libdrm drops the ioctl's errno; ENOTTY is what a non-DRM file
		 * gives, and any failure here means "not a DRM node we can use". */
		return errno ? -errno : -ENOTTY;
	}
	snprintf(report->driver, sizeof(report->driver), "%.*s",
		 version->name_len, version->name ? version->name : "");
	report->version_major = version->version_major;
	report->version_minor = version->version_minor;
	report->version_patchlevel = version->version_patchlevel;
	drmFreeVersion(version);
	return 0;
}

/* Whether the driver version is one with which a series reports the
 * per-context semantics: upstream's minor or later, or the backport's
 * patchlevel on its 3.61 branch. */
static bool version_has_per_ctx_reset(const struct gpurobust_amdgpu_info *info)
{
	if (info->version_major != 3)
		return false;
	if (info->version_minor >= GPUROBUST_PER_CTX_RESET_KMS_MINOR)
		return true;
	return info->version_minor == GPUROBUST_PER_CTX_RESET_BACKPORT_KMS_MINOR &&
	       info->version_patchlevel >= GPUROBUST_PER_CTX_RESET_BACKPORT_KMS_PATCHLEVEL;
}

/* The semantics probe for tools: a context of our own, its QUERY_STATE2
 * answer, and the context freed again. Drivers learn the same from their own
 * contexts (gpurobust_amdgpu_ctx_create()). */
static int probe_semantics(struct gpurobust_amdgpu_device *dev,
			   struct amdgpu_open_report *report)
{
	amdgpu_context_handle fresh;
	uint64_t flags = 0;
	int r;

	r = amdgpu_cs_ctx_create(dev->handle, &fresh);
	/* Only the series refuses a normal-priority context with -EPERM: the
	 * file was banned after repeated soft recoveries (K8,
	 * amdgpu.soft_recovery_ban). Such a kernel has per-context semantics;
	 * the device stays usable for queries and dumps. */
	if (r == -EPERM) {
		dev->banned = true;
		dev->info.semantics = GPUROBUST_SEMANTICS_PER_CTX;
		dev->info.semantics_probed = true;
		return 0;
	}
	if (r) {
		report->failed_call = "amdgpu_cs_ctx_create";
		return r;
	}
	r = amdgpu_cs_query_reset_state2(fresh, &flags);
	amdgpu_cs_ctx_free(fresh);
	if (r) {
		report->failed_call = "amdgpu_cs_query_reset_state2";
		return r;
	}
	dev->info.fresh_ctx_query2_flags = flags;
	dev->info.semantics = gpurobust_semantics_from_query2(flags);
	if (version_has_per_ctx_reset(&dev->info))
		dev->info.semantics = GPUROBUST_SEMANTICS_PER_CTX;
	dev->info.semantics_probed = true;
	return 0;
}

int grb_amdgpu_open_reporting(const char *path, int fd,
			  struct gpurobust_amdgpu_device **out,
			  struct amdgpu_open_report *report)
{
	struct gpurobust_amdgpu_device *dev;
	uint32_t drm_major, drm_minor;
	int r;

	if (!out || !report || (!path && fd < 0))
		return -EINVAL;
	memset(report, 0, sizeof(*report));
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;

	dev->owns_fd = path != NULL;
	dev->fd = path ? open(path, O_RDWR | O_CLOEXEC) : fd;
	if (dev->fd < 0) {
		r = -errno;
		report->failed_call = "open";
		free(dev);
		return r;
	}
	errno = 0;
	r = read_version(dev->fd, report);
	if (r)
		goto fail_fd;
	if (strcmp(report->driver, "amdgpu")) {
		r = -ENODEV;
		goto fail_fd;
	}
	dev->info.version_major = report->version_major;
	dev->info.version_minor = report->version_minor;
	dev->info.version_patchlevel = report->version_patchlevel;

	/* On a file the driver already initialized, libdrm hands back the
	 * driver's own device with one more reference: no second setup. */
	r = amdgpu_device_initialize(dev->fd, &drm_major, &drm_minor, &dev->handle);
	if (r) {
		report->failed_call = "amdgpu_device_initialize";
		goto fail_fd;
	}
	dev->owns_handle = true;
	if (path) {
		r = probe_semantics(dev, report);
		if (r)
			goto fail_dev;
	}
	*out = dev;
	return 0;

fail_dev:
	amdgpu_device_deinitialize(dev->handle);
fail_fd:
	if (dev->owns_fd)
		close(dev->fd);
	free(dev);
	return r;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_open(const char *path,
					   struct gpurobust_amdgpu_device **out)
{
	struct amdgpu_open_report report;

	if (!path)
		return -EINVAL;
	return grb_amdgpu_open_reporting(path, -1, out, &report);
}

GPUROBUST_EXPORT int gpurobust_amdgpu_open_fd(int fd, struct gpurobust_amdgpu_device **out)
{
	struct amdgpu_open_report report;

	if (fd < 0)
		return -EINVAL;
	return grb_amdgpu_open_reporting(NULL, fd, out, &report);
}

GPUROBUST_EXPORT int gpurobust_amdgpu_wrap(amdgpu_device_handle handle, uint32_t drm_major,
					   uint32_t drm_minor,
					   struct gpurobust_amdgpu_device **out)
{
	struct gpurobust_amdgpu_device *dev;

	if (!handle || !out)
		return -EINVAL;
	dev = calloc(1, sizeof(*dev));
	if (!dev)
		return -ENOMEM;
	/* amdgpu_device_get_fd() reads libdrm's own copy: no system call. */
	dev->fd = amdgpu_device_get_fd(handle);
	dev->handle = handle;
	dev->info.version_major = (int)drm_major;
	dev->info.version_minor = (int)drm_minor;
	*out = dev;
	return 0;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_probe(struct gpurobust_amdgpu_device *dev)
{
	struct amdgpu_open_report report = { 0 };

	if (!dev)
		return -EINVAL;
	return probe_semantics(dev, &report);
}

GPUROBUST_EXPORT void gpurobust_amdgpu_close(struct gpurobust_amdgpu_device *dev)
{
	if (!dev)
		return;
	if (dev->owns_handle)
		amdgpu_device_deinitialize(dev->handle);
	if (dev->owns_fd)
		close(dev->fd);
	free(dev);
}

GPUROBUST_EXPORT int gpurobust_amdgpu_get_info(const struct gpurobust_amdgpu_device *dev,
					       struct gpurobust_amdgpu_info *out)
{
	if (!dev || !out)
		return -EINVAL;
	*out = dev->info;
	return 0;
}

GPUROBUST_EXPORT enum gpurobust_semantics
gpurobust_amdgpu_semantics(const struct gpurobust_amdgpu_device *dev)
{
	return dev ? dev->info.semantics : GPUROBUST_SEMANTICS_LEGACY;
}

GPUROBUST_EXPORT amdgpu_device_handle
gpurobust_amdgpu_handle(const struct gpurobust_amdgpu_device *dev)
{
	return dev ? dev->handle : NULL;
}

GPUROBUST_EXPORT bool gpurobust_amdgpu_is_banned(const struct gpurobust_amdgpu_device *dev)
{
	return dev && dev->banned;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_query_gpuvm_fault(const struct gpurobust_amdgpu_device *dev,
							 struct gpurobust_gpuvm_fault *out)
{
	struct amdgpu_info_gpuvm_fault_uapi raw = { 0 };
	int r;

	if (!dev || !out)
		return -EINVAL;
	/* An older kernel rejects the unknown query with -EINVAL, which would
	 * read as a bad argument: decide by the interface version instead. */
	if (dev->info.version_major < 3 ||
	    (dev->info.version_major == 3 && dev->info.version_minor < AMDGPU_GPUVM_FAULT_KMS_MINOR))
		return -EOPNOTSUPP;
	r = amdgpu_query_info(dev->handle, AMDGPU_INFO_GPUVM_FAULT, sizeof(raw), &raw);
	if (r)
		return r;
	if (!raw.addr && !raw.status)
		return -ENODATA;
	out->addr = raw.addr;
	out->status = raw.status;
	out->vmhub = raw.vmhub;
	return 0;
}
