// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * D3 with B2: breadcrumbs that reach a devcoredump's User Capture section
 * are decoded with the metadata the process saved, title the report by the
 * scope the GPU was in, and join the signature. The capture comes from the
 * breadcrumb module's own pool and packet replay (tests/breadcrumbs/
 * fake-gpu), the dump around it from the series' grammar (generated).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpurobust/breadcrumbs-json.h>
#include <gpurobust/breadcrumbs.h>
#include <gpurobust/report.h>

#include "driver/core/breadcrumbs/internal.h"
#include "dumpgen.h"
#include "fake-gpu.h"
#include "fixture.h"
#include "run-tool.h"

static struct fake_ib gfx;

struct fixture {
	struct fake_pool fp;
	struct gpurobust_bc_meta *meta;
	struct textbuf dump;
};

/* One gfx stream stopped inside Frame > Shadows > Draw 12. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct gpurobust_bc_stream *s;
	size_t me;

	assert_non_null(f);
	fake_pool_init(&f->fp, 4096, 0);
	gfx = (struct fake_ib){ .level = GPUROBUST_BC_GFX10, .queue = GPUROBUST_BC_QUEUE_GFX };
	assert_int_equal(fake_stream_create(f->fp.pool, GPUROBUST_BC_QUEUE_GFX, "main",
						    &gfx, &s), 0);
	fake_begin(s);
	fake_push(s, intern(f->fp.pool, "Frame"));
	fake_push(s, intern(f->fp.pool, "Shadows"));
	fake_push(s, intern(f->fp.pool, "Draw 12"));
	me = fake_ib_mark(&gfx);
	fake_pop(s);
	fake_pop(s);
	fake_pop(s);
	/* the GPU started Draw 12 and finished nothing */
	fake_gpu_run(&gfx, me, 2, f->fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_meta(f->fp.pool, &f->meta), 0);
	gen_header_612(&f->dump, "6.12.117-gpurobust", "vkcube", 4242, "gfx_0.0.0");
	gen_series(&f->dump, f->fp.map, BC_HEADER_SIZE + BC_RECORD_SIZE);
	gpurobust_bc_stream_destroy(s);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	gpurobust_bc_meta_free(f->meta);
	fake_pool_fini(&f->fp);
	free(f->dump.p);
	free(f);
	return 0;
}

static void test_D3_B2_capture_titles_and_signs_the_report(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_coredump *d;
	struct gpurobust_report *r;
	struct gpurobust_bc_report *bc;
	uint64_t without;

	assert_int_equal(gpurobust_coredump_parse(f->dump.p, f->dump.len, &d), 0);
	assert_int_equal(d->capture_len, BC_HEADER_SIZE + BC_RECORD_SIZE);
	assert_int_equal(gpurobust_report_build(d, NULL, &r), 0);
	without = r->signature;
	assert_int_equal(gpurobust_bc_decode(d->capture, d->capture_len, f->meta, &bc), 0);
	assert_int_equal(gpurobust_report_attach_breadcrumbs(r, bc), 0);
	assert_string_equal(r->doing, "Draw 12");
	assert_true(r->breadcrumb_signature != 0);
	assert_true(r->signature != without);
	/* the Reset section names the guilty process (D1) */
	assert_non_null(strstr(r->title, "Draw 12: glretrace hung on gfx_0.0.0"));
	assert_non_null(strstr(r->signature_key, "|path "));
	assert_int_equal(gpurobust_report_attach_breadcrumbs(NULL, bc), -EINVAL);
	gpurobust_bc_report_free(bc);
	gpurobust_report_free(r);
	gpurobust_coredump_free(d);
}

/* The same through `gpurobust report --meta`, and its JSON. */
static void test_D3_report_meta_cli_json(void **state)
{
	struct fixture *f = *state;
	char dump_path[] = "/tmp/gpurobust-d3-dump-XXXXXX", meta_path[] = "/tmp/gpurobust-d3-meta-XXXXXX";
	char *meta = gpurobust_bc_meta_to_json(f->meta), *out, expect[96];
	int dfd = mkstemp(dump_path), mfd = mkstemp(meta_path);
	json_object *o, *caps, *bc;

	assert_non_null(meta);
	assert_int_equal(write(dfd, f->dump.p, f->dump.len), (ssize_t)f->dump.len);
	assert_int_equal(write(mfd, meta, strlen(meta)), (ssize_t)strlen(meta));
	close(dfd);
	close(mfd);
	assert_int_equal(run(&out, "report '%s' --meta '%s' --json", dump_path, meta_path), 0);
	o = parse_strict(out);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "gpu_was_doing")),
			    "Draw 12");
	assert_true(json_object_object_get_ex(o, "captures", &caps));
	bc = json_object_array_get_idx(caps, 0);
	assert_true(json_object_object_get_ex(bc, "breadcrumbs", NULL));
	json_object_put(o);
	free(out);
	assert_int_equal(run(&out, "report '%s' --meta '%s'", dump_path, meta_path), 0);
	assert_non_null(strstr(out, "What the GPU was doing\n  Draw 12\n"));
	assert_non_null(strstr(out, "User Capture 1 of 1"));
	free(out);
	/* without the metadata (the pool mirrors nothing) the report says so */
	assert_int_equal(run(&out, "report '%s'", dump_path), 0);
	snprintf(expect, sizeof(expect), "User Capture 1 of 1 (%u bytes): no breadcrumbs in the dump",
		 BC_HEADER_SIZE + BC_RECORD_SIZE);
	assert_non_null(strstr(out, expect));
	free(out);
	/* metadata that is not breadcrumb metadata: a clear error */
	assert_int_equal(run(&out, "report '%s' --meta '%s'", dump_path, dump_path), 1);
	free(out);
	unlink(dump_path);
	unlink(meta_path);
	free(meta);
}

/* The series' printer output (kernel/fixtures) with a mirroring pool's
 * bytes appended as a second User Capture section in D3 v2's layout (with
 * its va:), as a VM with two dumpable mappings would get; the GPU stopped inside the three
 * scopes @names, on a stream labelled @label. Written to @path (a mkstemp
 * template); false when the kernel fixture is missing. */
static bool mirrored_dump(const char *const names[3], const char *label, char *path)
{
	struct gpurobust_bc_pool_config cfg = {
		.size = 4096, .gpu_va = FAKE_GPU_VA, .mirror_scopes = 8, .mirror_name_bytes = 256,
	};
	struct gpurobust_bc_pool *pool;
	struct gpurobust_bc_stream *s;
	struct textbuf dump = { 0 };
	uint8_t *map = calloc(1, 4096);
	size_t me, len = 0;
	char *fixture;
	int fd;

	fixture = fixture_read_path(KERNEL_FIXTURE_DIR "/series-d4-full-reset.devcoredump", &len);
	if (!fixture) {
		free(map);
		return false;
	}
	assert_non_null(map);
	cfg.cpu_map = map;
	assert_int_equal(gpurobust_bc_pool_create(&cfg, &pool), 0);
	gfx = (struct fake_ib){ .level = GPUROBUST_BC_GFX11, .queue = GPUROBUST_BC_QUEUE_GFX };
	assert_int_equal(fake_stream_create(pool, GPUROBUST_BC_QUEUE_GFX, label, &gfx, &s),
			 0);
	fake_begin(s);
	for (int i = 0; i < 3; i++)
		fake_push(s, intern(pool, names[i]));
	me = fake_ib_mark(&gfx);
	for (int i = 0; i < 3; i++)
		fake_pop(s);
	fake_gpu_run(&gfx, me, 2, map, FAKE_GPU_VA);

	tb_printf(&dump, "%s", fixture);
	gen_capture_v2(&dump, FAKE_GPU_VA, map, 4096, 0, NULL);
	fd = mkstemp(path);
	assert_int_equal(write(fd, dump.p, dump.len), (ssize_t)dump.len);
	close(fd);
	gpurobust_bc_stream_destroy(s);
	gpurobust_bc_pool_destroy(pool);
	free(dump.p);
	free(fixture);
	free(map);
	return true;
}

/* The capture is self-describing when the pool mirrors its scopes (B3):
 * `gpurobust report` decodes it from the dump alone. */
static void test_D3_report_decodes_mirrored_capture_without_meta(void **state)
{
	static const char *const names[3] = { "Frame", "Shadows", "Draw 12" };
	char dump_path[] = "/tmp/gpurobust-d3-mirror-XXXXXX", *out;
	json_object *o, *caps, *c;

	(void)state;
	if (!mirrored_dump(names, "main", dump_path))
		skip();
	assert_int_equal(run(&out, "report '%s'", dump_path), 0);
	/* the fixture's own capture comes first and titles the report */
	assert_non_null(strstr(out, "What the GPU was doing\n  Draw 7\n"));
	assert_capture_line(out, 1, 2, "breadcrumbs\n");
	assert_non_null(strstr(out, "User Capture 2 of 2 (4096 bytes at 0x0000800000100000): "
				    "breadcrumbs\n"));
	assert_non_null(strstr(out, "Frame/Shadows/Draw 12"));
	free(out);
	assert_int_equal(run(&out, "report '%s' --json", dump_path), 0);
	o = parse_strict(out);
	assert_string_equal(json_object_get_string(json_object_object_get(o, "gpu_was_doing")),
			    "Draw 7");
	/* the path joins the signature (B2) in gpurobust_crash_analyze(), which
	 * `gpurobust watch` shares, so stored buckets match this report */
	assert_non_null(strstr(json_object_get_string(json_object_object_get(o, "signature_key")),
			       "|path "));
	assert_true(json_object_object_get_ex(o, "captures", &caps));
	assert_int_equal(json_object_array_length(caps), 2);
	for (size_t i = 0; i < 2; i++) {
		c = json_object_array_get_idx(caps, i);
		assert_true(json_object_object_get_ex(c, "breadcrumbs", NULL));
	}
	/* the tree that titled the report, also at the top */
	assert_true(json_object_object_get_ex(o, "breadcrumbs", NULL));
	json_object_put(o);
	free(out);
	unlink(dump_path);
}

/* A hostile capture (issue 16): the hung process names its scopes and its
 * stream itself, and `gpurobust report` runs as root. Nothing a terminal
 * acts on reaches standard output, in text or JSON. */
static void test_D3_hostile_scope_names_stay_inert(void **state)
{
	static const char *const names[3] = { "\x1b[2J", "\x1b]2;owned\x07", "\xc2\x9b" "6n" };
	char dump_path[] = "/tmp/gpurobust-d3-hostile-XXXXXX", *out;

	(void)state;
	if (!mirrored_dump(names, "\x1b[31mred", dump_path))
		skip();
	for (int json = 0; json < 2; json++) {
		assert_int_equal(run(&out, "report '%s'%s", dump_path, json ? " --json" : ""), 0);
		for (const unsigned char *c = (const unsigned char *)out; *c; c++)
			if ((*c < 0x20 && *c != '\n') || *c == 0x7f ||
			    (c[0] == 0xc2 && c[1] >= 0x80 && c[1] < 0xa0))
				fail_msg("byte 0x%02x at offset %td", *c, (const char *)c - out);
		assert_non_null(strstr(out, json ? "\\\\x1b[2J" : "\\x1b[2J"));
		assert_non_null(strstr(out, json ? "\\\\x1b]2;owned\\\\x07" : "\\x1b]2;owned\\x07"));
		if (json)
			json_object_put(parse_strict(out));
		free(out);
	}
	unlink(dump_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_D3_B2_capture_titles_and_signs_the_report,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_D3_report_meta_cli_json, setup, teardown),
		cmocka_unit_test(test_D3_report_decodes_mirrored_capture_without_meta),
		cmocka_unit_test(test_D3_hostile_scope_names_stay_inert),
	};

	return cmocka_run_group_tests_name("d3-breadcrumbs", tests, NULL, NULL);
}
