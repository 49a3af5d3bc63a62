// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * B3: reading breadcrumbs back from bytes that may be damaged: a copy of the
 * pool, the devcoredump's "User Capture v1" section cut to its size cap, or
 * memory a hung GPU scribbled over. Damage gives errors or invalid streams,
 * never a crash or a read outside the buffer (the fuzzer checks the latter
 * under ASan; these tests pin the answers).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "gpurobust/breadcrumbs-json.h"
#include "fake-gpu.h"

static struct fake_ib gfx, compute;

struct fixture {
	struct fake_pool fp;
	struct gpurobust_bc_meta *meta;
};

/* Two streams: gfx stopped inside "Draw", compute finished. */
static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct gpurobust_bc_stream *a, *b;
	size_t me;

	assert_non_null(f);
	fake_pool_init(&f->fp, 4096, 0);
	gfx = (struct fake_ib){ .level = GPUROBUST_BC_GFX10, .queue = GPUROBUST_BC_QUEUE_GFX };
	compute = (struct fake_ib){ .level = GPUROBUST_BC_GFX10, .queue = GPUROBUST_BC_QUEUE_COMPUTE };
	assert_int_equal(fake_stream_create(f->fp.pool, GPUROBUST_BC_QUEUE_GFX, "main", &gfx, &a), 0);
	assert_int_equal(fake_stream_create(f->fp.pool, GPUROBUST_BC_QUEUE_COMPUTE, "async", &compute, &b), 0);
	fake_begin(a);
	fake_begin(b);
	fake_push(a, intern(f->fp.pool, "Frame"));
	fake_push(a, intern(f->fp.pool, "Draw"));
	me = fake_ib_mark(&gfx);
	fake_pop(a);
	fake_pop(a);
	fake_push(b, intern(f->fp.pool, "Cull"));
	fake_pop(b);
	fake_gpu_run(&gfx, me, 2, f->fp.map, FAKE_GPU_VA);
	fake_gpu_run(&compute, compute.packets, compute.packets, f->fp.map, FAKE_GPU_VA);
	assert_int_equal(gpurobust_bc_pool_meta(f->fp.pool, &f->meta), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	gpurobust_bc_meta_free(f->meta);
	fake_pool_fini(&f->fp);
	free(f);
	return 0;
}

/* What a capture holds: header plus the records in use. */
static size_t capture_len(void)
{
	return BC_HEADER_SIZE + 2 * BC_RECORD_SIZE;
}

static void B3_decode_capture(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_report *r;

	assert_int_equal(gpurobust_bc_decode(f->fp.map, capture_len(), f->meta, &r), 0);
	assert_int_equal(r->stream_count, 2);
	assert_true(r->streams[0].valid && r->streams[1].valid);
	assert_string_equal(r->streams[0].label, "main");
	assert_int_equal(r->streams[0].nodes[1].state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(r->streams[1].nodes[0].state, GPUROBUST_BC_FINISHED);
	gpurobust_bc_report_free(r);
}

static void B3_header_damage(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_report *r = (void *)1;
	uint8_t copy[64];

	memcpy(copy, f->fp.map, sizeof(copy));
	assert_int_equal(gpurobust_bc_decode(copy, 15, f->meta, &r), -EBADMSG);
	assert_null(r);
	assert_int_equal(gpurobust_bc_decode(NULL, 0, f->meta, &r), -EBADMSG);
	copy[0] ^= 1;
	assert_int_equal(gpurobust_bc_decode(copy, sizeof(copy), f->meta, &r), -EBADMSG);
	copy[0] ^= 1;
	copy[4] = 2;
	assert_int_equal(gpurobust_bc_decode(copy, sizeof(copy), f->meta, &r), -EPROTONOSUPPORT);
	copy[4] = 1;
	copy[6] = 32;
	assert_int_equal(gpurobust_bc_decode(copy, sizeof(copy), f->meta, &r), -EBADMSG);
	copy[6] = 16;
	copy[12] ^= 0x80;	/* another pool's bytes */
	assert_int_equal(gpurobust_bc_decode(copy, sizeof(copy), f->meta, &r), -ESTALE);
	/* No metadata, and this pool keeps no mirror of it (test-b3-mirror). */
	copy[12] ^= 0x80;
	assert_int_equal(gpurobust_bc_decode(copy, sizeof(copy), NULL, &r), -ENODATA);
}

static void expect_invalid(struct fixture *f, const uint8_t *bytes, size_t len, const char *why)
{
	struct gpurobust_bc_report *r;

	assert_int_equal(gpurobust_bc_decode(bytes, len, f->meta, &r), 0);
	assert_false(r->streams[0].valid);
	assert_non_null(strstr(r->streams[0].invalid_reason, why));
	for (uint32_t i = 0; i < r->streams[0].node_count; i++)
		assert_int_equal(r->streams[0].nodes[i].state, GPUROBUST_BC_INVALID);
	/* The other stream's record is intact and still decodes. */
	if (len >= capture_len()) {
		assert_true(r->streams[1].valid);
		assert_int_equal(r->streams[1].nodes[0].state, GPUROBUST_BC_FINISHED);
	}
	gpurobust_bc_report_free(r);
}

/* The gfx stream got record 0 (low records first): bytes 16..31. */
static void B3_scribbled_records(void **state)
{
	struct fixture *f = *state;
	uint8_t copy[BC_HEADER_SIZE + 2 * BC_RECORD_SIZE];
	uint8_t *rec = copy + BC_HEADER_SIZE;

	memcpy(copy, f->fp.map, sizeof(copy));
	bc_write_le32(rec + BC_RECORD_TAG, 0xdeadbeef);
	expect_invalid(f, copy, sizeof(copy), "record tag 0xdeadbeef");

	memcpy(copy, f->fp.map, sizeof(copy));
	bc_write_le32(rec + BC_RECORD_IN, 3);
	expect_invalid(f, copy, sizeof(copy), "in counter 3 is beyond the 2 scopes");

	memcpy(copy, f->fp.map, sizeof(copy));
	bc_write_le32(rec + BC_RECORD_OUT, 9);
	expect_invalid(f, copy, sizeof(copy), "out counter 9 is beyond the 2 scopes closed");

	/* "Frame" finished (pop 2) but the ME never reached it. */
	memcpy(copy, f->fp.map, sizeof(copy));
	bc_write_le32(rec + BC_RECORD_IN, 0);
	bc_write_le32(rec + BC_RECORD_OUT, 2);
	expect_invalid(f, copy, sizeof(copy), "never reached");
}

/* A capture cut inside a record (the kernel caps captures at 64 KiB). */
static void B3_truncated_capture(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_report *r;

	expect_invalid(f, f->fp.map, BC_HEADER_SIZE + 8, "outside the 24 captured bytes");
	assert_int_equal(gpurobust_bc_decode(f->fp.map, BC_HEADER_SIZE + BC_RECORD_SIZE + 4, f->meta,
					     &r), 0);
	assert_true(r->streams[0].valid);
	assert_false(r->streams[1].valid);
	gpurobust_bc_report_free(r);
}

/* Every byte value at every offset of the records: decoding never fails
 * for record damage, and every stream is either valid or explains why. */
static void B3_every_byte_scribbled(void **state)
{
	struct fixture *f = *state;
	uint8_t copy[BC_HEADER_SIZE + 2 * BC_RECORD_SIZE];

	for (size_t off = BC_HEADER_SIZE; off < sizeof(copy); off++) {
		for (unsigned int v = 0; v < 256; v += 17) {
			struct gpurobust_bc_report *r;

			memcpy(copy, f->fp.map, sizeof(copy));
			copy[off] = (uint8_t)v;
			assert_int_equal(gpurobust_bc_decode(copy, sizeof(copy), f->meta, &r), 0);
			for (uint32_t s = 0; s < r->stream_count; s++)
				assert_true(r->streams[s].valid || r->streams[s].invalid_reason);
			gpurobust_bc_report_free(r);
		}
	}
}

/* The metadata survives a trip through its file form, and the decode of
 * the capture with the reloaded metadata is the same. */
static void B3_meta_json_round_trip(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_meta *back;
	struct gpurobust_bc_report *r;
	char *json = gpurobust_bc_meta_to_json(f->meta);

	assert_non_null(json);
	assert_int_equal(gpurobust_bc_meta_from_json(json, strlen(json), &back), 0);
	assert_int_equal(gpurobust_bc_decode(f->fp.map, capture_len(), back, &r), 0);
	assert_string_equal(r->streams[0].nodes[1].name, "Draw");
	assert_int_equal(r->streams[0].nodes[1].state, GPUROBUST_BC_IN_PROGRESS);
	assert_string_equal(r->streams[1].label, "async");
	gpurobust_bc_report_free(r);
	gpurobust_bc_meta_free(back);
	free(json);
}

static void B3_meta_json_rejects(void **state)
{
	static const char *bad[] = {
		"{}",
		"{\"format\": \"gpurobust-breadcrumbs-meta\", \"version\": 2, \"pool_id\": 1, "
		"\"record_count\": 1, \"names\": [], \"streams\": []}",
		/* a parent after its child */
		"{\"format\": \"gpurobust-breadcrumbs-meta\", \"version\": 1, \"pool_id\": 1, "
		"\"record_count\": 1, \"names\": [\"a\"], \"streams\": [{\"record\": 0, \"tag\": 1, "
		"\"queue\": \"gfx\", \"dropped\": 0, \"overflow_parent\": -1, \"scopes\": [0, 0, 0]}]}",
		/* a name that does not exist */
		"{\"format\": \"gpurobust-breadcrumbs-meta\", \"version\": 1, \"pool_id\": 1, "
		"\"record_count\": 1, \"names\": [\"a\"], \"streams\": [{\"record\": 0, \"tag\": 1, "
		"\"queue\": \"gfx\", \"dropped\": 0, \"overflow_parent\": -1, \"scopes\": [4, -1, 0]}]}",
		/* an overflow parent that does not exist */
		"{\"format\": \"gpurobust-breadcrumbs-meta\", \"version\": 1, \"pool_id\": 1, "
		"\"record_count\": 1, \"names\": [\"a\"], \"streams\": [{\"record\": 0, \"tag\": 1, "
		"\"queue\": \"gfx\", \"dropped\": 1, \"overflow_parent\": 1, \"scopes\": [0, -1, 0]}]}",
	};
	struct gpurobust_bc_meta *meta = (void *)1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(gpurobust_bc_meta_from_json(bad[i], strlen(bad[i]), &meta), -EINVAL);
		assert_null(meta);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(B3_decode_capture, setup, teardown),
		cmocka_unit_test_setup_teardown(B3_header_damage, setup, teardown),
		cmocka_unit_test_setup_teardown(B3_scribbled_records, setup, teardown),
		cmocka_unit_test_setup_teardown(B3_truncated_capture, setup, teardown),
		cmocka_unit_test_setup_teardown(B3_every_byte_scribbled, setup, teardown),
		cmocka_unit_test_setup_teardown(B3_meta_json_round_trip, setup, teardown),
		cmocka_unit_test(B3_meta_json_rejects),
	};

	return cmocka_run_group_tests_name("B3 readback", tests, NULL, NULL);
}
