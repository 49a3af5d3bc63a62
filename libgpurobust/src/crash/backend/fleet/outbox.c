// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The outbox: crashes a machine keeps until the fleet store takes them,
 * one file each, named by the crash's id. A file appears whole (written
 * aside, flushed, renamed) and leaves only after the store committed its
 * crash, so a crash is lost neither by a full disk, a dead server nor a
 * killed sender; and since the store ignores a crash it has, sending one
 * twice stores it once.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/export.h"
#include "crash/backend/sysfs/read-all.h"
#include "crash/core/fleet/fleet-core.h"
#include "fleet-backend.h"

#define DEFAULT_BATCH	500
/* An outbox file is one crash's JSON: a few KiB at most. */
#define MAX_FILE	(64 * 1024)

GPUROBUST_EXPORT
int gpurobust_fleet_outbox_add(const char *dir, const struct gpurobust_fleet_crash *crash)
{
	char tmp[4096], path[4096];
	const char *field;
	char *json, *line;
	size_t len;
	int dirfd, r;

	if (!dir || !crash || grb_fleet_crash_check(crash, &field))
		return -EINVAL;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	json = gpurobust_fleet_crash_to_json(crash);
	len = json ? strlen(json) : 0;
	line = json ? realloc(json, len + 2) : NULL;
	if (!line) {
		free(json);
		return -ENOMEM;
	}
	memcpy(line + len, "\n", 2);
	snprintf(path, sizeof(path), "%s/%s.json", dir, crash->crash_id);
	/* a dot name: a sender's listing skips a file being written */
	snprintf(tmp, sizeof(tmp), "%s/.%s.json.XXXXXX", dir, crash->crash_id);
	r = grb_write_file_aside(path, tmp, line, len + 1, NULL, NULL);
	free(line);
	if (r)
		return r;
	/* the rename itself, through a crash of the machine */
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd >= 0) {
		if (fsync(dirfd))
			r = -errno;
		close(dirfd);
	}
	return r;
}

/* The crash in outbox file @name, -EBADMSG when it holds none: not a
 * regular file (a link, a directory, a FIFO, which is not waited on), too
 * big, or no crash of ours. */
static int read_crash(int dirfd, const char *name, struct gpurobust_fleet_crash *crash)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	size_t len;
	char *json;
	int r;

	if (fd < 0)
		return errno == ELOOP || errno == ENXIO ? -EBADMSG : -errno;
	r = fstat(fd, &st) ? -errno : S_ISREG(st.st_mode) ? 0 : -EBADMSG;
	if (!r)
		r = grb_read_all_fd(fd, MAX_FILE, &json, &len);
	close(fd);
	if (r)
		return r == -EFBIG ? -EBADMSG : r;
	r = gpurobust_fleet_crash_from_json(json, len, crash);
	free(json);
	/* the name is the id: a file renamed by hand is no crash of ours */
	if (!r && (strlen(name) != 37 || strncmp(name, crash->crash_id, 32)))
		r = -EBADMSG;
	return r;
}

/* The names of the crash files in the outbox now. */
static int list_outbox(DIR *d, char (**names)[40], size_t *n)
{
	struct dirent *e;
	size_t cap = 0;

	*names = NULL;
	*n = 0;
	rewinddir(d);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' || len != 37 || strcmp(e->d_name + 32, ".json"))
			continue;
		if (*n == cap) {
			char (*more)[40] = realloc(*names, (cap = cap ? 2 * cap : 64) * sizeof(**names));

			if (!more) {
				free(*names);
				*names = NULL;
				return -ENOMEM;
			}
			*names = more;
		}
		memcpy((*names)[(*n)++], e->d_name, len + 1);
	}
	return 0;
}

/* Send @names[0..n) that still exist; unlink each after the commit. */
static int send_batch(struct gpurobust_fleet *fleet, int dirfd, char (*names)[40], size_t n,
		      struct gpurobust_fleet_crash *crashes, size_t *sent, size_t *bad)
{
	char (*kept)[40] = names;
	size_t count = 0;
	int r;

	for (size_t i = 0; i < n; i++) {
		r = read_crash(dirfd, names[i], &crashes[count]);
		if (r == -ENOENT)
			continue;	/* another sender's now */
		if (r == -EBADMSG) {
			char aside[48];

			snprintf(aside, sizeof(aside), "%s.bad", names[i]);
			if (!renameat(dirfd, names[i], dirfd, aside)) {
				if (bad)
					(*bad)++;
			} else if (errno != ENOENT) {
				return -errno;
			}
			continue;
		}
		if (r)
			return r;
		memmove(kept[count], names[i], sizeof(kept[count]));
		count++;
	}
	if (!count)
		return 0;
	r = gpurobust_fleet_send(fleet, crashes, count, NULL);
	if (r)
		return r;
	/* a file that cannot go would be sent again and again: stop */
	for (size_t i = 0; i < count; i++) {
		if (!unlinkat(dirfd, kept[i], 0))
			(*sent)++;
		else if (errno != ENOENT)
			return -errno;
	}
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_fleet_outbox_flush(const char *dir, struct gpurobust_fleet *fleet, size_t batch,
				 size_t *sent, size_t *bad)
{
	struct gpurobust_fleet_crash *crashes;
	char (*names)[40] = NULL;
	size_t n = 0;
	DIR *d;
	int r;

	if (!dir || !fleet || !sent)
		return -EINVAL;
	*sent = 0;
	if (bad)
		*bad = 0;
	if (!batch)
		batch = DEFAULT_BATCH;
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -errno;
	crashes = calloc(batch, sizeof(*crashes));
	r = crashes ? 0 : -ENOMEM;
	/* what arrives while sending is sent too: until a listing is empty */
	while (!r && !(r = list_outbox(d, &names, &n)) && n) {
		for (size_t at = 0; at < n && !r; at += batch)
			r = send_batch(fleet, dirfd(d), names + at, n - at < batch ? n - at : batch,
				       crashes, sent, bad);
		free(names);
		names = NULL;
	}
	free(names);
	free(crashes);
	closedir(d);
	return r;
}
