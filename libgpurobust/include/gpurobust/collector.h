/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: crash collector
 *
 * The I/O side of crash reports, in three parts:
 *
 * - devcoredumps in sysfs: find the ones that belong to a DRM device
 *   (/sys/class/devcoredump/devcdN/failing_device), read one completely, and
 *   clear it (the kernel deletes it after 5 minutes anyway);
 * - a watcher on libudev for new devcoredumps and for the DRM "device
 *   wedged" uevent that amdgpu sends after a reset (Linux 6.14+);
 * - a store: a directory holding every dump with its kernel log context
 *   (zstd-compressed, readable by root and the crashed process's owner), an
 *   entry file per crash, and a root-only SQLite database of buckets
 *   (signature, first and last seen, count, process). Many writers may
 *   record at once; none is lost.
 */
#ifndef GPUROBUST_COLLECTOR_H
#define GPUROBUST_COLLECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- devcoredumps in sysfs ---------------------------------------------- */

struct gpurobust_devcd {
	char path[256];			/* /sys/class/devcoredump/devcdN */
	char failing_device[256];	/* the device it belongs to, resolved */
	/* "amdgpu" when its device's driver is amdgpu, or when the device has
	 * no driver but the dump starts as amdgpu's do (unbound after a hang,
	 * or a test's fake device); else that driver's name, or "" */
	char driver[32];
};

/**
 * gpurobust_devcd_list() - the devcoredumps present now
 * @sysfs: the sysfs mount, normally "/sys" (tests pass a fake tree)
 * @drm_device: only dumps of this DRM device: "card0", "renderD128",
 *              "/dev/dri/card0" or a /sys device path; NULL for all
 * @out: array to free(); NULL when there is none
 * @n: its length
 *
 * Return: 0, -ENOENT when @drm_device does not exist, -ENOMEM, or the
 * -errno of reading the devcoredump class directory (a kernel without
 * CONFIG_DEV_COREDUMP has none: 0 dumps, not an error).
 */
int gpurobust_devcd_list(const char *sysfs, const char *drm_device,
			 struct gpurobust_devcd **out, size_t *n);

/**
 * gpurobust_devcd_read() - read a devcoredump's data file completely
 * @devcd: a gpurobust_devcd.path
 * @data: NUL-terminated contents to free()
 * @len: their length without the NUL
 *
 * Return: 0, -errno of open() or read(), -EFBIG beyond 1 GiB, -ENOMEM.
 */
int gpurobust_devcd_read(const char *devcd, char **data, size_t *len);

/* Free a devcoredump now (any write to its data file does). Return: 0 or
 * -errno. */
int gpurobust_devcd_clear(const char *devcd);

/* ---- watcher ------------------------------------------------------------- */

enum gpurobust_watch_kind {
	GPUROBUST_WATCH_DEVCOREDUMP = 1,	/* a devcdN appeared */
	GPUROBUST_WATCH_RESET,			/* DRM device wedged/recovered uevent */
};

struct gpurobust_watch_event {
	enum gpurobust_watch_kind kind;
	char syspath[256];	/* the devcdN, or the DRM device */
	char wedged[64];	/* RESET: WEDGED= value, e.g. "none" or "rebind" */
	int32_t pid;		/* RESET: PID= of the guilty task, 0 when absent */
	char task[32];		/* RESET: TASK= */
};

struct gpurobust_watcher;

/* Return: 0, -ENOMEM, or -errno of the netlink socket. */
int gpurobust_watcher_open(struct gpurobust_watcher **out);
void gpurobust_watcher_close(struct gpurobust_watcher *w);
/* A descriptor to poll() for POLLIN. */
int gpurobust_watcher_fd(const struct gpurobust_watcher *w);
/* Return: 0 with @ev filled, -EAGAIN when no relevant event is pending. */
int gpurobust_watcher_next(struct gpurobust_watcher *w, struct gpurobust_watch_event *ev);

/* ---- store --------------------------------------------------------------- */

/* The schema this library writes. Opening an older store migrates it;
 * opening a newer one fails with -EPROTONOSUPPORT. */
#define GPUROBUST_STORE_SCHEMA 1

struct gpurobust_store;

/**
 * gpurobust_store_open() - open or create a store
 * @dir: its directory; created with mode 0700 (a dump can hold the contents
 *       of a process's GPU memory)
 * @out: the store
 *
 * Return: 0; -EPROTONOSUPPORT for a newer schema; -EPERM when @dir is
 * accessible to others than its owner; -errno of mkdir(); -EIO for SQLite
 * errors; -ENOMEM.
 */
int gpurobust_store_open(const char *dir, struct gpurobust_store **out);
void gpurobust_store_close(struct gpurobust_store *store);

/* One hang to record. */
struct gpurobust_store_event {
	const struct gpurobust_report *report;	/* required */
	const char *dump;			/* devcoredump text, or NULL */
	size_t dump_len;
	const char *dmesg;			/* kernel log context, or NULL */
	size_t dmesg_len;
	int64_t seen;				/* Unix time */
	/* The guilty process's owner, when the collector could tell: its
	 * user may read the crash (files get the owner's group, 0640). */
	bool owner_known;
	uint32_t uid, gid;
	/* The failing device (its PCI address), when the caller knows it
	 * better than the report does; NULL: the report's. */
	const char *device;
};

/* What a store keeps of each crash, as collect.conf says
 * (Documentation/collector.md). Every crash is counted in its bucket and
 * gets an entry whatever this says; the policy is about the files. */
struct gpurobust_store_policy {
	bool keep_files;	/* the dump and log (Storage=external); false: none */
	bool compress;		/* with zstd (Compress=) */
	uint64_t dump_size_max;	/* a larger dump is not kept (DumpSizeMax=); 0: any */
	uint64_t max_use;	/* the files' total, oldest removed first (MaxUse=); 0: any */
	uint64_t keep_free;	/* space left free on the file system (KeepFree=); 0: none */
};

/**
 * gpurobust_store_set_policy() - choose what gpurobust_store_record() keeps
 * @store: the store
 * @policy: copied; a store opens with keep_files and compress set, no limits
 */
void gpurobust_store_set_policy(struct gpurobust_store *store,
				const struct gpurobust_store_policy *policy);

/**
 * gpurobust_store_record() - save the files and count the event in its bucket
 * @store: the store
 * @ev: the event
 * @crash: its entry as stored (with the event's row id), or NULL
 *
 * Writes the dump and the log (as the policy says), an entry file that
 * gpurobust_store_entries() lists, and the bucket row. When the file system
 * is full, the oldest crashes' files make room first; when there is still
 * none, the crash is recorded without its files and its entry says so.
 * Afterwards the older crashes' files are removed, oldest first, until
 * MaxUse and KeepFree hold (this crash's own files stay).
 *
 * Safe to call from many threads and processes at once, each with its own
 * store handle: writers queue on SQLite's lock for up to 30 s.
 *
 * Return: 0, -EINVAL, -errno of writing the entry (-ENOSPC when there is
 * no room even for it), -EBUSY when the lock stayed taken, -EIO for other
 * SQLite errors. On failure nothing of the crash is left in the store.
 */
struct gpurobust_stored_crash;
int gpurobust_store_record(struct gpurobust_store *store,
			   const struct gpurobust_store_event *ev,
			   struct gpurobust_stored_crash *crash);

struct gpurobust_bucket {
	char signature[17];	/* 16 hex digits */
	char title[256];
	int64_t first_seen, last_seen;
	uint64_t count;
	char last_process[32];
	int32_t last_pid;
};

/* Every bucket, most frequent first. @out is to free(). Return: 0, -EIO,
 * -ENOMEM. */
int gpurobust_store_buckets(struct gpurobust_store *store,
			    struct gpurobust_bucket **out, size_t *n);

/* The number of events stored. Return: 0, -EIO. */
int gpurobust_store_count(struct gpurobust_store *store, uint64_t *events);

/* ---- stored crashes, as their owners list them -------------------------- */

/* One crash's entry file (dumps/NAME.json): what `gpurobust list` shows.
 * Readable by root and by the group of the process's owner, so a user lists
 * their own crashes without the database. */
struct gpurobust_stored_crash {
	char name[64];			/* <seen>-<signature>-XXXXXX */
	int64_t id;			/* the event's row in the database */
	int64_t seen;
	int32_t pid;
	bool owner_known;
	uint32_t uid, gid;
	char process[32];
	char signature[17];
	char title[256];
	char recovery[32], outcome[32];
	char device[32];
	char doing[256];		/* the breadcrumb path, "" without */
	char dump_file[96];		/* in dumps/; "" when not kept */
	char dmesg_file[96];
	uint64_t dump_size;		/* uncompressed */
	char not_kept[64];		/* why there are no files, "" when there are */
	bool dump_present;		/* the dump file exists now */
	/* The WEDGED uevent of the same hang (gpurobust_store_record_wedged()),
	 * linked when listed; wedged is "" without one (Linux before 6.14). */
	char wedged[64];		/* the recovery method: "none", "rebind"... */
	int32_t wedged_pid;
	char wedged_task[32];
};

/* A DRM "device wedged" uevent (drm_dev_wedged_event(), Linux 6.14+), as
 * udev hands it to `gpurobust wedged`. */
struct gpurobust_wedged {
	int64_t seen;			/* Unix time */
	char device[32];		/* the DRM device's PCI address */
	char node[32];			/* card0 */
	char method[64];		/* WEDGED=: "none" after a recovery, "rebind"... */
	int32_t pid;			/* PID=, 0 when absent */
	char task[32];			/* TASK= */
	bool owner_known;		/* the task's owner may read the record */
	uint32_t uid, gid;
};

/**
 * gpurobust_store_record_wedged() - keep a WEDGED uevent beside the crashes
 * @dir: the store directory
 * @wedged: the event
 *
 * The record is linked to the crash of the same hang when the crashes are
 * listed (same device, the same pid when both name one, within a minute),
 * whichever of the two arrived first.
 *
 * Return: 0 or -errno.
 */
int gpurobust_store_record_wedged(const char *dir, const struct gpurobust_wedged *wedged);

/**
 * gpurobust_store_entries() - the crashes whose entries the caller may read
 * @dir: the store directory (no database access: any user may call this)
 * @out: array to free(), oldest first
 * @n: its length
 * @hidden: entries the caller may not read (another user's), or NULL
 *
 * Entries being written, and files that are not entries, are skipped; an
 * entry that does not parse counts as hidden.
 *
 * Return: 0, -errno of opening dumps/, -ENOMEM.
 */
int gpurobust_store_entries(const char *dir, struct gpurobust_stored_crash **out, size_t *n,
			    size_t *hidden);

/**
 * gpurobust_store_read_file() - a stored file's contents, decompressed
 * @dir: the store directory
 * @file: a gpurobust_stored_crash dump_file or dmesg_file
 * @data: NUL-terminated contents to free()
 * @len: their length without the NUL
 *
 * Return: 0, -EINVAL for a name with a '/', -errno of open() (-EACCES for
 * another user's crash), -EBADMSG for a corrupt zstd frame, -EFBIG beyond
 * 1 GiB, -ENOMEM.
 */
int gpurobust_store_read_file(const char *dir, const char *file, char **data, size_t *len);

#ifdef __cplusplus
}
#endif

#endif
