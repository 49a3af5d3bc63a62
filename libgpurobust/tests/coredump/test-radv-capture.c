// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * B3 and D3 across the Mesa seam: the capture in
 * integration/mesa/main/fixtures/radv-labels-hang.devcoredump is the
 * breadcrumb buffer the Mesa series' RADV (RADV_DEBUG=breadcrumbs) filled
 * from the debug labels of integration/mesa/device-lost.c, by its own
 * packets, which ib-replay.c executed on the drm-shim up to a hang after
 * the fifth label start (see that directory's README.md). The tests check
 * what a triager reads in it: the label tree with each label's state, and
 * the report's active label, from the dump alone.
 */
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

#include "fixture.h"
#include "run-tool.h"

#define RADV_FIXTURE RADV_FIXTURE_DIR "/radv-labels-hang.devcoredump"

/* device-lost.c's labels in push order, hung in "transparent". */
static const struct {
	const char *name;
	uint32_t depth;
	enum gpurobust_bc_state state;
} expect[] = {
	{ "frame 1", 0, GPUROBUST_BC_IN_PROGRESS },
	{ "shadow pass", 1, GPUROBUST_BC_FINISHED },
	{ "main pass", 1, GPUROBUST_BC_IN_PROGRESS },
	{ "opaque", 2, GPUROBUST_BC_FINISHED },
	{ "transparent", 2, GPUROBUST_BC_IN_PROGRESS },
	{ "post", 1, GPUROBUST_BC_NOT_STARTED },
};

static void test_B3_radv_capture_decodes_to_the_label_tree(void **state)
{
	struct gpurobust_bc_stream_report *s;
	struct gpurobust_coredump *d;
	struct gpurobust_bc_report *bc;
	size_t len = 0;
	char *text = fixture_read_path(RADV_FIXTURE, &len);

	(void)state;
	assert_non_null(text);
	assert_int_equal(gpurobust_coredump_parse(text, len, &d), 0);
	assert_int_equal(gpurobust_coredump_decode(d, text, len), 0);
	assert_int_equal(d->n_captures, 1);
	/* RADV's pool is the whole dumpable mapping, the kernel's size cap */
	assert_int_equal(d->captures[0].size, 65536);
	assert_int_equal(gpurobust_bc_decode(d->capture, d->capture_len, NULL, &bc), 0);
	assert_int_equal(bc->stream_count, 1);
	s = &bc->streams[0];
	assert_true(s->valid);
	assert_int_equal(s->queue, GPUROBUST_BC_QUEUE_GFX);
	assert_int_equal(s->node_count, sizeof(expect) / sizeof(expect[0]));
	for (size_t i = 0; i < s->node_count; i++) {
		assert_string_equal(s->nodes[i].name, expect[i].name);
		assert_int_equal(s->nodes[i].depth, expect[i].depth);
		assert_int_equal(s->nodes[i].state, expect[i].state);
	}
	gpurobust_bc_report_free(bc);
	gpurobust_coredump_free(d);
	free(text);
}

static void test_D3_report_names_the_label_radv_hung_in(void **state)
{
	char *out;

	(void)state;
	assert_int_equal(run(&out, "report '%s'", RADV_FIXTURE), 0);
	assert_non_null(strstr(out, "GPU hang: transparent: device-lost hung on gfx_0.0.0"));
	assert_non_null(strstr(out, "What the GPU was doing\n  transparent\n"));
	assert_non_null(strstr(out, "frame 1/main pass/transparent"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_B3_radv_capture_decodes_to_the_label_tree),
		cmocka_unit_test(test_D3_report_names_the_label_radv_hung_in),
	};

	/* the fixture is committed: without it the test fails, never skips */
	if (access(RADV_FIXTURE, R_OK)) {
		printf("Bail out! cannot read %s\n", RADV_FIXTURE);
		return 1;
	}
	return cmocka_run_group_tests_name("radv-capture", tests, NULL, NULL);
}
