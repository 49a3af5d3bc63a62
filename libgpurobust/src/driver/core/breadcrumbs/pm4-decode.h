/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_BREADCRUMBS_PM4_DECODE_H
#define GPUROBUST_CORE_BREADCRUMBS_PM4_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "gpurobust/breadcrumbs-pm4.h"

/* One memory write, as the engine would perform it. */
struct bc_decoded_write {
	unsigned int opcode;		/* PM4 IT opcode, or SDMA op */
	unsigned int dwords;		/* packet length */
	uint64_t va;
	uint32_t value;
	/* PM4 only */
	unsigned int engine_sel, dst_sel, event_type, event_index, data_sel, int_sel;
	bool wr_confirm;
	uint32_t cache_bits;		/* fields we promise to leave 0 */
	/* SDMA only */
	unsigned int mtype;
	unsigned int sdma_count;	/* WRITE's count field */
};

/* Decodes the packet at dw[0] of an IB for `queue`. Returns its length in
 * dwords, or -EBADMSG for anything that is not a breadcrumb write or the
 * ZPASS_DONE EVENT_WRITE that precedes one on GFX9 (opcode 0x46, va = the
 * scratch, no value), including a packet cut short by n. */
int grb_bc_decode_write(enum gpurobust_bc_queue queue, const uint32_t *dw, size_t n,
		    struct bc_decoded_write *out);

#endif
