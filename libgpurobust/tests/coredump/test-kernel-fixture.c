// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The series' devcoredump sections as the kernel printer writes them. The
 * fixture is the output of the printer's KUnit test D4_fixture, which the
 * kernel tier regenerates and compares byte for byte; its capture buffer
 * holds a breadcrumb pool printed by kernel-capture.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpurobust/breadcrumbs.h>
#include <gpurobust/coredump.h>
#include <gpurobust/report.h>

#include "dumpgen.h"
#include "fixture.h"
#include "run-tool.h"

#define KERNEL_FIXTURE KERNEL_FIXTURE_DIR "/series-d4-full-reset.devcoredump"

/* D1, D2, D3 on the series' own printer output: the KUnit test D4_fixture
 * writes kernel/fixtures/series-d4-full-reset.devcoredump (see its README). */
static void test_D1_D2_D3_kernel_printer_fixture(void **state)
{
	/* The scopes of libgpurobust/tests/coredump/kernel-capture.c, which
	 * printed the pool that the KUnit test put in its capture buffer. */
	static const struct {
		const char *name;
		enum gpurobust_bc_state state;
	} expect[] = {
		{ "Frame 1042", GPUROBUST_BC_IN_PROGRESS },
		{ "Shadows", GPUROBUST_BC_FINISHED },
		{ "Lighting", GPUROBUST_BC_IN_PROGRESS },
		{ "Draw 6", GPUROBUST_BC_FINISHED },
		{ "Draw 7", GPUROBUST_BC_IN_PROGRESS },
		{ "Draw 8", GPUROBUST_BC_NOT_STARTED },
	};
	struct gpurobust_bc_report *bc;
	struct gpurobust_bc_stream_report *s;
	struct gpurobust_coredump *d;
	size_t len = 0;
	char *text = fixture_read_path(KERNEL_FIXTURE, &len);

	(void)state;
	assert_non_null(text);
	assert_int_equal(gpurobust_coredump_parse(text, len, &d), 0);
	assert_int_equal(gpurobust_coredump_decode(d, text, len), 0);
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_SERIES);
	assert_false(d->truncated);
	for (size_t i = 0; i < d->n_diags; i++)
		assert_int_not_equal(d->diags[i].severity, GPUROBUST_CD_ERROR);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(d->reset.outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_string_equal(d->reset.process, "vkcube");
	assert_int_equal(d->reset.pid, 4101);
	assert_int_equal(d->reset.guilty_ctx, 1);
	assert_int_equal(d->reset.n_innocents, 1);
	assert_string_equal(d->reset.innocents[0].process, "glxgears");
	assert_int_equal(d->reset.innocents[0].pid, 4102);
	assert_true(d->features & GPUROBUST_CD_SERIES_HANG_RING);
	assert_int_equal(d->capture_len, 4096);
	/* the capture is the breadcrumb pool a hung process left (B3) */
	assert_int_equal(gpurobust_bc_decode(d->capture, d->capture_len, NULL, &bc), 0);
	assert_int_equal(bc->stream_count, 1);
	s = &bc->streams[0];
	assert_true(s->valid);
	assert_int_equal(s->queue, GPUROBUST_BC_QUEUE_GFX);
	assert_string_equal(s->label, "main");
	assert_int_equal(s->node_count, sizeof(expect) / sizeof(expect[0]));
	for (size_t i = 0; i < s->node_count; i++) {
		assert_string_equal(s->nodes[i].name, expect[i].name);
		assert_int_equal(s->nodes[i].state, expect[i].state);
	}
	gpurobust_bc_report_free(bc);
	gpurobust_coredump_free(d);
	free(text);
}

/* B3 + D3: the capture decodes from the dump alone, so the report says
 * what the GPU was doing, titles itself by it and signs with its path. */
static void test_D3_report_decodes_kernel_fixture_without_meta(void **state)
{
	json_object *o, *caps, *c;
	char *out;

	(void)state;
	assert_int_equal(run(&out, "report '%s'", KERNEL_FIXTURE), 0);
	assert_non_null(strstr(out, "GPU hang: Draw 7: vkcube hung on fake_gfx"));
	assert_non_null(strstr(out, "What the GPU was doing\n  Draw 7\n"));
	assert_non_null(strstr(out, "User Capture 1 of 1 (4096 bytes): breadcrumbs\n"));
	assert_non_null(strstr(out, "Frame 1042/Lighting/Draw 7"));
	free(out);
	assert_int_equal(run(&out, "report '%s' --json", KERNEL_FIXTURE), 0);
	o = parse_strict(out);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "gpu_was_doing")),
			    "Draw 7");
	assert_non_null(strstr(json_object_get_string(json_object_object_get(o, "signature_key")),
			       "|path "));
	assert_true(json_object_object_get_ex(o, "captures", &caps));
	assert_int_equal(json_object_array_length(caps), 1);
	c = json_object_array_get_idx(caps, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(c, "bytes")), 4096);
	assert_true(json_object_object_get_ex(c, "breadcrumbs", NULL));
	json_object_put(o);
	free(out);
}

/* A capture buffer that does not hold breadcrumbs (the fixture's, with its
 * header's magic overwritten): the report says so and still succeeds. */
static void test_D3_report_capture_without_breadcrumbs(void **state)
{
	char dump_path[] = "/tmp/gpurobust-d3-nobc-XXXXXX", *out, *magic;
	size_t len = 0;
	char *text = fixture_read_path(KERNEL_FIXTURE, &len);
	int fd;

	(void)state;
	assert_non_null(text);
	magic = strstr(text, "**** User Capture v1 ****\nsize: 4096\n43425247 ");
	assert_non_null(magic);
	memcpy(strchr(magic + strlen("**** User Capture v1 ****\nsize: "), '\n') + 1, "c0de0000",
	       8);
	fd = mkstemp(dump_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	assert_int_equal(run(&out, "report '%s'", dump_path), 0);
	assert_non_null(strstr(out, "What the GPU was doing\n"
				    "  no breadcrumb path decoded from 1 User Capture section\n"));
	assert_non_null(strstr(out, "User Capture 1 of 1 (4096 bytes): no breadcrumbs"));
	free(out);
	unlink(dump_path);
	free(text);
}

/* The fixture's text, and where its User Capture section starts in it. */
static char *fixture_and_capture(const char **sec)
{
	size_t len = 0;
	char *text = fixture_read_path(KERNEL_FIXTURE, &len);

	assert_non_null(text);
	*sec = strstr(text, "**** User Capture v1 ****\n");
	assert_non_null(*sec);
	return text;
}

/* D3: a file registers up to 4 buffers, so a dump has up to 4 User Capture
 * sections. The fixture's own section, repeated, stands for the others; a
 * fifth one is more than the kernel writes and is diagnosed. */
static void test_D3_up_to_four_captures(void **state)
{
	const char *sec;
	char *text = fixture_and_capture(&sec);
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	tb_printf(&b, "%s", text);
	for (int i = 0; i < 4; i++)
		tb_printf(&b, "%s", sec);
	assert_int_equal(gpurobust_coredump_parse(b.p, b.len, &d), 0);
	assert_int_equal(d->n_captures, GPUROBUST_CD_MAX_CAPTURES);
	for (size_t i = 0; i < d->n_captures; i++) {
		assert_int_equal(d->captures[i].size, 4096);
		assert_int_equal(d->captures[i].len, 4096);
		assert_memory_equal(d->captures[i].data, d->captures[0].data, 4096);
	}
	assert_ptr_equal(d->capture, d->captures[0].data);
	assert_int_equal(d->capture_len, 4096);
	assert_true(d->diags[d->n_diags - 1].severity == GPUROBUST_CD_WARNING);
	assert_non_null(strstr(d->diags[d->n_diags - 1].message, "User Capture section 5 ignored"));
	gpurobust_coredump_free(d);
	free(b.p);
	free(text);
}

/* A capture cut off by the next section is reported, and the next one is
 * still read. */
static void test_D3_capture_cut_by_next_section(void **state)
{
	const char *sec, *third_line;
	char *text = fixture_and_capture(&sec);
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	/* the title, "size: 4096" and one line of 8 dwords */
	third_line = strchr(strchr(strchr(sec, '\n') + 1, '\n') + 1, '\n') + 1;
	tb_printf(&b, "%.*s", (int)(third_line - text), text);
	tb_printf(&b, "%s", sec);
	assert_int_equal(gpurobust_coredump_parse(b.p, b.len, &d), 0);
	assert_int_equal(d->n_captures, 2);
	assert_int_equal(d->captures[0].len, 32);
	assert_int_equal(d->captures[1].len, 4096);
	assert_false(d->truncated);
	assert_true(d->diags[0].severity == GPUROBUST_CD_ERROR);
	assert_non_null(strstr(d->diags[0].message, "32 of 4096 bytes before the next section"));
	gpurobust_coredump_free(d);
	free(b.p);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_D1_D2_D3_kernel_printer_fixture),
		cmocka_unit_test(test_D3_report_decodes_kernel_fixture_without_meta),
		cmocka_unit_test(test_D3_report_capture_without_breadcrumbs),
		cmocka_unit_test(test_D3_up_to_four_captures),
		cmocka_unit_test(test_D3_capture_cut_by_next_section),
	};

	if (access(KERNEL_FIXTURE, R_OK)) {
		printf("1..0 # SKIP %s not there yet (kernel series part 3)\n", KERNEL_FIXTURE);
		return 0;
	}
	return cmocka_run_group_tests_name("kernel-fixture", tests, NULL, NULL);
}
