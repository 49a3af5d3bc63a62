// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The crash store: a directory with every dump and its kernel log context
 * as files (store-files.c), and a root-only SQLite database that counts
 * events per bucket.
 *
 * Schema changes are migrations: migrations[i] turns schema i into i + 1,
 * and PRAGMA user_version records the schema a database has. Opening runs
 * the missing steps in one transaction each, so a crash mid-way leaves a
 * consistent older schema that the next open continues from.
 *
 * Many collectors may record at once (one watcher per GPU, or a burst of
 * dumps): each record is one IMMEDIATE transaction in WAL mode, and writers
 * wait for each other through SQLite's busy timeout instead of failing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include <gpurobust/collector.h>

#include "common/export.h"
#include "store-files.h"

#define BUSY_TIMEOUT_MS		30000
/* A reserved entry this old has no writer left: gpurobust-collect@.service
 * stops a collector after 5 minutes. */
#define ABANDONED_SEC		3600

static const char *const migrations[GPUROBUST_STORE_SCHEMA] = {
	/* 0 -> 1: buckets and the events in them */
	"CREATE TABLE buckets ("
	"  signature TEXT PRIMARY KEY,"
	"  title TEXT NOT NULL,"
	"  signature_key TEXT NOT NULL,"
	"  first_seen INTEGER NOT NULL,"
	"  last_seen INTEGER NOT NULL,"
	"  count INTEGER NOT NULL,"
	"  last_process TEXT NOT NULL,"
	"  last_pid INTEGER NOT NULL);"
	"CREATE TABLE events ("
	"  id INTEGER PRIMARY KEY,"
	"  signature TEXT NOT NULL REFERENCES buckets(signature),"
	"  seen INTEGER NOT NULL,"
	"  process TEXT NOT NULL,"
	"  pid INTEGER NOT NULL,"
	"  recovery TEXT NOT NULL,"
	"  outcome TEXT NOT NULL,"
	"  dump_path TEXT,"
	"  dmesg_path TEXT);"
	"CREATE INDEX events_by_signature ON events(signature);",
};

struct gpurobust_store {
	sqlite3 *db;
	char dir[PATH_MAX];
	char dumps[PATH_MAX];
	struct gpurobust_store_policy policy;
};

/* An SQLite result code as -errno; a full disk is -ENOSPC, whether SQLite
 * says SQLITE_FULL or an I/O error that ENOSPC caused. */
static int sql_err(sqlite3 *db, int rc)
{
	int sys = db ? sqlite3_system_errno(db) : 0;

	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return -EBUSY;
	if (rc == SQLITE_NOMEM)
		return -ENOMEM;
	if (rc == SQLITE_FULL)
		return -ENOSPC;
	/* the system errno is that of the handle's last failed I/O call:
	 * only an I/O error now is that call's */
	if (((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_CANTOPEN) &&
	    (sys == ENOSPC || sys == EDQUOT))
		return -ENOSPC;
	return -EIO;
}

static int exec(sqlite3 *db, const char *sql)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sql_err(db, rc);
}

/* The one integer a query like "PRAGMA user_version" returns. */
static int query_int64(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return sql_err(db, rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sql_err(db, rc);
}

/* Bring the schema up to GPUROBUST_STORE_SCHEMA, one step per transaction.
 * The version is read again inside each transaction, so two processes that
 * open a new store at once do not both run a step. */
static int migrate(sqlite3 *db)
{
	for (;;) {
		char bump[48];
		int64_t version;
		int r;

		r = exec(db, "BEGIN IMMEDIATE");
		if (r)
			return r;
		r = query_int64(db, "PRAGMA user_version", &version);
		if (!r && version > GPUROBUST_STORE_SCHEMA)
			r = -EPROTONOSUPPORT;
		if (r || version == GPUROBUST_STORE_SCHEMA) {
			exec(db, r ? "ROLLBACK" : "COMMIT");
			return r;
		}
		snprintf(bump, sizeof(bump), "PRAGMA user_version = %" PRId64, version + 1);
		r = exec(db, migrations[version]);
		if (!r)
			r = exec(db, bump);
		if (!r)
			r = exec(db, "COMMIT");
		if (r) {
			exec(db, "ROLLBACK");
			return r;
		}
	}
}

GPUROBUST_EXPORT
int gpurobust_store_open(const char *dir, struct gpurobust_store **out)
{
	struct gpurobust_store *s;
	char path[PATH_MAX];
	struct stat st;
	int fd, r;

	if (!dir || !out)
		return -EINVAL;
	*out = NULL;
	/* room below it for dumps/ and a crash's file names */
	if (strlen(dir) > PATH_MAX - 256)
		return -ENAMETOOLONG;
	r = grb_store_mkdir(dir);
	if (r)
		return r;
	if (stat(dir, &st))
		return -errno;
	/* Each file guards itself (the database is the owner's, a crash's
	 * files its process owner's group's); a directory others may write
	 * to would let them replace any of it. */
	if (!S_ISDIR(st.st_mode) || (st.st_mode & 0022))
		return -EPERM;
	snprintf(path, sizeof(path), "%s/dumps", dir);
	r = grb_store_mkdir(path);
	if (r)
		return r;
	if (stat(path, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode) || (st.st_mode & 0022))
		return -EPERM;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(s->dumps, sizeof(s->dumps), "%s", path);
	s->policy = (struct gpurobust_store_policy){ .keep_files = true, .compress = true };
	snprintf(path, sizeof(path), "%s/store.db", dir);
	/* created 0600 whatever the umask; SQLite gives its journal files the
	 * database's mode */
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, 0600)) {
		r = -errno;
		if (fd >= 0)
			close(fd);
		free(s);
		return r;
	}
	close(fd);
	r = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_FULLMUTEX, NULL);
	if (r != SQLITE_OK) {
		r = sql_err(s->db, r);
		gpurobust_store_close(s);
		return r;
	}
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	/* Processes that open a new store at once all switch it to WAL, and
	 * SQLite fails a switch that races another with SQLITE_BUSY at once,
	 * without its busy handler. The switch is idempotent: retry it within
	 * the same time budget. */
	for (int waited_ms = 0;; waited_ms += 10) {
		r = exec(s->db, "PRAGMA journal_mode = WAL");
		if (r != -EBUSY || waited_ms >= BUSY_TIMEOUT_MS)
			break;
		usleep(10 * 1000);
	}
	if (!r)
		r = exec(s->db, "PRAGMA foreign_keys = ON");
	if (!r)
		r = migrate(s->db);
	if (r) {
		gpurobust_store_close(s);
		return r;
	}
	*out = s;
	return 0;
}

GPUROBUST_EXPORT
void gpurobust_store_close(struct gpurobust_store *s)
{
	if (!s)
		return;
	sqlite3_close(s->db);
	free(s);
}

static int bind_text(sqlite3_stmt *st, int i, const char *v)
{
	return sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
}

/* The bucket upsert and the event insert, inside the caller's transaction. */
static int insert(struct gpurobust_store *s, const struct gpurobust_store_event *ev,
		  const char *sig, const char *dump_path, const char *dmesg_path, int64_t *id)
{
	static const char upsert[] =
		"INSERT INTO buckets (signature, title, signature_key, first_seen, last_seen,"
		" count, last_process, last_pid) VALUES (?1, ?2, ?3, ?4, ?4, 1, ?5, ?6)"
		" ON CONFLICT(signature) DO UPDATE SET count = count + 1,"
		" first_seen = min(first_seen, ?4), last_seen = max(last_seen, ?4),"
		" last_process = ?5, last_pid = ?6";
	static const char add_event[] =
		"INSERT INTO events (signature, seen, process, pid, recovery, outcome,"
		" dump_path, dmesg_path) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";
	const struct gpurobust_report *r = ev->report;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = sqlite3_prepare_v2(s->db, upsert, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		bind_text(st, 1, sig);
		bind_text(st, 2, r->title);
		bind_text(st, 3, r->signature_key);
		sqlite3_bind_int64(st, 4, ev->seen);
		bind_text(st, 5, r->process);
		sqlite3_bind_int(st, 6, r->pid);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(s->db, rc);

	rc = sqlite3_prepare_v2(s->db, add_event, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		bind_text(st, 1, sig);
		sqlite3_bind_int64(st, 2, ev->seen);
		bind_text(st, 3, r->process);
		sqlite3_bind_int(st, 4, r->pid);
		bind_text(st, 5, gpurobust_recovery_type_name(r->type));
		bind_text(st, 6, gpurobust_recovery_outcome_name(r->outcome));
		if (dump_path)
			bind_text(st, 7, dump_path);
		if (dmesg_path)
			bind_text(st, 8, dmesg_path);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return sql_err(s->db, rc);
	if (id)
		*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

/* @file's path in dumps/. Names are short and the store's directory was
 * checked at open, so this never truncates; the check keeps it so. */
static char *path_in(const struct gpurobust_store *s, const char *file, char *buf)
{
	if (snprintf(buf, PATH_MAX, "%s/%s", s->dumps, file) >= PATH_MAX)
		*buf = '\0';
	return buf;
}

GPUROBUST_EXPORT
void gpurobust_store_set_policy(struct gpurobust_store *s, const struct gpurobust_store_policy *p)
{
	if (s && p)
		s->policy = *p;
}

static uint64_t free_bytes(const struct gpurobust_store *s)
{
	struct statvfs sv;

	return statvfs(s->dumps, &sv) ? UINT64_MAX : (uint64_t)sv.f_bavail * sv.f_frsize;
}

/* Which limit the files break now, or NULL. */
static const char *broken_limit(const struct gpurobust_store *s)
{
	const struct gpurobust_store_policy *p = &s->policy;
	uint64_t used;

	if (p->max_use && !grb_store_usage(s->dumps, &used) && used > p->max_use)
		return "removed: MaxUse";
	if (p->keep_free && free_bytes(s) < p->keep_free)
		return "removed: KeepFree";
	return NULL;
}

static int forget_files(struct gpurobust_store *s, int64_t id)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, "UPDATE events SET dump_path = NULL,"
				    " dmesg_path = NULL WHERE id = ?1", -1, &st, NULL);

	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_err(s->db, rc);
}

/* Remove the files of the oldest crash that has any and is older than
 * @keep (the crash being recorded). Its entry and its row stay, and say
 * @why: the crash is still counted. Collectors recording at once each
 * spare the others' crashes as new as theirs: none strips another's new
 * dump to make room for its own. Return: 1 when files were removed, 0 when
 * no older crash has any left, -errno. */
static int remove_oldest_files(struct gpurobust_store *s,
			       const struct gpurobust_stored_crash *keep, const char *why)
{
	struct gpurobust_stored_crash *list, *c = NULL;
	char path[PATH_MAX];
	size_t n;
	int r = gpurobust_store_entries(s->dir, &list, &n, NULL);

	if (r)
		return r;
	for (size_t i = 0; i < n && !c; i++)
		if ((*list[i].dump_file || *list[i].dmesg_file) && list[i].seen < keep->seen &&
		    strcmp(list[i].name, keep->name))
			c = &list[i];
	if (!c) {
		free(list);
		return 0;
	}
	if (*c->dump_file)
		unlink(path_in(s, c->dump_file, path));
	if (*c->dmesg_file)
		unlink(path_in(s, c->dmesg_file, path));
	*c->dump_file = *c->dmesg_file = '\0';
	snprintf(c->not_kept, sizeof(c->not_kept), "%s", why);
	r = grb_store_write_entry(s->dumps, c);
	if (!r)
		r = forget_files(s, c->id);
	free(list);
	return r ? r : 1;
}

/* Remove older crashes' files, oldest first, until the limits hold. */
static void apply_limits(struct gpurobust_store *s, const struct gpurobust_stored_crash *keep)
{
	const char *why;

	while ((why = broken_limit(s)) && remove_oldest_files(s, keep, why) > 0)
		;
}

/* Keep one file of crash @c, as "<name>.<ext>[.zst]", when the policy
 * says so. A full file system first costs the oldest crashes their files;
 * when that is not enough the crash goes without, and says so. Return: 0
 * (with @file set, or "" when not kept), or -errno of writing. */
static int keep_file(struct gpurobust_store *s, struct gpurobust_stored_crash *c,
		     const char *ext, const char *data, size_t len, char *file, size_t size)
{
	char path[PATH_MAX];
	int r;

	*file = '\0';
	if (!data)
		return 0;
	if (!s->policy.keep_files) {
		snprintf(c->not_kept, sizeof(c->not_kept), "Storage=none");
		return 0;
	}
	if (!strcmp(ext, "devcoredump") && s->policy.dump_size_max &&
	    len > s->policy.dump_size_max) {
		snprintf(c->not_kept, sizeof(c->not_kept), "larger than DumpSizeMax");
		return 0;
	}
	if (snprintf(file, size, "%s.%s%s", c->name, ext,
		     s->policy.compress ? ".zst" : "") >= (int)size)
		return -ENAMETOOLONG;
	path_in(s, file, path);
	r = grb_store_write_file(path, data, len, s->policy.compress, c);
	while ((r == -ENOSPC || r == -EDQUOT) &&
	       remove_oldest_files(s, c, "removed: disk full") > 0)
		r = grb_store_write_file(path, data, len, s->policy.compress, c);
	if (r == -ENOSPC || r == -EDQUOT) {
		snprintf(c->not_kept, sizeof(c->not_kept), "no space left");
		*file = '\0';
		return 0;
	}
	if (r)
		*file = '\0';
	return r;
}

static void unlink_in(const struct gpurobust_store *s, const char *file)
{
	char path[PATH_MAX];

	if (*file)
		unlink(path_in(s, file, path));
}

/* Reserve the crash's name with an empty entry (listings skip it until it
 * is written). Return: 0 or -errno. */
static int reserve_name(struct gpurobust_store *s, struct gpurobust_stored_crash *c)
{
	char path[PATH_MAX];
	int fd, err;

	if (snprintf(path, sizeof(path), "%s/%" PRId64 "-%s-XXXXXX.json", s->dumps, c->seen,
		     c->signature) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemps(path, strlen(".json"), O_CLOEXEC);
	err = fd < 0 ? errno : 0;
	while (fd < 0 && (err == ENOSPC || err == EDQUOT) &&
	       remove_oldest_files(s, c, "removed: disk full") > 0) {
		fd = mkostemps(path, strlen(".json"), O_CLOEXEC);
		err = fd < 0 ? errno : 0;
	}
	if (fd < 0)
		return -err;
	close(fd);
	*strrchr(path, '.') = '\0';
	snprintf(c->name, sizeof(c->name), "%s", strrchr(path, '/') + 1);
	return 0;
}

static void describe(struct gpurobust_stored_crash *c, const struct gpurobust_store_event *ev)
{
	const struct gpurobust_report *r = ev->report;

	c->seen = ev->seen;
	c->pid = r->pid;
	c->owner_known = ev->owner_known;
	c->uid = ev->uid;
	c->gid = ev->gid;
	snprintf(c->process, sizeof(c->process), "%s", r->process);
	snprintf(c->signature, sizeof(c->signature), "%016" PRIx64, r->signature);
	snprintf(c->title, sizeof(c->title), "%s", r->title);
	snprintf(c->recovery, sizeof(c->recovery), "%s", gpurobust_recovery_type_name(r->type));
	snprintf(c->outcome, sizeof(c->outcome), "%s",
		 gpurobust_recovery_outcome_name(r->outcome));
	if (ev->device)
		snprintf(c->device, sizeof(c->device), "%s", ev->device);
	else if (r->n_hangs)
		snprintf(c->device, sizeof(c->device), "%s", r->hangs[r->headline].device);
	snprintf(c->doing, sizeof(c->doing), "%s", r->doing);
	c->dump_size = ev->dump_len;
}

/* The row and the entry, in one transaction: a listed entry always has
 * its row, and a row its entry. */
static int commit_crash(struct gpurobust_store *s, const struct gpurobust_store_event *ev,
			struct gpurobust_stored_crash *c)
{
	char dump_path[PATH_MAX], dmesg_path[PATH_MAX];
	int r;

	path_in(s, c->dump_file, dump_path);
	path_in(s, c->dmesg_file, dmesg_path);
	r = exec(s->db, "BEGIN IMMEDIATE");
	if (r)
		return r;
	r = insert(s, ev, c->signature, *c->dump_file ? dump_path : NULL,
		   *c->dmesg_file ? dmesg_path : NULL, &c->id);
	if (!r) {
		r = grb_store_write_entry(s->dumps, c);
		if ((r == -ENOSPC || r == -EDQUOT) &&
		    remove_oldest_files(s, c, "removed: disk full") > 0)
			r = grb_store_write_entry(s->dumps, c);
	}
	r = r ? r : exec(s->db, "COMMIT");
	if (r)
		exec(s->db, "ROLLBACK");
	return r;
}

GPUROBUST_EXPORT
int gpurobust_store_record(struct gpurobust_store *s, const struct gpurobust_store_event *ev,
			   struct gpurobust_stored_crash *out)
{
	struct gpurobust_stored_crash c = { 0 };
	char entry[PATH_MAX];
	int r;

	if (!s || !ev || !ev->report || (!ev->dump && ev->dump_len) ||
	    (!ev->dmesg && ev->dmesg_len))
		return -EINVAL;
	describe(&c, ev);
	r = reserve_name(s, &c);
	if (r)
		return r;
	r = keep_file(s, &c, "devcoredump", ev->dump, ev->dump_len, c.dump_file,
		      sizeof(c.dump_file));
	if (!r)
		r = keep_file(s, &c, "dmesg", ev->dmesg, ev->dmesg_len, c.dmesg_file,
			      sizeof(c.dmesg_file));
	if (!r)
		r = commit_crash(s, ev, &c);
	/* the database needs room too: older crashes' files give it way, and
	 * then this crash's own, so that it is at least counted */
	while (r == -ENOSPC && remove_oldest_files(s, &c, "removed: disk full") > 0)
		r = commit_crash(s, ev, &c);
	if (r == -ENOSPC && (*c.dump_file || *c.dmesg_file)) {
		unlink_in(s, c.dump_file);
		unlink_in(s, c.dmesg_file);
		*c.dump_file = *c.dmesg_file = '\0';
		snprintf(c.not_kept, sizeof(c.not_kept), "no space left");
		r = commit_crash(s, ev, &c);
	}
	if (r) {
		unlink_in(s, c.dump_file);
		unlink_in(s, c.dmesg_file);
		if (snprintf(entry, sizeof(entry), "%s/%s.json", s->dumps, c.name) <
		    (int)sizeof(entry))
			unlink(entry);
		return r;
	}
	apply_limits(s, &c);
	grb_store_sweep_abandoned(s->dumps, (int64_t)time(NULL) - ABANDONED_SEC);
	c.dump_present = *c.dump_file;
	if (out)
		*out = c;
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_store_buckets(struct gpurobust_store *s, struct gpurobust_bucket **out, size_t *n)
{
	static const char query[] =
		"SELECT signature, title, first_seen, last_seen, count, last_process, last_pid"
		" FROM buckets ORDER BY count DESC, first_seen ASC, signature ASC";
	struct gpurobust_bucket *list = NULL;
	size_t count = 0, cap = 0;
	sqlite3_stmt *st;
	int rc;

	if (!s || !out || !n)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	rc = sqlite3_prepare_v2(s->db, query, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_err(s->db, rc);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct gpurobust_bucket *b;
		const unsigned char *t;

		if (count == cap) {
			struct gpurobust_bucket *nl;

			cap = cap ? cap * 2 : 16;
			nl = realloc(list, cap * sizeof(*nl));
			if (!nl) {
				free(list);
				sqlite3_finalize(st);
				return -ENOMEM;
			}
			list = nl;
		}
		b = &list[count++];
		memset(b, 0, sizeof(*b));
		if ((t = sqlite3_column_text(st, 0)))
			snprintf(b->signature, sizeof(b->signature), "%s", t);
		if ((t = sqlite3_column_text(st, 1)))
			snprintf(b->title, sizeof(b->title), "%s", t);
		b->first_seen = sqlite3_column_int64(st, 2);
		b->last_seen = sqlite3_column_int64(st, 3);
		b->count = (uint64_t)sqlite3_column_int64(st, 4);
		if ((t = sqlite3_column_text(st, 5)))
			snprintf(b->last_process, sizeof(b->last_process), "%s", t);
		b->last_pid = sqlite3_column_int(st, 6);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(list);
		return sql_err(s->db, rc);
	}
	*out = list;
	*n = count;
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_store_count(struct gpurobust_store *s, uint64_t *events)
{
	int64_t n;
	int r;

	if (!s || !events)
		return -EINVAL;
	r = query_int64(s->db, "SELECT count(*) FROM events", &n);
	if (!r)
		*events = (uint64_t)n;
	return r;
}
