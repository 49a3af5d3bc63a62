// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* Contract rows L1-L8: evidence in, sticky classification out. */
#include <errno.h>

#include <string.h>

#include "common/amdgpu-uapi.h"
#include "reset-lattice.h"
#include "test-helpers.h"

#define Q2_RESET AMDGPU_CTX_QUERY2_FLAGS_RESET
#define Q2_GUILTY AMDGPU_CTX_QUERY2_FLAGS_GUILTY
#define Q2_VRAMLOST AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST
#define Q2_IN_PROGRESS AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS
#define Q2_PER_CTX AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET

static void test_L1_enodata_is_guilty_soft_on_both_kernels(void **state)
{
	assert_int_equal(classify_errno(-ENODATA, PER_CTX).reset_class,
			 GPUROBUST_RESET_GUILTY_SOFT);
	assert_int_equal(classify_errno(-ENODATA, LEGACY).reset_class,
			 GPUROBUST_RESET_GUILTY_SOFT);
	assert_int_equal(classify_errno(-ENODATA, LEGACY).first_errno, -ENODATA);
}

static void test_L1_guilty_is_sticky_after_later_success(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	assert_int_equal(gpurobust_ctx_note_errno(ctx, -ENODATA), 0);
	assert_int_equal(gpurobust_ctx_note_errno(ctx, 0), 0);
	assert_int_equal(gpurobust_ctx_note_query2(ctx, Q2_PER_CTX), 0);
	assert_int_equal(gpurobust_ctx_note_query1(ctx, AMDGPU_CTX_NO_RESET), 0);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_SOFT);
	assert_int_equal(status_of(ctx).first_errno, -ENODATA);
	gpurobust_ctx_destroy(ctx);
}

static void test_L2_etime_is_guilty_hard(void **state)
{
	assert_int_equal(classify_errno(-ETIME, PER_CTX).reset_class,
			 GPUROBUST_RESET_GUILTY_HARD);
	assert_int_equal(classify_errno(-ETIME, LEGACY).reset_class,
			 GPUROBUST_RESET_GUILTY_HARD);
}

static void test_L2_soft_then_hard_escalates_and_never_goes_back(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ENODATA);
	gpurobust_ctx_note_errno(ctx, -ETIME);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
	gpurobust_ctx_note_errno(ctx, -ENODATA);
	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
	assert_int_equal(status_of(ctx).first_errno, -ENODATA);
	gpurobust_ctx_destroy(ctx);
}

static void test_L3_ecanceled_with_series_is_innocent(void **state)
{
	struct gpurobust_reset_status st = classify_errno(-ECANCELED, PER_CTX);

	assert_int_equal(st.reset_class, GPUROBUST_RESET_INNOCENT);
	assert_int_equal(st.first_errno, -ECANCELED);
	assert_int_equal(st.flags, 0);
}

static void test_L4_ecanceled_on_legacy_kernel_is_unknown(void **state)
{
	assert_int_equal(classify_errno(-ECANCELED, LEGACY).reset_class,
			 GPUROBUST_RESET_UNKNOWN);
}

static void test_L4_ecanceled_on_legacy_kernel_resolved_by_query2_guilty(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_UNKNOWN);
	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_GUILTY);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
	assert_int_equal(status_of(ctx).first_errno, -ECANCELED);
	gpurobust_ctx_destroy(ctx);
}

static void test_L4_ecanceled_on_legacy_kernel_stays_unknown_without_guilty(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	gpurobust_ctx_note_query2(ctx, Q2_RESET);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_UNKNOWN);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_ELSEWHERE);
	gpurobust_ctx_destroy(ctx);
}

/* VRAMLOST is no proof of innocence there: the guilty context's VRAM is lost
 * too, and 7.2 can lose its GUILTY when a full reset overwrites -ETIME. */
static void test_L4_vramlost_on_legacy_kernel_does_not_resolve_ecanceled(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_VRAMLOST);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_UNKNOWN);
	assert_true(status_of(ctx).flags & GPUROBUST_RESET_FLAG_VRAM_LOST);
	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_VRAMLOST | Q2_GUILTY);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
	gpurobust_ctx_destroy(ctx);
}

static void test_L5_enodev_and_ehwpoison_are_unknown_and_lost(void **state)
{
	const int errs[] = { -ENODEV, -EHWPOISON };

	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(classify_errno(errs[i], PER_CTX).reset_class,
				 GPUROBUST_RESET_UNKNOWN);
		assert_int_equal(classify_errno(errs[i], LEGACY).reset_class,
				 GPUROBUST_RESET_UNKNOWN);
		assert_true(gpurobust_reset_is_lost(classify_errno(errs[i], LEGACY).reset_class));
	}
}

static void test_L5_device_gone_is_flagged(void **state)
{
	assert_true(classify_errno(-ENODEV, PER_CTX).flags & GPUROBUST_RESET_FLAG_DEVICE_GONE);
	assert_true(classify_errno(-EHWPOISON, LEGACY).flags & GPUROBUST_RESET_FLAG_DEVICE_GONE);
	assert_false(classify_errno(-ECANCELED, LEGACY).flags & GPUROBUST_RESET_FLAG_DEVICE_GONE);
}

static void note(struct gpurobust_ctx *ctx, const struct reset_lattice_evidence *e)
{
	if (e->kind == 'e')
		assert_int_equal(gpurobust_ctx_note_errno(ctx, (int)e->value), 0);
	else
		assert_int_equal(gpurobust_ctx_note_query2(ctx, (uint64_t)e->value), 0);
}

static enum gpurobust_reset_class class_of_letter(char letter)
{
	switch (letter) {
	case 'N':
		return GPUROBUST_RESET_NONE;
	case 'U':
		return GPUROBUST_RESET_UNKNOWN;
	case 'I':
		return GPUROBUST_RESET_INNOCENT;
	case 'S':
		return GPUROBUST_RESET_GUILTY_SOFT;
	case 'H':
		return GPUROBUST_RESET_GUILTY_HARD;
	}
	fail_msg("reset-lattice.h: no class '%c'", letter);
	return GPUROBUST_RESET_NONE;
}

/* Every pair of evidence against reset-lattice.h, the table Mesa's
 * ac_reset_test.c checks too. */
static void check_lattice(enum gpurobust_semantics semantics, const char *const expected[])
{
	for (int first = 0; first < RESET_LATTICE_SIZE; first++) {
		assert_int_equal(strlen(expected[first]), RESET_LATTICE_SIZE);
		for (int then = 0; then < RESET_LATTICE_SIZE; then++) {
			struct gpurobust_ctx *ctx = new_ctx(semantics, GPUROBUST_CTX_ROBUST);
			enum gpurobust_reset_class want = class_of_letter(expected[first][then]);

			note(ctx, &reset_lattice_evidence[first]);
			note(ctx, &reset_lattice_evidence[then]);
			if (status_of(ctx).reset_class != want)
				fail_msg("%s: evidence %d then %d gave %s, not %s",
					 gpurobust_semantics_name(semantics), first, then,
					 gpurobust_reset_class_name(status_of(ctx).reset_class),
					 gpurobust_reset_class_name(want));
			gpurobust_ctx_destroy(ctx);
		}
	}
}

static void test_lattice_per_ctx_kernel(void **state)
{
	check_lattice(PER_CTX, reset_lattice_per_ctx);
}

static void test_lattice_legacy_kernel(void **state)
{
	check_lattice(LEGACY, reset_lattice_legacy);
}

static void test_semantics_from_query2(void **state)
{
	assert_int_equal(gpurobust_semantics_from_query2(0), LEGACY);
	assert_int_equal(gpurobust_semantics_from_query2(GPUROBUST_QUERY2_RESET |
							 GPUROBUST_QUERY2_GUILTY), LEGACY);
	assert_int_equal(gpurobust_semantics_from_query2(GPUROBUST_QUERY2_PER_CTX_RESET), PER_CTX);
	assert_int_equal(gpurobust_semantics_from_query2(~0ull), PER_CTX);
}

static void test_L6_query2_reset_with_series_is_guilty_or_innocent(void **state)
{
	assert_int_equal(classify_query2(Q2_RESET | Q2_GUILTY | Q2_PER_CTX, PER_CTX).reset_class,
			 GPUROBUST_RESET_GUILTY_HARD);
	assert_int_equal(classify_query2(Q2_RESET | Q2_PER_CTX, PER_CTX).reset_class,
			 GPUROBUST_RESET_INNOCENT);
	assert_int_equal(classify_query2(Q2_PER_CTX, PER_CTX).reset_class,
			 GPUROBUST_RESET_NONE);
	/* The flag in the answer itself proves the semantics. */
	assert_int_equal(classify_query2(Q2_RESET | Q2_PER_CTX, LEGACY).reset_class,
			 GPUROBUST_RESET_INNOCENT);
}

static void test_L6_query2_guilt_keeps_the_kind_an_errno_named(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_GUILTY | Q2_PER_CTX);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_HARD);
	gpurobust_ctx_note_errno(ctx, -ENODATA);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_SOFT);
	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_GUILTY | Q2_PER_CTX);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_GUILTY_SOFT);
	gpurobust_ctx_destroy(ctx);
}

static void test_L6_vramlost_is_innocent_and_sticky(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_VRAMLOST | Q2_PER_CTX);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_INNOCENT);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_VRAM_LOST);
	gpurobust_ctx_note_query2(ctx, Q2_PER_CTX);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_VRAM_LOST);
	gpurobust_ctx_destroy(ctx);
}

static void test_L7_query2_reset_on_legacy_kernel_is_reset_elsewhere(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);
	struct gpurobust_reset_status st = classify_query2(Q2_RESET, LEGACY);

	assert_int_equal(st.reset_class, GPUROBUST_RESET_NONE);
	assert_int_equal(st.flags, GPUROBUST_RESET_FLAG_ELSEWHERE);

	gpurobust_ctx_note_query2(ctx, Q2_RESET);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_NONE);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_ELSEWHERE);
	assert_int_equal(gpurobust_ctx_vk_result(ctx), VK_SUCCESS);
	assert_int_equal(gpurobust_ctx_gl_reset_status(ctx), 0 /* GL_NO_ERROR */);
	gpurobust_ctx_destroy(ctx);
}

static void test_L7_query1_unknown_reset_on_legacy_kernel_is_reset_elsewhere(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_query1(ctx, AMDGPU_CTX_UNKNOWN_RESET);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_NONE);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_ELSEWHERE);
	gpurobust_ctx_destroy(ctx);

	ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);
	gpurobust_ctx_note_query1(ctx, AMDGPU_CTX_UNKNOWN_RESET);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_UNKNOWN);
	gpurobust_ctx_destroy(ctx);
}

static void test_L7_reset_in_progress_follows_the_latest_query(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(LEGACY, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_query2(ctx, Q2_RESET | Q2_IN_PROGRESS);
	assert_int_equal(status_of(ctx).flags,
			 GPUROBUST_RESET_FLAG_ELSEWHERE | GPUROBUST_RESET_FLAG_IN_PROGRESS);
	/* An errno says nothing about progress. */
	gpurobust_ctx_note_errno(ctx, -EAGAIN);
	assert_int_equal(status_of(ctx).flags & GPUROBUST_RESET_FLAG_IN_PROGRESS,
			 GPUROBUST_RESET_FLAG_IN_PROGRESS);
	gpurobust_ctx_note_query2(ctx, Q2_RESET);
	assert_int_equal(status_of(ctx).flags, GPUROBUST_RESET_FLAG_ELSEWHERE);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_NONE);
	gpurobust_ctx_destroy(ctx);
}

static void test_L8_other_errnos_are_not_resets(void **state)
{
	const int errs[] = { -ENOMEM, -EINVAL, -EAGAIN, -GPUROBUST_ERESTARTSYS, -ESRCH };

	for (size_t i = 0; i < sizeof(errs) / sizeof(errs[0]); i++) {
		struct gpurobust_reset_status st = classify_errno(errs[i], PER_CTX);

		assert_int_equal(st.reset_class, GPUROBUST_RESET_NONE);
		assert_int_equal(st.flags, 0);
		assert_int_equal(classify_errno(errs[i], LEGACY).reset_class,
				 GPUROBUST_RESET_NONE);
	}
}

static void test_L8_other_errnos_leave_the_context_alone(void **state)
{
	struct gpurobust_ctx *ctx = new_ctx(PER_CTX, GPUROBUST_CTX_ROBUST);

	gpurobust_ctx_note_errno(ctx, -ENOMEM);
	gpurobust_ctx_note_errno(ctx, -ESRCH);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_NONE);
	assert_int_equal(status_of(ctx).first_errno, 0);
	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	gpurobust_ctx_note_errno(ctx, -EAGAIN);
	assert_int_equal(status_of(ctx).reset_class, GPUROBUST_RESET_INNOCENT);
	assert_int_equal(status_of(ctx).first_errno, -ECANCELED);
	gpurobust_ctx_destroy(ctx);
}

static void test_L8_bad_input_is_rejected(void **state)
{
	struct gpurobust_evidence ev = { .kind = GPUROBUST_EVIDENCE_ERRNO, .err = ENODATA };
	struct gpurobust_reset_status st;
	struct gpurobust_ctx *ctx = NULL;

	assert_int_equal(gpurobust_classify(&ev, PER_CTX, &st), -EINVAL);
	ev.kind = (enum gpurobust_evidence_kind)42;
	assert_int_equal(gpurobust_classify(&ev, PER_CTX, &st), -EINVAL);
	ev.kind = GPUROBUST_EVIDENCE_QUERY1;
	ev.query1_status = 7;
	assert_int_equal(gpurobust_classify(&ev, PER_CTX, &st), -EINVAL);
	assert_int_equal(gpurobust_classify(NULL, PER_CTX, &st), -EINVAL);
	assert_int_equal(gpurobust_classify(&ev, (enum gpurobust_semantics)9, &st), -EINVAL);
	assert_int_equal(gpurobust_ctx_create(PER_CTX, 0x80, &ctx), -EINVAL);
	assert_null(ctx);
	assert_int_equal(gpurobust_ctx_update(NULL, &ev), -EINVAL);
	assert_int_equal(gpurobust_ctx_get_status(NULL, &st), -EINVAL);
	assert_string_equal(gpurobust_reset_class_name((enum gpurobust_reset_class)99), "invalid");
	assert_string_equal(gpurobust_semantics_name(LEGACY), "legacy");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_L1_enodata_is_guilty_soft_on_both_kernels),
		cmocka_unit_test(test_L1_guilty_is_sticky_after_later_success),
		cmocka_unit_test(test_L2_etime_is_guilty_hard),
		cmocka_unit_test(test_L2_soft_then_hard_escalates_and_never_goes_back),
		cmocka_unit_test(test_L3_ecanceled_with_series_is_innocent),
		cmocka_unit_test(test_L4_ecanceled_on_legacy_kernel_is_unknown),
		cmocka_unit_test(test_L4_ecanceled_on_legacy_kernel_resolved_by_query2_guilty),
		cmocka_unit_test(test_L4_ecanceled_on_legacy_kernel_stays_unknown_without_guilty),
		cmocka_unit_test(test_L4_vramlost_on_legacy_kernel_does_not_resolve_ecanceled),
		cmocka_unit_test(test_L5_enodev_and_ehwpoison_are_unknown_and_lost),
		cmocka_unit_test(test_L5_device_gone_is_flagged),
		cmocka_unit_test(test_lattice_per_ctx_kernel),
		cmocka_unit_test(test_lattice_legacy_kernel),
		cmocka_unit_test(test_semantics_from_query2),
		cmocka_unit_test(test_L6_query2_reset_with_series_is_guilty_or_innocent),
		cmocka_unit_test(test_L6_query2_guilt_keeps_the_kind_an_errno_named),
		cmocka_unit_test(test_L6_vramlost_is_innocent_and_sticky),
		cmocka_unit_test(test_L7_query2_reset_on_legacy_kernel_is_reset_elsewhere),
		cmocka_unit_test(test_L7_query1_unknown_reset_on_legacy_kernel_is_reset_elsewhere),
		cmocka_unit_test(test_L7_reset_in_progress_follows_the_latest_query),
		cmocka_unit_test(test_L8_other_errnos_are_not_resets),
		cmocka_unit_test(test_L8_other_errnos_leave_the_context_alone),
		cmocka_unit_test(test_L8_bad_input_is_rejected),
	};

	return cmocka_run_group_tests_name("reset-classify", tests, NULL, NULL);
}
