// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust dump [--output FILE] [--since T] [--until T] [MATCH...]
 *
 * The devcoredump of the latest crash that matches, decompressed, as
 * coredumpctl dump writes a core file: to standard output, or to FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "stored.h"

static int write_out(const char *path, const char *data, size_t len)
{
	int fd = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) : STDOUT_FILENO;
	int r = 0;

	if (fd < 0)
		return -errno;
	while (len && !r) {
		ssize_t w = write(fd, data, len);

		if (w < 0 && errno != EINTR)
			r = -errno;
		if (w > 0) {
			data += w;
			len -= (size_t)w;
		}
	}
	if (path && close(fd) && !r)
		r = -errno;
	return r;
}

int cmd_dump(int argc, char **argv)
{
	struct gpurobust_stored_crash *list, *c;
	struct stored_query q;
	char *data;
	size_t n, len;
	int r = stored_parse_args(argc, argv, "gpurobust dump [OPTIONS] [MATCH...]", &q);

	if (r)
		return r > 0 ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
	if (stored_select(&q, "gpurobust dump", &list, &n))
		return GPUROBUST_EXIT_FAILURE;
	if (!n)
		return GPUROBUST_EXIT_FAILURE;
	c = &list[n - 1];
	if (!c->dump_present) {
		fprintf(stderr, "gpurobust dump: the dump of %s is not stored (%s)\n", c->name,
			*c->not_kept ? c->not_kept : "removed");
		free(list);
		return GPUROBUST_EXIT_FAILURE;
	}
	r = gpurobust_store_read_file(q.store_dir, c->dump_file, &data, &len);
	if (!r) {
		r = write_out(q.output, data, len);
		free(data);
	}
	if (r)
		fprintf(stderr, "gpurobust dump: %s: %s\n", q.output ? q.output : c->dump_file,
			strerror(-r));
	free(list);
	return r ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
