// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The fleet store (gpurobust/fleet.h), every case on both backends: a
 * SQLite file in a temporary directory, and the PostgreSQL server that
 * with-postgres.sh started (GPUROBUST_TEST_PG_URI; a run without it fails,
 * it does not skip: `meson test` always starts one). Then what only one
 * backend has (roles), what neither needs a server for (ids, URIs), and
 * the same data asked on both giving the same answers.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include <gpurobust/fleet.h>

struct backend {
	const char *name;
	char uri[512];
	char dir[64];	/* sqlite: the temporary directory */
};

static const char *pg_uri(void)
{
	const char *uri = getenv("GPUROBUST_TEST_PG_URI");

	if (!uri)
		fail_msg("GPUROBUST_TEST_PG_URI is not set: run through with-postgres.sh");
	return uri;
}

/* Run SQL as the server's superuser. */
static void pg_admin(const char *fmt, ...)
{
	char sql[1024];
	PGconn *conn = PQconnectdb(pg_uri());
	PGresult *res;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(sql, sizeof(sql), fmt, ap);
	va_end(ap);
	assert_int_equal(PQstatus(conn), CONNECTION_OK);
	res = PQexec(conn, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		fail_msg("%s: %s", sql, PQresultErrorMessage(res));
	PQclear(res);
	PQfinish(conn);
}

/* Each case on an empty store. */
static int setup_sqlite(void **state)
{
	struct backend *b = calloc(1, sizeof(*b));

	b->name = "sqlite";
	snprintf(b->dir, sizeof(b->dir), "/tmp/gpurobust-fleet.XXXXXX");
	assert_non_null(mkdtemp(b->dir));
	snprintf(b->uri, sizeof(b->uri), "sqlite://%s/fleet.db", b->dir);
	*state = b;
	return 0;
}

static int setup_postgresql(void **state)
{
	struct backend *b = calloc(1, sizeof(*b));

	b->name = "postgresql";
	snprintf(b->uri, sizeof(b->uri), "%s", pg_uri());
	pg_admin("DROP TABLE IF EXISTS crashes, gpurobust_schema");
	*state = b;
	return 0;
}

static int teardown(void **state)
{
	struct backend *b = *state;
	char cmd[128];

	if (b->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf %s", b->dir);
		assert_int_equal(system(cmd), 0);
	}
	free(b);
	return 0;
}

static struct gpurobust_fleet *open_uri(const char *uri)
{
	struct gpurobust_fleet *fleet = NULL;
	int r = gpurobust_fleet_open(uri, &fleet);

	if (r)
		fail_msg("open %s: %s (%s)", uri, strerror(-r), gpurobust_fleet_error(NULL));
	return fleet;
}

static struct gpurobust_fleet *open_store(const struct backend *b)
{
	return open_uri(b->uri);
}

/* A crash of group @group on @machine, at @seen, with versions. */
static struct gpurobust_fleet_crash crash(int group, int machine, int64_t seen,
					  const char *kernel, const char *driver)
{
	struct gpurobust_fleet_crash c = { .seen = seen };

	snprintf(c.signature, sizeof(c.signature), "%016x", 0xa000 + group);
	snprintf(c.title, sizeof(c.title), "hang %d on gfx_0.0.0", group);
	snprintf(c.machine_id, sizeof(c.machine_id), "%032x", machine);
	snprintf(c.pci_id, sizeof(c.pci_id), "1002:%04x", 0x7440 + machine % 3);
	snprintf(c.family, sizeof(c.family), "GFX11");
	snprintf(c.kernel, sizeof(c.kernel), "%s", kernel);
	snprintf(c.driver, sizeof(c.driver), "%s", driver);
	snprintf(c.application, sizeof(c.application), "game%d", group);
	snprintf(c.recovery, sizeof(c.recovery), "ring_reset");
	snprintf(c.outcome, sizeof(c.outcome), "recovered");
	gpurobust_fleet_crash_id(&c);
	return c;
}

/* ---- both backends ---------------------------------------------------------- */

static void test_open_migrates_once(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	uint64_t n = 1;

	assert_int_equal(gpurobust_fleet_schema(fleet), GPUROBUST_FLEET_SCHEMA);
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, 0);
	gpurobust_fleet_close(fleet);
	/* again: nothing to do, nothing lost */
	fleet = open_store(b);
	assert_int_equal(gpurobust_fleet_schema(fleet), GPUROBUST_FLEET_SCHEMA);
	gpurobust_fleet_close(fleet);
}

static void test_send_is_idempotent(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet_crash c[3] = {
		crash(1, 1, 1000, "7.2.13", "26.2.6"),
		crash(1, 2, 1001, "7.2.13", "26.2.6"),
		crash(2, 1, 1002, "7.2.13", "26.2.6"),
	};
	size_t added = 0;
	uint64_t n = 0;

	assert_int_equal(gpurobust_fleet_send(fleet, c, 3, &added), 0);
	assert_int_equal(added, 3);
	/* a retry of the same batch, and a batch with one new crash */
	assert_int_equal(gpurobust_fleet_send(fleet, c, 3, &added), 0);
	assert_int_equal(added, 0);
	c[0] = crash(3, 3, 1003, "7.2.13", "26.2.6");
	assert_int_equal(gpurobust_fleet_send(fleet, c, 3, &added), 0);
	assert_int_equal(added, 1);
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, 4);
	/* a crash without its id is refused, and the batch with it */
	c[1].crash_id[0] = '\0';
	c[0] = crash(4, 4, 1004, "7.2.13", "26.2.6");
	assert_int_equal(gpurobust_fleet_send(fleet, c, 2, &added), -EINVAL);
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, 4);
	gpurobust_fleet_close(fleet);
}

static void test_top_window_and_limit(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet_crash c[6] = {
		crash(1, 1, 100, "", ""), crash(1, 2, 200, "", ""), crash(1, 2, 300, "", ""),
		crash(2, 1, 150, "", ""), crash(2, 3, 250, "", ""), crash(3, 1, 900, "", ""),
	};
	struct gpurobust_fleet_query all = { 0 }, window = { .since = 150, .until = 300 };
	struct gpurobust_fleet_query top1 = { .limit = 1 };
	struct gpurobust_fleet_group *g;
	size_t n;

	assert_int_equal(gpurobust_fleet_send(fleet, c, 6, NULL), 0);
	assert_int_equal(gpurobust_fleet_top(fleet, &all, &g, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(g[0].signature, "000000000000a001");
	assert_int_equal(g[0].count, 3);
	assert_int_equal(g[0].machines, 2);
	assert_int_equal(g[0].first_seen, 100);
	assert_int_equal(g[0].last_seen, 300);
	assert_string_equal(g[0].title, "hang 1 on gfx_0.0.0");
	assert_string_equal(g[1].signature, "000000000000a002");
	assert_string_equal(g[2].signature, "000000000000a003");
	free(g);
	/* [150, 300): one crash of group 1, both of group 2; ties by signature */
	assert_int_equal(gpurobust_fleet_top(fleet, &window, &g, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(g[0].signature, "000000000000a002");
	assert_int_equal(g[0].count, 2);
	assert_string_equal(g[1].signature, "000000000000a001");
	assert_int_equal(g[1].count, 1);
	free(g);
	assert_int_equal(gpurobust_fleet_top(fleet, &top1, &g, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(g[0].signature, "000000000000a001");
	free(g);
	gpurobust_fleet_close(fleet);
}

/* "New since 6.12.10": never seen on an older kernel; 6.12.9 is older,
 * although it sorts after as text. Unknown versions do not count. */
static void test_new_since_versions(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet_crash c[6] = {
		crash(1, 1, 10, "6.12.9", "25.0.7"),	/* old group */
		crash(1, 1, 20, "6.12.10", "26.2.6"),
		crash(2, 1, 30, "6.12.10", "26.2.6"),	/* new with 6.12.10 */
		crash(2, 2, 40, "7.2.13+", "26.2.6"),
		crash(3, 1, 50, "", "26.2.10"),		/* kernel unknown */
		crash(4, 1, 60, "6.12.11", "26.2.5"),	/* new kernel, old driver */
	};
	struct gpurobust_fleet_query kernel = { .new_since_kernel = "6.12.10" };
	struct gpurobust_fleet_query driver = { .new_since_driver = "26.2.6" };
	struct gpurobust_fleet_group *g;
	size_t n;

	assert_int_equal(gpurobust_fleet_send(fleet, c, 6, NULL), 0);
	assert_int_equal(gpurobust_fleet_top(fleet, &kernel, &g, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(g[0].signature, "000000000000a002");
	assert_string_equal(g[1].signature, "000000000000a003");
	assert_string_equal(g[2].signature, "000000000000a004");
	free(g);
	/* 26.2.10 is newer than 26.2.6; group 1 had 25.0.7, group 4 26.2.5 */
	assert_int_equal(gpurobust_fleet_top(fleet, &driver, &g, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(g[0].signature, "000000000000a002");
	assert_string_equal(g[1].signature, "000000000000a003");
	free(g);
	gpurobust_fleet_close(fleet);
}

static void test_group_spread(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet_crash c[5] = {
		crash(1, 1, 10, "7.2.13", "26.2.6"), crash(1, 4, 20, "7.2.13", "26.2.6"),
		crash(1, 2, 30, "7.2.13", "26.2.6"), crash(1, 1, 40, "6.12.60", "25.0.7"),
		crash(2, 1, 50, "7.2.13", "26.2.6"),
	};
	struct gpurobust_fleet_spread *s;
	struct gpurobust_fleet_group g;
	size_t n;

	assert_int_equal(gpurobust_fleet_send(fleet, c, 5, NULL), 0);
	assert_int_equal(gpurobust_fleet_group_spread(fleet, "000000000000a001", &g, &s, &n), 0);
	assert_int_equal(g.count, 4);
	assert_int_equal(g.machines, 3);
	assert_int_equal(g.first_seen, 10);
	assert_int_equal(g.last_seen, 40);
	/* machines 1 and 4 have 1002:7441, machine 2 1002:7442 */
	assert_int_equal(n, 3);
	assert_string_equal(s[0].pci_id, "1002:7441");
	assert_string_equal(s[0].kernel, "7.2.13");
	assert_int_equal(s[0].count, 2);
	assert_string_equal(s[1].pci_id, "1002:7441");
	assert_string_equal(s[1].kernel, "6.12.60");
	assert_string_equal(s[1].driver, "25.0.7");
	assert_int_equal(s[1].count, 1);
	assert_string_equal(s[2].pci_id, "1002:7442");
	free(s);
	/* no such group: a count of 0, no rows */
	assert_int_equal(gpurobust_fleet_group_spread(fleet, "ffffffffffffffff", &g, &s, &n), 0);
	assert_int_equal(g.count, 0);
	assert_int_equal(n, 0);
	free(s);
	gpurobust_fleet_close(fleet);
}

/* A store migrated by a newer gpurobust: refused, not misread. */
static void test_future_schema_refused(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet *again = NULL;

	gpurobust_fleet_close(fleet);
	if (b->dir[0]) {
		char path[128], sql[128];
		sqlite3 *db;

		snprintf(path, sizeof(path), "%s/fleet.db", b->dir);
		snprintf(sql, sizeof(sql), "INSERT INTO gpurobust_schema VALUES (%d, 0)",
			 GPUROBUST_FLEET_SCHEMA + 1);
		assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
		assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(db);
	} else {
		pg_admin("INSERT INTO gpurobust_schema VALUES (%d, 0)", GPUROBUST_FLEET_SCHEMA + 1);
	}
	assert_int_equal(gpurobust_fleet_open(b->uri, &again), -EPROTONOSUPPORT);
	assert_null(again);
	assert_non_null(strstr(gpurobust_fleet_error(NULL), "newer than this gpurobust"));
}

/* Two senders opening a new store at once: one migrates, none fails. */
struct opener {
	const struct backend *b;
	int r;
};

static void *open_concurrently(void *arg)
{
	struct opener *o = arg;
	struct gpurobust_fleet *fleet = NULL;

	o->r = gpurobust_fleet_open(o->b->uri, &fleet);
	gpurobust_fleet_close(fleet);
	return NULL;
}

/* 16 senders, each its own connection, send overlapping halves of one
 * set: every crash is stored once. */
#define SENDERS 16
#define CRASHES 400

struct sender {
	const struct backend *b;
	const struct gpurobust_fleet_crash *crashes;
	int first;
	int r;
	size_t added;
};

static void *send_concurrently(void *arg)
{
	struct sender *s = arg;
	struct gpurobust_fleet *fleet = NULL;
	size_t added;

	s->r = gpurobust_fleet_open(s->b->uri, &fleet);
	/* a half of the set, in batches of 20, from where this sender starts */
	for (int i = 0; !s->r && i < CRASHES / 2; i += 20) {
		s->r = gpurobust_fleet_send(fleet, s->crashes + (s->first + i) % CRASHES,
					    20, &added);
		s->added += added;
	}
	gpurobust_fleet_close(fleet);
	return NULL;
}

static void test_concurrent_senders(void **state)
{
	struct backend *b = *state;
	static struct gpurobust_fleet_crash set[CRASHES + CRASHES / 2];
	struct opener openers[4];
	struct sender senders[SENDERS];
	pthread_t threads[SENDERS];
	struct gpurobust_fleet *fleet;
	size_t added = 0;
	uint64_t n = 0;

	for (int i = 0; i < 4; i++) {
		openers[i] = (struct opener){ .b = b };
		assert_int_equal(pthread_create(&threads[i], NULL, open_concurrently,
						&openers[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_int_equal(openers[i].r, 0);
	}
	for (int i = 0; i < CRASHES; i++)
		set[i] = crash(i % 37, i % 11, 1000 + i, "7.2.13", "26.2.6");
	/* batches that run past the end wrap onto the start */
	memcpy(set + CRASHES, set, sizeof(set[0]) * (CRASHES / 2));
	for (int i = 0; i < SENDERS; i++) {
		senders[i] = (struct sender){ .b = b, .crashes = set, .first = i * 20 % CRASHES };
		assert_int_equal(pthread_create(&threads[i], NULL, send_concurrently,
						&senders[i]), 0);
	}
	for (int i = 0; i < SENDERS; i++) {
		assert_int_equal(pthread_join(threads[i], NULL), 0);
		assert_int_equal(senders[i].r, 0);
		added += senders[i].added;
	}
	fleet = open_store(b);
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, CRASHES);
	assert_int_equal(added, CRASHES);
	gpurobust_fleet_close(fleet);
}

/* ---- the outbox ----------------------------------------------------------------- */

static void test_outbox_flush(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet_crash c = crash(1, 1, 10, "7.2.13", "26.2.6");
	char outbox[64] = "/tmp/gpurobust-outbox.XXXXXX", path[128], cmd[256];
	struct gpurobust_fleet *fleet = open_store(b);
	size_t sent = 9, bad = 9;
	uint64_t n = 0;
	FILE *f;

	assert_non_null(mkdtemp(outbox));
	assert_int_equal(gpurobust_fleet_outbox_add(outbox, &c), 0);
	/* the same crash again, and a second one */
	assert_int_equal(gpurobust_fleet_outbox_add(outbox, &c), 0);
	c = crash(2, 1, 20, "7.2.13", "26.2.6");
	assert_int_equal(gpurobust_fleet_outbox_add(outbox, &c), 0);
	/* a file under a crash's name that holds no crash: moved aside, not sent */
	c = crash(3, 1, 30, "7.2.13", "26.2.6");
	snprintf(path, sizeof(path), "%s/%s.json", outbox, c.crash_id);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "{\"crash_id\": 1}\n");
	fclose(f);
	assert_int_equal(gpurobust_fleet_outbox_flush(outbox, fleet, 1, &sent, &bad), 0);
	assert_int_equal(sent, 2);
	assert_int_equal(bad, 1);
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, 2);
	/* what is left: the bad file, aside */
	snprintf(cmd, sizeof(cmd), "test $(ls -A %s | wc -l) = 1 && ls %s/*.json.bad > /dev/null",
		 outbox, outbox);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", outbox);
	assert_int_equal(system(cmd), 0);
	gpurobust_fleet_close(fleet);
}

/* ---- one backend -------------------------------------------------------------- */

/* The migration's roles: a collector may only add crashes, a triage role
 * may only read them. */
static void test_postgresql_roles(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet_crash c = crash(1, 1, 10, "7.2.13", "26.2.6");
	struct gpurobust_fleet_query all = { 0 };
	struct gpurobust_fleet_group *g = NULL;
	char uri[600];
	size_t n;

	gpurobust_fleet_close(fleet);
	pg_admin("DROP ROLE IF EXISTS sender1");
	pg_admin("DROP ROLE IF EXISTS triager1");
	pg_admin("CREATE ROLE sender1 LOGIN IN ROLE gpurobust_collector");
	pg_admin("CREATE ROLE triager1 LOGIN IN ROLE gpurobust_triage");

	snprintf(uri, sizeof(uri), "%s", b->uri);
	*strstr(uri, "user=gpurobust_admin") = '\0';
	strcat(uri, "user=sender1");
	fleet = open_uri(uri);
	assert_int_equal(gpurobust_fleet_send(fleet, &c, 1, NULL), 0);
	/* a retry: no SELECT needed to find it there */
	assert_int_equal(gpurobust_fleet_send(fleet, &c, 1, NULL), 0);
	assert_int_equal(gpurobust_fleet_top(fleet, &all, &g, &n), -EACCES);
	if (!strstr(gpurobust_fleet_error(fleet), "permission denied"))
		fail_msg("%s", gpurobust_fleet_error(fleet));
	gpurobust_fleet_close(fleet);

	*strstr(uri, "user=sender1") = '\0';
	strcat(uri, "user=triager1");
	fleet = open_uri(uri);
	c = crash(2, 1, 20, "7.2.13", "26.2.6");
	assert_int_equal(gpurobust_fleet_send(fleet, &c, 1, NULL), -EACCES);
	assert_int_equal(gpurobust_fleet_top(fleet, &all, &g, &n), 0);
	assert_int_equal(n, 1);
	free(g);
	gpurobust_fleet_close(fleet);
}

/* A role that may not migrate finds a new database: it says why. */
static void test_postgresql_collector_cannot_migrate(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = NULL;
	char uri[600];

	pg_admin("DROP ROLE IF EXISTS sender2");
	pg_admin("CREATE ROLE sender2 LOGIN");
	snprintf(uri, sizeof(uri), "%s", b->uri);
	*strstr(uri, "user=gpurobust_admin") = '\0';
	strcat(uri, "user=sender2");
	assert_int_equal(gpurobust_fleet_open(uri, &fleet), -EACCES);
	assert_non_null(strstr(gpurobust_fleet_error(NULL), "may not migrate"));
}

static void test_postgresql_refused(void **state)
{
	struct gpurobust_fleet *fleet = NULL;

	(void)state;
	assert_int_equal(gpurobust_fleet_open("postgresql:///gpurobust?host=/nonexistent", &fleet),
			 -ECONNREFUSED);
	assert_null(fleet);
	assert_non_null(strstr(gpurobust_fleet_error(NULL), "/nonexistent"));
	assert_int_equal(gpurobust_fleet_open("mysql://localhost/x", &fleet), -EINVAL);
	assert_int_equal(gpurobust_fleet_open("sqlite://", &fleet), -EINVAL);
}

/* ---- no store ------------------------------------------------------------------- */

static void test_crash_id(void **state)
{
	struct gpurobust_fleet_crash a = crash(1, 1, 10, "7.2.13", "26.2.6"), b = a;

	(void)state;
	assert_int_equal(strlen(a.crash_id), 32);
	gpurobust_fleet_crash_id(&b);
	assert_string_equal(a.crash_id, b.crash_id);
	/* any field, and where one ends and the next begins */
	b.seen = 11;
	gpurobust_fleet_crash_id(&b);
	assert_string_not_equal(a.crash_id, b.crash_id);
	b = a;
	strcpy(b.kernel, "7.2.1");
	strcpy(b.series, "3");
	gpurobust_fleet_crash_id(&b);
	assert_string_not_equal(a.crash_id, b.crash_id);
	b = a;
	strcpy(b.breadcrumbs, "Frame 1");
	gpurobust_fleet_crash_id(&b);
	assert_string_not_equal(a.crash_id, b.crash_id);
}

static void test_crash_json_round_trip(void **state)
{
	struct gpurobust_fleet_crash a = crash(1, 1, -5, "7.2.13", "26.2.6"), b;
	char *json;

	(void)state;
	strcpy(a.breadcrumbs, "Frame \"1\"/Lighting \\ pass/Éclairage");
	gpurobust_fleet_crash_id(&a);
	json = gpurobust_fleet_crash_to_json(&a);
	assert_non_null(json);
	assert_int_equal(gpurobust_fleet_crash_from_json(json, strlen(json), &b), 0);
	assert_memory_equal(&a, &b, sizeof(a));
	/* altered content no longer matches its id */
	strstr(json, "game1")[4] = '2';
	assert_int_equal(gpurobust_fleet_crash_from_json(json, strlen(json), &b), -EBADMSG);
	free(json);
	assert_int_equal(gpurobust_fleet_crash_from_json("{}", 2, &b), -EBADMSG);
	assert_int_equal(gpurobust_fleet_crash_from_json("[", 1, &b), -EBADMSG);
}

/* Text a database's encoding refuses (not UTF-8) or a terminal acts on
 * (control bytes), and ids that are not hex: no store takes them, no
 * outbox keeps them. */
static void test_crash_checked(void **state)
{
	struct gpurobust_fleet_crash c = crash(1, 1, 10, "7.2.13", "26.2.6");
	struct gpurobust_fleet_crash bad[4] = { c, c, c, c };
	char outbox[] = "/tmp/gpurobust-checked.XXXXXX";
	char *json;

	(void)state;
	strcpy(bad[0].application, "g\xe9nie");	/* Latin-1, not UTF-8 */
	strcpy(bad[1].title, "hang\x1b[2J");
	strcpy(bad[2].signature, "\x1b[2JOWNED");
	for (int i = 0; i < 3; i++)
		gpurobust_fleet_crash_id(&bad[i]);
	strcpy(bad[3].crash_id, "NOT-HEX-NOT-HEX-NOT-HEX-NOT-HEX-");
	assert_non_null(mkdtemp(outbox));
	for (int i = 0; i < 4; i++) {
		assert_int_equal(gpurobust_fleet_outbox_add(outbox, &bad[i]), -EINVAL);
		json = gpurobust_fleet_crash_to_json(&bad[i]);
		assert_non_null(json);
		assert_int_equal(gpurobust_fleet_crash_from_json(json, strlen(json), &c), -EBADMSG);
		free(json);
	}
	assert_int_equal(rmdir(outbox), 0);
}

static void test_send_refuses_unchecked_crashes(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet *fleet = open_store(b);
	struct gpurobust_fleet_crash c[2] = {
		crash(1, 1, 10, "7.2.13", "26.2.6"), crash(2, 1, 20, "7.2.13", "26.2.6"),
	};
	uint64_t n = 9;

	strcpy(c[1].application, "g\xe9nie");
	gpurobust_fleet_crash_id(&c[1]);
	assert_int_equal(gpurobust_fleet_send(fleet, c, 2, NULL), -EINVAL);
	assert_non_null(strstr(gpurobust_fleet_error(fleet), "crash 1: its application"));
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, 0);
	/* the error of a call that failed is gone once one succeeds */
	assert_string_equal(gpurobust_fleet_error(fleet), "");
	gpurobust_fleet_close(fleet);
}

/* An outbox file with a crash written by another tool, in Latin-1; a
 * directory, a link and a FIFO under a crash's name: each moved aside, and
 * the good crash beside them sent. Nothing blocks the outbox for good. */
static void test_outbox_bad_files_moved_aside(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet_crash good = crash(1, 1, 10, "7.2.13", "26.2.6");
	struct gpurobust_fleet_crash latin1 = crash(2, 1, 20, "7.2.13", "26.2.6");
	char outbox[64] = "/tmp/gpurobust-badfiles.XXXXXX", cmd[512];
	struct gpurobust_fleet *fleet = open_store(b);
	size_t sent = 0, bad = 0;
	uint64_t n = 0;
	char *json;
	FILE *f;

	assert_non_null(mkdtemp(outbox));
	assert_int_equal(gpurobust_fleet_outbox_add(outbox, &good), 0);
	strcpy(latin1.application, "g\xe9nie");
	gpurobust_fleet_crash_id(&latin1);
	json = gpurobust_fleet_crash_to_json(&latin1);
	snprintf(cmd, sizeof(cmd), "%s/%s.json", outbox, latin1.crash_id);
	f = fopen(cmd, "w");
	assert_non_null(f);
	fputs(json, f);
	fclose(f);
	free(json);
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir %032d.json && ln -s /etc/passwd %032d.json && mkfifo %032d.json",
		 outbox, 1, 2, 3);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(gpurobust_fleet_outbox_flush(outbox, fleet, 0, &sent, &bad), 0);
	assert_int_equal(sent, 1);
	assert_int_equal(bad, 4);
	assert_int_equal(gpurobust_fleet_count(fleet, &n), 0);
	assert_int_equal(n, 1);
	snprintf(cmd, sizeof(cmd), "test $(ls %s | grep -c '\\.json\\.bad$') = 4 && rm -rf %s",
		 outbox, outbox);
	assert_int_equal(system(cmd), 0);
	gpurobust_fleet_close(fleet);
}

/* A file that cannot leave the outbox after its crash was stored (an
 * outbox its sender may read and not write) stops the flush with the errno,
 * not a loop that sends it again and again. Root may write anywhere, so
 * the sender is nobody then. */
static void test_outbox_unremovable_stops(void **state)
{
	struct backend *b = *state;
	struct gpurobust_fleet_crash c = crash(1, 1, 10, "7.2.13", "26.2.6");
	char outbox[64] = "/tmp/gpurobust-readonly.XXXXXX", cmd[256];
	int status;
	pid_t pid;

	assert_non_null(mkdtemp(outbox));
	assert_int_equal(gpurobust_fleet_outbox_add(outbox, &c), 0);
	if (geteuid() == 0) {
		snprintf(cmd, sizeof(cmd), "chown -R 65534:65534 %s %s", outbox, b->dir[0] ? b->dir : "");
		assert_int_equal(system(cmd), 0);
	}
	assert_int_equal(chmod(outbox, 0500), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct gpurobust_fleet *fleet = NULL;
		size_t sent = 9;
		int r;

		if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
			_exit(2);
		if (gpurobust_fleet_open(b->uri, &fleet))
			_exit(3);
		r = gpurobust_fleet_outbox_flush(outbox, fleet, 0, &sent, NULL);
		gpurobust_fleet_close(fleet);
		_exit(r == -EACCES && sent == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	chmod(outbox, 0700);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", outbox);
	assert_int_equal(system(cmd), 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static void test_uri_redacted(void **state)
{
	char buf[256];

	(void)state;
	/* every way libpq takes a password, as libpq read it */
	assert_string_equal(gpurobust_fleet_uri_redact("postgresql://triage:s3cret@db.example/crashes",
						       buf, sizeof(buf)),
			    "postgresql: user='triage' password=*** dbname='crashes' host='db.example'");
	assert_string_equal(gpurobust_fleet_uri_redact("postgresql://u:pa?ss@h/db", buf, sizeof(buf)),
			    "postgresql: user='u' password=*** dbname='db' host='h'");
	assert_string_equal(gpurobust_fleet_uri_redact(
				    "postgresql://db/c?user=a&%70assword=s3cret&sslmode=verify-full",
				    buf, sizeof(buf)),
			    "postgresql: user='a' password=*** dbname='c' host='db' sslmode='verify-full'");
	assert_string_equal(gpurobust_fleet_uri_redact(
				    "postgresql:host=db\npassword = 'a\\' b' sslpassword=k dbname=c",
				    buf, sizeof(buf)),
			    "postgresql: password=*** dbname='c' host='db' sslpassword=***");
	/* no secret: as it is */
	assert_string_equal(gpurobust_fleet_uri_redact("postgresql://u@db/c", buf, sizeof(buf)),
			    "postgresql://u@db/c");
	assert_string_equal(gpurobust_fleet_uri_redact("postgresql:host=db dbname=c", buf,
						       sizeof(buf)),
			    "postgresql:host=db dbname=c");
	assert_string_equal(gpurobust_fleet_uri_redact("sqlite:///var/lib/x.db", buf, sizeof(buf)),
			    "sqlite:///var/lib/x.db");
	/* what libpq cannot parse is not printed */
	assert_string_equal(gpurobust_fleet_uri_redact("postgresql:password='s3cret", buf,
						       sizeof(buf)),
			    "postgresql:(a connection string libpq cannot parse)");
	/* cut to fit, never past the buffer */
	assert_string_equal(gpurobust_fleet_uri_redact("postgresql://u:secret@db", buf, 16),
			    "postgresql: use");
}

/* ---- the same answers from both ------------------------------------------------ */

static void fill(struct gpurobust_fleet *fleet)
{
	static struct gpurobust_fleet_crash c[300];
	static const char *const kernels[] = { "6.12.9", "6.12.10", "7.2.13", "" };
	static const char *const drivers[] = { "25.0.7", "26.2.6", "26.2.10" };

	/* groups 1, 2, 5, 6… never on 6.12.9; groups 0, 3, 6… never on 25.0.7 */
	for (int i = 0; i < 300; i++) {
		int g = i * i % 23;

		c[i] = crash(g, i % 17, 5000 + i * 7 % 101, kernels[(g + i % 2) % 4],
			     drivers[g % 3 ? i % 3 : 1 + i % 2]);
		/* titles and families that sort apart by locale: byte order in both */
		snprintf(c[i].title, sizeof(c[i].title), "%s %d", i % 2 ? "banana" : "Banana", g);
		snprintf(c[i].family, sizeof(c[i].family), "%s", i % 3 ? "gfx11" : "GFX11");
		gpurobust_fleet_crash_id(&c[i]);
	}
	assert_int_equal(gpurobust_fleet_send(fleet, c, 300, NULL), 0);
}

static void test_both_backends_agree(void **state)
{
	void *sqlite_state, *pg_state;
	struct gpurobust_fleet *fleet[2];
	struct gpurobust_fleet_group *g[2];
	struct gpurobust_fleet_spread *s[2];
	struct gpurobust_fleet_group totals[2];
	const struct gpurobust_fleet_query queries[] = {
		{ 0 },
		{ .since = 5020, .until = 5080, .limit = 5 },
		{ .new_since_kernel = "6.12.10" },
		{ .new_since_driver = "26.2.6" },
	};
	size_t n[2];

	(void)state;
	setup_sqlite(&sqlite_state);
	setup_postgresql(&pg_state);
	fleet[0] = open_store(sqlite_state);
	fleet[1] = open_store(pg_state);
	fill(fleet[0]);
	fill(fleet[1]);
	for (size_t q = 0; q < sizeof(queries) / sizeof(queries[0]); q++) {
		for (int i = 0; i < 2; i++)
			assert_int_equal(gpurobust_fleet_top(fleet[i], &queries[q], &g[i], &n[i]), 0);
		assert_int_equal(n[0], n[1]);
		assert_true(n[0] > 0);
		assert_memory_equal(g[0], g[1], n[0] * sizeof(*g[0]));
		free(g[0]);
		free(g[1]);
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(gpurobust_fleet_group_spread(fleet[i], "000000000000a001",
							      &totals[i], &s[i], &n[i]), 0);
	assert_int_equal(n[0], n[1]);
	assert_memory_equal(&totals[0], &totals[1], sizeof(totals[0]));
	assert_memory_equal(s[0], s[1], n[0] * sizeof(*s[0]));
	free(s[0]);
	free(s[1]);
	gpurobust_fleet_close(fleet[0]);
	gpurobust_fleet_close(fleet[1]);
	teardown(&sqlite_state);
	teardown(&pg_state);
}

#define BOTH(t) \
	{ #t " on sqlite", t, setup_sqlite, teardown, NULL }, \
	{ #t " on postgresql", t, setup_postgresql, teardown, NULL }

int main(void)
{
	const struct CMUnitTest tests[] = {
		BOTH(test_open_migrates_once),
		BOTH(test_send_is_idempotent),
		BOTH(test_top_window_and_limit),
		BOTH(test_new_since_versions),
		BOTH(test_group_spread),
		BOTH(test_future_schema_refused),
		BOTH(test_concurrent_senders),
		BOTH(test_outbox_flush),
		BOTH(test_send_refuses_unchecked_crashes),
		BOTH(test_outbox_bad_files_moved_aside),
		BOTH(test_outbox_unremovable_stops),
		cmocka_unit_test_setup_teardown(test_postgresql_roles, setup_postgresql, teardown),
		cmocka_unit_test_setup_teardown(test_postgresql_collector_cannot_migrate,
						setup_postgresql, teardown),
		cmocka_unit_test(test_postgresql_refused),
		cmocka_unit_test(test_crash_id),
		cmocka_unit_test(test_crash_json_round_trip),
		cmocka_unit_test(test_crash_checked),
		cmocka_unit_test(test_uri_redacted),
		cmocka_unit_test(test_both_backends_agree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
