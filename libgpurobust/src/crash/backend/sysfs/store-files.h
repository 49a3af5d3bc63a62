/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/*
 * The crash store's files, apart from its database: each crash is
 * dumps/NAME.json (its entry), and optionally NAME.devcoredump[.zst] and
 * NAME.dmesg[.zst]. All are 0640 and belong to the group of the crashed
 * process's owner, or 0600 when the owner is unknown.
 */
#ifndef GPUROBUST_BACKEND_SYSFS_STORE_FILES_H
#define GPUROBUST_BACKEND_SYSFS_STORE_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gpurobust/collector.h>

/* A crash's files are read and written only by the store, always below
 * this size (the same cap as a devcoredump). */
#define GRB_STORE_FILE_MAX	(1u << 30)

/* Make a directory of the store, 0755 whatever the umask (the collector's
 * unit runs with UMask=0077, and users list their crashes through it); an
 * existing one is left as it is. Return: 0 or -errno. */
int grb_store_mkdir(const char *path);

/**
 * grb_store_write_file() - write one file of a crash, durably
 * @path: a new file (an existing one is an error: -EEXIST)
 * @data: its contents
 * @len: their length
 * @compress: as a zstd frame
 * @crash: whose group and mode it gets (owner_known, gid)
 *
 * Return: 0, or -errno (-ENOSPC when the file system is full); on failure
 * no file is left.
 */
int grb_store_write_file(const char *path, const char *data, size_t len, bool compress,
			 const struct gpurobust_stored_crash *crash);

/* Write @crash as dumps/<crash->name>.json, replacing the file atomically
 * (readers see the old or the new entry, never half of one). @dumps is the
 * dumps directory. Return: 0 or -errno. */
int grb_store_write_entry(const char *dumps, const struct gpurobust_stored_crash *crash);

/* Parse an entry file's @json. Return: 0, -EBADMSG. */
int grb_store_parse_entry(const char *json, size_t len, struct gpurobust_stored_crash *crash);

/* The bytes the files in @dumps take on disk. Return: 0 or -errno. */
int grb_store_usage(const char *dumps, uint64_t *bytes);

/* A collector reserves a crash's name with an empty entry and writes it
 * last. One that was killed between the two leaves the empty entry and its
 * files, which no listing shows and no limit counts as a crash's: remove
 * those whose entry is older than @before (Unix time), and return how many
 * entries went. */
size_t grb_store_sweep_abandoned(const char *dumps, int64_t before);

#endif
