// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * B1 on the wire: the packets for the in and out writes on every IP and
 * GFX8-GFX12. Whole dwords are checked against values worked out by hand
 * from the definitions Mesa 23.3 emits them with (src/amd/common/sid.h,
 * src/amd/registers/pkt3.json, radv_cs_write_data_head(),
 * si_cs_emit_write_event_eop()), then every packet goes through the decoder.
 *
 *   PM4 type-3 header = 3 << 30 | (body dwords - 1) << 16 | opcode << 8
 *   WRITE_DATA (0x37), 4 body dwords:  0xC0033700
 *     control: DST_SEL[11:8] = 5 (V_370_MEM), WR_CONFIRM[20], ENGINE_SEL[31:30] = 0 (ME)
 *              = 0x00000500 | 0x00100000 = 0x00100500
 *   RELEASE_MEM (0x49), 7 body dwords: 0xC0064900 (GFX8 compute: 6, 0xC0054900)
 *     event:   EVENT_TYPE[5:0] = 0x28 BOTTOM_OF_PIPE_TS, EVENT_INDEX[11:8] = 5 = 0x00000528
 *     selects: EOP_DATA_SEL[31:29] = 1 (VALUE_32BIT),
 *              EOP_INT_SEL[26:24] = 3 (SEND_DATA_AFTER_WR_CONFIRM), EOP_DST_SEL[17:16] = 0 (MEM)
 *              = 0x20000000 | 0x03000000 = 0x23000000
 *   EVENT_WRITE (0x46), 3 body dwords: 0xC0024600, ZPASS_DONE: EVENT_TYPE 0x15, EVENT_INDEX 1
 *              = 0x00000115, then the scratch address
 *   EVENT_WRITE_EOP (0x47), 5 body dwords: 0xC0044700, event 0x00000528, address low,
 *              ADDRESS_HI[15:0] | selects = 0x23000000 | 0x1234, data, 0
 *   SDMA WRITE linear: OP 2, SUB_OP 0 = 0x00000002, count 0 (SDMA 4+: dwords - 1),
 *              1 on SDMA 3 (GFX8: dwords)
 *   SDMA FENCE: OP 5 = 0x00000005, plus MTYPE[18:16] = 3 (UC) from SDMA 5 (GFX10): 0x00030005
 */
#include <errno.h>

#include "driver/core/breadcrumbs/pm4-decode.h"
#include "fake-gpu.h"

#define VA 0x0000123456789abcull
#define SCRATCH 0x0000000fedcb0000ull
#define LEVELS 5

static const enum gpurobust_bc_gfx_level levels[LEVELS] = {
	GPUROBUST_BC_GFX8, GPUROBUST_BC_GFX9, GPUROBUST_BC_GFX10, GPUROBUST_BC_GFX11,
	GPUROBUST_BC_GFX12,
};

static struct gpurobust_bc_target target(enum gpurobust_bc_gfx_level level)
{
	struct gpurobust_bc_target t = { .level = level, .eop_bug_va = SCRATCH };

	return t;
}

static void B1_write_data_dwords(void **state)
{
	for (size_t l = 0; l < LEVELS; l++) {
		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_COMPUTE; q++) {
			uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

			assert_int_equal(gpurobust_bc_pm4_write_data(levels[l], q, VA, 0xdeadbeef, dw), 5);
			assert_int_equal(dw[0], 0xC0033700);
			assert_int_equal(dw[1], 0x00100500);
			assert_int_equal(dw[2], 0x56789abc);
			assert_int_equal(dw[3], 0x00001234);
			assert_int_equal(dw[4], 0xdeadbeef);
		}
	}
}

static void check_release_mem(const uint32_t *dw, uint32_t header, uint32_t value)
{
	assert_int_equal(dw[0], header);
	assert_int_equal(dw[1], 0x00000528);
	assert_int_equal(dw[2], 0x23000000);
	assert_int_equal(dw[3], 0x56789abc);
	assert_int_equal(dw[4], 0x00001234);
	assert_int_equal(dw[5], value);
	assert_int_equal(dw[6], 0);
}

static void B1_release_mem_dwords(void **state)
{
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

	for (size_t l = 1; l < LEVELS; l++) {
		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_COMPUTE; q++) {
			assert_int_equal(gpurobust_bc_pm4_release_mem(levels[l], q, VA, 7, dw), 8);
			check_release_mem(dw, 0xC0064900, 7);
			assert_int_equal(dw[7], 0);
		}
	}
	/* GFX8: compute rings only, without the last dword. */
	assert_int_equal(gpurobust_bc_pm4_release_mem(GPUROBUST_BC_GFX8, GPUROBUST_BC_QUEUE_COMPUTE,
						      VA, 7, dw), 7);
	check_release_mem(dw, 0xC0054900, 7);
	assert_int_equal(gpurobust_bc_pm4_release_mem(GPUROBUST_BC_GFX8, GPUROBUST_BC_QUEUE_GFX,
						      VA, 7, dw), -EINVAL);
}

/* Mesa: "A ZPASS_DONE or PIXEL_STAT_DUMP_EVENT (of the DB occlusion counters)
 * must immediately precede every timestamp event to prevent a GPU hang on
 * GFX9." Graphics queue only; MEC needs none. */
static void B1_gfx9_zpass_done_precedes_every_graphics_timestamp(void **state)
{
	struct gpurobust_bc_target t = target(GPUROBUST_BC_GFX9);
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT,
						   VA, 3, dw), 12);
	assert_int_equal(dw[0], 0xC0024600);
	assert_int_equal(dw[1], 0x00000115);
	assert_int_equal(dw[2], 0xfedcb0000 & 0xffffffffu);
	assert_int_equal(dw[3], 0x0000000f);
	check_release_mem(dw + 4, 0xC0064900, 3);
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_COMPUTE,
						   GPUROBUST_BC_WRITE_OUT, VA, 3, dw), 8);
	assert_int_equal(dw[0], 0xC0064900);
	/* In-writes are no timestamps. */
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_IN,
						   VA, 3, dw), 5);
	/* The workaround needs the driver's scratch, 8-byte aligned. */
	t.eop_bug_va = 0;
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT,
						   VA, 3, dw), -EINVAL);
	t.eop_bug_va = SCRATCH + 4;
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT,
						   VA, 3, dw), -EINVAL);
	/* Other levels never read it. */
	t = target(GPUROBUST_BC_GFX10);
	t.eop_bug_va = 0;
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT,
						   VA, 3, dw), 8);
}

/* GFX8 graphics: no RELEASE_MEM; two EVENT_WRITE_EOPs, the first with the
 * value the counter already had. */
static void B1_gfx8_graphics_writes_two_eops(void **state)
{
	struct gpurobust_bc_target t = target(GPUROBUST_BC_GFX8);
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT,
						   VA, 9, dw), 12);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(dw[6 * i + 0], 0xC0044700);
		assert_int_equal(dw[6 * i + 1], 0x00000528);
		assert_int_equal(dw[6 * i + 2], 0x56789abc);
		assert_int_equal(dw[6 * i + 3], 0x23001234);
		assert_int_equal(dw[6 * i + 5], 0);
	}
	assert_int_equal(dw[4], 8);
	assert_int_equal(dw[10], 9);
	/* 48-bit addresses only. */
	assert_int_equal(gpurobust_bc_pm4_event_write_eop(0x0001000000000000ull, 1, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_COMPUTE,
						   GPUROBUST_BC_WRITE_OUT, VA, 9, dw), 7);
}

static void B1_sdma_dwords(void **state)
{
	for (size_t l = 0; l < LEVELS; l++) {
		uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

		assert_int_equal(gpurobust_bc_sdma_write(levels[l], VA, 9, dw), 5);
		assert_int_equal(dw[0], 0x00000002);
		assert_int_equal(dw[1], 0x56789abc);
		assert_int_equal(dw[2], 0x00001234);
		assert_int_equal(dw[3], levels[l] == GPUROBUST_BC_GFX8 ? 1 : 0);
		assert_int_equal(dw[4], 9);

		assert_int_equal(gpurobust_bc_sdma_fence(levels[l], VA, 9, dw), 4);
		assert_int_equal(dw[0], levels[l] <= GPUROBUST_BC_GFX9 ? 0x00000005 : 0x00030005);
		assert_int_equal(dw[1], 0x56789abc);
		assert_int_equal(dw[2], 0x00001234);
		assert_int_equal(dw[3], 9);
	}
}

/* Every (level, queue, mode) goes through the decoder with the fields the
 * B1 semantics need: in from the ME to memory with confirmation, out at the
 * end of the pipe as 32-bit data to memory once the write is confirmed,
 * nothing else set; workaround packets first, where the level needs them. */
static void B1_decoder_agrees(void **state)
{
	for (size_t l = 0; l < LEVELS; l++) {
		struct gpurobust_bc_target t = target(levels[l]);

		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_SDMA; q++) {
			for (int m = GPUROBUST_BC_WRITE_IN; m <= GPUROBUST_BC_WRITE_RESET; m++) {
				uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];
				struct bc_decoded_write w;
				bool out = m == GPUROBUST_BC_WRITE_OUT;
				int n = gpurobust_bc_encode_write(&t, q, m, VA, 0x1234u + m, dw);
				int at = 0, k;

				assert_true(n > 0);
				assert_int_equal(n, gpurobust_bc_write_dwords(&t, q, m));
				if (out && q == GPUROBUST_BC_QUEUE_GFX && levels[l] == GPUROBUST_BC_GFX9) {
					k = grb_bc_decode_write(q, dw, (size_t)n, &w);
					assert_int_equal(k, 4);
					assert_int_equal(w.opcode, 0x46);
					assert_int_equal(w.event_type, 0x15);
					assert_int_equal(w.event_index, 1);
					assert_int_equal(w.va, SCRATCH);
					at = k;
				}
				if (out && q == GPUROBUST_BC_QUEUE_GFX && levels[l] == GPUROBUST_BC_GFX8) {
					k = grb_bc_decode_write(q, dw, (size_t)n, &w);
					assert_int_equal(k, 6);
					assert_int_equal(w.value, 0x1234u + m - 1);
					at = k;
				}
				assert_int_equal(grb_bc_decode_write(q, dw + at, (size_t)(n - at), &w), n - at);
				assert_int_equal(w.va, VA);
				assert_int_equal(w.value, 0x1234u + m);
				if (q == GPUROBUST_BC_QUEUE_SDMA) {
					assert_int_equal(w.opcode, out ? 5 : 2);
					if (!out)
						assert_int_equal(w.sdma_count,
								 levels[l] == GPUROBUST_BC_GFX8);
					continue;
				}
				if (out) {
					assert_int_equal(w.opcode, levels[l] == GPUROBUST_BC_GFX8 &&
							 q == GPUROBUST_BC_QUEUE_GFX ? 0x47 : 0x49);
					assert_int_equal(w.event_type, 0x28);
					assert_int_equal(w.event_index, 5);
					assert_int_equal(w.data_sel, 1);
					assert_int_equal(w.int_sel, 3);
					assert_int_equal(w.dst_sel, 0);
				} else {
					assert_int_equal(w.opcode, 0x37);
					assert_int_equal(w.engine_sel, 0);
					assert_int_equal(w.dst_sel, 5);
					assert_true(w.wr_confirm);
				}
				assert_int_equal(w.cache_bits, 0);
			}
		}
	}
}

/* The numbers the bench reports as dwords per scope, and what an emitter
 * reserves per write. */
static void B1_dwords_per_scope(void **state)
{
	static const int gfx[LEVELS] = { 17, 17, 13, 13, 13 };
	static const int compute[LEVELS] = { 12, 13, 13, 13, 13 };

	for (size_t l = 0; l < LEVELS; l++) {
		struct gpurobust_bc_target t = target(levels[l]);
		int per_scope[3];

		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_SDMA; q++)
			per_scope[q] = gpurobust_bc_write_dwords(&t, q, GPUROBUST_BC_WRITE_IN) +
				       gpurobust_bc_write_dwords(&t, q, GPUROBUST_BC_WRITE_OUT);
		assert_int_equal(per_scope[GPUROBUST_BC_QUEUE_GFX], gfx[l]);
		assert_int_equal(per_scope[GPUROBUST_BC_QUEUE_COMPUTE], compute[l]);
		assert_int_equal(per_scope[GPUROBUST_BC_QUEUE_SDMA], 9);
		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_SDMA; q++)
			assert_true(gpurobust_bc_write_dwords(&t, q, GPUROBUST_BC_WRITE_OUT) <=
				    GPUROBUST_BC_MAX_WRITE_DWORDS);
	}
}

static void B1_encoders_reject(void **state)
{
	struct gpurobust_bc_target t = target(GPUROBUST_BC_GFX11);
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

	assert_int_equal(gpurobust_bc_pm4_write_data(GPUROBUST_BC_GFX11, GPUROBUST_BC_QUEUE_GFX,
						     VA + 2, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_pm4_release_mem(GPUROBUST_BC_GFX11, GPUROBUST_BC_QUEUE_SDMA,
						      VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_pm4_write_data(7, GPUROBUST_BC_QUEUE_GFX, VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_sdma_fence(13, VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_pm4_zpass_done(0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_pm4_event_write_eop(VA + 1, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_encode_write(&t, GPUROBUST_BC_QUEUE_GFX, 7, VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_encode_write(NULL, GPUROBUST_BC_QUEUE_GFX,
						   GPUROBUST_BC_WRITE_IN, VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_write_dwords(&t, GPUROBUST_BC_QUEUE_GFX, 7), -EINVAL);
	t.level = 7;
	assert_int_equal(gpurobust_bc_write_dwords(&t, GPUROBUST_BC_QUEUE_GFX,
						   GPUROBUST_BC_WRITE_OUT), -EINVAL);
}

static void B1_decoder_rejects(void **state)
{
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];
	struct bc_decoded_write w;
	int n = gpurobust_bc_pm4_release_mem(GPUROBUST_BC_GFX10, GPUROBUST_BC_QUEUE_GFX, VA, 1, dw);

	assert_int_equal(grb_bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, (size_t)n - 1, &w), -EBADMSG);
	dw[0] = 0xC0001000;	/* a NOP */
	assert_int_equal(grb_bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, 2, &w), -EBADMSG);
	dw[0] = 0x00000001;	/* type 0 */
	assert_int_equal(grb_bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, 8, &w), -EBADMSG);
	n = gpurobust_bc_pm4_zpass_done(SCRATCH, dw);
	dw[1] = 0x00000116;	/* another event: not the workaround */
	assert_int_equal(grb_bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, (size_t)n, &w), -EBADMSG);
	n = gpurobust_bc_sdma_write(GPUROBUST_BC_GFX12, VA, 1, dw);
	dw[3] = 3;		/* four dwords: not a breadcrumb */
	assert_int_equal(grb_bc_decode_write(GPUROBUST_BC_QUEUE_SDMA, dw, (size_t)n, &w), -EBADMSG);
	assert_int_equal(grb_bc_decode_write(GPUROBUST_BC_QUEUE_SDMA, dw, 0, &w), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B1_write_data_dwords),
		cmocka_unit_test(B1_release_mem_dwords),
		cmocka_unit_test(B1_gfx9_zpass_done_precedes_every_graphics_timestamp),
		cmocka_unit_test(B1_gfx8_graphics_writes_two_eops),
		cmocka_unit_test(B1_sdma_dwords),
		cmocka_unit_test(B1_decoder_agrees),
		cmocka_unit_test(B1_dwords_per_scope),
		cmocka_unit_test(B1_encoders_reject),
		cmocka_unit_test(B1_decoder_rejects),
	};

	return cmocka_run_group_tests_name("B1 packets", tests, NULL, NULL);
}
