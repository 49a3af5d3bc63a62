// SPDX-License-Identifier: MIT
/*
 * The series' devcoredump sections as the kernel printer writes them. The
 * fixture is the output of the printer's KUnit test, saved by the kernel
 * tier; until the printer patch (kernel series part 3) lands it does not
 * exist and this test reports itself skipped.
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
	for (size_t i = 0; i < d->capture_len / 4; i++) {
		uint32_t dw = (uint32_t)d->capture[4 * i] | (uint32_t)d->capture[4 * i + 1] << 8 |
			      (uint32_t)d->capture[4 * i + 2] << 16 |
			      (uint32_t)d->capture[4 * i + 3] << 24;

		assert_int_equal(dw, 0xc0de0000u + i);
	}
	gpurobust_coredump_free(d);
	free(text);
}

/* The fixture's capture buffer holds 0xc0de0000 + i, not breadcrumbs: the
 * report decodes it from the dump alone, says so, and still succeeds. */
static void test_D3_report_without_meta_no_breadcrumbs(void **state)
{
	struct gpurobust_bc_report *bc = (void *)1;
	struct gpurobust_coredump *d;
	json_object *o, *caps, *c;
	size_t len = 0;
	char *text = fixture_read_path(KERNEL_FIXTURE, &len), *out;

	(void)state;
	assert_non_null(text);
	assert_int_equal(gpurobust_coredump_parse(text, len, &d), 0);
	assert_int_equal(d->n_captures, 1);
	assert_int_equal(gpurobust_bc_decode(d->captures[0].data, d->captures[0].len, NULL, &bc),
			 -EBADMSG);
	assert_null(bc);
	gpurobust_coredump_free(d);
	free(text);

	assert_int_equal(run(&out, "report '%s'", KERNEL_FIXTURE), 0);
	assert_non_null(strstr(out, "What the GPU was doing\n"
				    "  no breadcrumb path decoded from 1 User Capture section\n"));
	assert_non_null(strstr(out, "User Capture 1 of 1 (4096 bytes): no breadcrumbs"));
	free(out);
	assert_int_equal(run(&out, "report '%s' --json", KERNEL_FIXTURE), 0);
	o = parse_strict(out);
	assert_true(json_object_object_get_ex(o, "captures", &caps));
	assert_int_equal(json_object_array_length(caps), 1);
	c = json_object_array_get_idx(caps, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(c, "bytes")), 4096);
	assert_false(json_object_object_get_ex(c, "breadcrumbs", NULL));
	json_object_put(o);
	free(out);
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
		cmocka_unit_test(test_D3_report_without_meta_no_breadcrumbs),
		cmocka_unit_test(test_D3_up_to_four_captures),
		cmocka_unit_test(test_D3_capture_cut_by_next_section),
	};

	if (access(KERNEL_FIXTURE, R_OK)) {
		printf("1..0 # SKIP %s not there yet (kernel series part 3)\n", KERNEL_FIXTURE);
		return 0;
	}
	return cmocka_run_group_tests_name("kernel-fixture", tests, NULL, NULL);
}
