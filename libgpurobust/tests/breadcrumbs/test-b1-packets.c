// SPDX-License-Identifier: MIT
/*
 * B1 on the wire: the packets for the in and out writes on every IP and
 * GFX9-GFX12. Whole dwords are checked against values worked out by hand
 * from AMD's public definitions, then every packet goes through the decoder.
 *
 *   PM4 type-3 header = 3 << 30 | (body dwords - 1) << 16 | opcode << 8
 *   WRITE_DATA (0x37), 4 body dwords:  0xC0033700
 *     control: DST_SEL[11:8] = 5 (memory), WR_CONFIRM[20], ENGINE_SEL[31:30] = 0 (ME)
 *              = 0x00000500 | 0x00100000 = 0x00100500
 *   RELEASE_MEM (0x49), 7 body dwords: 0xC0064900
 *     event:   EVENT_TYPE[5:0] = 0x28 BOTTOM_OF_PIPE_TS, EVENT_INDEX[11:8] = 5 = 0x00000528
 *     selects: DATA_SEL[31:29] = 1 (32-bit), INT_SEL[26:24] = 0, DST_SEL[17:16] = 0 (MC)
 *              = 0x20000000
 *   SDMA WRITE linear: OP 2, SUB_OP 0 = 0x00000002, count (dwords - 1) = 0
 *   SDMA FENCE: OP 5 = 0x00000005, plus MTYPE[18:16] = 3 (UC) from SDMA 5 (GFX10): 0x00030005
 */
#include <errno.h>

#include "driver/core/breadcrumbs/pm4-decode.h"
#include "fake-gpu.h"

#define VA 0x0000123456789abcull

static const enum gpurobust_bc_gfx_level levels[] = {
	GPUROBUST_BC_GFX9, GPUROBUST_BC_GFX10, GPUROBUST_BC_GFX11, GPUROBUST_BC_GFX12,
};

static void B1_write_data_dwords(void **state)
{
	for (size_t l = 0; l < 4; l++) {
		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_COMPUTE; q++) {
			uint32_t dw[8];

			assert_int_equal(gpurobust_bc_pm4_write_data(levels[l], q, VA, 0xdeadbeef, dw), 5);
			assert_int_equal(dw[0], 0xC0033700);
			assert_int_equal(dw[1], 0x00100500);
			assert_int_equal(dw[2], 0x56789abc);
			assert_int_equal(dw[3], 0x00001234);
			assert_int_equal(dw[4], 0xdeadbeef);
		}
	}
}

static void B1_release_mem_dwords(void **state)
{
	for (size_t l = 0; l < 4; l++) {
		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_COMPUTE; q++) {
			uint32_t dw[8];

			assert_int_equal(gpurobust_bc_pm4_release_mem(levels[l], q, VA, 7, dw), 8);
			assert_int_equal(dw[0], 0xC0064900);
			assert_int_equal(dw[1], 0x00000528);
			assert_int_equal(dw[2], 0x20000000);
			assert_int_equal(dw[3], 0x56789abc);
			assert_int_equal(dw[4], 0x00001234);
			assert_int_equal(dw[5], 7);
			assert_int_equal(dw[6], 0);
			assert_int_equal(dw[7], 0);
		}
	}
}

static void B1_sdma_dwords(void **state)
{
	for (size_t l = 0; l < 4; l++) {
		uint32_t dw[8];

		assert_int_equal(gpurobust_bc_sdma_write(levels[l], VA, 9, dw), 5);
		assert_int_equal(dw[0], 0x00000002);
		assert_int_equal(dw[1], 0x56789abc);
		assert_int_equal(dw[2], 0x00001234);
		assert_int_equal(dw[3], 0);
		assert_int_equal(dw[4], 9);

		assert_int_equal(gpurobust_bc_sdma_fence(levels[l], VA, 9, dw), 4);
		/* The one level difference in these packets. */
		assert_int_equal(dw[0], levels[l] == GPUROBUST_BC_GFX9 ? 0x00000005 : 0x00030005);
		assert_int_equal(dw[1], 0x56789abc);
		assert_int_equal(dw[2], 0x00001234);
		assert_int_equal(dw[3], 9);
	}
}

/* Every (level, queue, mode) goes through the decoder with the fields the
 * B1 semantics need: in from the ME to memory with confirmation, out at the
 * end of the pipe as 32-bit data past the caches, nothing else set. */
static void B1_decoder_agrees(void **state)
{
	for (size_t l = 0; l < 4; l++) {
		for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_SDMA; q++) {
			for (int m = GPUROBUST_BC_WRITE_IN; m <= GPUROBUST_BC_WRITE_RESET; m++) {
				uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];
				struct bc_decoded_write w;
				int n = gpurobust_bc_encode_write(levels[l], q, m, VA, 0x1234u + m, dw);

				assert_true(n > 0);
				assert_int_equal(bc_decode_write(q, dw, (size_t)n, &w), n);
				assert_int_equal(w.va, VA);
				assert_int_equal(w.value, 0x1234u + m);
				if (q == GPUROBUST_BC_QUEUE_SDMA) {
					assert_int_equal(w.opcode, m == GPUROBUST_BC_WRITE_OUT ? 5 : 2);
					continue;
				}
				if (m == GPUROBUST_BC_WRITE_OUT) {
					assert_int_equal(w.opcode, 0x49);
					assert_int_equal(w.event_type, 0x28);
					assert_int_equal(w.event_index, 5);
					assert_int_equal(w.data_sel, 1);
					assert_int_equal(w.int_sel, 0);
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

/* The numbers the bench reports as dwords per scope. */
static void B1_dwords_per_scope(void **state)
{
	for (size_t l = 0; l < 4; l++) {
		uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];
		int gfx = gpurobust_bc_encode_write(levels[l], GPUROBUST_BC_QUEUE_GFX,
						    GPUROBUST_BC_WRITE_IN, VA, 1, dw) +
			  gpurobust_bc_encode_write(levels[l], GPUROBUST_BC_QUEUE_GFX,
						    GPUROBUST_BC_WRITE_OUT, VA, 1, dw);
		int sdma = gpurobust_bc_encode_write(levels[l], GPUROBUST_BC_QUEUE_SDMA,
						     GPUROBUST_BC_WRITE_IN, VA, 1, dw) +
			   gpurobust_bc_encode_write(levels[l], GPUROBUST_BC_QUEUE_SDMA,
						     GPUROBUST_BC_WRITE_OUT, VA, 1, dw);

		assert_int_equal(gfx, 13);
		assert_int_equal(sdma, 9);
	}
}

static void B1_encoders_reject(void **state)
{
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

	assert_int_equal(gpurobust_bc_pm4_write_data(GPUROBUST_BC_GFX11, GPUROBUST_BC_QUEUE_GFX,
						     VA + 2, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_pm4_release_mem(GPUROBUST_BC_GFX11, GPUROBUST_BC_QUEUE_SDMA,
						      VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_pm4_write_data(8, GPUROBUST_BC_QUEUE_GFX, VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_sdma_fence(13, VA, 0, dw), -EINVAL);
	assert_int_equal(gpurobust_bc_encode_write(GPUROBUST_BC_GFX11, GPUROBUST_BC_QUEUE_GFX, 7, VA,
						   0, dw), -EINVAL);
}

static void B1_decoder_rejects(void **state)
{
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];
	struct bc_decoded_write w;
	int n = gpurobust_bc_pm4_release_mem(GPUROBUST_BC_GFX10, GPUROBUST_BC_QUEUE_GFX, VA, 1, dw);

	assert_int_equal(bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, (size_t)n - 1, &w), -EBADMSG);
	dw[0] = 0xC0001000;	/* a NOP */
	assert_int_equal(bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, 2, &w), -EBADMSG);
	dw[0] = 0x00000001;	/* type 0 */
	assert_int_equal(bc_decode_write(GPUROBUST_BC_QUEUE_GFX, dw, 8, &w), -EBADMSG);
	n = gpurobust_bc_sdma_write(GPUROBUST_BC_GFX12, VA, 1, dw);
	dw[3] = 3;		/* four dwords: not a breadcrumb */
	assert_int_equal(bc_decode_write(GPUROBUST_BC_QUEUE_SDMA, dw, (size_t)n, &w), -EBADMSG);
	assert_int_equal(bc_decode_write(GPUROBUST_BC_QUEUE_SDMA, dw, 0, &w), -EBADMSG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(B1_write_data_dwords),
		cmocka_unit_test(B1_release_mem_dwords),
		cmocka_unit_test(B1_sdma_dwords),
		cmocka_unit_test(B1_decoder_agrees),
		cmocka_unit_test(B1_dwords_per_scope),
		cmocka_unit_test(B1_encoders_reject),
		cmocka_unit_test(B1_decoder_rejects),
	};

	return cmocka_run_group_tests_name("B1 packets", tests, NULL, NULL);
}
