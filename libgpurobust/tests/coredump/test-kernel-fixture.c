// SPDX-License-Identifier: MIT
/*
 * The series' devcoredump sections as the kernel printer writes them. The
 * fixture is the output of the printer's KUnit test, saved by the kernel
 * tier; until the printer patch (kernel series part 3) lands it does not
 * exist and this test reports itself skipped.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpurobust/coredump.h>

#include "fixture.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_D1_D2_D3_kernel_printer_fixture),
	};

	if (access(KERNEL_FIXTURE, R_OK)) {
		printf("1..0 # SKIP %s not there yet (kernel series part 3)\n", KERNEL_FIXTURE);
		return 0;
	}
	return cmocka_run_group_tests_name("kernel-fixture", tests, NULL, NULL);
}
