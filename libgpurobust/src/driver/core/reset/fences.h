/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_RESET_FENCES_H
#define GPUROBUST_CORE_RESET_FENCES_H

#include <linux/sync_file.h>
#include <stddef.h>

#include "gpurobust/syncfile.h"

/* Summarize the fence records SYNC_IOC_FILE_INFO returned. Pure, so that the
 * probe's logic is tested without a sync_file. */
void grb_sync_fences_summarize(const struct sync_fence_info *fences, size_t count,
			   struct gpurobust_fence_probe *out);

#endif
