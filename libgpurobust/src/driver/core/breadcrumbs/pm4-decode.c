// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * A decoder for the packets pm4.c emits, kept apart from the encoders so that
 * each can check the other: the tests encode, decode and compare fields, and
 * run the decoder over IBs to replay their writes into marker memory.
 */
#include <errno.h>
#include <string.h>

#include "driver/core/breadcrumbs/pm4-decode.h"
#include "driver/core/breadcrumbs/pm4-defs.h"

static void decode_event(uint32_t control, struct bc_decoded_write *w)
{
	w->event_type = control & RELEASE_MEM_EVENT_TYPE_MASK;
	w->event_index = (control >> RELEASE_MEM_EVENT_INDEX_SHIFT) & RELEASE_MEM_EVENT_INDEX_MASK;
	w->cache_bits = control & RELEASE_MEM_CACHE_ACTIONS_MASK;
}

static void decode_selects(uint32_t selects, struct bc_decoded_write *w)
{
	w->dst_sel = (selects >> RELEASE_MEM_DST_SEL_SHIFT) & RELEASE_MEM_DST_SEL_MASK;
	w->int_sel = (selects >> RELEASE_MEM_INT_SEL_SHIFT) & RELEASE_MEM_INT_SEL_MASK;
	w->data_sel = (selects >> RELEASE_MEM_DATA_SEL_SHIFT) & RELEASE_MEM_DATA_SEL_MASK;
}

static int decode_pm4(const uint32_t *dw, size_t n, struct bc_decoded_write *w)
{
	uint32_t header = dw[0];
	unsigned int body;

	if (header >> PM4_TYPE_SHIFT != PM4_TYPE3)
		return -EBADMSG;
	body = ((header >> PM4_COUNT_SHIFT) & PM4_COUNT_MASK) + 1;
	w->opcode = (header >> PM4_OPCODE_SHIFT) & PM4_OPCODE_MASK;
	w->dwords = body + 1;
	if (n < w->dwords)
		return -EBADMSG;
	if (w->opcode == PM4_IT_WRITE_DATA && body == WRITE_DATA_BODY_DWORDS) {
		w->dst_sel = (dw[1] >> WRITE_DATA_DST_SEL_SHIFT) & WRITE_DATA_DST_SEL_MASK;
		w->engine_sel = (dw[1] >> WRITE_DATA_ENGINE_SEL_SHIFT) & WRITE_DATA_ENGINE_SEL_MASK;
		w->wr_confirm = dw[1] & WRITE_DATA_WR_CONFIRM;
		w->cache_bits = (dw[1] >> WRITE_DATA_CACHE_POLICY_SHIFT) & 3u;
		w->va = dw[2] | (uint64_t)dw[3] << 32;
		w->value = dw[4];
		return w->dst_sel == WRITE_DATA_DST_SEL_MEMORY ? (int)w->dwords : -EBADMSG;
	}
	if (w->opcode == PM4_IT_RELEASE_MEM &&
	    (body == RELEASE_MEM_BODY_DWORDS || body == RELEASE_MEM_GFX8_BODY_DWORDS)) {
		decode_event(dw[1], w);
		decode_selects(dw[2], w);
		w->va = dw[3] | (uint64_t)dw[4] << 32;
		w->value = dw[5];
		return w->data_sel == RELEASE_MEM_DATA_SEL_32BIT ? (int)w->dwords : -EBADMSG;
	}
	if (w->opcode == PM4_IT_EVENT_WRITE_EOP && body == EVENT_WRITE_EOP_BODY_DWORDS) {
		decode_event(dw[1], w);
		decode_selects(dw[3] & ~EVENT_WRITE_EOP_ADDR_HI_MASK, w);
		w->va = dw[2] | (uint64_t)(dw[3] & EVENT_WRITE_EOP_ADDR_HI_MASK) << 32;
		w->value = dw[4];
		return w->data_sel == RELEASE_MEM_DATA_SEL_32BIT ? (int)w->dwords : -EBADMSG;
	}
	/* The GFX9 workaround ahead of a timestamp: no breadcrumb write. */
	if (w->opcode == PM4_IT_EVENT_WRITE && body == EVENT_WRITE_BODY_DWORDS) {
		decode_event(dw[1], w);
		w->va = dw[2] | (uint64_t)dw[3] << 32;
		return w->event_type == EVENT_ZPASS_DONE ? (int)w->dwords : -EBADMSG;
	}
	return -EBADMSG;
}

static int decode_sdma(const uint32_t *dw, size_t n, struct bc_decoded_write *w)
{
	unsigned int sub_op = (dw[0] >> SDMA_SUB_OP_SHIFT) & SDMA_SUB_OP_MASK;

	w->opcode = dw[0] & SDMA_OP_MASK;
	if (w->opcode == SDMA_OP_FENCE) {
		w->dwords = GPUROBUST_BC_SDMA_FENCE_DWORDS;
		if (n < w->dwords)
			return -EBADMSG;
		w->mtype = (dw[0] >> SDMA_FENCE_MTYPE_SHIFT) & SDMA_FENCE_MTYPE_MASK;
		w->va = dw[1] | (uint64_t)dw[2] << 32;
		w->value = dw[3];
		return (int)w->dwords;
	}
	if (w->opcode == SDMA_OP_WRITE && sub_op == SDMA_SUBOP_WRITE_LINEAR) {
		/* Breadcrumbs write exactly one dword: a count of 0 from SDMA 4
		 * on, 1 on SDMA 3; the caller checks which against the level. */
		if (n < 4 || (dw[3] & SDMA_WRITE_COUNT_MASK) > 1)
			return -EBADMSG;
		w->sdma_count = dw[3] & SDMA_WRITE_COUNT_MASK;
		w->dwords = GPUROBUST_BC_SDMA_WRITE_DWORDS;
		if (n < w->dwords)
			return -EBADMSG;
		w->va = dw[1] | (uint64_t)dw[2] << 32;
		w->value = dw[4];
		return (int)w->dwords;
	}
	return -EBADMSG;
}

int grb_bc_decode_write(enum gpurobust_bc_queue queue, const uint32_t *dw, size_t n,
		    struct bc_decoded_write *out)
{
	memset(out, 0, sizeof(*out));
	if (!dw || !n)
		return -EBADMSG;
	return queue == GPUROBUST_BC_QUEUE_SDMA ? decode_sdma(dw, n, out) : decode_pm4(dw, n, out);
}
