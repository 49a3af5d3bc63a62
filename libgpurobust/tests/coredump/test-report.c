// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Reports: what happened, the outcome the library core maps it to (L1-L4,
 * L7, L9, L11), the signature, and the JSON form read back by json-c.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include <gpurobust/report.h>

#include "dumpgen.h"
#include "fixture.h"

#define GL_GUILTY_CONTEXT_RESET		0x8253
#define GL_INNOCENT_CONTEXT_RESET	0x8254
#define GL_UNKNOWN_CONTEXT_RESET	0x8255

static struct gpurobust_report *report_of(const char *dump_text, size_t dump_len,
					  const char *log_text,
					  struct gpurobust_coredump **dump_out)
{
	struct gpurobust_coredump *d = NULL;
	struct gpurobust_dmesg *l = NULL;
	struct gpurobust_report *r = NULL;

	if (dump_text)
		assert_int_equal(gpurobust_coredump_parse(dump_text, dump_len, &d), 0);
	if (log_text)
		assert_int_equal(gpurobust_dmesg_parse(log_text, strlen(log_text), &l), 0);
	assert_int_equal(gpurobust_report_build(d, l, &r), 0);
	gpurobust_dmesg_free(l);
	if (dump_out)
		*dump_out = d;
	else
		gpurobust_coredump_free(d);
	return r;
}

static const char *get_str(json_object *o, const char *path1, const char *path2)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, path1, &v));
	if (path2)
		assert_true(json_object_object_get_ex(v, path2, &v));
	return json_object_get_string(v);
}

/* Old kernel, soft recovery from the log: the guilty process gets -ENODATA
 * (L1, L9, L11); the others only see the global RESET flag (L7). */
static void test_L1_L7_soft_recovery_legacy(void **state)
{
	struct gpurobust_report *r = report_of(NULL, 0,
		"amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, but soft recovered\n", NULL);

	(void)state;
	assert_int_equal(r->type, GPUROBUST_RECOVERY_SOFT);
	assert_true(r->mapped);
	assert_int_equal(r->guilty.vk_result, VK_ERROR_DEVICE_LOST);
	assert_int_equal(r->guilty.gl_status, GL_GUILTY_CONTEXT_RESET);
	assert_string_equal(r->guilty.classification, "guilty_soft");
	assert_int_equal(r->innocent.vk_result, VK_SUCCESS);
	assert_int_equal(r->innocent.gl_status, 0);
	gpurobust_report_free(r);
}

/* Old kernel, ring reset: both sides see -ECANCELED, which proves nothing
 * there (L4): UNKNOWN, still device lost (L9). */
static void test_L4_ring_reset_legacy_is_unknown(void **state)
{
	size_t len;
	char *log = fixture_read("dmesg-rocm-legacy-5999.txt", &len);
	struct gpurobust_report *r;

	(void)state;
	assert_non_null(log);
	r = report_of(NULL, 0, log, NULL);
	assert_int_equal(r->type, GPUROBUST_RECOVERY_RING);
	assert_string_equal(r->guilty.classification, "unknown");
	assert_int_equal(r->guilty.vk_result, VK_ERROR_DEVICE_LOST);
	assert_int_equal(r->guilty.gl_status, GL_UNKNOWN_CONTEXT_RESET);
	/* the fault came from the log, with its client and RW bit */
	assert_true(r->fault);
	assert_string_equal(r->fault_client, "CPC");
	assert_true(r->fault_write);
	free(log);
	gpurobust_report_free(r);
}

/* With the series (D1): guilty -ETIME (L2), innocent -ECANCELED (L3). */
static void test_L2_L3_D1_series_ring_reset(void **state)
{
	uint8_t capture[8] = { 0 };
	struct textbuf b = { 0 };
	struct gpurobust_report *r;

	(void)state;
	gen_header_612(&b, "6.12.117-gpurobust", "glretrace", 12755, "gfx_0.0.0");
	gen_series(&b, capture, sizeof(capture));
	r = report_of(b.p, b.len, NULL, NULL);
	assert_true(r->sources & GPUROBUST_REPORT_FROM_SERIES);
	assert_int_equal(r->type, GPUROBUST_RECOVERY_RING);
	assert_int_equal(r->outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_int_equal(r->guilty_ctx, 7);
	assert_int_equal(r->n_innocents, 2);
	assert_string_equal(r->guilty.classification, "guilty_hard");
	assert_int_equal(r->guilty.gl_status, GL_GUILTY_CONTEXT_RESET);
	assert_string_equal(r->innocent.classification, "innocent");
	assert_int_equal(r->innocent.gl_status, GL_INNOCENT_CONTEXT_RESET);
	assert_int_equal(r->innocent.vk_result, VK_ERROR_DEVICE_LOST);
	gpurobust_report_free(r);
	free(b.p);
}

/* The dump names the process and fault; the log adds the recovery. */
static void test_dump_and_log_fold(void **state)
{
	size_t dlen, llen;
	char *dump = fixture_read("early-khatri-2024-03.devcoredump", &dlen);
	char *log = fixture_read("dmesg-cosmic-epoch-3764.txt", &llen);
	struct gpurobust_report *r;

	(void)state;
	r = report_of(dump, dlen, log, NULL);
	assert_string_equal(r->process, "soft_recovery_p");	/* the dump wins */
	assert_int_equal(r->type, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(r->outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_true(r->vram_lost);
	assert_true(r->fault);
	assert_string_equal(r->fault_hub, "gfxhub");
	assert_string_equal(r->guilty.classification, "guilty_hard");
	free(dump);
	free(log);
	gpurobust_report_free(r);
}

/* B2 normalisation: a process version and a fault address do not split a
 * bucket; another ring or another fault kind does. */
static void test_signature_buckets(void **state)
{
	struct gpurobust_report *a, *b, *c;
	struct textbuf t1 = { 0 }, t2 = { 0 }, t3 = { 0 };

	(void)state;
	gen_header_612(&t1, "6.12.117", "python3.12", 1, "gfx_0.0.0");
	gen_header_612(&t2, "6.12.117", "python3.13", 2, "gfx_0.0.0");
	gen_header_612(&t3, "6.12.117", "python3.13", 2, "comp_1.0.0");
	a = report_of(t1.p, t1.len, NULL, NULL);
	b = report_of(t2.p, t2.len, NULL, NULL);
	c = report_of(t3.p, t3.len, NULL, NULL);
	assert_int_equal(a->signature, b->signature);
	assert_true(a->signature != c->signature);
	assert_non_null(strstr(a->title, "python3.12 hung on gfx_0.0.0"));
	gpurobust_report_free(a);
	gpurobust_report_free(b);
	gpurobust_report_free(c);
	free(t1.p);
	free(t2.p);
	free(t3.p);
}

/* The JSON is valid, read back by json-c, and holds the same facts. */
static void test_json_parses_back(void **state)
{
	size_t len;
	char *dump = fixture_read("gen612-vkd3d-proton-3073.devcoredump", &len);
	struct gpurobust_coredump *d;
	struct gpurobust_report *r;
	json_object *root, *diags, *v;
	char *json;

	(void)state;
	r = report_of(dump, len, NULL, &d);
	json = gpurobust_report_to_json(r, d);
	assert_non_null(json);
	root = json_tokener_parse(json);
	assert_non_null(root);
	assert_string_equal(get_str(root, "what_happened", "process"), "ForzaHorizon5.e");
	assert_string_equal(get_str(root, "what_happened", "ring"), "gfx_0.0.0");
	assert_string_equal(get_str(root, "source", "printer"), "6.12");
	assert_true(json_object_object_get_ex(root, "source", &v));
	assert_true(json_object_object_get_ex(v, "truncated", &v));
	assert_true(json_object_get_boolean(v));
	assert_true(json_object_object_get_ex(root, "source", &v));
	assert_true(json_object_object_get_ex(v, "diagnostics", &diags));
	assert_true(json_object_array_length(diags) >= 1);
	assert_int_equal(strlen(get_str(root, "signature", NULL)), 16);
	/* a dump alone names no recovery type: no outcome either */
	assert_true(json_object_object_get_ex(root, "application_saw", &v));
	assert_null(v);
	json_object_put(root);
	free(json);
	gpurobust_coredump_free(d);
	gpurobust_report_free(r);
	free(dump);
}

static void test_text_report_and_bad_arguments(void **state)
{
	size_t len;
	char *dump = fixture_read("early-khatri-2024-03.devcoredump", &len), *out = NULL;
	struct gpurobust_report *r;
	FILE *f;

	(void)state;
	r = report_of(dump, len, NULL, NULL);
	f = open_memstream(&out, &len);
	assert_int_equal(gpurobust_report_print(r, NULL, f), 0);
	fclose(f);
	assert_non_null(strstr(out, "GPU hang: soft_recovery_p hung on gfx_0.0.0"));
	assert_non_null(strstr(out, "VRAM lost    yes"));
	assert_non_null(strstr(out, "not recorded (kernel without the gpurobust series)"));
	free(out);
	gpurobust_report_free(r);
	assert_int_equal(gpurobust_report_build(NULL, NULL, &r), -EINVAL);
	assert_int_equal(gpurobust_report_print(NULL, NULL, stdout), -EINVAL);
	assert_null(gpurobust_report_to_json(NULL, NULL));
	gpurobust_report_free(NULL);
	free(dump);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_L1_L7_soft_recovery_legacy),
		cmocka_unit_test(test_L4_ring_reset_legacy_is_unknown),
		cmocka_unit_test(test_L2_L3_D1_series_ring_reset),
		cmocka_unit_test(test_dump_and_log_fold),
		cmocka_unit_test(test_signature_buckets),
		cmocka_unit_test(test_json_parses_back),
		cmocka_unit_test(test_text_report_and_bad_arguments),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
