// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Kernel log context for a stored hang, from /dev/kmsg. Each read() of
 * /dev/kmsg returns one record "prio,seq,usec,flags;message\n", followed by
 * " KEY=value" continuation lines; a regular file of such records reads the
 * same once split at newlines.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crash/backend/sysfs/kmsg.h"
#include "crash/backend/sysfs/read-all.h"

struct kept_line {
	char *text;
	size_t len;
};

static bool wanted(const char *msg, size_t n)
{
	return memmem(msg, n, "amdgpu", 6) || memmem(msg, n, "drm", 3);
}

/* "6,1234,87853679,-;amdgpu 0000:45:00.0: ..." into "[   87.853679] amdgpu ..." */
static char *format_record(const char *rec, size_t n, size_t *out_len)
{
	const char *semi = memchr(rec, ';', n), *comma;
	unsigned long long usec = 0;
	char head[32], *line;
	size_t msg_len;
	int hl;

	if (!semi)
		return NULL;
	/* the third field is the time stamp in microseconds */
	comma = memchr(rec, ',', (size_t)(semi - rec));
	if (comma && (comma = memchr(comma + 1, ',', (size_t)(semi - comma - 1))))
		usec = strtoull(comma + 1, NULL, 10);
	msg_len = n - (size_t)(semi + 1 - rec);
	if (!wanted(semi + 1, msg_len))
		return NULL;
	hl = snprintf(head, sizeof(head), "[%5llu.%06llu] ", usec / 1000000, usec % 1000000);
	line = malloc((size_t)hl + msg_len + 2);
	if (!line)
		return NULL;
	memcpy(line, head, (size_t)hl);
	memcpy(line + hl, semi + 1, msg_len);
	line[hl + msg_len] = '\n';
	line[hl + msg_len + 1] = '\0';
	*out_len = (size_t)hl + msg_len + 1;
	return line;
}

int grb_kmsg_hang_context(const char *path, char **text, size_t *len)
{
	struct kept_line ring[KMSG_CONTEXT_LINES] = { 0 };
	size_t head = 0, kept = 0, total = 0, raw_len, pos = 0;
	char *raw, *out;
	int fd, r;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* the whole ring buffer: 16 MiB covers the largest log_buf_len */
	r = grb_read_all_fd(fd, 16u << 20, &raw, &raw_len);
	close(fd);
	if (r)
		return r;
	while (pos < raw_len) {
		const char *rec = raw + pos, *nl = memchr(rec, '\n', raw_len - pos);
		size_t n = nl ? (size_t)(nl - rec) : raw_len - pos, line_len;
		char *line;

		pos += n + 1;
		if (!n || rec[0] == ' ')
			continue;	/* continuation: KEY=value */
		line = format_record(rec, n, &line_len);
		if (!line)
			continue;
		if (kept == KMSG_CONTEXT_LINES) {
			total -= ring[head].len;
			free(ring[head].text);
		} else {
			kept++;
		}
		ring[head].text = line;
		ring[head].len = line_len;
		total += line_len;
		head = (head + 1) % KMSG_CONTEXT_LINES;
	}
	free(raw);
	out = malloc(total + 1);
	if (out) {
		size_t o = 0;

		for (size_t i = 0; i < kept; i++) {
			struct kept_line *l = &ring[(head + KMSG_CONTEXT_LINES - kept + i) %
						     KMSG_CONTEXT_LINES];

			memcpy(out + o, l->text, l->len);
			o += l->len;
		}
		out[o] = '\0';
		*text = out;
		*len = o;
	}
	for (size_t i = 0; i < KMSG_CONTEXT_LINES; i++)
		free(ring[i].text);
	return out ? 0 : -ENOMEM;
}
