// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The crash store: a burst of events from many processes at once is stored
 * N of N and grouped into the expected buckets, each with its files and its
 * entry; the schema migrates and refuses a newer one; the database is
 * owner-only and a directory others may write to is refused.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <pthread.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include <gpurobust/collector.h>

#include "dumpgen.h"

#define WRITERS		8
#define PER_WRITER	40
#define BUCKETS		5

static char *make_dir(void)
{
	char *dir = strdup("/tmp/gpurobust-store-test-XXXXXX");

	assert_non_null(mkdtemp(dir));
	return dir;
}

static void remove_dir(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* Event @i of writer @w: bucket i % BUCKETS is the process name; the pid
 * and fault address vary inside a bucket and must not split it. */
static struct gpurobust_report *event_report(int w, int i, struct textbuf *text)
{
	static const char *const names[BUCKETS] = {
		"vkcube", "glretrace", "python3.12", "Web Content", "ForzaHorizon5.e",
	};
	struct gpurobust_coredump *d;
	struct gpurobust_report *r;

	text->len = 0;
	gen_header_612(text, "6.12.117", names[i % BUCKETS], 1000 + w * 100 + i, "gfx_0.0.0");
	assert_int_equal(gpurobust_coredump_parse(text->p, text->len, &d), 0);
	assert_int_equal(gpurobust_report_build(d, NULL, &r), 0);
	gpurobust_coredump_free(d);
	return r;
}

static int writer(const char *dir, int w)
{
	struct textbuf text = { 0 };
	struct gpurobust_store *s;
	int failures = 0;

	if (gpurobust_store_open(dir, &s))
		return 1;
	for (int i = 0; i < PER_WRITER; i++) {
		struct gpurobust_report *r = event_report(w, i, &text);
		struct gpurobust_store_event ev = {
			.report = r, .dump = text.p, .dump_len = text.len,
			.dmesg = "ring gfx_0.0.0 timeout\n", .dmesg_len = 23,
			.seen = 1700000000 + w * 1000 + i,
		};

		failures += gpurobust_store_record(s, &ev, NULL) != 0;
		gpurobust_report_free(r);
	}
	gpurobust_store_close(s);
	free(text.p);
	return failures ? 1 : 0;
}

/* WRITERS processes record PER_WRITER events each, all at once. */
static void test_burst_stores_n_of_n_in_expected_buckets(void **state)
{
	char *dir = make_dir();
	struct gpurobust_stored_crash *c;
	struct gpurobust_bucket *b;
	struct gpurobust_store *s;
	pid_t pids[WRITERS];
	uint64_t events;
	size_t n, files = 0, hidden, len;
	FILE *ls;
	char cmd[512], line[64], *data, *ids;

	(void)state;
	/* create the schema in every writer at once too: the migration must
	 * run exactly once */
	for (int w = 0; w < WRITERS; w++) {
		pids[w] = fork();
		assert_true(pids[w] >= 0);
		if (!pids[w])
			_exit(writer(dir, w));
	}
	for (int w = 0; w < WRITERS; w++) {
		int status;

		assert_int_equal(waitpid(pids[w], &status, 0), pids[w]);
		assert_true(WIFEXITED(status));
		assert_int_equal(WEXITSTATUS(status), 0);
	}
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	assert_int_equal(gpurobust_store_count(s, &events), 0);
	assert_int_equal(events, WRITERS * PER_WRITER);
	assert_int_equal(gpurobust_store_buckets(s, &b, &n), 0);
	assert_int_equal(n, BUCKETS);
	for (size_t i = 0; i < n; i++) {
		assert_int_equal(b[i].count, WRITERS * PER_WRITER / BUCKETS);
		/* writer 0 recorded each bucket first, at event index < BUCKETS */
		assert_true(b[i].first_seen >= 1700000000 && b[i].first_seen < 1700000000 + BUCKETS);
		assert_true(b[i].last_seen >= 1700000000 + (WRITERS - 1) * 1000);
		assert_int_equal(strlen(b[i].signature), 16);
	}
	/* every event's dump, log and entry were saved, and nothing else */
	snprintf(cmd, sizeof(cmd), "ls '%s/dumps' | wc -l", dir);
	ls = popen(cmd, "r");
	assert_non_null(ls);
	assert_non_null(fgets(line, sizeof(line), ls));
	files = strtoul(line, NULL, 10);
	pclose(ls);
	assert_int_equal(files, 3 * WRITERS * PER_WRITER);
	assert_int_equal(gpurobust_store_entries(dir, &c, &n, &hidden), 0);
	assert_int_equal(n, WRITERS * PER_WRITER);
	assert_int_equal(hidden, 0);
	ids = calloc(n + 1, 1);
	for (size_t i = 0; i < n; i++) {
		assert_true(c[i].id >= 1 && c[i].id <= (int64_t)n);
		assert_false(ids[c[i].id]);
		ids[c[i].id] = 1;
		assert_true(c[i].dump_present);
		assert_string_equal(c[i].not_kept, "");
		assert_true(i == 0 || c[i - 1].seen <= c[i].seen);
	}
	/* a dump comes back as it went in, through zstd */
	assert_int_equal(gpurobust_store_read_file(dir, c[0].dump_file, &data, &len), 0);
	assert_int_equal(len, c[0].dump_size);
	assert_non_null(strstr(data, "AMDGPU Device Coredump"));
	free(data);
	free(ids);
	free(c);
	free(b);
	gpurobust_store_close(s);
	remove_dir(dir);
	free(dir);
}

struct thread_writer {
	const char *dir;
	int w, result;
};

static void *thread_main(void *arg)
{
	struct thread_writer *t = arg;

	t->result = writer(t->dir, t->w);
	return NULL;
}

/* The same burst from threads of one process, each with its own handle
 * (run under TSan in the concurrency tier). */
static void test_burst_from_threads_stores_n_of_n(void **state)
{
	struct thread_writer t[WRITERS];
	pthread_t th[WRITERS];
	char *dir = make_dir();
	struct gpurobust_bucket *b;
	struct gpurobust_store *s;
	uint64_t events;
	size_t n;

	(void)state;
	for (int w = 0; w < WRITERS; w++) {
		t[w] = (struct thread_writer){ .dir = dir, .w = w };
		assert_int_equal(pthread_create(&th[w], NULL, thread_main, &t[w]), 0);
	}
	for (int w = 0; w < WRITERS; w++) {
		assert_int_equal(pthread_join(th[w], NULL), 0);
		assert_int_equal(t[w].result, 0);
	}
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	assert_int_equal(gpurobust_store_count(s, &events), 0);
	assert_int_equal(events, WRITERS * PER_WRITER);
	assert_int_equal(gpurobust_store_buckets(s, &b, &n), 0);
	assert_int_equal(n, BUCKETS);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(b[i].count, WRITERS * PER_WRITER / BUCKETS);
	free(b);
	gpurobust_store_close(s);
	remove_dir(dir);
	free(dir);
}

static int set_user_version(const char *dir, int version)
{
	char path[512], sql[64];
	sqlite3 *db;
	int rc;

	snprintf(path, sizeof(path), "%s/store.db", dir);
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", version);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

/* Version 0 (an empty database) migrates to the current schema; a newer
 * schema is refused rather than misread. */
static void test_schema_migrates_and_refuses_newer(void **state)
{
	char *dir = make_dir();
	struct gpurobust_store *s;
	uint64_t events = 1;

	(void)state;
	assert_int_equal(set_user_version(dir, 0), 0);
	chmod(dir, 0700);
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	assert_int_equal(gpurobust_store_count(s, &events), 0);
	assert_int_equal(events, 0);
	gpurobust_store_close(s);
	/* opening again does not run the migration twice */
	assert_int_equal(gpurobust_store_open(dir, &s), 0);
	gpurobust_store_close(s);
	assert_int_equal(set_user_version(dir, GPUROBUST_STORE_SCHEMA + 1), 0);
	assert_int_equal(gpurobust_store_open(dir, &s), -EPROTONOSUPPORT);
	remove_dir(dir);
	free(dir);
}

/* The database is the owner's alone; the directories others may read, but
 * one they may write to is refused. */
static void test_store_refuses_writable_dirs(void **state)
{
	char *dir = make_dir(), sub[512], path[600];
	struct gpurobust_store *s;
	struct stat st;

	(void)state;
	/* the collector's unit runs with UMask=0077: the directories are
	 * 0755 all the same, for users to reach their crashes */
	umask(077);
	snprintf(sub, sizeof(sub), "%s/new", dir);
	assert_int_equal(gpurobust_store_open(sub, &s), 0);
	gpurobust_store_close(s);
	umask(022);
	assert_int_equal(stat(sub, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	snprintf(path, sizeof(path), "%s/dumps", sub);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0755);
	snprintf(path, sizeof(path), "%s/store.db", sub);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(chmod(sub, 0775), 0);
	assert_int_equal(gpurobust_store_open(sub, &s), -EPERM);
	assert_int_equal(chmod(sub, 0755), 0);
	snprintf(path, sizeof(path), "%s/dumps", sub);
	assert_int_equal(chmod(path, 0777), 0);
	assert_int_equal(gpurobust_store_open(sub, &s), -EPERM);
	assert_int_equal(gpurobust_store_open(NULL, &s), -EINVAL);
	remove_dir(dir);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_stores_n_of_n_in_expected_buckets),
		cmocka_unit_test(test_burst_from_threads_stores_n_of_n),
		cmocka_unit_test(test_schema_migrates_and_refuses_newer),
		cmocka_unit_test(test_store_refuses_writable_dirs),
	};

	return cmocka_run_group_tests_name("store", tests, NULL, NULL);
}
