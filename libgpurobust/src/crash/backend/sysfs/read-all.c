// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "crash/backend/sysfs/read-all.h"

int grb_read_all_fd(int fd, size_t limit, char **data, size_t *len)
{
	size_t used = 0, cap = 1 << 16;
	char *buf = malloc(cap);

	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t got;

		/* /dev/kmsg fails reads into less than one record's room */
		if (cap - used < 8192) {
			char *nb = cap > limit ? NULL : realloc(buf, cap * 2);

			if (!nb) {
				free(buf);
				return cap > limit ? -EFBIG : -ENOMEM;
			}
			buf = nb;
			cap *= 2;
		}
		got = read(fd, buf + used, cap - 1 - used);
		if (got < 0 && (errno == EINTR || errno == EPIPE))
			continue;
		if (got < 0 && errno == EAGAIN)
			break;
		if (got < 0) {
			int err = -errno;

			free(buf);
			return err;
		}
		if (!got)
			break;
		used += (size_t)got;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

int grb_write_all_fd(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

int grb_write_file_aside(const char *path, char *tmp, const void *data, size_t len,
			 int (*prepare)(int fd, const void *ctx), const void *ctx)
{
	int fd = mkostemp(tmp, O_CLOEXEC);
	int r;

	if (fd < 0)
		return -errno;
	r = prepare ? prepare(fd, ctx) : 0;
	if (!r)
		r = grb_write_all_fd(fd, data, len);
	if (!r && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (!r && rename(tmp, path))
		r = -errno;
	if (r)
		unlink(tmp);
	return r;
}
