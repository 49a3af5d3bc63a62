// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The fleet store in one SQLite file. Statements are prepared once per
 * handle and kept; "$N" is bound as "?N". Writers queue on the database's
 * lock (WAL, a 30 s busy timeout), so many senders may share one file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "fleet-backend.h"

#define BUSY_TIMEOUT_MS	30000
#define CACHED_STATEMENTS 8

struct sqlite_fleet {
	sqlite3 *db;
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[CACHED_STATEMENTS];
};

static int sqlite_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_DONE:
	case SQLITE_ROW:
		return 0;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CANTOPEN:
		return -ENOENT;
	default:
		return -EIO;
	}
}

static int sqlite_fail(struct gpurobust_fleet *fleet, int rc)
{
	struct sqlite_fleet *s = fleet->db;

	return grb_fleet_fail(fleet, sqlite_errno(rc), "SQLite: %s",
			      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
}

static int sqlite_exec(struct gpurobust_fleet *fleet, const char *sql)
{
	struct sqlite_fleet *s = fleet->db;
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	return rc == SQLITE_OK ? 0 : sqlite_fail(fleet, rc);
}

/* "$N" as "?N": the same numbers, in SQLite's spelling. */
static char *sqlite_spelling(const char *sql)
{
	char *copy = strdup(sql);

	for (char *p = copy; p && (p = strchr(p, '$')); p++)
		if (p[1] >= '1' && p[1] <= '9')
			*p = '?';
	return copy;
}

static int sqlite_prepare(struct gpurobust_fleet *fleet, const char *sql, sqlite3_stmt **out)
{
	struct sqlite_fleet *s = fleet->db;
	unsigned int i;
	char *text;
	int rc;

	for (i = 0; i < CACHED_STATEMENTS && s->cache[i].sql; i++) {
		if (s->cache[i].sql == sql) {
			*out = s->cache[i].stmt;
			return 0;
		}
	}
	text = sqlite_spelling(sql);
	if (!text)
		return grb_fleet_fail(fleet, -ENOMEM, "out of memory");
	rc = sqlite3_prepare_v2(s->db, text, -1, out, NULL);
	free(text);
	if (rc != SQLITE_OK)
		return sqlite_fail(fleet, rc);
	if (i < CACHED_STATEMENTS)
		s->cache[i].sql = sql, s->cache[i].stmt = *out;
	return 0;
}

static int sqlite_query(struct gpurobust_fleet *fleet, const struct grb_fleet_statement *st,
			grb_fleet_row_fn row, void *ctx, uint64_t *changes)
{
	struct sqlite_fleet *s = fleet->db;
	const char *cols[16];
	sqlite3_stmt *stmt;
	int r, rc;

	r = sqlite_prepare(fleet, st->sql, &stmt);
	if (r)
		return r;
	for (int i = 0; i < st->nparams && !r; i++) {
		if (st->int_params & (1u << i))
			rc = sqlite3_bind_int64(stmt, i + 1, strtoll(st->params[i], NULL, 10));
		else
			rc = sqlite3_bind_text(stmt, i + 1, st->params[i], -1, SQLITE_STATIC);
		r = rc == SQLITE_OK ? 0 : sqlite_fail(fleet, rc);
	}
	while (!r && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
		int n = sqlite3_column_count(stmt);

		if (n > 16)
			n = 16;
		for (int i = 0; i < n; i++)
			cols[i] = (const char *)sqlite3_column_text(stmt, i);
		r = row ? row(ctx, n, cols) : 0;
	}
	if (!r && rc != SQLITE_DONE)
		r = sqlite_fail(fleet, rc);
	if (!r && changes)
		*changes = (uint64_t)sqlite3_changes64(s->db);
	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	/* statements beyond the cache are the caller's once */
	for (unsigned int i = 0; i < CACHED_STATEMENTS; i++)
		if (s->cache[i].stmt == stmt)
			return r;
	sqlite3_finalize(stmt);
	return r;
}

static int sqlite_begin_write(struct gpurobust_fleet *fleet)
{
	return sqlite_exec(fleet, "BEGIN IMMEDIATE");
}

/* BEGIN IMMEDIATE took the database's write lock already. */
static int sqlite_lock_migrations(struct gpurobust_fleet *fleet)
{
	(void)fleet;
	return 0;
}

static int sqlite_reconnect(struct gpurobust_fleet *fleet)
{
	(void)fleet;
	return 0;
}

static void sqlite_close(struct gpurobust_fleet *fleet)
{
	struct sqlite_fleet *s = fleet->db;

	if (!s)
		return;
	for (unsigned int i = 0; i < CACHED_STATEMENTS; i++)
		sqlite3_finalize(s->cache[i].stmt);
	sqlite3_close(s->db);
	free(s);
	fleet->db = NULL;
}

static int text_row(void *ctx, int ncols, const char *const *cols)
{
	snprintf(ctx, 16, "%s", ncols > 0 && cols[0] ? cols[0] : "");
	return 0;
}

/*
 * Write-ahead logging, so that readers never wait for senders. The mode
 * stays with the file once set; setting it takes a lock that SQLite does
 * not wait for, so senders opening a new file at once try again, as long
 * as they would wait for a write.
 */
static int sqlite_use_wal(struct gpurobust_fleet *fleet)
{
	struct grb_fleet_statement mode = { .sql = "PRAGMA journal_mode" };
	const struct timespec pause = { 0, 10 * 1000 * 1000 };
	char journal[16] = "";
	int r;

	for (int waited = 0; waited < BUSY_TIMEOUT_MS; waited += 10) {
		r = sqlite_query(fleet, &mode, text_row, journal, NULL);
		if (!r && !strcmp(journal, "wal"))
			return 0;
		if (!r)
			r = sqlite_exec(fleet, "PRAGMA journal_mode = WAL");
		if (r != -EBUSY)
			return r;
		nanosleep(&pause, NULL);
	}
	return r;
}

static const struct grb_fleet_backend sqlite_backend = {
	.exec = sqlite_exec,
	.query = sqlite_query,
	.begin_write = sqlite_begin_write,
	.lock_migrations = sqlite_lock_migrations,
	.reconnect = sqlite_reconnect,
	.close = sqlite_close,
	.sql_has_schema_table = "SELECT COUNT(*) FROM sqlite_master"
				" WHERE type = 'table' AND name = 'gpurobust_schema'",
};

int grb_fleet_sqlite_open(struct gpurobust_fleet *fleet, const char *path)
{
	struct sqlite_fleet *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return grb_fleet_fail(fleet, -ENOMEM, "out of memory");
	fleet->ops = &sqlite_backend;
	fleet->db = s;
	if (!*path)
		return grb_fleet_fail(fleet, -EINVAL, "sqlite:// names no file");
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			     SQLITE_OPEN_NOMUTEX, NULL);
	if (rc != SQLITE_OK)
		return grb_fleet_fail(fleet, sqlite_errno(rc), "SQLite: cannot open %s: %s", path,
				      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	return sqlite_use_wal(fleet);
}
