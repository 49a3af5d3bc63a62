// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The crash store's files: writing a crash's dump and log (zstd frames when
 * compressed), its JSON entry, and listing the entries a user may read.
 *
 * Visibility is the file system's: each file is 0640 with the group of the
 * crashed process's owner, as systemd-coredump stores core files, so a user
 * opens the entries of their own processes and the kernel refuses the rest.
 * Listing needs no database and no privilege.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>
#include <zstd.h>

#include "common/export.h"
#include "read-all.h"
#include "store-files.h"

/* An entry is a few hundred bytes; anything much larger is not one. */
#define ENTRY_MAX		(64u * 1024)
#define ZSTD_LEVEL		3

static int write_zstd(int fd, const char *data, size_t len)
{
	ZSTD_CCtx *cctx = ZSTD_createCCtx();
	size_t out_size = ZSTD_CStreamOutSize();
	ZSTD_inBuffer in = { data, len, 0 };
	char *buf = malloc(out_size);
	size_t left;
	int r = 0;

	if (!cctx || !buf) {
		r = -ENOMEM;
		goto out;
	}
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL);
	ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
	ZSTD_CCtx_setPledgedSrcSize(cctx, len);
	do {
		ZSTD_outBuffer out = { buf, out_size, 0 };

		left = ZSTD_compressStream2(cctx, &out, &in, ZSTD_e_end);
		if (ZSTD_isError(left)) {
			r = -ENOMEM;
			break;
		}
		r = grb_write_all_fd(fd, buf, out.pos);
	} while (!r && left);
out:
	free(buf);
	ZSTD_freeCCtx(cctx);
	return r;
}

/* 0640 with the owner's group, or 0600 when there is no owner to give it
 * to (or the group cannot be set: then only root reads it). @crash is a
 * struct gpurobust_stored_crash. */
static int set_access(int fd, const void *crash)
{
	const struct gpurobust_stored_crash *c = crash;

	if (c->owner_known && !fchown(fd, (uid_t)-1, c->gid))
		return fchmod(fd, 0640) ? -errno : 0;
	return fchmod(fd, 0600) ? -errno : 0;
}

static int finish_file(int fd, const char *path, int r)
{
	if (!r && fsync(fd))
		r = -errno;
	if (close(fd) && !r)
		r = -errno;
	if (r)
		unlink(path);
	return r;
}

int grb_store_mkdir(const char *path)
{
	if (!mkdir(path, 0755))
		return chmod(path, 0755) ? -errno : 0;
	return errno == EEXIST ? 0 : -errno;
}

int grb_store_write_file(const char *path, const char *data, size_t len, bool compress,
			 const struct gpurobust_stored_crash *crash)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int r;

	if (fd < 0)
		return -errno;
	r = set_access(fd, crash);
	if (!r)
		r = compress ? write_zstd(fd, data, len) : grb_write_all_fd(fd, data, len);
	return finish_file(fd, path, r);
}

static void add_string(json_object *o, const char *key, const char *value)
{
	json_object_object_add(o, key, value && *value ? json_object_new_string(value) : NULL);
}

static char *entry_json(const struct gpurobust_stored_crash *c)
{
	json_object *o = json_object_new_object();
	char *text;

	json_object_object_add(o, "id", json_object_new_int64(c->id));
	json_object_object_add(o, "seen", json_object_new_int64(c->seen));
	json_object_object_add(o, "pid", json_object_new_int(c->pid));
	json_object_object_add(o, "uid", c->owner_known ? json_object_new_int64(c->uid) : NULL);
	json_object_object_add(o, "gid", c->owner_known ? json_object_new_int64(c->gid) : NULL);
	add_string(o, "process", c->process);
	add_string(o, "signature", c->signature);
	add_string(o, "title", c->title);
	add_string(o, "recovery", c->recovery);
	add_string(o, "outcome", c->outcome);
	add_string(o, "device", c->device);
	add_string(o, "doing", c->doing);
	add_string(o, "dump", c->dump_file);
	add_string(o, "dmesg", c->dmesg_file);
	json_object_object_add(o, "dump_size", json_object_new_int64((int64_t)c->dump_size));
	add_string(o, "not_kept", c->not_kept);
	text = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	return text;
}

int grb_store_write_entry(const char *dumps, const struct gpurobust_stored_crash *crash)
{
	char tmp[PATH_MAX], path[PATH_MAX];
	char *json = entry_json(crash);
	int r;

	if (!json)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s.json", dumps, crash->name);
	r = snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp) ? -ENAMETOOLONG :
		grb_write_file_aside(path, tmp, json, strlen(json), set_access, crash);
	free(json);
	return r;
}

static void get_string(json_object *o, const char *key, char *dst, size_t size)
{
	json_object *v;

	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		snprintf(dst, size, "%s", json_object_get_string(v));
}

static int64_t get_int(json_object *o, const char *key, bool *present)
{
	json_object *v;
	bool ok = json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_int);

	if (present)
		*present = ok;
	return ok ? json_object_get_int64(v) : 0;
}

/* @json as one JSON object, strictly, or NULL. */
static json_object *parse_object(const char *json, size_t len)
{
	json_tokener *tok = json_tokener_new();
	json_object *o;

	if (!tok)
		return NULL;
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, json, (int)len);
	if (o && (json_tokener_get_error(tok) != json_tokener_success ||
		  !json_object_is_type(o, json_type_object))) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(tok);
	return o;
}

/* "uid" and "gid", both present or the owner is unknown. */
static bool get_owner(json_object *o, uint32_t *uid, uint32_t *gid)
{
	bool has_uid, has_gid;

	*uid = (uint32_t)get_int(o, "uid", &has_uid);
	*gid = (uint32_t)get_int(o, "gid", &has_gid);
	return has_uid && has_gid;
}

int grb_store_parse_entry(const char *json, size_t len, struct gpurobust_stored_crash *c)
{
	json_object *o = parse_object(json, len);

	if (!o)
		return -EBADMSG;
	c->id = get_int(o, "id", NULL);
	c->seen = get_int(o, "seen", NULL);
	c->pid = (int32_t)get_int(o, "pid", NULL);
	c->owner_known = get_owner(o, &c->uid, &c->gid);
	get_string(o, "process", c->process, sizeof(c->process));
	get_string(o, "signature", c->signature, sizeof(c->signature));
	get_string(o, "title", c->title, sizeof(c->title));
	get_string(o, "recovery", c->recovery, sizeof(c->recovery));
	get_string(o, "outcome", c->outcome, sizeof(c->outcome));
	get_string(o, "device", c->device, sizeof(c->device));
	get_string(o, "doing", c->doing, sizeof(c->doing));
	get_string(o, "dump", c->dump_file, sizeof(c->dump_file));
	get_string(o, "dmesg", c->dmesg_file, sizeof(c->dmesg_file));
	c->dump_size = (uint64_t)get_int(o, "dump_size", NULL);
	get_string(o, "not_kept", c->not_kept, sizeof(c->not_kept));
	json_object_put(o);
	return 0;
}

/* A stored file's name never leaves dumps/. */
static bool plain_name(const char *name)
{
	return *name && !strchr(name, '/') && strcmp(name, ".") && strcmp(name, "..");
}

static int cmp_seen(const void *a, const void *b)
{
	const struct gpurobust_stored_crash *x = a, *y = b;

	if (x->seen != y->seen)
		return x->seen < y->seen ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* An entry or a record: small files, never followed through a link. */
static int read_small(int dirfd, const char *name, char **json, size_t *len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	int r;

	if (fd < 0)
		return -errno;
	r = grb_read_all_fd(fd, ENTRY_MAX, json, len);
	close(fd);
	return r;
}

/* Read the entry @name (a *.json in @dirfd). Return: 0, -ENODATA while it
 * is being written (empty), -errno of reading, -EBADMSG. */
static int read_entry(int dirfd, const char *name, struct gpurobust_stored_crash *c)
{
	size_t nlen = strlen(name) - strlen(".json");
	struct stat st;
	size_t len;
	char *json;
	int r = read_small(dirfd, name, &json, &len);

	if (r)
		return r;
	memset(c, 0, sizeof(*c));
	r = len ? grb_store_parse_entry(json, len, c) : -ENODATA;
	free(json);
	if (r)
		return r;
	if (nlen >= sizeof(c->name))
		return -EBADMSG;
	memcpy(c->name, name, nlen);
	c->name[nlen] = '\0';
	if ((*c->dump_file && !plain_name(c->dump_file)) ||
	    (*c->dmesg_file && !plain_name(c->dmesg_file)))
		return -EBADMSG;
	c->dump_present = *c->dump_file && !fstatat(dirfd, c->dump_file, &st, AT_SYMLINK_NOFOLLOW);
	return 0;
}

static bool is_entry_name(const char *name)
{
	size_t len = strlen(name);

	return len > strlen(".json") && !strcmp(name + len - strlen(".json"), ".json");
}

/* A WEDGED uevent and the crash it belongs to arrive within this much of
 * each other: the dump is written during the reset, the uevent sent after it,
 * and each is stored when its own process runs. */
#define WEDGED_LINK_SEC		60

static bool same_hang(const struct gpurobust_wedged *w, const struct gpurobust_stored_crash *c)
{
	int64_t dt = w->seen - c->seen;

	if (dt < -WEDGED_LINK_SEC || dt > WEDGED_LINK_SEC)
		return false;
	if (*c->device && *w->device && strcmp(c->device, w->device))
		return false;
	return !w->pid || !c->pid || w->pid == c->pid;
}

static int read_wedged(int dirfd, const char *name, struct gpurobust_wedged *w)
{
	json_object *o;
	size_t len;
	char *json;
	int r = read_small(dirfd, name, &json, &len);

	if (r)
		return r;
	o = parse_object(json, len);
	free(json);
	if (!o)
		return -EBADMSG;
	memset(w, 0, sizeof(*w));
	w->seen = get_int(o, "seen", NULL);
	w->pid = (int32_t)get_int(o, "pid", NULL);
	w->owner_known = get_owner(o, &w->uid, &w->gid);
	get_string(o, "device", w->device, sizeof(w->device));
	get_string(o, "node", w->node, sizeof(w->node));
	get_string(o, "method", w->method, sizeof(w->method));
	get_string(o, "task", w->task, sizeof(w->task));
	json_object_put(o);
	return 0;
}

/* Give each crash the WEDGED uevent of its hang: the nearest in time that
 * agrees on device and pid. Records the caller may not read link nothing. */
static void link_wedged(const char *dir, struct gpurobust_stored_crash *list, size_t n)
{
	int64_t *linked_dt = n ? malloc(n * sizeof(*linked_dt)) : NULL;
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (!linked_dt)
		return;
	snprintf(path, sizeof(path), "%s/wedged", dir);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		struct gpurobust_wedged w;
		size_t best = n;

		if (!is_entry_name(de->d_name) || read_wedged(dirfd(d), de->d_name, &w))
			continue;
		for (size_t i = 0; i < n; i++)
			if (same_hang(&w, &list[i]) &&
			    (best == n || llabs(w.seen - list[i].seen) < llabs(w.seen - list[best].seen)))
				best = i;
		/* a crash keeps the nearest of the records that name it,
		 * whatever order the directory lists them in */
		if (best == n || (*list[best].wedged && llabs(w.seen - list[best].seen) >= linked_dt[best]))
			continue;
		linked_dt[best] = llabs(w.seen - list[best].seen);
		snprintf(list[best].wedged, sizeof(list[best].wedged), "%s", w.method);
		list[best].wedged_pid = w.pid;
		snprintf(list[best].wedged_task, sizeof(list[best].wedged_task), "%s", w.task);
	}
	if (d)
		closedir(d);
	free(linked_dt);
}

GPUROBUST_EXPORT
int gpurobust_store_record_wedged(const char *dir, const struct gpurobust_wedged *w)
{
	struct gpurobust_stored_crash owner = { 0 };
	char path[PATH_MAX], tmp[PATH_MAX];
	json_object *o;
	struct stat st;
	char *json;
	int fd, r;

	if (!dir || !w || strchr(w->node, '/') || strlen(dir) > PATH_MAX - 256)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/wedged", dir);
	if ((r = grb_store_mkdir(dir)) || (r = grb_store_mkdir(path)))
		return r;
	if (stat(dir, &st) || stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || (st.st_mode & 0022))
		return -EPERM;
	o = json_object_new_object();
	json_object_object_add(o, "seen", json_object_new_int64(w->seen));
	add_string(o, "device", w->device);
	add_string(o, "node", w->node);
	add_string(o, "method", w->method);
	json_object_object_add(o, "pid", json_object_new_int(w->pid));
	add_string(o, "task", w->task);
	json_object_object_add(o, "uid", w->owner_known ? json_object_new_int64(w->uid) : NULL);
	json_object_object_add(o, "gid", w->owner_known ? json_object_new_int64(w->gid) : NULL);
	json = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
	if (!json)
		return -ENOMEM;
	snprintf(tmp, sizeof(tmp), "%s/wedged/%" PRId64 "-%s-XXXXXX", dir, w->seen,
		 *w->node ? w->node : "drm");
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		free(json);
		return -errno;
	}
	owner.owner_known = w->owner_known;
	owner.gid = w->gid;
	r = set_access(fd, &owner);
	if (!r)
		r = grb_write_all_fd(fd, json, strlen(json));
	free(json);
	r = finish_file(fd, tmp, r);
	/* complete, it gets the name listings read: <...>.json */
	if (!r && snprintf(path, sizeof(path), "%s.json", tmp) < (int)sizeof(path) &&
	    rename(tmp, path)) {
		r = -errno;
		unlink(tmp);
	}
	return r;
}

GPUROBUST_EXPORT
int gpurobust_store_entries(const char *dir, struct gpurobust_stored_crash **out, size_t *n,
			    size_t *hidden)
{
	struct gpurobust_stored_crash *list = NULL;
	size_t count = 0, cap = 0, not_readable = 0;
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d;

	if (!dir || !out || !n)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	snprintf(path, sizeof(path), "%s/dumps", dir);
	d = opendir(path);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		int r;

		if (!is_entry_name(de->d_name))
			continue;
		if (count == cap) {
			struct gpurobust_stored_crash *nl;

			cap = cap ? cap * 2 : 16;
			nl = realloc(list, cap * sizeof(*nl));
			if (!nl) {
				free(list);
				closedir(d);
				return -ENOMEM;
			}
			list = nl;
		}
		r = read_entry(dirfd(d), de->d_name, &list[count]);
		if (!r)
			count++;
		else if (r == -ENOMEM) {
			free(list);
			closedir(d);
			return r;
		} else if (r != -ENODATA && r != -ENOENT) {
			not_readable++;
		}
	}
	closedir(d);
	if (count)
		qsort(list, count, sizeof(*list), cmp_seen);
	link_wedged(dir, list, count);
	*out = list;
	*n = count;
	if (hidden)
		*hidden = not_readable;
	return 0;
}

static int read_zstd(const char *frame, size_t frame_len, char **data, size_t *len)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	ZSTD_inBuffer in = { frame, frame_len, 0 };
	size_t cap = 1u << 16, used = 0, ret = 1;
	char *buf = malloc(cap + 1);
	int r = 0;

	if (!dctx || !buf) {
		r = -ENOMEM;
		goto out;
	}
	while (in.pos < in.size || ret) {
		ZSTD_outBuffer o;

		if (used == cap) {
			char *nb;

			if (cap >= GRB_STORE_FILE_MAX) {
				r = -EFBIG;
				break;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				r = -ENOMEM;
				break;
			}
			buf = nb;
		}
		o = (ZSTD_outBuffer){ buf + used, cap - used, 0 };
		ret = ZSTD_decompressStream(dctx, &o, &in);
		if (ZSTD_isError(ret)) {
			r = -EBADMSG;
			break;
		}
		used += o.pos;
		/* input used up mid-frame, with room left for output: truncated */
		if (ret && in.pos == in.size && o.pos < o.size) {
			r = -EBADMSG;
			break;
		}
	}
out:
	ZSTD_freeDCtx(dctx);
	if (r) {
		free(buf);
		return r;
	}
	buf[used] = '\0';
	*data = buf;
	*len = used;
	return 0;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

GPUROBUST_EXPORT
int gpurobust_store_read_file(const char *dir, const char *file, char **data, size_t *len)
{
	char path[PATH_MAX], *raw;
	size_t raw_len;
	int fd, r;

	if (!dir || !file || !data || !len || !plain_name(file))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/dumps/%s", dir, file);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	r = grb_read_all_fd(fd, GRB_STORE_FILE_MAX, &raw, &raw_len);
	close(fd);
	if (r || !ends_with(file, ".zst")) {
		if (!r) {
			*data = raw;
			*len = raw_len;
		}
		return r;
	}
	r = read_zstd(raw, raw_len, data, len);
	free(raw);
	return r;
}

int grb_store_usage(const char *dumps, uint64_t *bytes)
{
	DIR *d = opendir(dumps);
	struct dirent *de;
	uint64_t total = 0;

	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		struct stat st;

		if (!fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
			total += (uint64_t)st.st_blocks * 512;
	}
	closedir(d);
	*bytes = total;
	return 0;
}

/* The files a crash NAME may have beside its entry (store.c's keep_file()). */
static const char *const crash_file_exts[] = {
	".devcoredump", ".devcoredump.zst", ".dmesg", ".dmesg.zst",
};

size_t grb_store_sweep_abandoned(const char *dumps, int64_t before)
{
	DIR *d = opendir(dumps);
	struct dirent *e;
	size_t swept = 0;
	struct stat st;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		size_t name_len = strlen(e->d_name) - strlen(".json");
		char file[NAME_MAX + 1];

		if (!is_entry_name(e->d_name) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode) || st.st_size || st.st_mtime >= before)
			continue;
		/* the files first: an entry that stays is found again next time */
		for (size_t i = 0; i < sizeof(crash_file_exts) / sizeof(crash_file_exts[0]); i++)
			if (snprintf(file, sizeof(file), "%.*s%s", (int)name_len, e->d_name,
				     crash_file_exts[i]) < (int)sizeof(file))
				unlinkat(dirfd(d), file, 0);
		if (!unlinkat(dirfd(d), e->d_name, 0))
			swept++;
	}
	closedir(d);
	return swept;
}
