// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The series' devcoredump sections as the kernel printer writes them. The
 * fixture is the output of the printer's KUnit test D4_fixture, which the
 * kernel tier regenerates and compares byte for byte; its capture buffer
 * holds a breadcrumb pool printed by kernel-capture.c. The kernel helpers
 * regenerate it when the printer changes, so the tests check what it means
 * (the scenario of kernel/fixtures/README.md), not its bytes or layout
 * version: Hang Ring v1 or v2, User Capture with or without va:.
 *
 * fixtures/printer-source-series-v2.devcoredump (built from the printer's
 * source, see fixtures/SOURCES.md) adds what no KUnit test prints: a User
 * Capture section whose copy failed (error:). The same meaning tests run on
 * it, so a layout difference between the two shows up as a failure.
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
/* bare 7.2's own printer (kernel/7.2/fixtures/README.md) */
#define KERNEL72_FIXTURE KERNEL72_FIXTURE_DIR "/base-7.2.13-full-reset.devcoredump"
/* built from the printer's source (the v2 layout), not printed by a kernel */
#define PRINTER_SOURCE_FIXTURE FIXTURE_DIR "/printer-source-series-v2.devcoredump"

/*
 * A printer's dump read from @path, parsed and decoded without an error
 * diagnostic; its text, which the dump points into, in *@text.
 */
static struct gpurobust_coredump *decode_fixture(const char *path, char **text)
{
	struct gpurobust_coredump *d;
	size_t len = 0;

	*text = fixture_read_path(path, &len);
	assert_non_null(*text);
	assert_int_equal(gpurobust_coredump_parse(*text, len, &d), 0);
	assert_int_equal(gpurobust_coredump_decode(d, *text, len), 0);
	for (size_t i = 0; i < d->n_diags; i++)
		assert_int_not_equal(d->diags[i].severity, GPUROBUST_CD_ERROR);
	return d;
}

/* D1, D2, D3 on the series' own printer output: the KUnit test D4_fixture
 * writes kernel/fixtures/series-d4-full-reset.devcoredump (see its README). */
static void test_D1_D2_D3_kernel_printer_fixture(void **state)
{
	const char *path = *state;
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
	const struct gpurobust_cd_ring *hung;
	char *text;
	struct gpurobust_coredump *d = decode_fixture(path, &text);

	assert_int_equal(d->generation, GPUROBUST_CD_GEN_SERIES);
	assert_false(d->truncated);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(d->reset.outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_string_equal(d->reset.process, "vkcube");
	assert_int_equal(d->reset.pid, 4101);
	assert_int_equal(d->reset.guilty_ctx, 1);
	assert_int_equal(d->reset.n_innocents, 1);
	assert_string_equal(d->reset.innocents[0].process, "glxgears");
	assert_int_equal(d->reset.innocents[0].pid, 4102);
	/* D2: the timed-out ring as it was at hang time (Hang Ring v1 or v2) */
	hung = gpurobust_coredump_hung_ring(d);
	assert_non_null(hung);
	assert_string_equal(hung->name, "fake_gfx");
	assert_true(hung->size_dw > 0);
	assert_int_equal(hung->n_dwords, hung->size_dw);
	/* D3: the guilty file's one capture, copied whole */
	assert_true(d->n_captures >= 1);
	assert_int_equal(d->captures[0].error, 0);
	assert_true(d->captures[0].size > 0);
	assert_int_equal(d->captures[0].len, d->captures[0].size);
	assert_ptr_equal(d->capture, d->captures[0].data);
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
	const char *path = *state;
	json_object *o, *caps, *c;
	size_t n, bytes;
	char *out;

	assert_int_equal(run(&out, "report '%s'", path), 0);
	assert_non_null(strstr(out, "GPU hang: Draw 7: vkcube hung on fake_gfx"));
	assert_non_null(strstr(out, "What the GPU was doing\n  Draw 7\n"));
	n = strstr(out, "User Capture 1 of 2 (") ? 2 : 1;
	bytes = assert_capture_line(out, 1, n, "breadcrumbs\n");
	assert_true(bytes > 0);
	assert_non_null(strstr(out, "Frame 1042/Lighting/Draw 7"));
	free(out);
	assert_int_equal(run(&out, "report '%s' --json", path), 0);
	o = parse_strict(out);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "gpu_was_doing")),
			    "Draw 7");
	assert_non_null(strstr(json_object_get_string(json_object_object_get(o, "signature_key")),
			       "|path "));
	assert_true(json_object_object_get_ex(o, "captures", &caps));
	assert_int_equal(json_object_array_length(caps), n);
	c = json_object_array_get_idx(caps, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(c, "bytes")), bytes);
	assert_true(json_object_object_get_ex(c, "breadcrumbs", NULL));
	json_object_put(o);
	free(out);
}

/* A capture buffer that does not hold breadcrumbs (the fixture's, with its
 * header's magic overwritten): the report says so and still succeeds. */
static void test_D3_report_capture_without_breadcrumbs(void **state)
{
	char dump_path[] = "/tmp/gpurobust-d3-nobc-XXXXXX", *out, *magic;
	const char *path = *state;
	size_t len = 0, n;
	char *text = fixture_read_path(path, &len);
	int fd;

	assert_non_null(text);
	/* the first dword line of the first section: the pool's magic */
	magic = strstr(text, "**** User Capture v1 ****\n");
	assert_non_null(magic);
	magic = strstr(magic, "\n43425247 ");
	assert_non_null(magic);
	memcpy(magic + 1, "c0de0000", 8);
	fd = mkstemp(dump_path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
	assert_int_equal(run(&out, "report '%s'", dump_path), 0);
	n = strstr(out, "User Capture 1 of 2 (") ? 2 : 1;
	assert_non_null(strstr(out, "What the GPU was doing\n"
				    "  no breadcrumb path decoded from "));
	assert_capture_line(out, 1, n, "no breadcrumbs");
	free(out);
	unlink(dump_path);
	free(text);
}

/* The fixture's text, and where its User Capture section starts in it. */
static char *fixture_and_capture(const char *path, const char **sec)
{
	size_t len = 0;
	char *text = fixture_read_path(path, &len);

	assert_non_null(text);
	*sec = strstr(text, "**** User Capture v1 ****\n");
	assert_non_null(*sec);
	return text;
}

/* The first User Capture section of @text, as its own string. */
static char *first_capture(const char *sec)
{
	const char *end = strstr(sec + 1, "\n**** ");

	return strndup(sec, end ? (size_t)(end - sec) + 1 : strlen(sec));
}

/* D3: a VM has up to 4 dumpable mappings, so a dump has up to 4 User
 * Capture sections. The fixture's first section, repeated, stands for the
 * others; a fifth one is more than the kernel writes and is diagnosed. */
static void test_D3_up_to_four_captures(void **state)
{
	const char *sec;
	char *text = fixture_and_capture(*state, &sec), *one = first_capture(sec);
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;
	size_t size;

	/* the 6.12 text, Reset and Hang Ring, then five copies of the first */
	tb_printf(&b, "%.*s", (int)(sec - text), text);
	for (int i = 0; i < 5; i++)
		tb_printf(&b, "%s", one);
	assert_int_equal(gpurobust_coredump_parse(b.p, b.len, &d), 0);
	assert_int_equal(d->n_captures, GPUROBUST_CD_MAX_CAPTURES);
	size = d->captures[0].size;
	assert_true(size > 0);
	for (size_t i = 0; i < d->n_captures; i++) {
		assert_int_equal(d->captures[i].size, size);
		assert_int_equal(d->captures[i].len, size);
		assert_memory_equal(d->captures[i].data, d->captures[0].data, size);
	}
	assert_ptr_equal(d->capture, d->captures[0].data);
	assert_int_equal(d->capture_len, size);
	assert_true(d->diags[d->n_diags - 1].severity == GPUROBUST_CD_WARNING);
	assert_non_null(strstr(d->diags[d->n_diags - 1].message, "User Capture section 5 ignored"));
	gpurobust_coredump_free(d);
	free(b.p);
	free(one);
	free(text);
}

/* A capture cut off by the next section is reported, and the next one is
 * still read. */
static void test_D3_capture_cut_by_next_section(void **state)
{
	const char *sec, *first_dwords, *cut;
	char *text = fixture_and_capture(*state, &sec), *one = first_capture(sec), want[64];
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;
	size_t size;

	/* the keys (size:, and va: in v2) and one line of 8 dwords */
	first_dwords = strstr(sec, "\n43425247 ");
	assert_non_null(first_dwords);
	cut = strchr(first_dwords + 1, '\n') + 1;
	tb_printf(&b, "%.*s", (int)(cut - text), text);
	tb_printf(&b, "%s", one);
	assert_int_equal(gpurobust_coredump_parse(b.p, b.len, &d), 0);
	assert_int_equal(d->n_captures, 2);
	size = d->captures[1].size;
	assert_int_equal(d->captures[0].len, 32);
	assert_int_equal(d->captures[1].len, size);
	assert_false(d->truncated);
	assert_true(d->diags[0].severity == GPUROBUST_CD_ERROR);
	snprintf(want, sizeof(want), "32 of %zu bytes before the next section", size);
	assert_non_null(strstr(d->diags[0].message, want));
	gpurobust_coredump_free(d);
	free(b.p);
	free(one);
	free(text);
}

/* D3 v2 on the printer-source fixture: the section of a mapping the kernel
 * could not copy carries its va and errno and no bytes; the report says so
 * and is still titled by the capture that decoded. */
static void test_D3_v2_failed_copy_reported(void **state)
{
	json_object *o, *caps, *c;
	struct gpurobust_coredump *d;
	size_t len = 0;
	char *text = fixture_read_path(PRINTER_SOURCE_FIXTURE, &len), *out;

	(void)state;
	assert_non_null(text);
	assert_int_equal(gpurobust_coredump_parse(text, len, &d), 0);
	assert_int_equal(d->n_captures, 2);
	assert_true(d->captures[0].has_va);
	assert_int_equal(d->captures[0].va, 0x800000100000ull);
	assert_int_equal(d->captures[1].va, 0x800000200000ull);
	assert_int_equal(d->captures[1].error, -14);
	assert_int_equal(d->captures[1].len, 0);
	assert_true(d->features & GPUROBUST_CD_SERIES_HANG_RING_V2);
	assert_true(d->reset.has_vram_lost);
	gpurobust_coredump_free(d);
	free(text);
	assert_int_equal(run(&out, "report '%s'", PRINTER_SOURCE_FIXTURE), 0);
	assert_non_null(strstr(out, "User Capture 1 of 2 (4096 bytes at 0x0000800000100000): "
				    "breadcrumbs\n"));
	assert_non_null(strstr(out, "User Capture 2 of 2 (0 bytes at 0x0000800000200000): "
				    "not copied by the kernel (error -14: "));
	assert_non_null(strstr(out, "  ring fake_gfx at hang time: rptr 0x0, wptr 0x0, 256 dwords\n"));
	free(out);
	assert_int_equal(run(&out, "report '%s' --json", PRINTER_SOURCE_FIXTURE), 0);
	o = parse_strict(out);
	assert_true(json_object_object_get_ex(o, "captures", &caps));
	c = json_object_array_get_idx(caps, 1);
	assert_string_equal(json_object_get_string(json_object_object_get(c, "va")),
			    "0x0000800000200000");
	assert_int_equal(json_object_get_int(json_object_object_get(c, "error")), -14);
	assert_false(json_object_object_get_ex(c, "breadcrumbs", NULL));
	assert_string_equal(json_object_get_string(json_object_object_get(o, "gpu_was_doing")),
			    "Draw 7");
	json_object_put(o);
	free(out);
}

/*
 * 7.2's own text, as bare 7.2 printed the full reset of the 7.2 series'
 * D4_old_text_unchanged: a job of "vkcube" (pid 4101) hangs on fake_gfx
 * with a 16-dword IB at 0x40000000 whose dword i is 0x600d0000 + i. Its
 * process line is 6.17's, "process_name: vkcube TGID: 4101 thread: vkcube
 * PID: 4101": the process is the name before TGID, and its id the TGID.
 */
static void test_kernel72_base_printer_fixture(void **state)
{
	const struct gpurobust_cd_ring *hung;
	char *text;
	struct gpurobust_coredump *d = decode_fixture(KERNEL72_FIXTURE, &text);

	(void)state;
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_IB_DUMP);
	assert_string_equal(d->kernel, "7.2.13+");
	assert_string_equal(d->process, "vkcube");
	assert_int_equal(d->pid, 4101);
	assert_string_equal(d->timeout_ring, "fake_gfx");
	assert_true(d->vram_check_skipped);
	assert_true(d->rings_at_hang);
	hung = gpurobust_coredump_hung_ring(d);
	assert_non_null(hung);
	assert_string_equal(hung->name, "fake_gfx");
	assert_int_equal(d->n_ibs, 1);
	assert_int_equal(d->ibs[0].gpu_addr, 0x40000000);
	assert_int_equal(d->ibs[0].size_dw, 16);
	assert_int_equal(d->ibs[0].n_dwords, 16);
	for (uint32_t i = 0; i < 16; i++)
		assert_int_equal(d->ibs[0].dwords[i], 0x600d0000 + i);
	assert_false(d->features & GPUROBUST_CD_SERIES_RESET);
	gpurobust_coredump_free(d);
	free(text);
}

/* Each fixture test twice: on the kernel's fixture and on the file built
 * from the printer's source. */
#define ON_BOTH(test)								\
	{ #test "/kernel", test, NULL, NULL, (void *)KERNEL_FIXTURE },	\
	{ #test "/printer-source-v2", test, NULL, NULL, (void *)PRINTER_SOURCE_FIXTURE }

int main(void)
{
	const struct CMUnitTest tests[] = {
		ON_BOTH(test_D1_D2_D3_kernel_printer_fixture),
		ON_BOTH(test_D3_report_decodes_kernel_fixture_without_meta),
		ON_BOTH(test_D3_report_capture_without_breadcrumbs),
		ON_BOTH(test_D3_up_to_four_captures),
		ON_BOTH(test_D3_capture_cut_by_next_section),
		cmocka_unit_test(test_D3_v2_failed_copy_reported),
		cmocka_unit_test(test_kernel72_base_printer_fixture),
	};

	/* the fixture is committed: without it the test fails, never skips */
	if (access(KERNEL_FIXTURE, R_OK) || access(KERNEL72_FIXTURE, R_OK)) {
		printf("Bail out! cannot read %s or %s\n", KERNEL_FIXTURE,
		       KERNEL72_FIXTURE);
		return 1;
	}
	return cmocka_run_group_tests_name("kernel-fixture", tests, NULL, NULL);
}
