// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Packet encoders for the two breadcrumb writes. Field names and values come
 * from pm4-defs.h; pm4-decode.c reads the packets back for the tests.
 *
 * What differs between GFX8 and GFX12 for these packets:
 * - GFX8 runs RELEASE_MEM on its compute rings only, one dword shorter; its
 *   graphics ring takes EVENT_WRITE_EOP, 48-bit addresses, and needs two of
 *   them for the write to wait for all engines (gfx_v8_0_ring_emit_fence_gfx()
 *   and Mesa send a first one ahead; ours carries value - 1, which the
 *   counter held already, so a hang between the two reads the same);
 * - GFX9 graphics needs a ZPASS_DONE right before every bottom-of-pipe
 *   timestamp, or the GPU can hang (Mesa's si_cs_emit_write_event_eop());
 * - SDMA 3 (GFX8) counts WRITE dwords from 1, SDMA 4+ from 0; the SDMA FENCE
 *   header gained MTYPE[18:16] with SDMA 5 (GFX10), where we ask for UC so
 *   the CPU reads the value without a cache flush (Mesa 23.3 sets it on
 *   every level; the bits are reserved before SDMA 5, so we leave them 0);
 * - WRITE_DATA[26:25] is CACHE_POLICY on GFX9-11 and TEMPORAL on GFX12, and
 *   RELEASE_MEM[31:12] holds EOP_TC_* actions on GFX8-9 but GCR_CNTL on
 *   GFX10-11 and a reshuffled GCR layout on GFX12. We leave all of them 0,
 *   as Mesa's fence writes do: the data write itself is all we need, it goes
 *   to memory, and the marker memory is mapped uncached.
 */
#include <errno.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/pm4-defs.h"
#include "gpurobust/breadcrumbs-pm4.h"

static bool level_known(enum gpurobust_bc_gfx_level level)
{
	return level >= GPUROBUST_BC_GFX8 && level <= GPUROBUST_BC_GFX12;
}

static bool pm4_args_ok(enum gpurobust_bc_gfx_level level, enum gpurobust_bc_queue queue,
			uint64_t va, const uint32_t *dw)
{
	return dw && level_known(level) && !(va & 3) &&
	       (queue == GPUROBUST_BC_QUEUE_GFX || queue == GPUROBUST_BC_QUEUE_COMPUTE);
}

GPUROBUST_EXPORT int gpurobust_bc_pm4_write_data(enum gpurobust_bc_gfx_level level,
						 enum gpurobust_bc_queue queue, uint64_t va,
						 uint32_t value, uint32_t *dw)
{
	if (!pm4_args_ok(level, queue, va, dw))
		return -EINVAL;
	/* The ME executes it in order after everything before it has been
	 * issued: "earlier work has started". */
	dw[0] = PM4_HEADER(PM4_IT_WRITE_DATA, WRITE_DATA_BODY_DWORDS);
	dw[1] = WRITE_DATA_DST_SEL_MEMORY << WRITE_DATA_DST_SEL_SHIFT | WRITE_DATA_WR_CONFIRM |
		WRITE_DATA_ENGINE_ME << WRITE_DATA_ENGINE_SEL_SHIFT;
	dw[2] = (uint32_t)va;
	dw[3] = (uint32_t)(va >> 32);
	dw[4] = value;
	return GPUROBUST_BC_PM4_WRITE_DATA_DWORDS;
}

static uint32_t eop_event(void)
{
	return EVENT_BOTTOM_OF_PIPE_TS | EVENT_INDEX_END_OF_PIPE << RELEASE_MEM_EVENT_INDEX_SHIFT;
}

static uint32_t eop_selects(void)
{
	return RELEASE_MEM_DST_SEL_MEM << RELEASE_MEM_DST_SEL_SHIFT |
	       RELEASE_MEM_INT_SEL_AFTER_WR_CONFIRM << RELEASE_MEM_INT_SEL_SHIFT |
	       RELEASE_MEM_DATA_SEL_32BIT << RELEASE_MEM_DATA_SEL_SHIFT;
}

GPUROBUST_EXPORT int gpurobust_bc_pm4_release_mem(enum gpurobust_bc_gfx_level level,
						  enum gpurobust_bc_queue queue, uint64_t va,
						  uint32_t value, uint32_t *dw)
{
	bool gfx8 = level == GPUROBUST_BC_GFX8;

	if (!pm4_args_ok(level, queue, va, dw) || (gfx8 && queue != GPUROBUST_BC_QUEUE_COMPUTE))
		return -EINVAL;
	/* BOTTOM_OF_PIPE_TS fires when all earlier work has left the pipe:
	 * "earlier work has finished". */
	dw[0] = PM4_HEADER(PM4_IT_RELEASE_MEM,
			   gfx8 ? RELEASE_MEM_GFX8_BODY_DWORDS : RELEASE_MEM_BODY_DWORDS);
	dw[1] = eop_event();
	dw[2] = eop_selects();
	dw[3] = (uint32_t)va;
	dw[4] = (uint32_t)(va >> 32);
	dw[5] = value;
	dw[6] = 0;
	if (gfx8)
		return GPUROBUST_BC_PM4_RELEASE_MEM_GFX8_DWORDS;
	dw[7] = 0;
	return GPUROBUST_BC_PM4_RELEASE_MEM_DWORDS;
}

GPUROBUST_EXPORT int gpurobust_bc_pm4_zpass_done(uint64_t scratch_va, uint32_t *dw)
{
	if (!dw || !scratch_va || (scratch_va & 7))
		return -EINVAL;
	dw[0] = PM4_HEADER(PM4_IT_EVENT_WRITE, EVENT_WRITE_BODY_DWORDS);
	dw[1] = EVENT_ZPASS_DONE | EVENT_INDEX_ZPASS_DONE << RELEASE_MEM_EVENT_INDEX_SHIFT;
	dw[2] = (uint32_t)scratch_va;
	dw[3] = (uint32_t)(scratch_va >> 32);
	return GPUROBUST_BC_PM4_ZPASS_DONE_DWORDS;
}

GPUROBUST_EXPORT int gpurobust_bc_pm4_event_write_eop(uint64_t va, uint32_t value, uint32_t *dw)
{
	if (!dw || (va & 3) || (va >> 32) > EVENT_WRITE_EOP_ADDR_HI_MASK)
		return -EINVAL;
	dw[0] = PM4_HEADER(PM4_IT_EVENT_WRITE_EOP, EVENT_WRITE_EOP_BODY_DWORDS);
	dw[1] = eop_event();
	dw[2] = (uint32_t)va;
	dw[3] = (uint32_t)(va >> 32) | eop_selects();
	dw[4] = value;
	dw[5] = 0;
	return GPUROBUST_BC_PM4_EVENT_WRITE_EOP_DWORDS;
}

GPUROBUST_EXPORT int gpurobust_bc_sdma_write(enum gpurobust_bc_gfx_level level, uint64_t va,
					     uint32_t value, uint32_t *dw)
{
	if (!dw || !level_known(level) || (va & 3))
		return -EINVAL;
	/* The SDMA engine runs its packets one after the other, so reaching
	 * this one means everything before it has at least been issued. */
	dw[0] = SDMA_OP_WRITE | SDMA_SUBOP_WRITE_LINEAR << SDMA_SUB_OP_SHIFT;
	dw[1] = (uint32_t)va;
	dw[2] = (uint32_t)(va >> 32);
	dw[3] = level == GPUROBUST_BC_GFX8 ? 1 : 0;	/* one dword */
	dw[4] = value;
	return GPUROBUST_BC_SDMA_WRITE_DWORDS;
}

GPUROBUST_EXPORT int gpurobust_bc_sdma_fence(enum gpurobust_bc_gfx_level level, uint64_t va,
					     uint32_t value, uint32_t *dw)
{
	if (!dw || !level_known(level) || (va & 3))
		return -EINVAL;
	dw[0] = SDMA_OP_FENCE;
	if (level >= GPUROBUST_BC_GFX10)
		dw[0] |= SDMA_FENCE_MTYPE_UC << SDMA_FENCE_MTYPE_SHIFT;
	dw[1] = (uint32_t)va;
	dw[2] = (uint32_t)(va >> 32);
	dw[3] = value;
	return GPUROBUST_BC_SDMA_FENCE_DWORDS;
}

GPUROBUST_EXPORT int gpurobust_bc_write_dwords(const struct gpurobust_bc_target *target,
					       enum gpurobust_bc_queue queue,
					       enum gpurobust_bc_write_mode mode)
{
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];

	/* Encoding into scratch is the one definition of the size; aligned
	 * placeholder addresses pass every address check. */
	return gpurobust_bc_encode_write(target, queue, mode, 0, 1, dw);
}

/* The out-write of a graphics or compute queue, workarounds first. */
static int encode_pm4_out(const struct gpurobust_bc_target *t, enum gpurobust_bc_queue queue,
			  uint64_t va, uint32_t value, uint32_t *dw)
{
	int n = 0, r;

	if (t->level == GPUROBUST_BC_GFX8 && queue == GPUROBUST_BC_QUEUE_GFX) {
		r = gpurobust_bc_pm4_event_write_eop(va, value ? value - 1 : 0, dw);
		if (r < 0)
			return r;
		return r + gpurobust_bc_pm4_event_write_eop(va, value, dw + r);
	}
	if (t->level == GPUROBUST_BC_GFX9 && queue == GPUROBUST_BC_QUEUE_GFX) {
		n = gpurobust_bc_pm4_zpass_done(t->eop_bug_va, dw);
		if (n < 0)
			return n;
	}
	r = gpurobust_bc_pm4_release_mem(t->level, queue, va, value, dw + n);
	return r < 0 ? r : n + r;
}

GPUROBUST_EXPORT int gpurobust_bc_encode_write(const struct gpurobust_bc_target *target,
					       enum gpurobust_bc_queue queue,
					       enum gpurobust_bc_write_mode mode, uint64_t va,
					       uint32_t value,
					       uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS])
{
	bool out = mode == GPUROBUST_BC_WRITE_OUT;

	if (!target || mode > GPUROBUST_BC_WRITE_RESET)
		return -EINVAL;
	if (queue == GPUROBUST_BC_QUEUE_SDMA)
		return out ? gpurobust_bc_sdma_fence(target->level, va, value, dw) :
			     gpurobust_bc_sdma_write(target->level, va, value, dw);
	if (out)
		return encode_pm4_out(target, queue, va, value, dw);
	return gpurobust_bc_pm4_write_data(target->level, queue, va, value, dw);
}
