// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * B2 through the command line: `gpurobust group DIR` on report files written
 * by gpurobust_bc_report_to_json(). Two root causes, one of them seen with
 * different parallel work: the path grouping finds two clusters, the
 * baseline three, and a file that is not a report is named and skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "gpurobust/breadcrumbs-json.h"
#include "report-builder.h"

#define A GPUROBUST_BC_IN_PROGRESS
#define F GPUROBUST_BC_FINISHED
#define N GPUROBUST_BC_NOT_STARTED

static const char *tool;
static char dir[] = "/tmp/gpurobust-group-XXXXXX";

static void write_report(const char *name, const struct outline_stream *s, uint32_t count)
{
	struct gpurobust_bc_report *r = build_report(s, count, 0);
	char *json = gpurobust_bc_report_to_json(r);
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_true(fputs(json, f) >= 0);
	assert_int_equal(fclose(f), 0);
	free(json);
	gpurobust_bc_report_free(r);
}

static int make_dir(void **state)
{
	static const struct outline terrain[] = {
		{ 0, A, "Frame 10" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" }, { 2, A, "Draw Terrain 3" },
	};
	static const struct outline terrain_later[] = {
		{ 0, A, "Frame 977" }, { 1, F, "Shadows" }, { 1, A, "GBuffer" }, { 2, A, "Draw Terrain 8" },
		{ 2, A, "Draw Foliage 1" },
	};
	static const struct outline water[] = {
		{ 0, A, "Frame 11" }, { 1, F, "GBuffer" }, { 1, A, "Water" },
	};
	static const struct outline async[] = { { 0, A, "Async Cull" } };
	const struct outline_stream a[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, terrain) };
	const struct outline_stream b[] = {
		OUTLINE(GPUROBUST_BC_QUEUE_GFX, terrain_later), OUTLINE(GPUROBUST_BC_QUEUE_COMPUTE, async),
	};
	const struct outline_stream c[] = { OUTLINE(GPUROBUST_BC_QUEUE_GFX, water) };
	char path[128];
	FILE *f;

	assert_non_null(mkdtemp(dir));
	write_report("a.json", a, 1);
	write_report("b.json", b, 2);
	write_report("c.json", c, 1);
	snprintf(path, sizeof(path), "%s/notes.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("{\"not\": \"a report\"}", f);
	fclose(f);
	return 0;
}

static int remove_dir(void **state)
{
	static const char *const names[] = { "a.json", "b.json", "c.json", "notes.json" };
	char path[128];

	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	rmdir(dir);
	return 0;
}

/* Runs the tool; returns its exit status and its stdout in out. */
static int run(const char *args, char *out, size_t size)
{
	char cmd[512];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "'%s' group %s 2>/dev/null", tool, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	return WEXITSTATUS(pclose(p));
}

static void B2_group_cli_path(void **state)
{
	char out[4096], args[256];

	snprintf(args, sizeof(args), "'%s'", dir);
	assert_int_equal(run(args, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "3 reports, 2 clusters (path grouping)"));
	assert_non_null(strstr(out, "cluster 1: 2 reports"));
	assert_non_null(strstr(out, "title: Draw Terrain 3\n  a.json\n  b.json\n"));
}

static void B2_group_cli_unreal(void **state)
{
	char out[4096], args[256];

	snprintf(args, sizeof(args), "--method unreal '%s'", dir);
	assert_int_equal(run(args, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "3 reports, 3 clusters (unreal grouping)"));
}

static void B2_group_cli_json(void **state)
{
	char out[4096], args[256];

	snprintf(args, sizeof(args), "--json '%s'", dir);
	assert_int_equal(run(args, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "\"method\": \"path\""));
	assert_non_null(strstr(out, "\"title\": \"Water\""));
}

static void B2_group_cli_usage(void **state)
{
	char out[256];

	assert_int_equal(run("", out, sizeof(out)), 2);
	assert_int_equal(run("--method nearest /tmp", out, sizeof(out)), 2);
	assert_int_equal(run("/nonexistent-gpurobust-dir", out, sizeof(out)), 1);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B2_group_cli_path),
		cmocka_unit_test(B2_group_cli_unreal),
		cmocka_unit_test(B2_group_cli_json),
		cmocka_unit_test(B2_group_cli_usage),
	};

	if (argc != 2) {
		fprintf(stderr, "usage: %s PATH_TO_GPUROBUST\n", argv[0]);
		return 2;
	}
	tool = argv[1];
	return cmocka_run_group_tests_name("B2 group CLI", tests, make_dir, remove_dir);
}
