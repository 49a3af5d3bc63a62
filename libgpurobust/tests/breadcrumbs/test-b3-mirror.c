// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * B3 after the process died: a pool created with mirror_scopes copies its
 * names and each stream's newest scopes into the marker memory itself, so
 * that the bytes of a devcoredump's "User Capture v1" section decode with no
 * metadata saved by the process. Damage to the mirror gives an error or an
 * invalid stream, never a crash or a read outside the bytes (the fuzzer's
 * seeds include a mirrored pool).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "fake-gpu.h"

#define POOL_SIZE 4096u

static struct fake_ib gfx, sdma;

struct fixture {
	struct gpurobust_bc_pool *pool;
	uint8_t map[POOL_SIZE];
	struct gpurobust_bc_stream *main, *copy;
};

static struct fixture *fixture_new(uint32_t mirror_scopes, uint32_t name_bytes,
				   uint32_t max_scopes)
{
	struct fixture *f = calloc(1, sizeof(*f));
	struct gpurobust_bc_pool_config cfg = {
		.size = POOL_SIZE, .gpu_va = FAKE_GPU_VA, .max_scopes_per_stream = max_scopes,
		.mirror_scopes = mirror_scopes, .mirror_name_bytes = name_bytes,
	};

	assert_non_null(f);
	cfg.cpu_map = f->map;
	assert_int_equal(gpurobust_bc_pool_create(&cfg, &f->pool), 0);
	gfx = (struct fake_ib){ .level = GPUROBUST_BC_GFX11, .queue = GPUROBUST_BC_QUEUE_GFX };
	sdma = (struct fake_ib){ .level = GPUROBUST_BC_GFX11, .queue = GPUROBUST_BC_QUEUE_SDMA };
	assert_int_equal(fake_stream_create(f->pool, GPUROBUST_BC_QUEUE_GFX, "main", &gfx,
						    &f->main), 0);
	assert_int_equal(fake_stream_create(f->pool, GPUROBUST_BC_QUEUE_SDMA, "upload", &sdma,
						    &f->copy), 0);
	fake_begin(f->main);
	fake_begin(f->copy);
	return f;
}

static void fixture_free(struct fixture *f)
{
	gpurobust_bc_pool_destroy(f->pool);
	free(f);
}

/* gfx: Frame { Shadow {} GBuffer { Draw 1 {} Draw 2 <hang> } Tonemap {} },
 * the GPU stopped with "Draw 2" reached and "Draw 1" finished; sdma: one
 * finished copy. */
static struct fixture *record_hang(uint32_t mirror_scopes)
{
	struct fixture *f = fixture_new(mirror_scopes, 256, 0);
	size_t me, eop;

	fake_push(f->main, intern(f->pool, "Frame"));
	fake_push(f->main, intern(f->pool, "Shadow"));
	fake_pop(f->main);
	fake_push(f->main, intern(f->pool, "GBuffer"));
	fake_push(f->main, intern(f->pool, "Draw 1"));
	fake_pop(f->main);
	eop = fake_ib_mark(&gfx);
	fake_push(f->main, intern(f->pool, "Draw 2"));
	me = fake_ib_mark(&gfx);
	fake_pop(f->main);
	fake_pop(f->main);
	fake_push(f->main, intern(f->pool, "Tonemap"));
	fake_pop(f->main);
	fake_pop(f->main);
	fake_push(f->copy, intern(f->pool, "Copy"));
	fake_pop(f->copy);
	fake_gpu_run(&gfx, me, eop, f->map, FAKE_GPU_VA);
	fake_gpu_run(&sdma, sdma.packets, sdma.packets, f->map, FAKE_GPU_VA);
	return f;
}

static void assert_same_report(const struct gpurobust_bc_report *a,
			       const struct gpurobust_bc_report *b)
{
	assert_int_equal(a->stream_count, b->stream_count);
	for (uint32_t s = 0; s < a->stream_count; s++) {
		const struct gpurobust_bc_stream_report *x = &a->streams[s], *y = &b->streams[s];

		assert_int_equal(x->tag, y->tag);
		assert_int_equal(x->queue, y->queue);
		assert_string_equal(x->label, y->label);
		assert_int_equal(x->valid, y->valid);
		assert_int_equal(x->node_count, y->node_count);
		for (uint32_t i = 0; i < x->node_count; i++) {
			assert_string_equal(x->nodes[i].name, y->nodes[i].name);
			assert_int_equal(x->nodes[i].state, y->nodes[i].state);
			assert_int_equal(x->nodes[i].parent, y->nodes[i].parent);
		}
	}
}

/* The whole pool, as mapped dumpable for the devcoredump, decodes from its
 * bytes alone exactly as it does with the live process's metadata. */
static void B3_decode_without_process_metadata(void **state)
{
	struct fixture *f = record_hang(64);
	struct gpurobust_bc_report *live, *dead;
	uint8_t capture[POOL_SIZE];

	assert_int_equal(gpurobust_bc_pool_read(f->pool, &live), 0);
	memcpy(capture, f->map, sizeof(capture));
	fixture_free(f);	/* the process is gone */
	assert_int_equal(gpurobust_bc_decode(capture, sizeof(capture), NULL, &dead), 0);
	assert_same_report(live, dead);
	assert_string_equal(dead->streams[0].label, "main");
	assert_string_equal(dead->streams[0].nodes[4].name, "Draw 2");
	assert_int_equal(dead->streams[0].nodes[4].state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(dead->streams[0].nodes[3].state, GPUROBUST_BC_FINISHED);
	assert_int_equal(dead->streams[0].nodes[5].state, GPUROBUST_BC_NOT_STARTED);
	assert_int_equal(dead->streams[1].queue, GPUROBUST_BC_QUEUE_SDMA);
	assert_int_equal(dead->streams[1].nodes[0].state, GPUROBUST_BC_FINISHED);
	gpurobust_bc_report_free(live);
	gpurobust_bc_report_free(dead);
}

/* A ring of 4: the 6 gfx scopes keep the newest 4; "Frame" and "Shadow"
 * become one overflow node that the surviving children of "Frame" hang
 * under, and the GPU's counters still place every kept scope. */
static void B3_mirror_ring_keeps_newest_scopes(void **state)
{
	struct fixture *f = record_hang(3);	/* rounded up to 4 */
	const struct gpurobust_bc_stream_report *s;
	struct gpurobust_bc_report *r;

	assert_int_equal(gpurobust_bc_decode(f->map, POOL_SIZE, NULL, &r), 0);
	s = &r->streams[0];
	assert_true(s->valid);
	assert_int_equal(s->node_count, 5);
	assert_string_equal(s->nodes[0].name, "2 earlier scopes not mirrored");
	assert_int_equal(s->nodes[0].state, GPUROBUST_BC_OVERFLOW);
	assert_string_equal(s->nodes[1].name, "GBuffer");
	assert_int_equal(s->nodes[1].parent, 0);
	assert_int_equal(s->nodes[1].state, GPUROBUST_BC_IN_PROGRESS);
	assert_int_equal(s->nodes[2].state, GPUROBUST_BC_FINISHED);
	assert_string_equal(s->nodes[3].name, "Draw 2");
	assert_int_equal(s->nodes[3].parent, 1);
	assert_int_equal(s->nodes[3].state, GPUROBUST_BC_IN_PROGRESS);
	assert_string_equal(s->nodes[4].name, "Tonemap");
	assert_int_equal(s->nodes[4].parent, 0);
	assert_int_equal(s->nodes[4].state, GPUROBUST_BC_NOT_STARTED);
	gpurobust_bc_report_free(r);
	fixture_free(f);
}

static size_t mirror_offset(const uint8_t *map)
{
	return BC_HEADER_SIZE + (size_t)bc_read_le32(map + 8) * BC_RECORD_SIZE;
}

/* Names that do not fit are counted and shown as "?"; a stream past
 * max_scopes_per_stream keeps its overflow node in the mirror too. */
static void B1_mirror_overflow_reported(void **state)
{
	struct fixture *f = fixture_new(8, 16, 2);
	const struct gpurobust_bc_stream_report *s;
	struct gpurobust_bc_report *r;
	uint32_t long_name = intern(f->pool, "a name longer than the room");

	fake_push(f->main, long_name);
	fake_push(f->main, long_name);
	fake_push(f->main, long_name);	/* dropped */
	fake_pop(f->main);
	fake_pop(f->main);
	fake_pop(f->main);
	assert_int_equal(gpurobust_bc_decode(f->map, POOL_SIZE, NULL, &r), 0);
	s = &r->streams[0];
	/* "main" and "upload" fit the 16 bytes, the long name does not. */
	assert_string_equal(s->label, "main");
	assert_string_equal(r->streams[1].label, "upload");
	assert_int_equal(bc_read_le32(f->map + mirror_offset(f->map) + 20), 1);	/* names lost */
	assert_string_equal(s->nodes[0].name, "?");
	assert_int_equal(s->dropped, 1);
	assert_int_equal(s->node_count, 3);
	assert_int_equal(s->nodes[2].state, GPUROBUST_BC_OVERFLOW);
	assert_int_equal(s->nodes[2].parent, 1);
	gpurobust_bc_report_free(r);
	fixture_free(f);
}

static size_t slice_offset(const uint8_t *map, uint32_t record)
{
	const uint8_t *m = map + mirror_offset(map);

	return mirror_offset(map) + BC_MIRROR_HEADER_SIZE + bc_read_le32(m + 8) +
	       record * (BC_SLICE_HEADER_SIZE + (size_t)bc_read_le32(m + 4) * BC_SLOT_SIZE);
}

static void expect_error(const uint8_t *bytes, size_t len, int err)
{
	struct gpurobust_bc_report *r = (void *)1;

	assert_int_equal(gpurobust_bc_decode(bytes, len, NULL, &r), err);
	assert_null(r);
}

static void expect_stream_invalid(const uint8_t *bytes, const char *why)
{
	struct gpurobust_bc_report *r;

	assert_int_equal(gpurobust_bc_decode(bytes, POOL_SIZE, NULL, &r), 0);
	assert_false(r->streams[0].valid);
	assert_non_null(strstr(r->streams[0].invalid_reason, why));
	assert_true(r->streams[1].valid);
	gpurobust_bc_report_free(r);
}

static void B3_mirror_damage(void **state)
{
	struct fixture *f = record_hang(64);
	uint8_t copy[POOL_SIZE];
	size_t m = mirror_offset(f->map), slot0 = slice_offset(f->map, 0) + BC_SLICE_HEADER_SIZE;

#define RESET() memcpy(copy, f->map, sizeof(copy))
	RESET();
	copy[m] ^= 1;
	expect_error(copy, sizeof(copy), -ENODATA);
	expect_error(copy, m + BC_MIRROR_HEADER_SIZE - 1, -ENODATA);
	RESET();
	bc_write_le32(copy + 8, 0xffffffff);	/* record count beyond the bytes */
	expect_error(copy, sizeof(copy), -ENODATA);
	RESET();
	bc_write_le32(copy + m + 4, 3);		/* slots not a power of two */
	expect_error(copy, sizeof(copy), -EBADMSG);
	RESET();
	bc_write_le32(copy + m + 8, 0x7ffffff0);	/* name bytes beyond the capture */
	expect_error(copy, sizeof(copy), -EBADMSG);
	RESET();
	bc_write_le32(copy + m + 12, 1000);	/* more names than bytes */
	expect_error(copy, sizeof(copy), -EBADMSG);
	RESET();
	memset(copy + m + BC_MIRROR_HEADER_SIZE, 'x', bc_read_le32(copy + m + 16));
	expect_error(copy, sizeof(copy), -EBADMSG);	/* names without NUL */

	RESET();
	bc_write_le32(copy + slot0 + BC_SLOT_SIZE + BC_SLOT_PUSH, 7);
	expect_stream_invalid(copy, "mirrored scope log is inconsistent");
	RESET();
	bc_write_le32(copy + slot0 + BC_SLOT_PARENT, 2);	/* a parent after its child */
	expect_stream_invalid(copy, "mirrored scope log is inconsistent");
	RESET();
	bc_write_le32(copy + slot0 + BC_SLOT_POP, 99);
	expect_stream_invalid(copy, "mirrored scope log is inconsistent");
	RESET();
	bc_write_le32(copy + slice_offset(copy, 0) + BC_SLICE_QUEUE, 7);
	expect_stream_invalid(copy, "mirrored queue is unknown");
	RESET();
	/* What a stream whose emitter failed leaves in the capture. */
	bc_write_le32(copy + slice_offset(copy, 0) + BC_SLICE_WRITE_ERROR, (uint32_t)-ENOSPC);
	expect_stream_invalid(copy, "the driver could not emit a breadcrumb write");
	RESET();
	bc_write_le32(copy + slice_offset(copy, 0) + BC_SLICE_DROPPED, 1);
	bc_write_le32(copy + slice_offset(copy, 0) + BC_SLICE_OVERFLOW_PARENT, 50);
	expect_stream_invalid(copy, "mirrored overflow parent");
	RESET();
	bc_write_le32(copy + slice_offset(copy, 0) + BC_SLICE_COUNT, 2);	/* pops 5 > 2 */
	expect_stream_invalid(copy, "mirrored scope log is inconsistent");
	RESET();
	bc_write_le32(copy + BC_HEADER_SIZE + BC_RECORD_IN, 9);	/* the GPU's side */
	expect_stream_invalid(copy, "in counter 9 is beyond the 6 scopes recorded");
#undef RESET
	fixture_free(f);
}

/* Every length and many byte values at every offset of the mirror: the
 * decode fails cleanly or gives streams that are valid or say why. */
static void B3_mirror_every_byte_scribbled(void **state)
{
	struct fixture *f = record_hang(4);
	uint8_t copy[POOL_SIZE];
	size_t end = slice_offset(f->map, 2);

	for (size_t len = 0; len <= end; len++) {
		struct gpurobust_bc_report *r;

		if (gpurobust_bc_decode(f->map, len, NULL, &r) == 0)
			gpurobust_bc_report_free(r);
	}
	for (size_t off = mirror_offset(f->map); off < end; off++) {
		for (unsigned int v = 0; v < 256; v += 51) {
			struct gpurobust_bc_report *r;

			memcpy(copy, f->map, sizeof(copy));
			copy[off] = (uint8_t)v;
			if (gpurobust_bc_decode(copy, sizeof(copy), NULL, &r))
				continue;
			for (uint32_t s = 0; s < r->stream_count; s++)
				assert_true(r->streams[s].valid || r->streams[s].invalid_reason);
			gpurobust_bc_report_free(r);
		}
	}
	fixture_free(f);
}

/* Too small for one record and its slice, or a ring beyond the cap. */
static void B1_mirror_config_rejects(void **state)
{
	struct gpurobust_bc_pool_config cfg = { .size = 256, .mirror_scopes = 64 };
	struct gpurobust_bc_pool *pool;

	assert_int_equal(gpurobust_bc_pool_create(&cfg, &pool), -EINVAL);
	cfg.size = 64 << 10;
	cfg.mirror_scopes = BC_MIRROR_MAX_SLOTS + 1;
	assert_int_equal(gpurobust_bc_pool_create(&cfg, &pool), -EINVAL);
	cfg.mirror_scopes = 64;
	assert_int_equal(gpurobust_bc_pool_create(&cfg, &pool), 0);
	gpurobust_bc_pool_destroy(pool);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B3_decode_without_process_metadata),
		cmocka_unit_test(B3_mirror_ring_keeps_newest_scopes),
		cmocka_unit_test(B1_mirror_overflow_reported),
		cmocka_unit_test(B3_mirror_damage),
		cmocka_unit_test(B3_mirror_every_byte_scribbled),
		cmocka_unit_test(B1_mirror_config_rejects),
	};

	return cmocka_run_group_tests_name("B3 mirror", tests, NULL, NULL);
}
