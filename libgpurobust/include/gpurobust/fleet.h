/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: fleet store
 *
 * Where the crashes of many machines meet and are grouped
 * (Documentation/fleet.md). One interface, two backends chosen by a URI:
 *
 * - ``sqlite:///path/to/fleet.db``: one file, for one machine or a test;
 * - ``postgresql://…`` (or ``postgres://…``, or libpq's ``key=value``
 *   form after ``postgresql:``): a server the team already runs and backs
 *   up, through libpq; every libpq parameter (``sslmode``, ``sslrootcert``,
 *   ``passfile``…) passes through unchanged.
 *
 * Both run the same schema and the same versioned migrations; a store
 * whose schema is newer than this library refuses to open. A crash's id is
 * derived from its content, so sending the same crash again adds nothing:
 * retries lose and duplicate nothing. A machine that cannot reach the store
 * keeps its crashes in a local outbox and sends them later.
 */
#ifndef GPUROBUST_FLEET_H
#define GPUROBUST_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The schema this library writes and reads. */
#define GPUROBUST_FLEET_SCHEMA 1

/* One crash as a fleet keeps it. Strings are NUL-terminated, inert UTF-8
 * (no control bytes: gpurobust_text_escape() makes any text so); "" is
 * "unknown". */
struct gpurobust_fleet_crash {
	char crash_id[33];	/* gpurobust_fleet_crash_id() of the rest */
	char signature[17];	/* the group: 16 hex digits */
	char title[256];
	char machine_id[33];	/* /etc/machine-id */
	char pci_id[16];	/* "1002:744c" */
	char family[32];	/* amdgpu_drm.h's AMDGPU_FAMILY_ name: "NV", "GC_11_0_0"… */
	char vbios[64];
	char kernel[64];	/* uname -r */
	char series[32];	/* "series" when the dump has the kernel series' sections */
	char driver[64];	/* Mesa or other userspace driver version */
	char application[64];
	int64_t seen;		/* Unix time */
	char recovery[32], outcome[32];
	char breadcrumbs[256];	/* the active breadcrumb path */
};

/**
 * gpurobust_fleet_crash_id() - fill @crash->crash_id from its content
 * @crash: a crash whose other fields are set
 *
 * The id is the 128-bit XXH3 of every other field in a fixed encoding, so
 * two sends of one crash have one id and any difference gives another.
 */
void gpurobust_fleet_crash_id(struct gpurobust_fleet_crash *crash);

/**
 * gpurobust_fleet_uri_redact() - a store URI fit for a log line
 * @uri: a store URI
 * @buf: the URI as it is when libpq finds no secret in it; else libpq's
 *       reading of it in key=value form, ``password`` and ``sslpassword``
 *       as ``***``, however the URI spelled them (``user:secret@``, a
 *       percent-encoded key, spaces, quotes)
 * @size: its size; the result is cut to fit
 *
 * Return: @buf.
 */
const char *gpurobust_fleet_uri_redact(const char *uri, char *buf, size_t size);

struct gpurobust_fleet;

/**
 * gpurobust_fleet_open() - connect to a store and bring its schema up to date
 * @uri: ``sqlite://PATH`` or ``postgresql://…`` (see the DOC above)
 * @out: the store
 *
 * Runs the migrations the store lacks, one transaction each, serialised
 * between processes (SQLite's write lock, a PostgreSQL advisory lock). A
 * role that may not migrate opens an up-to-date store all the same.
 *
 * Return: 0; -EINVAL for a URI of no known scheme; -ECONNREFUSED when the
 * server cannot be reached; -EACCES when the role may not log in or may not
 * migrate an old schema; -EPROTONOSUPPORT when the store's schema is newer
 * than GPUROBUST_FLEET_SCHEMA; -ENOENT when a SQLite file's directory does
 * not exist; -EBUSY when another writer held SQLite's lock for 30 s; -EIO
 * for other database errors; -ENOMEM.
 * gpurobust_fleet_error() of a NULL store is then the reason in words.
 */
int gpurobust_fleet_open(const char *uri, struct gpurobust_fleet **out);
void gpurobust_fleet_close(struct gpurobust_fleet *fleet);

/* The last error in words ("" after success), for one thread's handle; of
 * NULL, the calling thread's last failed gpurobust_fleet_open(). */
const char *gpurobust_fleet_error(const struct gpurobust_fleet *fleet);

/* The schema version the store has. */
int gpurobust_fleet_schema(const struct gpurobust_fleet *fleet);

/**
 * gpurobust_fleet_send() - store crashes, each once
 * @fleet: the store
 * @crashes: crashes with their crash_id set, whose id and signature are
 *           lowercase hex and whose text is inert UTF-8
 * @n: how many
 * @added: how many were new (the rest were there already), or NULL
 *
 * One transaction: all are stored or none. A crash already stored is left
 * as it is. A PostgreSQL connection that was lost is re-established once
 * before the call fails.
 *
 * Return: 0; -EINVAL for a crash that is not so (the batch is refused
 * whole, gpurobust_fleet_error() names it); -ENOTCONN when the server
 * went away (send again later); -EACCES when the role may not insert; -EIO
 * for other database errors (a full disk: -ENOSPC).
 */
int gpurobust_fleet_send(struct gpurobust_fleet *fleet, const struct gpurobust_fleet_crash *crashes,
			 size_t n, size_t *added);

/* ---- what a triage team asks ---------------------------------------------- */

struct gpurobust_fleet_group {
	char signature[17];
	char title[256];
	uint64_t count;		/* crashes in the question's window */
	uint64_t machines;	/* distinct machine ids among them */
	int64_t first_seen, last_seen;	/* over the window */
};

struct gpurobust_fleet_query {
	int64_t since, until;	/* seen in [since, until); 0, 0: all time */
	size_t limit;		/* groups at most; 0: all */
	/* Only groups that no crash shows on a kernel, or a driver, older than
	 * this version: new since it. Versions compare by their numbers
	 * ("6.12.9" < "6.12.10" < "7.2"); NULL or "": no such filter. */
	const char *new_since_kernel;
	const char *new_since_driver;
};

/**
 * gpurobust_fleet_top() - the largest groups that match @query
 * @fleet: the store
 * @query: the window and filters
 * @out: array to free(), most crashes first (ties by signature)
 * @n: its length
 *
 * Return: 0, -ENOTCONN, -EACCES (a role that may not read), -EIO, -ENOMEM.
 */
int gpurobust_fleet_top(struct gpurobust_fleet *fleet, const struct gpurobust_fleet_query *query,
			struct gpurobust_fleet_group **out, size_t *n);

/* One row of a group's spread: how many of its crashes had this GPU,
 * kernel and driver. */
struct gpurobust_fleet_spread {
	char pci_id[16];
	char family[32];
	char kernel[64];
	char driver[64];
	uint64_t count;
	int64_t first_seen, last_seen;
};

/**
 * gpurobust_fleet_group_spread() - a group over GPUs and versions
 * @fleet: the store
 * @signature: the group
 * @group: the group's totals, first and last seen (count 0: no such group)
 * @out: array to free(), most crashes first
 * @n: its length
 *
 * Return: as gpurobust_fleet_top().
 */
int gpurobust_fleet_group_spread(struct gpurobust_fleet *fleet, const char *signature,
				 struct gpurobust_fleet_group *group,
				 struct gpurobust_fleet_spread **out, size_t *n);

/* The number of crashes stored. */
int gpurobust_fleet_count(struct gpurobust_fleet *fleet, uint64_t *crashes);

/* ---- the local outbox --------------------------------------------------- */

/**
 * gpurobust_fleet_outbox_add() - keep a crash until the store takes it
 * @dir: the outbox directory (created 0700)
 * @crash: a crash with its crash_id set
 *
 * Written to a temporary file, flushed and renamed to ``CRASH_ID.json``: a
 * crash is in the outbox whole or not at all. Adding one that is there
 * already is no error.
 *
 * Return: 0, -EINVAL (a crash gpurobust_fleet_send() would refuse), -errno
 * of writing it (-ENOSPC on a full disk, and nothing is left behind).
 */
int gpurobust_fleet_outbox_add(const char *dir, const struct gpurobust_fleet_crash *crash);

/**
 * gpurobust_fleet_outbox_flush() - send what the outbox holds
 * @dir: the outbox directory
 * @fleet: the store
 * @batch: crashes per transaction; 0: 500
 * @sent: crashes the store now has and the outbox no longer does
 * @bad: files that hold no crash gpurobust_fleet_send() takes, or are no
 *       regular files, moved aside to ``CRASH_ID.json.bad``; or NULL
 *
 * A crash leaves the outbox only after the transaction that stored it has
 * committed. A sender killed in between sends it again next time, which
 * the store takes as a no-op: nothing is lost and nothing is stored twice.
 * Several senders may flush one outbox at once.
 *
 * Return: 0 when the outbox is empty; else the error of the send that
 * stopped it (-ENOTCONN: try later), or -errno of removing a sent crash's
 * file (then nothing would ever remove it), with @sent counting what went
 * before.
 */
int gpurobust_fleet_outbox_flush(const char *dir, struct gpurobust_fleet *fleet, size_t batch,
				 size_t *sent, size_t *bad);

/* Crash to and from the outbox's JSON. Reading checks the crash as
 * gpurobust_fleet_send() does, and its id against its content. Return: 0,
 * -EBADMSG, -ENOMEM. */
char *gpurobust_fleet_crash_to_json(const struct gpurobust_fleet_crash *crash);
int gpurobust_fleet_crash_from_json(const char *json, size_t len,
				    struct gpurobust_fleet_crash *crash);

#ifdef __cplusplus
}
#endif

#endif
