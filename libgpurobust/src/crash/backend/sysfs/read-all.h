/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BACKEND_SYSFS_READ_ALL_H
#define GPUROBUST_BACKEND_SYSFS_READ_ALL_H

#include <stddef.h>

/**
 * grb_read_all_fd() - read a descriptor to its end into one buffer
 * @fd: a file, pipe, sysfs attribute or non-blocking /dev/kmsg
 * @limit: fail with -EFBIG beyond this many bytes
 * @data: NUL-terminated contents to free()
 * @len: their length without the NUL
 *
 * Ends at EOF, or at EAGAIN (the end of /dev/kmsg); skips EPIPE (/dev/kmsg
 * records overwritten while reading) and EINTR.
 *
 * Return: 0, -errno of read(), -EFBIG, -ENOMEM.
 */
int grb_read_all_fd(int fd, size_t limit, char **data, size_t *len);

/* Write all of @data to @fd, through short writes and EINTR. Return: 0 or
 * -errno of write() (-ENOSPC on a full file system). */
int grb_write_all_fd(int fd, const void *data, size_t len);

/**
 * grb_write_file_aside() - replace a file whole or not at all
 * @path: the file
 * @tmp: a mkostemp() template in @path's directory, overwritten
 * @data: the contents
 * @len: their length
 * @prepare: called on the new file before it is written (its mode and
 *           group), or NULL to keep mkostemp()'s 0600
 * @ctx: for @prepare
 *
 * Writes @tmp, flushes it and renames it over @path, so that a reader sees
 * the old file or the new one, never half of one.
 *
 * Return: 0, or -errno; on failure @tmp is gone and @path as it was.
 */
int grb_write_file_aside(const char *path, char *tmp, const void *data, size_t len,
			 int (*prepare)(int fd, const void *ctx), const void *ctx);

#endif
