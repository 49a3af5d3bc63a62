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
#include <stdlib.h>
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

/* D1: "type: none" (no recovery attempted) maps to no context outcome, says
 * so, and Reset v1's vram_lost is the report's. */
static void test_D1_series_no_recovery(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_report *r;
	char *out = NULL;
	size_t len;
	FILE *f;

	(void)state;
	gen_header_612(&b, "6.12.117+", "vkcube", 4101, "gfx_0.0.0");
	tb_printf(&b, "VRAM lost check is skipped!\n\n**** Reset v1 ****\ntype: none\n"
		  "outcome: failed\nring: gfx_0.0.0\nvram_lost: 1\n");
	r = report_of(b.p, b.len, NULL, NULL);
	assert_int_equal(r->type, GPUROBUST_RECOVERY_NONE);
	assert_false(r->mapped);
	assert_true(r->vram_lost);
	f = open_memstream(&out, &len);
	assert_int_equal(gpurobust_report_print(r, NULL, f), 0);
	fclose(f);
	assert_non_null(strstr(out, "  recovery     none, failed\n"));
	assert_non_null(strstr(out, "  unknown: no recovery was attempted\n"));
	free(out);
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

static struct gpurobust_report *report_of_fixture(const char *dump_name, const char *log_name,
						  struct gpurobust_coredump **dump_out)
{
	char *dump = NULL, *log = NULL;
	size_t dump_len = 0, log_len = 0;
	struct gpurobust_report *r;

	if (dump_name)
		assert_non_null(dump = fixture_read(dump_name, &dump_len));
	if (log_name)
		assert_non_null(log = fixture_read(log_name, &log_len));
	r = report_of(dump, dump_len, log, dump_out);
	free(dump);
	free(log);
	return r;
}

/* A log with two hangs (a gfx timeout, then an sdma1 timeout during its
 * reset): the first is the headline, the second follows it, and the JSON
 * carries both. Before, the report described the last one only. */
static void test_every_hang_first_is_headline(void **state)
{
	struct gpurobust_report *r = report_of_fixture(NULL, "corpus/lolminer-346-polaris-two-hangs.log",
						       NULL);
	json_object *o, *hangs, *faults;
	char *json;

	(void)state;
	assert_int_equal(r->n_hangs, 2);
	assert_int_equal(r->headline, 0);
	assert_string_equal(r->ring, "gfx");
	assert_string_equal(r->hangs[1].ring, "sdma1");
	assert_non_null(strstr(r->title, "hung on gfx"));
	/* GCN: gmc_v8's decode line, no hub; the title's fault names the client */
	assert_int_equal(r->n_faults, 1);
	assert_string_equal(r->fault_client, "TC2");
	json = gpurobust_report_to_json(r, NULL);
	o = json_tokener_parse(json);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "hangs", &hangs));
	assert_int_equal(json_object_array_length(hangs), 2);
	assert_false(json_object_get_boolean(json_object_object_get(
		json_object_array_get_idx(hangs, 0), "following")));
	assert_true(json_object_get_boolean(json_object_object_get(
		json_object_array_get_idx(hangs, 1), "following")));
	assert_string_equal(json_object_get_string(json_object_object_get(
		json_object_array_get_idx(hangs, 0), "device")), "0000:09:00.0");
	assert_true(json_object_object_get_ex(o, "faults", &faults));
	assert_int_equal(json_object_array_length(faults), 1);
	json_object_put(o);
	free(json);
	gpurobust_report_free(r);
}

/* The decoded status bits where the layout is known (the register's name in
 * a log, the SOC family in a dump), none where it is not (gfx12). */
static void test_fault_bits_decoded(void **state)
{
	struct gpurobust_report *log = report_of_fixture(NULL, "corpus/freebsd-drm-kmod-413-soft-recovered.log",
							 NULL);
	struct gpurobust_report *dump = report_of_fixture("corpus/early-v1-khatri-2024-03-06.devcoredump",
							  NULL, NULL);
	struct gpurobust_report *gfx12 = report_of_fixture("gen619-amd-gfx-rx9060xt-2026-03.devcoredump",
							   NULL, NULL);
	const struct gpurobust_fault_bits *b = &log->faults[0].bits;

	(void)state;
	/* 0x004012B1, which the kernel decoded on the lines after it */
	assert_int_equal(b->layout, GPUROBUST_FAULT_LAYOUT_GFX9);
	assert_int_equal(b->more_faults, 1);
	assert_int_equal(b->permission_faults, 0xb);
	assert_int_equal(b->client_id, 0x9);	/* "SQC (inst) (0x9)" */
	assert_int_equal(b->vmid, 4);		/* "vmid:4" */
	assert_false(log->fault_write);
	/* family 143 (gfx10): 0x301031 is a TCP read in VMID 3 */
	assert_int_equal(dump->family, 143);
	assert_int_equal(dump->faults[0].bits.layout, GPUROBUST_FAULT_LAYOUT_GFX9);
	assert_int_equal(dump->faults[0].bits.client_id, 8);
	assert_int_equal(dump->faults[0].bits.vmid, 3);
	/* family 152: no fault recorded (0 and 0), and none invented */
	assert_int_equal(gfx12->family, 152);
	assert_int_equal(gfx12->n_faults, 0);
	assert_false(gfx12->fault);
	gpurobust_report_free(log);
	gpurobust_report_free(dump);
	gpurobust_report_free(gfx12);
}

/* A dump excerpt without its header: read, said in the title and the
 * diagnostics, and bucketed with the whole dump. */
static void test_partial_dump_says_so(void **state)
{
	struct gpurobust_coredump *d;
	struct gpurobust_report *part = report_of_fixture(
		"corpus/gen612-qwen-nvidia-raven2-from-ring-timeout.devcoredump", NULL, &d);
	struct gpurobust_report *whole = report_of_fixture(
		"corpus/gen612-qwen-nvidia-raven2-apu.devcoredump", NULL, NULL);
	bool said = false;

	(void)state;
	assert_true(d->partial);
	assert_true(part->partial);
	assert_non_null(strstr(part->title, "[partial devcoredump]"));
	assert_null(strstr(whole->title, "partial"));
	for (size_t i = 0; i < d->n_diags; i++)
		said |= strstr(d->diags[i].message, "a partial dump") != NULL;
	assert_true(said);
	assert_string_equal(part->ring, "comp_1.3.0");
	/* the whole dump names the process; the excerpt does not reach it */
	assert_string_equal(whole->process, "llama-bench");
	assert_int_equal(whole->family, 142);
	gpurobust_coredump_free(d);
	gpurobust_report_free(part);
	gpurobust_report_free(whole);
}

/* Nothing amdgpu: no report, so that no store buckets stray files. */
static void test_nothing_to_report(void **state)
{
	struct gpurobust_coredump *d;
	struct gpurobust_dmesg *l;
	struct gpurobust_report *r = (void *)1;
	char *fence = NULL;
	size_t len = 0;

	(void)state;
	assert_int_equal(gpurobust_coredump_parse("hello world\n", 12, &d), 0);
	assert_int_equal(gpurobust_dmesg_parse("hello world\n", 12, &l), 0);
	assert_int_equal(gpurobust_report_build(d, NULL, &r), -ENODATA);
	assert_null(r);
	assert_int_equal(gpurobust_report_build(NULL, l, &r), -ENODATA);
	assert_int_equal(gpurobust_report_build(d, l, &r), -ENODATA);
	gpurobust_coredump_free(d);
	gpurobust_dmesg_free(l);
	/* amdgpu lines, but no hang and no fault in them */
	assert_non_null(fence = fixture_read("corpus/rocm-amdgpu-229-freebsd-fence-fallback.log", &len));
	assert_int_equal(gpurobust_dmesg_parse(fence, len, &l), 0);
	assert_int_equal(gpurobust_report_build(NULL, l, &r), -ENODATA);
	gpurobust_dmesg_free(l);
	free(fence);
	/* random bytes */
	{
		unsigned char bytes[4096];

		for (size_t i = 0; i < sizeof(bytes); i++)
			bytes[i] = (unsigned char)(i * 2654435761u >> 13);
		assert_int_equal(gpurobust_coredump_parse((char *)bytes, sizeof(bytes), &d), 0);
		assert_int_equal(gpurobust_report_build(d, NULL, &r), -ENODATA);
		gpurobust_coredump_free(d);
	}
}

/* A dump and the log around it: the dump's hang merges into the log's hang
 * on its ring, which becomes the headline. */
static void test_dump_merges_into_its_log_hang(void **state)
{
	static const char log[] =
		"[  10.0] amdgpu 0000:03:00.0: amdgpu: ring sdma0 timeout, signaled seq=1, emitted seq=2\n"
		"[  10.1] amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n"
		"[  10.2] amdgpu 0000:03:00.0: amdgpu: GPU reset(1) succeeded!\n"
		"[  20.0] amdgpu 0000:03:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=5, emitted seq=9\n"
		"[  20.0] amdgpu 0000:03:00.0: amdgpu:  Process soft_recovery_p pid 1720 thread x pid 1721\n"
		"[  20.1] amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n";
	char *dump;
	size_t len = 0;
	struct gpurobust_report *r;

	(void)state;
	assert_non_null(dump = fixture_read("early-khatri-2024-03.devcoredump", &len));
	r = report_of(dump, len, log, NULL);
	assert_int_equal(r->n_hangs, 2);
	assert_int_equal(r->headline, 1);
	assert_string_equal(r->ring, "gfx_0.0.0");
	assert_true(r->hangs[1].sources & GPUROBUST_REPORT_FROM_DUMP);
	assert_true(r->hangs[1].vram_lost);	/* from the dump */
	assert_string_equal(r->hangs[1].device, "0000:03:00.0");	/* from the log */
	assert_int_equal(r->type, GPUROBUST_RECOVERY_FULL);
	free(dump);
	gpurobust_report_free(r);
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
		cmocka_unit_test(test_D1_series_no_recovery),
		cmocka_unit_test(test_dump_and_log_fold),
		cmocka_unit_test(test_signature_buckets),
		cmocka_unit_test(test_json_parses_back),
		cmocka_unit_test(test_every_hang_first_is_headline),
		cmocka_unit_test(test_fault_bits_decoded),
		cmocka_unit_test(test_partial_dump_says_so),
		cmocka_unit_test(test_nothing_to_report),
		cmocka_unit_test(test_dump_merges_into_its_log_hang),
		cmocka_unit_test(test_text_report_and_bad_arguments),
	};

	return cmocka_run_group_tests_name("report", tests, NULL, NULL);
}
