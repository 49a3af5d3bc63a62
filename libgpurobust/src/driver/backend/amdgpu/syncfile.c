// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The L10 probe: SYNC_IOC_FILE_INFO on a sync_file, once for the fence count
 * and once for the records. Works on any sync_file, whichever driver made it.
 */
#include <errno.h>
#include <linux/sync_file.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "common/export.h"
#include "driver/core/reset/fences.h"

static int sync_file_info(int fd, struct sync_file_info *info)
{
	int r;

	do {
		r = ioctl(fd, SYNC_IOC_FILE_INFO, info);
	} while (r == -1 && (errno == EINTR || errno == EAGAIN));
	return r ? -errno : 0;
}

GPUROBUST_EXPORT int gpurobust_syncfile_probe(int sync_file_fd,
					      struct gpurobust_fence_probe *out)
{
	struct sync_file_info info = { 0 };
	struct sync_fence_info *fences;
	int r;

	if (sync_file_fd < 0 || !out)
		return -EINVAL;
	r = sync_file_info(sync_file_fd, &info);
	if (r)
		return r;
	if (!info.num_fences) {
		*out = (struct gpurobust_fence_probe){ 0 };
		return 0;
	}
	fences = calloc(info.num_fences, sizeof(*fences));
	if (!fences)
		return -ENOMEM;
	/* The second call fills at most num_fences records; a sync_file's
	 * fence set never changes, so the count still holds. */
	info.sync_fence_info = (uintptr_t)fences;
	r = sync_file_info(sync_file_fd, &info);
	if (!r)
		grb_sync_fences_summarize(fences, info.num_fences, out);
	free(fences);
	return r;
}

GPUROBUST_EXPORT int gpurobust_syncobj_probe(int drm_fd, uint32_t syncobj,
					     struct gpurobust_fence_probe *out)
{
	int sync_file_fd = -1;
	int r;

	if (drm_fd < 0 || !out)
		return -EINVAL;
	errno = 0;
	/* libdrm passes drmIoctl()'s -1 through and leaves the cause in errno. */
	r = drmSyncobjExportSyncFile(drm_fd, syncobj, &sync_file_fd);
	if (r)
		return errno ? -errno : -EIO;
	r = gpurobust_syncfile_probe(sync_file_fd, out);
	close(sync_file_fd);
	return r;
}
