// SPDX-License-Identifier: MIT
/*
 * Packet encoders for the two breadcrumb writes. Field names and values come
 * from pm4-defs.h; pm4-decode.c reads the packets back for the tests.
 *
 * What differs between GFX9 and GFX12 for these four packets:
 * - the SDMA FENCE header gained MTYPE[18:16] with SDMA 5 (GFX10); we ask
 *   for UC there so the CPU reads the value without a cache flush;
 * - WRITE_DATA[26:25] is CACHE_POLICY on GFX9-11 and TEMPORAL on GFX12, and
 *   RELEASE_MEM[31:12] holds EOP_TC_* actions on GFX9 but GCR_CNTL on
 *   GFX10-11 and a reshuffled GCR layout on GFX12. We leave all of them 0:
 *   the data write itself is all we need, it goes to memory (DST_SEL), and
 *   the marker memory is mapped uncached;
 * - sizes do not change: WRITE_DATA is 5 dwords, RELEASE_MEM 8, SDMA WRITE 5
 *   and SDMA FENCE 4 on every level.
 */
#include <errno.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/pm4-defs.h"
#include "gpurobust/breadcrumbs-pm4.h"

static bool level_known(enum gpurobust_bc_gfx_level level)
{
	return level >= GPUROBUST_BC_GFX9 && level <= GPUROBUST_BC_GFX12;
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

GPUROBUST_EXPORT int gpurobust_bc_pm4_release_mem(enum gpurobust_bc_gfx_level level,
						  enum gpurobust_bc_queue queue, uint64_t va,
						  uint32_t value, uint32_t *dw)
{
	if (!pm4_args_ok(level, queue, va, dw))
		return -EINVAL;
	/* BOTTOM_OF_PIPE_TS fires when all earlier work has left the pipe:
	 * "earlier work has finished". */
	dw[0] = PM4_HEADER(PM4_IT_RELEASE_MEM, RELEASE_MEM_BODY_DWORDS);
	dw[1] = EVENT_BOTTOM_OF_PIPE_TS | EVENT_INDEX_END_OF_PIPE << RELEASE_MEM_EVENT_INDEX_SHIFT;
	dw[2] = RELEASE_MEM_DST_SEL_MC << RELEASE_MEM_DST_SEL_SHIFT |
		RELEASE_MEM_INT_SEL_NONE << RELEASE_MEM_INT_SEL_SHIFT |
		RELEASE_MEM_DATA_SEL_32BIT << RELEASE_MEM_DATA_SEL_SHIFT;
	dw[3] = (uint32_t)va;
	dw[4] = (uint32_t)(va >> 32);
	dw[5] = value;
	dw[6] = 0;
	dw[7] = 0;
	return GPUROBUST_BC_PM4_RELEASE_MEM_DWORDS;
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
	dw[3] = 0;	/* one dword: the count field holds dwords - 1 */
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

GPUROBUST_EXPORT int gpurobust_bc_encode_write(enum gpurobust_bc_gfx_level level,
					       enum gpurobust_bc_queue queue,
					       enum gpurobust_bc_write_mode mode, uint64_t va,
					       uint32_t value,
					       uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS])
{
	bool out = mode == GPUROBUST_BC_WRITE_OUT;

	if (mode > GPUROBUST_BC_WRITE_RESET)
		return -EINVAL;
	if (queue == GPUROBUST_BC_QUEUE_SDMA)
		return out ? gpurobust_bc_sdma_fence(level, va, value, dw) :
			     gpurobust_bc_sdma_write(level, va, value, dw);
	return out ? gpurobust_bc_pm4_release_mem(level, queue, va, value, dw) :
		     gpurobust_bc_pm4_write_data(level, queue, va, value, dw);
}
