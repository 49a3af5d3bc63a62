// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The crash store: a root-only directory with every dump and its kernel log
 * context as files, and a SQLite database that counts events per bucket.
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
#include <unistd.h>

#include <sqlite3.h>

#include <gpurobust/collector.h>

#include "common/export.h"

#define BUSY_TIMEOUT_MS		30000

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
};

static int sql_err(int rc)
{
	if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
		return -EBUSY;
	if (rc == SQLITE_NOMEM)
		return -ENOMEM;
	return -EIO;
}

static int exec(sqlite3 *db, const char *sql)
{
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sql_err(rc);
}

/* The one integer a query like "PRAGMA user_version" returns. */
static int query_int64(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return sql_err(rc);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*out = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sql_err(rc);
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
	int r;

	if (!dir || !out)
		return -EINVAL;
	*out = NULL;
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	if (stat(dir, &st))
		return -errno;
	/* dumps may hold a process's GPU memory: owner only */
	if (!S_ISDIR(st.st_mode) || (st.st_mode & 0077))
		return -EPERM;
	snprintf(path, sizeof(path), "%s/dumps", dir);
	if (mkdir(path, 0700) && errno != EEXIST)
		return -errno;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	snprintf(s->dir, sizeof(s->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/store.db", dir);
	if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
		gpurobust_store_close(s);
		return -EIO;
	}
	chmod(path, 0600);
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

/* Write @len bytes to a new file dumps/<seen>-<signature>-XXXXXX.<ext>. */
static int save_file(const struct gpurobust_store *s, int64_t seen, uint64_t signature,
		     const char *ext, const char *data, size_t len, char *path, size_t size)
{
	int fd, suffix = (int)strlen(ext) + 1;

	if (snprintf(path, size, "%s/dumps/%" PRId64 "-%016" PRIx64 "-XXXXXX.%s", s->dir, seen,
		     signature, ext) >= (int)size)
		return -ENAMETOOLONG;
	fd = mkostemps(path, suffix, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len) {
		ssize_t w = write(fd, data, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			int err = -errno;

			close(fd);
			unlink(path);
			return err;
		}
		data += w;
		len -= (size_t)w;
	}
	if (fsync(fd) || close(fd)) {
		unlink(path);
		return -EIO;
	}
	return 0;
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
		return sql_err(rc);

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
		return sql_err(rc);
	if (id)
		*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_store_record(struct gpurobust_store *s, const struct gpurobust_store_event *ev,
			   int64_t *id)
{
	char dump_path[PATH_MAX], dmesg_path[PATH_MAX], sig[17];
	bool have_dump, have_dmesg;
	int r;

	if (!s || !ev || !ev->report || (!ev->dump && ev->dump_len) ||
	    (!ev->dmesg && ev->dmesg_len))
		return -EINVAL;
	have_dump = ev->dump != NULL;
	have_dmesg = ev->dmesg != NULL;
	snprintf(sig, sizeof(sig), "%016" PRIx64, ev->report->signature);
	/* files first: a row never points at a file that is not there */
	if (have_dump && (r = save_file(s, ev->seen, ev->report->signature, "devcoredump",
					ev->dump, ev->dump_len, dump_path, sizeof(dump_path))))
		return r;
	if (have_dmesg && (r = save_file(s, ev->seen, ev->report->signature, "dmesg",
					 ev->dmesg, ev->dmesg_len, dmesg_path,
					 sizeof(dmesg_path)))) {
		if (have_dump)
			unlink(dump_path);
		return r;
	}
	r = exec(s->db, "BEGIN IMMEDIATE");
	if (!r) {
		r = insert(s, ev, sig, have_dump ? dump_path : NULL,
			   have_dmesg ? dmesg_path : NULL, id);
		r = r ? r : exec(s->db, "COMMIT");
		if (r)
			exec(s->db, "ROLLBACK");
	}
	if (r) {
		if (have_dump)
			unlink(dump_path);
		if (have_dmesg)
			unlink(dmesg_path);
	}
	return r;
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
		return sql_err(rc);
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
		return sql_err(rc);
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
