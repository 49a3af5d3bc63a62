/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BACKEND_SYSFS_KMSG_H
#define GPUROBUST_BACKEND_SYSFS_KMSG_H

#include <stddef.h>

/* At most this many lines of context are kept: a hang logs a few dozen,
 * a fault storm thousands, and the first and last of those say enough. */
#define KMSG_CONTEXT_LINES	400

/**
 * grb_kmsg_hang_context() - the amdgpu and drm lines of the kernel log
 * @path: "/dev/kmsg", or a file of /dev/kmsg records (tests)
 * @text: "[seconds.micros] message" lines, NUL-terminated, to free()
 * @len: their length
 *
 * Reads the whole log buffer without blocking and keeps the last
 * KMSG_CONTEXT_LINES lines that mention amdgpu or drm, in the text form the
 * dmesg parser reads.
 *
 * Return: 0, -errno of open() (EPERM without CAP_SYSLOG), -ENOMEM.
 */
int grb_kmsg_hang_context(const char *path, char **text, size_t *len);

#endif
