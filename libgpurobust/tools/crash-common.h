/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* What the report, watch and triage subcommands share: the default store,
 * reading evidence files, and messages for the crash pipeline's errors. The
 * pipeline itself is the library's (gpurobust/crash.h). */
#ifndef GPUROBUST_TOOLS_CRASH_COMMON_H
#define GPUROBUST_TOOLS_CRASH_COMMON_H

#include <stdbool.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <gpurobust/collector.h>
#include <gpurobust/crash.h>

/* Where `gpurobust watch` keeps crashes unless told otherwise. */
#define GPUROBUST_STORE_DIR "/var/lib/gpurobust/crashes"
/* Where crashes wait for a fleet store (gpurobust send). */
#define GPUROBUST_OUTBOX_DIR "/var/lib/gpurobust/outbox"

/* Read a whole file ("-" for standard input). Return: 0 or -errno. */
int crash_read_file(const char *path, char **text, size_t *len);

/* Read the files (either may be NULL, not both) and, when @meta_path is
 * not NULL, the breadcrumb metadata, then run the pipeline. Errors are
 * printed with @prog; nothing to report (-ENODATA) says so. Return: 0 or
 * -errno; -ENOENT or -EBADMSG when the metadata decodes no capture. */
int crash_load(const char *dump_path, const char *log_path, const char *meta_path,
	       const char *prog, struct gpurobust_crash **out);

/* Make the store's parent (/var/lib/gpurobust) when it does not exist:
 * users reach their crashes through it, so 0755. */
void crash_store_parent(const char *dir);

/* Open the crash store at @dir, making its parent first when it does not
 * exist. Errors are printed with @prog. Return: 0 or -errno. */
int crash_store_open(const char *dir, const char *prog, struct gpurobust_store **out);

/* The owner of process @pid under @proc, when it still runs under the name
 * @comm (a pid is reused once its process is gone). */
bool crash_process_owner(const char *proc, int32_t pid, const char *comm, uint32_t *uid,
			 uint32_t *gid);

/* How crash_collect() stores a hang. */
struct crash_collect_opts {
	const char *store_dir;	/* the store's directory, named in the journal */
	const char *kmsg;	/* the kernel log to take the hang's context from */
	const char *proc;	/* where the guilty process's owner is looked up */
	bool clear;		/* free the devcoredump once it is stored */
	bool journal;		/* one journal entry per stored crash */
	const char *fleet_outbox;	/* queue each crash there too, or NULL */
};

/* Where a devcoredump's failing_device link leads (the device's sysfs
 * directory), or NULL. */
const char *crash_failing_device_path(const char *devcd, char path[PATH_MAX]);

/* Store one hang: the devcoredump at @devcd (NULL: a reset without one)
 * with the kernel log's hang context, owned by the guilty process's user
 * when it still runs. A dump that does not parse is kept as it is. Prints
 * one line about what was stored; errors, with @prog, go to stderr (the
 * journal, under systemd). Return: 0; -ENODATA when there is nothing to
 * store (nothing amdgpu, or the dump vanished before it was read); or
 * -errno, and the dump is left in sysfs. */
int crash_collect(struct gpurobust_store *store, const struct crash_collect_opts *opts,
		  const char *devcd, const char *prog);

#endif
