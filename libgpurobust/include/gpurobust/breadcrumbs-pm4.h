/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BREADCRUMBS_PM4_H
#define GPUROBUST_BREADCRUMBS_PM4_H

/*
 * Ready-made packets for the two breadcrumb writes (B1), for drivers that
 * append raw dwords to an IB rather than use emit helpers of their own.
 * Every field is the one
 * Mesa's own emitters use (src/amd/common/sid.h and the pkt3.json register
 * database; radv_cs_write_data_head(), si_cs_emit_write_event_eop() and
 * radeonsi's si_cp_release_mem() in Mesa 23.3), checked by hand in
 * Documentation/breadcrumbs.md and tested against the decoder in
 * src/driver/core/breadcrumbs/pm4-decode.c.
 *
 *   GFX, compute  in:  WRITE_DATA, ENGINE_SEL=ME, DST_SEL=memory, WR_CONFIRM
 *                 out: RELEASE_MEM, BOTTOM_OF_PIPE_TS, DATA_SEL=32-bit,
 *                      DST_SEL=memory, INT_SEL=SEND_DATA_AFTER_WR_CONFIRM;
 *                      on GFX9 graphics after a ZPASS_DONE EVENT_WRITE to the
 *                      driver's scratch (Mesa's GPU-hang workaround); on GFX8
 *                      graphics two EVENT_WRITE_EOPs, the first with value - 1
 *                      (the kernel's gfx_v8_0 workaround; the counter never
 *                      goes backwards), as RELEASE_MEM runs only on GFX8's
 *                      compute rings
 *   SDMA          in:  WRITE linear, one dword
 *                 out: FENCE
 */
#include <stdint.h>

#include "breadcrumbs.h"

#ifdef __cplusplus
extern "C" {
#endif

enum gpurobust_bc_gfx_level {
	GPUROBUST_BC_GFX8 = 8,		/* Polaris, Tonga, Fiji; SDMA 3 */
	GPUROBUST_BC_GFX9 = 9,		/* Vega; SDMA 4 */
	GPUROBUST_BC_GFX10 = 10,	/* RDNA1/2; SDMA 5 */
	GPUROBUST_BC_GFX11 = 11,	/* RDNA3; SDMA 6 */
	GPUROBUST_BC_GFX12 = 12,	/* RDNA4; SDMA 7 */
};

/* What the packets are for: the chip, and what its workarounds need. */
struct gpurobust_bc_target {
	enum gpurobust_bc_gfx_level level;
	/* GFX9 graphics queue: the ZPASS_DONE before every bottom-of-pipe
	 * timestamp writes the DB occlusion counters here, 16 bytes per render
	 * backend, 8-byte aligned: RADV's cmd_buffer->gfx9_eop_bug_va,
	 * radeonsi's eop_bug_scratch. Not read for other levels and queues. */
	uint64_t eop_bug_va;
};

#define GPUROBUST_BC_PM4_WRITE_DATA_DWORDS 5
#define GPUROBUST_BC_PM4_RELEASE_MEM_DWORDS 8		/* GFX9+; GFX8 compute: 7 */
#define GPUROBUST_BC_PM4_RELEASE_MEM_GFX8_DWORDS 7
#define GPUROBUST_BC_PM4_ZPASS_DONE_DWORDS 4
#define GPUROBUST_BC_PM4_EVENT_WRITE_EOP_DWORDS 6
#define GPUROBUST_BC_SDMA_WRITE_DWORDS 5
#define GPUROBUST_BC_SDMA_FENCE_DWORDS 4
/* The largest breadcrumb write: ZPASS_DONE + RELEASE_MEM on GFX9 graphics,
 * two EVENT_WRITE_EOPs on GFX8 graphics. */
#define GPUROBUST_BC_MAX_WRITE_DWORDS 12

/* Each packet encoder fills `dw` and returns the number of dwords written,
 * or -EINVAL for an unknown level, a queue the packet does not run on, or an
 * address that is not dword aligned (8-byte for ZPASS_DONE, below 2^48 for
 * EVENT_WRITE_EOP). */
int gpurobust_bc_pm4_write_data(enum gpurobust_bc_gfx_level level,
				enum gpurobust_bc_queue queue, uint64_t gpu_va,
				uint32_t value, uint32_t *dw);
/* GFX9+ on GFX and compute, GFX8 on compute only (7 dwords there). */
int gpurobust_bc_pm4_release_mem(enum gpurobust_bc_gfx_level level,
				 enum gpurobust_bc_queue queue, uint64_t gpu_va,
				 uint32_t value, uint32_t *dw);
/* EVENT_WRITE ZPASS_DONE to @scratch_va (GFX9 graphics workaround). */
int gpurobust_bc_pm4_zpass_done(uint64_t scratch_va, uint32_t *dw);
/* EVENT_WRITE_EOP, BOTTOM_OF_PIPE_TS, 32-bit data (GFX8 graphics). */
int gpurobust_bc_pm4_event_write_eop(uint64_t gpu_va, uint32_t value, uint32_t *dw);
int gpurobust_bc_sdma_write(enum gpurobust_bc_gfx_level level, uint64_t gpu_va,
			    uint32_t value, uint32_t *dw);
int gpurobust_bc_sdma_fence(enum gpurobust_bc_gfx_level level, uint64_t gpu_va,
			    uint32_t value, uint32_t *dw);

/* The dwords gpurobust_bc_encode_write() emits for (target, queue, mode), so
 * that a driver can reserve them first (radeon_check_space()); -EINVAL
 * where the encoder would fail. */
int gpurobust_bc_write_dwords(const struct gpurobust_bc_target *target,
			      enum gpurobust_bc_queue queue,
			      enum gpurobust_bc_write_mode mode);

/* Picks the packets for (queue, mode), workarounds included, for one write
 * of a value push or pop returned. Returns the dwords written or -EINVAL, also for
 * GFX9 graphics out-writes without an eop_bug_va. */
int gpurobust_bc_encode_write(const struct gpurobust_bc_target *target,
			      enum gpurobust_bc_queue queue,
			      enum gpurobust_bc_write_mode mode, uint64_t gpu_va,
			      uint32_t value, uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS]);

#ifdef __cplusplus
}
#endif

#endif
