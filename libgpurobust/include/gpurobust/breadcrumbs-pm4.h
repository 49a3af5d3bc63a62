/* SPDX-License-Identifier: MIT */
#ifndef GPUROBUST_BREADCRUMBS_PM4_H
#define GPUROBUST_BREADCRUMBS_PM4_H

/*
 * Ready-made packets for the two breadcrumb writes (B1), for drivers whose
 * gpurobust_bc_emitter appends raw dwords to an IB. Field values follow AMD's
 * public PM4 and SDMA definitions; the GFX9 to GFX12 differences are listed
 * in Documentation/breadcrumbs.md and tested against the decoder in
 * src/driver/core/breadcrumbs/pm4-decode.c.
 *
 *   GFX, compute  in:  WRITE_DATA, ENGINE_SEL=ME, DST_SEL=memory, WR_CONFIRM
 *                 out: RELEASE_MEM, BOTTOM_OF_PIPE_TS, DATA_SEL=32-bit, DST_SEL=MC
 *   SDMA          in:  WRITE linear, one dword
 *                 out: FENCE
 */
#include <stdint.h>

#include "breadcrumbs.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gpurobust_bc_gfx_level {
	GPUROBUST_BC_GFX9 = 9,		/* Vega; SDMA 4 */
	GPUROBUST_BC_GFX10 = 10,	/* RDNA1/2; SDMA 5 */
	GPUROBUST_BC_GFX11 = 11,	/* RDNA3; SDMA 6 */
	GPUROBUST_BC_GFX12 = 12,	/* RDNA4; SDMA 7 */
};

#define GPUROBUST_BC_PM4_WRITE_DATA_DWORDS 5
#define GPUROBUST_BC_PM4_RELEASE_MEM_DWORDS 8
#define GPUROBUST_BC_SDMA_WRITE_DWORDS 5
#define GPUROBUST_BC_SDMA_FENCE_DWORDS 4
/* The largest packet any breadcrumb write needs. */
#define GPUROBUST_BC_MAX_WRITE_DWORDS 8

/* Each encoder fills `dw` and returns the number of dwords written, or
 * -EINVAL for an unknown level, a queue the packet does not run on, or an
 * address that is not dword aligned. */
int gpurobust_bc_pm4_write_data(enum gpurobust_bc_gfx_level level,
				enum gpurobust_bc_queue queue, uint64_t gpu_va,
				uint32_t value, uint32_t *dw);
int gpurobust_bc_pm4_release_mem(enum gpurobust_bc_gfx_level level,
				 enum gpurobust_bc_queue queue, uint64_t gpu_va,
				 uint32_t value, uint32_t *dw);
int gpurobust_bc_sdma_write(enum gpurobust_bc_gfx_level level, uint64_t gpu_va,
			    uint32_t value, uint32_t *dw);
int gpurobust_bc_sdma_fence(enum gpurobust_bc_gfx_level level, uint64_t gpu_va,
			    uint32_t value, uint32_t *dw);

/* Picks the packet for (queue, mode): what an emitter's write() calls. */
int gpurobust_bc_encode_write(enum gpurobust_bc_gfx_level level,
			      enum gpurobust_bc_queue queue,
			      enum gpurobust_bc_write_mode mode, uint64_t gpu_va,
			      uint32_t value, uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS]);

#ifdef __cplusplus
}
#endif

#endif
