/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_BREADCRUMBS_PM4_DEFS_H
#define GPUROBUST_CORE_BREADCRUMBS_PM4_DEFS_H

/*
 * The PM4 and SDMA fields breadcrumbs use, named after AMD's public packet
 * definitions: the amdgpu kernel's vid.h, soc15d.h, nvd.h and gfx12 headers,
 * the SDMA packet headers, and Mesa's src/amd/common/sid.h (EOP_*, EVENT_*,
 * CIK_SDMA_*) with its register database src/amd/registers/pkt3.json
 * (WRITE_DATA CONTROL) and gfx*.json (VGT_EVENT_TYPE), each value compared
 * by hand with Mesa 23.3 (Documentation/breadcrumbs.md). Encoder and decoder
 * both read this table; the tests also check whole dwords against values
 * worked out by hand from those definitions, so a wrong shift cannot hide.
 */

/* Type-3 header: TYPE[31:30] = 3, COUNT[29:16] = body dwords - 1,
 * IT_OPCODE[15:8], SHADER_TYPE[1], PREDICATE[0]. */
#define PM4_TYPE3 3u
#define PM4_TYPE_SHIFT 30
#define PM4_COUNT_SHIFT 16
#define PM4_COUNT_MASK 0x3fffu
#define PM4_OPCODE_SHIFT 8
#define PM4_OPCODE_MASK 0xffu
#define PM4_HEADER(op, body_dwords) \
	(PM4_TYPE3 << PM4_TYPE_SHIFT | (((body_dwords) - 1u) & PM4_COUNT_MASK) << PM4_COUNT_SHIFT | \
	 ((op) & PM4_OPCODE_MASK) << PM4_OPCODE_SHIFT)

#define PM4_IT_WRITE_DATA 0x37u
#define PM4_IT_EVENT_WRITE 0x46u
#define PM4_IT_EVENT_WRITE_EOP 0x47u		/* GFX6-8 */
#define PM4_IT_RELEASE_MEM 0x49u		/* GFX9+, and GFX8 compute */

/* WRITE_DATA control dword. */
#define WRITE_DATA_DST_SEL_SHIFT 8		/* [11:8] */
#define WRITE_DATA_DST_SEL_MASK 0xfu
#define WRITE_DATA_DST_SEL_MEMORY 5u		/* memory through the L2 */
#define WRITE_DATA_WR_CONFIRM (1u << 20)	/* wait for the write to land */
#define WRITE_DATA_CACHE_POLICY_SHIFT 25	/* [26:25] GFX9-11; TEMPORAL on GFX12 */
#define WRITE_DATA_ENGINE_SEL_SHIFT 30		/* [31:30] */
#define WRITE_DATA_ENGINE_SEL_MASK 3u
#define WRITE_DATA_ENGINE_ME 0u
#define WRITE_DATA_BODY_DWORDS 4u		/* control, addr lo, addr hi, data */

/* RELEASE_MEM dword 1, EVENT_WRITE and EVENT_WRITE_EOP dword 1: event
 * control. */
#define RELEASE_MEM_EVENT_TYPE_MASK 0x3fu	/* [5:0] */
#define RELEASE_MEM_EVENT_INDEX_SHIFT 8		/* [11:8] */
#define RELEASE_MEM_EVENT_INDEX_MASK 0xfu
#define RELEASE_MEM_CACHE_ACTIONS_MASK 0xfffff000u	/* [31:12], layout per level */
#define EVENT_ZPASS_DONE 0x15u
#define EVENT_BOTTOM_OF_PIPE_TS 0x28u
#define EVENT_INDEX_ZPASS_DONE 1u
#define EVENT_INDEX_END_OF_PIPE 5u
/* RELEASE_MEM dword 2; EVENT_WRITE_EOP dword 3 above ADDRESS_HI[15:0]. */
#define RELEASE_MEM_DST_SEL_SHIFT 16		/* [17:16] */
#define RELEASE_MEM_DST_SEL_MASK 3u
#define RELEASE_MEM_DST_SEL_MEM 0u		/* EOP_DST_SEL_MEM: memory, not the L2 */
#define RELEASE_MEM_INT_SEL_SHIFT 24		/* [26:24] */
#define RELEASE_MEM_INT_SEL_MASK 7u
#define RELEASE_MEM_INT_SEL_AFTER_WR_CONFIRM 3u	/* send data once the write landed */
#define RELEASE_MEM_DATA_SEL_SHIFT 29		/* [31:29] */
#define RELEASE_MEM_DATA_SEL_MASK 7u
#define RELEASE_MEM_DATA_SEL_32BIT 1u		/* send the low 32 bits of data */
#define RELEASE_MEM_BODY_DWORDS 7u		/* cntl, sel, addr lo/hi, data lo/hi, ctxid */
#define RELEASE_MEM_GFX8_BODY_DWORDS 6u		/* without the last one */
#define EVENT_WRITE_EOP_BODY_DWORDS 5u		/* cntl, addr lo, addr hi|sel, data lo/hi */
#define EVENT_WRITE_EOP_ADDR_HI_MASK 0xffffu	/* 48-bit addresses */
#define EVENT_WRITE_BODY_DWORDS 3u		/* cntl, addr lo, addr hi */

/* SDMA: OP[7:0], SUB_OP[15:8], and on FENCE from SDMA 5 (GFX10) MTYPE[18:16]. */
#define SDMA_OP_MASK 0xffu
#define SDMA_SUB_OP_SHIFT 8
#define SDMA_SUB_OP_MASK 0xffu
#define SDMA_OP_WRITE 2u
#define SDMA_SUBOP_WRITE_LINEAR 0u
#define SDMA_OP_FENCE 5u
#define SDMA_FENCE_MTYPE_SHIFT 16
#define SDMA_FENCE_MTYPE_MASK 7u
#define SDMA_FENCE_MTYPE_UC 3u			/* uncached: the CPU sees it at once */
/* SDMA WRITE dword 3: the dword count, as dwords - 1 from SDMA 4 (GFX9) on,
 * as dwords on SDMA 3 (GFX8): the kernel's sdma_v4_0 writes COUNT(0) for one
 * dword, sdma_v3_0 COUNT(1). */
#define SDMA_WRITE_COUNT_MASK 0xfffffu

#endif
