// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The fleet store over either backend: opening by URI, the migrations,
 * sending, and the triage queries. The SQL is the core's
 * (core/fleet/schema.c); a backend only runs it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/export.h"
#include "crash/core/fleet/fleet-core.h"
#include "fleet-backend.h"

/* The reason the calling thread's last open failed. */
static _Thread_local char open_error[512];

int grb_fleet_fail(struct gpurobust_fleet *fleet, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(fleet->error, sizeof(fleet->error), fmt, ap);
	va_end(ap);
	return err;
}

GPUROBUST_EXPORT
const char *gpurobust_fleet_error(const struct gpurobust_fleet *fleet)
{
	return fleet ? fleet->error : open_error;
}

GPUROBUST_EXPORT
const char *gpurobust_fleet_uri_redact(const char *uri, char *buf, size_t size)
{
	if (!size)
		return buf;
	if (!strncmp(uri, "postgresql://", 13) || !strncmp(uri, "postgres://", 11))
		grb_fleet_postgresql_redact(uri, buf, size);
	else if (!strncmp(uri, "postgresql:", 11))
		grb_fleet_postgresql_redact(uri + 11, buf, size);
	else
		snprintf(buf, size, "%s", uri);
	return buf;
}

GPUROBUST_EXPORT
int gpurobust_fleet_schema(const struct gpurobust_fleet *fleet)
{
	return fleet->schema;
}

static int int_row(void *ctx, int ncols, const char *const *cols)
{
	*(int64_t *)ctx = ncols > 0 && cols[0] ? strtoll(cols[0], NULL, 10) : 0;
	return 0;
}

/* The store's schema version; 0 for a database without the table. Asked
 * without an error for a missing table, which would end a PostgreSQL
 * transaction. */
static int read_schema(struct gpurobust_fleet *fleet, bool *has_table)
{
	struct grb_fleet_statement exists = { .sql = fleet->ops->sql_has_schema_table };
	struct grb_fleet_statement st = { .sql = grb_fleet_sql_schema_version };
	int64_t tables = 0, version = 0;
	int r = fleet->ops->query(fleet, &exists, int_row, &tables, NULL);

	*has_table = tables > 0;
	if (!r && *has_table)
		r = fleet->ops->query(fleet, &st, int_row, &version, NULL);
	fleet->schema = (int)version;
	return r;
}

static int rollback(struct gpurobust_fleet *fleet, int r)
{
	char error[sizeof(fleet->error)];

	memcpy(error, fleet->error, sizeof(error));
	fleet->ops->exec(fleet, "ROLLBACK");
	memcpy(fleet->error, error, sizeof(error));
	return r;
}

static int commit(struct gpurobust_fleet *fleet)
{
	int r = fleet->ops->exec(fleet, "COMMIT");

	return r ? rollback(fleet, r) : 0;
}

/* Bring the schema up to GPUROBUST_FLEET_SCHEMA in one transaction, which
 * holds the migration lock: of several processes opening an old store at
 * once, one migrates and the others find it done. */
static int migrate(struct gpurobust_fleet *fleet)
{
	char applied[24], version[24];
	const char *params[2] = { version, applied };
	struct grb_fleet_statement record = {
		.sql = grb_fleet_sql_schema_record,
		.nparams = 2, .params = params, .int_params = 3,
	};
	bool has_table;
	int r;

	r = read_schema(fleet, &has_table);
	if (r || fleet->schema >= GPUROBUST_FLEET_SCHEMA)
		goto check;
	r = fleet->ops->begin_write(fleet);
	if (!r)
		r = fleet->ops->lock_migrations(fleet);
	if (!r)
		r = read_schema(fleet, &has_table);
	if (!r && !has_table)
		r = fleet->ops->exec(fleet, grb_fleet_sql_schema_table);
	snprintf(applied, sizeof(applied), "%lld", (long long)time(NULL));
	for (int step = fleet->schema; !r && step < GPUROBUST_FLEET_SCHEMA; step++) {
		const struct grb_fleet_migration *m = &grb_fleet_migrations[step];

		r = fleet->ops->exec(fleet, m->sql);
		if (!r && m->postgresql_only && fleet->ops->postgresql)
			r = fleet->ops->exec(fleet, m->postgresql_only);
		snprintf(version, sizeof(version), "%d", step + 1);
		if (!r)
			r = fleet->ops->query(fleet, &record, NULL, NULL, NULL);
	}
	if (r == -EACCES) {
		char why[sizeof(fleet->error)];

		memcpy(why, fleet->error, sizeof(why));
		grb_fleet_fail(fleet, r, "the store's schema is %d, this gpurobust's %d, and this role may not migrate it (%s)",
			       fleet->schema, GPUROBUST_FLEET_SCHEMA, why);
	}
	if (r)
		return rollback(fleet, r);
	r = commit(fleet);
	if (!r)
		fleet->schema = GPUROBUST_FLEET_SCHEMA;
check:
	if (!r && fleet->schema > GPUROBUST_FLEET_SCHEMA)
		r = grb_fleet_fail(fleet, -EPROTONOSUPPORT,
				   "the store's schema is %d, newer than this gpurobust's %d: use a newer gpurobust",
				   fleet->schema, GPUROBUST_FLEET_SCHEMA);
	return r;
}

GPUROBUST_EXPORT
int gpurobust_fleet_open(const char *uri, struct gpurobust_fleet **out)
{
	struct gpurobust_fleet *fleet;
	int r;

	open_error[0] = '\0';
	if (!uri || !out) {
		snprintf(open_error, sizeof(open_error), "no store URI");
		return -EINVAL;
	}
	*out = NULL;
	fleet = calloc(1, sizeof(*fleet));
	if (!fleet) {
		snprintf(open_error, sizeof(open_error), "out of memory");
		return -ENOMEM;
	}
	if (!strncmp(uri, "sqlite://", 9))
		r = grb_fleet_sqlite_open(fleet, uri + 9);
	else if (!strncmp(uri, "postgresql://", 13) || !strncmp(uri, "postgres://", 11))
		r = grb_fleet_postgresql_open(fleet, uri);
	else if (!strncmp(uri, "postgresql:", 11))
		r = grb_fleet_postgresql_open(fleet, uri + 11);
	else
		r = grb_fleet_fail(fleet, -EINVAL,
				   "not a store URI: it starts with sqlite:// or postgresql://");
	if (!r)
		r = migrate(fleet);
	if (r) {
		memcpy(open_error, fleet->error, sizeof(open_error));
		gpurobust_fleet_close(fleet);
		return r;
	}
	*out = fleet;
	return 0;
}

GPUROBUST_EXPORT
void gpurobust_fleet_close(struct gpurobust_fleet *fleet)
{
	if (!fleet)
		return;
	if (fleet->ops)
		fleet->ops->close(fleet);
	free(fleet);
}

static int send_once(struct gpurobust_fleet *fleet, const struct gpurobust_fleet_crash *crashes,
		     size_t n, size_t *added)
{
	struct grb_fleet_crash_row row;
	struct grb_fleet_statement st = {
		.sql = grb_fleet_sql_insert, .nparams = GRB_FLEET_CRASH_PARAMS,
		.params = row.params, .int_params = GRB_FLEET_CRASH_INT_PARAMS,
	};
	uint64_t changes;
	int r = fleet->ops->begin_write(fleet);

	*added = 0;
	for (size_t i = 0; i < n && !r; i++) {
		grb_fleet_crash_params(&crashes[i], &row);
		r = fleet->ops->query(fleet, &st, NULL, NULL, &changes);
		*added += changes;
	}
	if (r) {
		*added = 0;
		return rollback(fleet, r);
	}
	r = commit(fleet);
	if (r)
		*added = 0;
	return r;
}

GPUROBUST_EXPORT
int gpurobust_fleet_send(struct gpurobust_fleet *fleet, const struct gpurobust_fleet_crash *crashes,
			 size_t n, size_t *added)
{
	size_t count = 0;
	int r;

	if (added)
		*added = 0;
	fleet->error[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		const char *field;

		if (grb_fleet_crash_check(&crashes[i], &field))
			return grb_fleet_fail(fleet, -EINVAL, "crash %zu: its %s is %s", i, field,
					      !strcmp(field, "crash_id") || !strcmp(field, "signature") ?
					      "not lowercase hex of its length" :
					      "not inert UTF-8 text");
	}
	r = fleet->ops->reconnect(fleet);
	if (!r)
		r = send_once(fleet, crashes, n, &count);
	/* a server that restarted since: once more, on a new connection */
	if (r == -ENOTCONN && !fleet->ops->reconnect(fleet))
		r = send_once(fleet, crashes, n, &count);
	if (!r)
		fleet->error[0] = '\0';
	if (added)
		*added = count;
	return r;
}

/* ---- triage ------------------------------------------------------------- */

struct rows {
	void *items;
	size_t n, cap, size;
	int (*fill)(void *item, int ncols, const char *const *cols);
};

static int collect_row(void *ctx, int ncols, const char *const *cols)
{
	struct rows *rows = ctx;

	if (rows->n == rows->cap) {
		size_t cap = rows->cap ? 2 * rows->cap : 16;
		void *items = realloc(rows->items, cap * rows->size);

		if (!items)
			return -ENOMEM;
		rows->items = items;
		rows->cap = cap;
	}
	memset((char *)rows->items + rows->n * rows->size, 0, rows->size);
	if (rows->fill((char *)rows->items + rows->n * rows->size, ncols, cols))
		return -EIO;
	rows->n++;
	return 0;
}

static void copy_col(char *out, size_t size, const char *col)
{
	snprintf(out, size, "%s", col ? col : "");
}

static int fill_group(void *item, int ncols, const char *const *cols)
{
	struct gpurobust_fleet_group *g = item;

	if (ncols != 6)
		return -EIO;
	copy_col(g->signature, sizeof(g->signature), cols[0]);
	copy_col(g->title, sizeof(g->title), cols[1]);
	g->count = strtoull(cols[2] ? cols[2] : "0", NULL, 10);
	g->machines = strtoull(cols[3] ? cols[3] : "0", NULL, 10);
	g->first_seen = strtoll(cols[4] ? cols[4] : "0", NULL, 10);
	g->last_seen = strtoll(cols[5] ? cols[5] : "0", NULL, 10);
	return 0;
}

static int fill_spread(void *item, int ncols, const char *const *cols)
{
	struct gpurobust_fleet_spread *s = item;

	if (ncols != 7)
		return -EIO;
	copy_col(s->pci_id, sizeof(s->pci_id), cols[0]);
	copy_col(s->family, sizeof(s->family), cols[1]);
	copy_col(s->kernel, sizeof(s->kernel), cols[2]);
	copy_col(s->driver, sizeof(s->driver), cols[3]);
	s->count = strtoull(cols[4] ? cols[4] : "0", NULL, 10);
	s->first_seen = strtoll(cols[5] ? cols[5] : "0", NULL, 10);
	s->last_seen = strtoll(cols[6] ? cols[6] : "0", NULL, 10);
	return 0;
}

static int run_rows(struct gpurobust_fleet *fleet, const struct grb_fleet_statement *st,
		    struct rows *rows)
{
	int r;

	fleet->error[0] = '\0';
	r = fleet->ops->reconnect(fleet);

	if (!r)
		r = fleet->ops->query(fleet, st, collect_row, rows, NULL);
	if (r == -EIO && !fleet->error[0])
		r = grb_fleet_fail(fleet, r, "the store answered with rows of another shape");
	if (r) {
		free(rows->items);
		rows->items = NULL;
		rows->n = 0;
	}
	return r;
}

GPUROBUST_EXPORT
int gpurobust_fleet_top(struct gpurobust_fleet *fleet, const struct gpurobust_fleet_query *query,
			struct gpurobust_fleet_group **out, size_t *n)
{
	char since[24], until[24], limit[24];
	char kernel_key[GRB_FLEET_KEY_SIZE] = "", driver_key[GRB_FLEET_KEY_SIZE] = "";
	const char *params[5] = { since, until, kernel_key, driver_key, limit };
	struct grb_fleet_statement st = {
		.sql = grb_fleet_sql_top, .nparams = 5, .params = params,
		.int_params = 1u << 0 | 1u << 1 | 1u << 4,
	};
	struct rows rows = { .size = sizeof(**out), .fill = fill_group };
	bool all_time = !query->since && !query->until;
	int r;

	snprintf(since, sizeof(since), "%" PRId64, all_time ? INT64_MIN : query->since);
	snprintf(until, sizeof(until), "%" PRId64, all_time ? INT64_MAX : query->until);
	snprintf(limit, sizeof(limit), "%" PRId64,
		 query->limit && query->limit < INT64_MAX ? (int64_t)query->limit : INT64_MAX);
	if (query->new_since_kernel)
		grb_fleet_version_key(query->new_since_kernel, kernel_key, sizeof(kernel_key));
	if (query->new_since_driver)
		grb_fleet_version_key(query->new_since_driver, driver_key, sizeof(driver_key));
	r = run_rows(fleet, &st, &rows);
	*out = rows.items;
	*n = rows.n;
	return r;
}

/* Most crashes first; ties in a fixed order, whatever a database's collation. */
static int spread_order(const void *a, const void *b)
{
	const struct gpurobust_fleet_spread *x = a, *y = b;
	int c;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	c = strcmp(x->pci_id, y->pci_id);
	if (!c)
		c = strcmp(x->kernel, y->kernel);
	return c ? c : strcmp(x->driver, y->driver);
}

GPUROBUST_EXPORT
int gpurobust_fleet_group_spread(struct gpurobust_fleet *fleet, const char *signature,
				 struct gpurobust_fleet_group *group,
				 struct gpurobust_fleet_spread **out, size_t *n)
{
	const char *params[1] = { signature };
	struct grb_fleet_statement st = { .sql = grb_fleet_sql_group, .nparams = 1,
					  .params = params };
	struct rows groups = { .size = sizeof(*group), .fill = fill_group };
	struct rows spread = { .size = sizeof(**out), .fill = fill_spread };
	int r = run_rows(fleet, &st, &groups);

	*out = NULL;
	*n = 0;
	memset(group, 0, sizeof(*group));
	if (r)
		return r;
	if (groups.n)
		*group = *(struct gpurobust_fleet_group *)groups.items;
	free(groups.items);
	st.sql = grb_fleet_sql_spread;
	r = run_rows(fleet, &st, &spread);
	if (r)
		return r;
	if (spread.n)
		qsort(spread.items, spread.n, sizeof(**out), spread_order);
	*out = spread.items;
	*n = spread.n;
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_fleet_count(struct gpurobust_fleet *fleet, uint64_t *crashes)
{
	struct grb_fleet_statement st = { .sql = grb_fleet_sql_count };
	int64_t count = 0;
	int r;

	fleet->error[0] = '\0';
	r = fleet->ops->reconnect(fleet);

	if (!r)
		r = fleet->ops->query(fleet, &st, int_row, &count, NULL);
	*crashes = r ? 0 : (uint64_t)count;
	return r;
}
