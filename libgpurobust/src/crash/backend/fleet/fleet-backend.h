/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* What the fleet store needs of a database: one statement at a time with
 * $N parameters, rows as text, transactions, and errors as errnos. */
#ifndef GPUROBUST_BACKEND_FLEET_H
#define GPUROBUST_BACKEND_FLEET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gpurobust/fleet.h>

struct gpurobust_fleet;

/* Called per row with its columns as text (NULL for SQL NULL); a non-zero
 * return stops the query with that value. */
typedef int (*grb_fleet_row_fn)(void *ctx, int ncols, const char *const *cols);

struct grb_fleet_statement {
	const char *sql;	/* a constant of the core: statements are cached by it */
	int nparams;
	const char *const *params;
	uint32_t int_params;	/* bit i: $i+1 is an integer */
};

struct grb_fleet_backend {
	/* Statements without parameters or rows, several in one text. */
	int (*exec)(struct gpurobust_fleet *fleet, const char *sql);
	/* One statement; @changes (or NULL) gets the rows it added. */
	int (*query)(struct gpurobust_fleet *fleet, const struct grb_fleet_statement *st,
		     grb_fleet_row_fn row, void *ctx, uint64_t *changes);
	/* A transaction that will write; taking the lock waits for others. */
	int (*begin_write)(struct gpurobust_fleet *fleet);
	/* Within it: serialise schema migrations between processes. */
	int (*lock_migrations)(struct gpurobust_fleet *fleet);
	/* Reconnect when the connection broke; 0 when it is fine. */
	int (*reconnect)(struct gpurobust_fleet *fleet);
	void (*close)(struct gpurobust_fleet *fleet);
	/* One row, one column: 1 when the table gpurobust_schema exists. */
	const char *sql_has_schema_table;
	bool postgresql;
};

struct gpurobust_fleet {
	const struct grb_fleet_backend *ops;
	void *db;
	int schema;
	char error[512];
};

int grb_fleet_sqlite_open(struct gpurobust_fleet *fleet, const char *path);
int grb_fleet_postgresql_open(struct gpurobust_fleet *fleet, const char *conninfo);
/* @conninfo as libpq reads it, with its secrets as "***" (see
 * gpurobust_fleet_uri_redact()). */
void grb_fleet_postgresql_redact(const char *conninfo, char *buf, size_t size);

/* printf into fleet->error; returns @err. */
int grb_fleet_fail(struct gpurobust_fleet *fleet, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
