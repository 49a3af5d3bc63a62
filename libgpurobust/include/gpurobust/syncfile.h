/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: fence error probe (L10)
 *
 * DRM syncobj waits succeed for fences that signalled with an error, so a
 * driver that waited on a syncobj asks here before it reports success after
 * a reset: the syncobj is exported to a sync_file, and SYNC_IOC_FILE_INFO
 * gives every fence's status (1 signalled, 0 active, or -errno).
 */
#ifndef GPUROBUST_SYNCFILE_H
#define GPUROBUST_SYNCFILE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpurobust_fence_probe {
	/* The most telling fence error (guilty over innocent over unknown over
	 * other errors), 0 when no fence carries one. Feed it to
	 * gpurobust_ctx_note_errno() or gpurobust_ctx_vk_wait_result(). */
	int error;
	uint32_t fence_count;
	uint32_t active_count;	/* fences not signalled yet */
};

/**
 * gpurobust_syncfile_probe() - read the fence states of any sync_file
 * @sync_file_fd: a sync_file; it stays open and unchanged
 * @out: the summary
 *
 * Return: 0, -EINVAL for a bad argument, -ENOMEM, or the -errno of
 * SYNC_IOC_FILE_INFO (-ENOTTY when @sync_file_fd is not a sync_file).
 */
int gpurobust_syncfile_probe(int sync_file_fd, struct gpurobust_fence_probe *out);

/**
 * gpurobust_syncobj_probe() - the same for a DRM syncobj
 * @drm_fd: the DRM file that owns @syncobj
 * @syncobj: the syncobj handle
 * @out: the summary
 *
 * Return: 0, or the -errno of drmSyncobjExportSyncFile() (-EINVAL when the
 * syncobj holds no fence) or of gpurobust_syncfile_probe().
 */
int gpurobust_syncobj_probe(int drm_fd, uint32_t syncobj,
			    struct gpurobust_fence_probe *out);

#ifdef __cplusplus
}
#endif

#endif
