// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The fleet store on a PostgreSQL server, through libpq. The connection
 * string is the user's, passed to libpq unchanged, so TLS and every other
 * libpq option work as libpq documents them. Statements are prepared once
 * per connection; errors map from their SQLSTATE.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "fleet-backend.h"

#define CACHED_STATEMENTS 8
/* Any constant: the key of the advisory lock that migrations hold. */
#define MIGRATION_LOCK_KEY "7410927716"

struct pg_fleet {
	PGconn *conn;
	const char *prepared[CACHED_STATEMENTS];	/* statement "grbN" is prepared[N] */
};

/* What a SQLSTATE means to a caller. */
static int pg_errno(const char *sqlstate)
{
	if (!sqlstate)
		return -ENOTCONN;
	if (!strncmp(sqlstate, "08", 2) || !strncmp(sqlstate, "57P", 3))
		return -ENOTCONN;	/* connection exception, server shut down */
	if (!strcmp(sqlstate, "42501") || !strncmp(sqlstate, "28", 2))
		return -EACCES;		/* insufficient privilege, authorization */
	if (!strcmp(sqlstate, "53100"))
		return -ENOSPC;		/* disk full */
	if (!strncmp(sqlstate, "53", 2))
		return -ENOMEM;		/* insufficient resources */
	if (!strcmp(sqlstate, "40001") || !strcmp(sqlstate, "40P01"))
		return -EBUSY;		/* serialization failure, deadlock */
	return -EIO;
}

/* The error of @res (or of the connection), as an errno and a message. */
static int pg_fail(struct gpurobust_fleet *fleet, PGresult *res)
{
	struct pg_fleet *pg = fleet->db;
	const char *message = res ? PQresultErrorMessage(res) : PQerrorMessage(pg->conn);
	const char *sqlstate = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	int err = PQstatus(pg->conn) == CONNECTION_BAD ? -ENOTCONN : pg_errno(sqlstate);
	size_t len = strcspn(message, "\n");

	grb_fleet_fail(fleet, err, "PostgreSQL: %.*s", (int)len,
		       len ? message : "the server closed the connection");
	PQclear(res);
	return err;
}

static int pg_exec(struct gpurobust_fleet *fleet, const char *sql)
{
	struct pg_fleet *pg = fleet->db;
	PGresult *res = PQexec(pg->conn, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(fleet, res);
	PQclear(res);
	return 0;
}

/* The name of @sql's prepared statement, preparing it the first time. */
static int pg_prepare(struct gpurobust_fleet *fleet, const struct grb_fleet_statement *st,
		      char name[16])
{
	struct pg_fleet *pg = fleet->db;
	unsigned int i;
	PGresult *res;

	for (i = 0; i < CACHED_STATEMENTS && pg->prepared[i]; i++) {
		if (pg->prepared[i] == st->sql) {
			snprintf(name, 16, "grb%u", i);
			return 0;
		}
	}
	if (i == CACHED_STATEMENTS) {
		name[0] = '\0';		/* unnamed: prepared by each call */
		return 0;
	}
	snprintf(name, 16, "grb%u", i);
	res = PQprepare(pg->conn, name, st->sql, st->nparams, NULL);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		return pg_fail(fleet, res);
	PQclear(res);
	pg->prepared[i] = st->sql;
	return 0;
}

static int pg_query(struct gpurobust_fleet *fleet, const struct grb_fleet_statement *st,
		    grb_fleet_row_fn row, void *ctx, uint64_t *changes)
{
	struct pg_fleet *pg = fleet->db;
	const char *cols[16];
	char name[16];
	PGresult *res;
	int r = pg_prepare(fleet, st, name);

	if (r)
		return r;
	res = name[0] ? PQexecPrepared(pg->conn, name, st->nparams, st->params, NULL, NULL, 0) :
			PQexecParams(pg->conn, st->sql, st->nparams, NULL, st->params, NULL,
				     NULL, 0);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		return pg_fail(fleet, res);
	for (int t = 0; t < PQntuples(res) && !r; t++) {
		int n = PQnfields(res) < 16 ? PQnfields(res) : 16;

		for (int i = 0; i < n; i++)
			cols[i] = PQgetisnull(res, t, i) ? NULL : PQgetvalue(res, t, i);
		r = row ? row(ctx, n, cols) : 0;
	}
	if (changes)
		*changes = strtoull(PQcmdTuples(res), NULL, 10);
	PQclear(res);
	return r;
}

static int pg_begin_write(struct gpurobust_fleet *fleet)
{
	return pg_exec(fleet, "BEGIN");
}

static int pg_lock_migrations(struct gpurobust_fleet *fleet)
{
	return pg_exec(fleet, "SELECT pg_advisory_xact_lock(" MIGRATION_LOCK_KEY ")");
}

/* A connection the server dropped (a restart, a failover) is made again;
 * its prepared statements went with it. */
static int pg_reconnect(struct gpurobust_fleet *fleet)
{
	struct pg_fleet *pg = fleet->db;

	if (PQstatus(pg->conn) == CONNECTION_OK)
		return 0;
	memset(pg->prepared, 0, sizeof(pg->prepared));
	PQreset(pg->conn);
	return PQstatus(pg->conn) == CONNECTION_OK ? 0 : pg_fail(fleet, NULL);
}

static void pg_close(struct gpurobust_fleet *fleet)
{
	struct pg_fleet *pg = fleet->db;

	if (!pg)
		return;
	PQfinish(pg->conn);
	free(pg);
	fleet->db = NULL;
}

static const struct grb_fleet_backend pg_backend = {
	.exec = pg_exec,
	.query = pg_query,
	.begin_write = pg_begin_write,
	.lock_migrations = pg_lock_migrations,
	.reconnect = pg_reconnect,
	.close = pg_close,
	.sql_has_schema_table = "SELECT COUNT(*) FROM pg_catalog.pg_tables"
				" WHERE tablename = 'gpurobust_schema'"
				" AND schemaname = ANY (current_schemas(false))",
	.postgresql = true,
};

/* No notices on stderr: "relation exists, skipping" is no news to a user. */
static void pg_quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

int grb_fleet_postgresql_open(struct gpurobust_fleet *fleet, const char *conninfo)
{
	struct pg_fleet *pg = calloc(1, sizeof(*pg));
	const char *message;

	if (!pg)
		return grb_fleet_fail(fleet, -ENOMEM, "out of memory");
	fleet->ops = &pg_backend;
	fleet->db = pg;
	pg->conn = PQconnectdb(conninfo);
	if (!pg->conn)
		return grb_fleet_fail(fleet, -ENOMEM, "out of memory");
	if (PQstatus(pg->conn) == CONNECTION_OK) {
		PQsetNoticeProcessor(pg->conn, pg_quiet, NULL);
		return 0;
	}
	/* libpq says why only in words: a refusal of who we are, or no server */
	message = PQerrorMessage(pg->conn);
	return grb_fleet_fail(fleet,
			      strstr(message, "authentication failed") ||
			      strstr(message, "does not exist") ||
			      strstr(message, "no password supplied") ||
			      strstr(message, "permission denied") ? -EACCES : -ECONNREFUSED,
			      "PostgreSQL: %.*s", (int)strcspn(message, "\n"), message);
}

/* Options whose values are secrets. */
static bool pg_secret(const char *keyword)
{
	return !strcmp(keyword, "password") || !strcmp(keyword, "sslpassword");
}

/*
 * A connection string can hide a password in many spellings (a URI's
 * user:secret@, percent-encoded keys, key = value with spaces, quotes):
 * libpq parses it, and a string with a secret is printed from what libpq
 * read, in libpq's key=value form, the secrets as ***. One without a secret
 * is printed as it is; one libpq cannot parse is not printed.
 */
void grb_fleet_postgresql_redact(const char *conninfo, char *buf, size_t size)
{
	PQconninfoOption *opts = PQconninfoParse(conninfo, NULL);
	bool secret = false;
	size_t at;

	if (!opts) {
		snprintf(buf, size, "postgresql:(a connection string libpq cannot parse)");
		return;
	}
	for (PQconninfoOption *o = opts; o->keyword; o++)
		secret |= o->val && pg_secret(o->keyword);
	if (!secret) {
		snprintf(buf, size, "%s%s", strstr(conninfo, "://") ? "" : "postgresql:",
			 conninfo);
		PQconninfoFree(opts);
		return;
	}
	at = (size_t)snprintf(buf, size, "postgresql:");
	for (PQconninfoOption *o = opts; o->keyword && at < size; o++) {
		if (!o->val)
			continue;
		if (pg_secret(o->keyword)) {
			at += (size_t)snprintf(buf + at, size - at, " %s=***", o->keyword);
			continue;
		}
		at += (size_t)snprintf(buf + at, size - at, " %s='", o->keyword);
		for (const char *c = o->val; *c && at < size; c++)
			at += (size_t)snprintf(buf + at, size - at, "%s%c",
					       *c == '\'' || *c == '\\' ? "\\" : "", *c);
		if (at < size)
			at += (size_t)snprintf(buf + at, size - at, "'");
	}
	PQconninfoFree(opts);
}
