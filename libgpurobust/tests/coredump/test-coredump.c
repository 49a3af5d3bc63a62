// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The devcoredump parser on real dumps of each printer generation that has
 * one (fixtures/SOURCES.md), on generated input for those that do not yet,
 * and on truncated and corrupt input (D4: older readers, unknown sections).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include <gpurobust/coredump.h>

#include "dumpgen.h"
#include "fixture.h"

static struct gpurobust_coredump *parse(const char *text, size_t len)
{
	struct gpurobust_coredump *d = NULL;

	assert_int_equal(gpurobust_coredump_parse(text, len, &d), 0);
	assert_non_null(d);
	assert_int_equal(gpurobust_coredump_decode(d, text, len), 0);
	return d;
}

static struct gpurobust_coredump *parse_fixture(const char *name)
{
	struct gpurobust_coredump *d;
	size_t len = 0;
	char *text = fixture_read(name, &len);

	assert_non_null(text);
	d = parse(text, len);
	free(text);
	return d;
}

static bool has_diag(const struct gpurobust_coredump *d, enum gpurobust_cd_severity sev,
		     const char *needle)
{
	for (size_t i = 0; i < d->n_diags; i++)
		if (d->diags[i].severity == sev && strstr(d->diags[i].message, needle))
			return true;
	return false;
}

/* Real dump of the pre-6.10 printer: header, ring, fault, VRAM lost. */
static void test_fixture_early_printer(void **state)
{
	struct gpurobust_coredump *d = parse_fixture("early-khatri-2024-03.devcoredump");

	(void)state;
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_EARLY);
	assert_int_equal(d->format_version, 1);
	assert_string_equal(d->kernel, "6.7.0-amd-staging-drm-next");
	assert_string_equal(d->module, "amdgpu");
	assert_int_equal(d->time_sec, 29);
	assert_int_equal(d->time_nsec, 725011811);
	assert_string_equal(d->process, "soft_recovery_p");
	assert_int_equal(d->pid, 1720);
	assert_int_equal(d->ip_type, 0);
	assert_string_equal(d->timeout_ring, "gfx_0.0.0");
	assert_true(d->features & GPUROBUST_CD_PAGE_FAULT);
	assert_false(d->fault_mmhub);
	assert_int_equal(d->fault_addr, 0);
	assert_int_equal(d->fault_status, 0x301031);
	assert_true(d->vram_lost);
	assert_false(d->truncated);
	assert_int_equal(d->n_diags, 0);
	gpurobust_coredump_free(d);
}

/* Real 6.17 dump (6.12 printer generation) as far as its public excerpt
 * goes: it stops inside the fault address line, so the result is partial
 * and says so. */
static void test_fixture_612_printer_truncated(void **state)
{
	struct gpurobust_coredump *d = parse_fixture("gen612-vkd3d-proton-3073.devcoredump");

	(void)state;
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_6_12);
	assert_string_equal(d->kernel, "6.17.7-ba29.fc43.x86_64");
	assert_string_equal(d->process, "ForzaHorizon5.e");
	assert_int_equal(d->pid, 10960);
	assert_string_equal(d->timeout_ring, "gfx_0.0.0");
	assert_true(d->truncated);
	assert_true(has_diag(d, GPUROBUST_CD_ERROR, "truncated"));
	assert_int_equal(d->diags[d->n_diags - 1].line, 12);
	gpurobust_coredump_free(d);
}

/* Real dump of a 6.19 kernel (SOC and HW IP version lines, a newer printer
 * than 6.12's first one), posted to amd-gfx as an excerpt that leaves out
 * the section titles and everything after the page fault block. */
static void test_fixture_619_printer_abridged(void **state)
{
	struct gpurobust_coredump *d =
		parse_fixture("gen619-amd-gfx-rx9060xt-2026-03.devcoredump");

	(void)state;
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_6_12);
	assert_int_equal(d->format_version, 1);
	assert_string_equal(d->kernel, "6.19.8-zen1-1-zen");
	assert_string_equal(d->module, "amdgpu");
	assert_int_equal(d->time_sec, 3054);
	assert_int_equal(d->time_nsec, 167340782);
	/* no process_name line: the job had no task info */
	assert_string_equal(d->process, "");
	assert_int_equal(d->pid, 0);
	assert_true(d->features & GPUROBUST_CD_SOC_INFO);
	assert_int_equal(d->pci_device_id, 30096);	/* 0x7590, Navi 44 */
	assert_int_equal(d->family, 152);		/* AMDGPU_FAMILY_GC_12_0_0 */
	assert_int_equal(d->ip_type, 2);		/* AMDGPU_HW_IP_DMA */
	assert_string_equal(d->timeout_ring, "sdma0");
	assert_true(d->features & GPUROBUST_CD_PAGE_FAULT);
	assert_false(d->fault_mmhub);
	assert_int_equal(d->fault_addr, 0);
	assert_int_equal(d->fault_status, 0);
	assert_false(d->vram_lost);
	assert_int_equal(d->n_rings, 0);
	assert_int_equal(d->n_ibs, 0);
	assert_false(d->truncated);
	assert_int_equal(d->n_diags, 0);
	gpurobust_coredump_free(d);
}

/* Generated 6.12 dump with IP dump and ring contents. */
static void test_612_rings_and_ip_dump_generated(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "6.12.117", "vkcube", 4242, "gfx_0.0.0");
	gen_ip_dump_612(&b);
	gen_rings_612(&b, 2, 16);
	tb_printf(&b, "VRAM is lost due to GPU reset!\n");
	d = parse(b.p, b.len);
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_6_12);
	assert_int_equal(d->pci_device_id, 29631);
	assert_int_equal(d->family, 143);
	assert_int_equal(d->fault_addr, 0x800100000ULL);
	assert_int_equal(d->n_ip_blocks, 2);
	assert_string_equal(d->ip_blocks[0].name, "gfx_v10_0");
	assert_non_null(strstr(d->ip_blocks[0].text, "regCP_STAT"));
	assert_string_equal(d->ip_blocks[1].name, "sdma_v5_2");
	assert_int_equal(d->n_rings, 2);
	assert_string_equal(d->rings[1].name, "comp_1.0.0");
	assert_int_equal(d->rings[1].size_dw, 16);
	assert_int_equal(d->rings[1].n_dwords, 16);
	assert_int_equal(d->rings[1].dwords[5], 1u << 16 | 5);
	assert_int_equal(d->rings[0].buf_mask, 15);
	assert_true(d->vram_lost);
	assert_int_equal(d->n_diags, 0);
	gpurobust_coredump_free(d);
	free(b.p);
}

/* Generated 7.1 dump: IP discovery, skipped VRAM check, IBs with and without
 * contents. */
static void test_ib_dump_generated(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "7.1.0", "vkcube", 4242, "gfx_0.0.0");
	gen_rings_612(&b, 1, 8);
	gen_ibs_71(&b);
	d = parse(b.p, b.len);
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_IB_DUMP);
	assert_true(d->vram_check_skipped);
	assert_false(d->vram_lost);
	assert_int_equal(d->n_ibs, 2);
	assert_int_equal(d->ibs[0].gpu_addr, 0x800200000ULL);
	assert_true(d->ibs[0].has_contents);
	assert_int_equal(d->ibs[0].n_dwords, 3);
	assert_int_equal(d->ibs[0].dwords[2], 0xffff1000u);
	assert_false(d->ibs[1].has_contents);
	assert_int_equal(d->ibs[1].size_dw, 16);
	assert_int_equal(d->n_diags, 0);
	gpurobust_coredump_free(d);
	free(b.p);
}

/* D1, D2, D3 generated: the series' sections after a 6.12 dump. */
static void test_D1_D2_D3_series_sections_generated(void **state)
{
	uint8_t capture[40];
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	for (size_t i = 0; i < sizeof(capture); i++)
		capture[i] = (uint8_t)(i * 7 + 1);
	gen_header_612(&b, "6.12.117-gpurobust", "glretrace", 12755, "gfx_0.0.0");
	gen_rings_612(&b, 1, 4);
	gen_series(&b, capture, 37);
	d = parse(b.p, b.len);
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_SERIES);
	assert_int_equal(d->reset.version, 1);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_RING);
	assert_int_equal(d->reset.outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_int_equal(d->reset.guilty_ctx, 7);
	assert_int_equal(d->reset.seqno, 9264);
	assert_string_equal(d->reset.process, "glretrace");
	assert_int_equal(d->reset.n_innocents, 2);
	assert_string_equal(d->reset.innocents[1].process, "Web Content");
	assert_int_equal(d->reset.innocents[1].pid, 4100);
	assert_int_equal(d->reset.innocents[1].ctx, 12);
	assert_int_equal(d->hang_ring.rptr, 0x240);
	assert_int_equal(d->hang_ring.n_dwords, 2);
	assert_int_equal(d->hang_ring.dwords[0], 0xc0032200u);
	assert_int_equal(d->capture_len, 37);
	assert_memory_equal(d->capture, capture, 37);
	assert_int_equal(d->n_diags, 0);
	/* the 6.12 part is still read (D4) */
	assert_int_equal(d->n_rings, 1);
	assert_int_equal(d->pid, 12755);
	gpurobust_coredump_free(d);
	free(b.p);
}

/* D4: an unknown section is kept raw and does not disturb what follows; a
 * newer version of a known section is read for its v1 keys. */
static void test_D4_unknown_and_newer_sections(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	tb_printf(&b, "**** Queue Timeline v3 ****\n");
	tb_printf(&b, "Ring buffer information\n");
	tb_printf(&b, "anything: at all\n");
	tb_printf(&b, "**** Reset v2 ****\n");
	tb_printf(&b, "type: soft_recovery\n");
	tb_printf(&b, "outcome: recovered\n");
	tb_printf(&b, "blame_reason: shader\n");
	d = parse(b.p, b.len);
	assert_int_equal(d->n_unknown, 1);
	assert_string_equal(d->unknown[0].name, "Queue Timeline");
	assert_int_equal(d->unknown[0].version, 3);
	assert_string_equal(d->unknown[0].text, "Ring buffer information\nanything: at all\n");
	/* the title inside the unknown section did not open a ring block */
	assert_int_equal(d->n_rings, 0);
	assert_int_equal(d->reset.version, 2);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_SOFT);
	assert_true(has_diag(d, GPUROBUST_CD_NOTE, "v1 keys"));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* D3: a capture cut short by the end of the input is partial and flagged. */
static void test_D3_capture_truncated(void **state)
{
	uint8_t capture[64] = { 1, 2, 3, 4, 5 };
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;
	char *cut;

	(void)state;
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_series(&b, capture, sizeof(capture));
	/* drop the last line of dwords */
	b.len--;
	cut = memrchr(b.p, '\n', b.len);
	assert_non_null(cut);
	b.len = (size_t)(cut - b.p) + 1;
	d = parse(b.p, b.len);
	assert_int_equal(d->capture_len, 32);
	assert_true(d->truncated);
	assert_true(has_diag(d, GPUROBUST_CD_ERROR, "User Capture: 32 of 64 bytes"));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* amdgpu's sizing pass counts the dwords of IBs the printing pass cannot
 * read: the dump ends in NUL bytes, which are no truncation. */
static void test_nul_padding_after_the_text(void **state)
{
	uint8_t capture[64] = { 1, 2, 3, 4, 5 };
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;
	char *padded;

	(void)state;
	gen_header_612(&b, "7.2.13", "a", 1, "gfx_0.0.0");
	gen_series(&b, capture, sizeof(capture));
	/* one IB of 16 dwords: 16 lines of "0x%08x\n" never printed */
	padded = calloc(1, b.len + 16 * 11);
	assert_non_null(padded);
	memcpy(padded, b.p, b.len);
	d = parse(padded, b.len + 16 * 11);
	assert_false(d->truncated);
	assert_int_equal(d->capture_len, sizeof(capture));
	assert_memory_equal(d->capture, capture, sizeof(capture));
	assert_true(has_diag(d, GPUROBUST_CD_NOTE, "176 NUL bytes after the text"));
	for (size_t i = 0; i < d->n_diags; i++)
		assert_int_not_equal(d->diags[i].severity, GPUROBUST_CD_ERROR);
	gpurobust_coredump_free(d);
	free(padded);
	free(b.p);
}

/* D3 v2 (generated from the layout's format strings, see gen_capture_v2()):
 * va: and error: are read, unknown keys skipped, several sections kept in
 * order, and a failed copy is a section with its errno and no bytes. */
static void test_D3_v2_capture_layout_generated(void **state)
{
	uint8_t a[64], c[32];
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	for (size_t i = 0; i < sizeof(a); i++)
		a[i] = (uint8_t)(i * 7 + 1);
	memset(c, 0xab, sizeof(c));
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_series(&b, NULL, 0);
	gen_capture_v2(&b, 0x800000100000ull, a, sizeof(a), 0, NULL);
	gen_capture_v2(&b, 0x800000200000ull, NULL, 0, -14, NULL);
	gen_capture_v2(&b, 0x800000300000ull, c, sizeof(c), 0, "flags: 0x6");
	d = parse(b.p, b.len);
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_SERIES);
	assert_int_equal(d->n_captures, 3);
	assert_true(d->captures[0].has_va);
	assert_int_equal(d->captures[0].va, 0x800000100000ull);
	assert_int_equal(d->captures[0].size, sizeof(a));
	assert_int_equal(d->captures[0].len, sizeof(a));
	assert_int_equal(d->captures[0].error, 0);
	assert_memory_equal(d->captures[0].data, a, sizeof(a));
	/* the copy that failed: its va, its errno, nothing else */
	assert_int_equal(d->captures[1].va, 0x800000200000ull);
	assert_int_equal(d->captures[1].error, -14);
	assert_int_equal(d->captures[1].size, 0);
	assert_int_equal(d->captures[1].len, 0);
	/* an unknown key is skipped, the bytes still read */
	assert_int_equal(d->captures[2].va, 0x800000300000ull);
	assert_int_equal(d->captures[2].len, sizeof(c));
	assert_memory_equal(d->captures[2].data, c, sizeof(c));
	assert_ptr_equal(d->capture, d->captures[0].data);
	assert_false(d->truncated);
	for (size_t i = 0; i < d->n_diags; i++)
		assert_int_not_equal(d->diags[i].severity, GPUROBUST_CD_ERROR);
	assert_false(has_diag(d, GPUROBUST_CD_WARNING, "User Capture"));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* The v1 layout (size: and dwords only) reads as before: no va, no error. */
static void test_D3_v1_capture_layout_still_read(void **state)
{
	uint8_t a[40] = { 9, 8, 7 };
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_series(&b, a, sizeof(a));
	d = parse(b.p, b.len);
	assert_int_equal(d->n_captures, 1);
	assert_false(d->captures[0].has_va);
	assert_int_equal(d->captures[0].error, 0);
	assert_int_equal(d->captures[0].len, sizeof(a));
	assert_memory_equal(d->captures[0].data, a, sizeof(a));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* Bad D3 v2 values are diagnosed, never fatal: a positive or unreadable
 * error, an unreadable va, a size above the 64 KiB cap, a second size. */
static void test_D3_v2_capture_bad_values(void **state)
{
	static const struct {
		const char *text, *diag;
	} cases[] = {
		{ "va: 0x1000\nsize: 4\nerror: 14\n", "bad error" },
		{ "va: 0x1000\nsize: 0\nerror: -x\n", "bad error" },
		{ "va: nowhere\nsize: 4\n00000001\n", "bad va" },
		{ "va: 0x1000\nsize: 65540\n", "bad size" },
		{ "size: 4\n00000001\nsize: 4\n", "second size" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct textbuf b = { 0 };
		struct gpurobust_coredump *d;

		gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
		tb_printf(&b, "**** User Capture v1 ****\n%s", cases[i].text);
		d = parse(b.p, b.len);
		assert_true(has_diag(d, GPUROBUST_CD_WARNING, cases[i].diag));
		assert_int_equal(d->captures[0].error, 0);
		gpurobust_coredump_free(d);
		free(b.p);
	}
}

/* D2 on upstream 7.1 (generated from the printer's source, commit
 * eea85914d15b "save ring content before resetting the device": the same
 * ring block, printed from a copy taken when the job timed out, of the
 * rings with unsignalled fences and the timed-out one). Before 7.1 the
 * block is read after the reset: no hang-time ring. */
static void test_D2_71_rings_at_hang_generated(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;
	const struct gpurobust_cd_ring *hung;

	(void)state;
	gen_header_612(&b, "7.1.0", "a", 1, "gfx_0.0.0");
	gen_rings_612(&b, 2, 8);
	gen_ibs_71(&b);
	d = parse(b.p, b.len);
	assert_true(d->rings_at_hang);
	hung = gpurobust_coredump_hung_ring(d);
	assert_non_null(hung);
	assert_string_equal(hung->name, d->timeout_ring);
	assert_int_equal(hung->size_dw, 8);
	gpurobust_coredump_free(d);
	free(b.p);

	/* 6.12's printer: the same block, read after the reset */
	b = (struct textbuf){ 0 };
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_rings_612(&b, 2, 8);
	d = parse(b.p, b.len);
	assert_false(d->rings_at_hang);
	assert_null(gpurobust_coredump_hung_ring(d));
	gpurobust_coredump_free(d);
	free(b.p);

	/* the series' Hang Ring v1 is the hang's ring whatever the kernel */
	b = (struct textbuf){ 0 };
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_series(&b, NULL, 0);
	d = parse(b.p, b.len);
	assert_ptr_equal(gpurobust_coredump_hung_ring(d), &d->hang_ring);
	gpurobust_coredump_free(d);
	free(b.p);
	assert_null(gpurobust_coredump_hung_ring(NULL));
}

/* A ring that is not there: 7.1's printer only has a copy of some rings,
 * and none when its allocation failed. */
static void test_D2_71_no_copy_of_timed_out_ring(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "7.1.0", "a", 1, "comp_1.0.0");
	gen_rings_612(&b, 1, 8);
	d = parse(b.p, b.len);
	assert_true(d->rings_at_hang);
	assert_null(gpurobust_coredump_hung_ring(d));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* D2 v2 (generated from the series printer's documented layout, see
 * gen_hang_ring_v2()): every ring copied at hang time, each a 7.1 ring
 * block, decoded; the timed-out one is the hung ring; the read-time 6.12
 * ring block next to it stays what it is. */
static void test_D2_hang_ring_v2_generated(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;
	const struct gpurobust_cd_ring *hung;

	(void)state;
	gen_header_612(&b, "6.12.117+", "a", 1, "comp_1.0.0");
	gen_rings_612(&b, 2, 8);
	tb_printf(&b, "\n**** Reset v1 ****\ntype: ring_reset\noutcome: recovered\n"
		  "ring: comp_1.0.0\nvram_lost: 0\n");
	gen_hang_ring_v2(&b, 2, 16);
	d = parse(b.p, b.len);
	assert_int_equal(gpurobust_coredump_decode(d, b.p, b.len), 0);
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_SERIES);
	assert_true(d->features & GPUROBUST_CD_SERIES_HANG_RING_V2);
	assert_false(d->features & GPUROBUST_CD_SERIES_HANG_RING);
	assert_int_equal(d->n_rings, 2);
	assert_int_equal(d->n_hang_rings, 2);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(d->hang_rings[i].size_dw, 16);
		assert_int_equal(d->hang_rings[i].n_dwords, 16);
		assert_int_equal(d->hang_rings[i].rptr, 0x10 + i);
		assert_int_equal(d->hang_rings[i].wptr, 0x20 + i);
		assert_int_equal(d->hang_rings[i].buf_mask, 15);
		for (uint32_t j = 0; j < 16; j++)
			assert_int_equal(d->hang_rings[i].dwords[j], 0xa0000000u | i << 16 | j);
	}
	/* the read-time ring block is the 6.12 one, not the hang's */
	assert_int_equal(d->rings[1].n_dwords, 8);
	hung = gpurobust_coredump_hung_ring(d);
	assert_ptr_equal(hung, &d->hang_rings[1]);
	assert_string_equal(hung->name, "comp_1.0.0");
	assert_true(d->reset.has_vram_lost);
	assert_false(d->vram_lost);
	for (size_t i = 0; i < d->n_diags; i++)
		assert_int_equal(d->diags[i].severity, GPUROBUST_CD_NOTE);
	gpurobust_coredump_free(d);
	free(b.p);
}

/* Reset v1's additions: type none (no recovery attempted), vram_lost as the
 * final answer even when the 6.12 part skipped its check. */
static void test_D1_reset_none_and_vram_lost(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "6.12.117+", "a", 1, "gfx_0.0.0");
	tb_printf(&b, "VRAM lost check is skipped!\n");
	tb_printf(&b, "\n**** Reset v1 ****\ntype: none\noutcome: failed\nvram_lost: 1\n");
	d = parse(b.p, b.len);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_NONE);
	assert_string_equal(gpurobust_recovery_type_name(d->reset.type), "none");
	assert_int_equal(d->reset.outcome, GPUROBUST_OUTCOME_FAILED);
	assert_true(d->reset.has_vram_lost);
	assert_true(d->vram_lost);
	assert_false(has_diag(d, GPUROBUST_CD_WARNING, "Reset"));
	gpurobust_coredump_free(d);
	free(b.p);
	/* a value that is neither is diagnosed and changes nothing */
	b = (struct textbuf){ 0 };
	gen_header_612(&b, "6.12.117+", "a", 1, "gfx_0.0.0");
	tb_printf(&b, "\n**** Reset v1 ****\nvram_lost: yes\n");
	d = parse(b.p, b.len);
	assert_false(d->reset.has_vram_lost);
	assert_true(has_diag(d, GPUROBUST_CD_WARNING, "Reset: bad value for vram_lost"));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* A ring cut in the middle: partial dwords, an error naming the ring. */
static void test_ring_truncated_partial(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_rings_612(&b, 1, 64);
	d = parse(b.p, b.len / 2 + 40);
	assert_int_equal(d->n_rings, 1);
	assert_true(d->rings[0].n_dwords > 0 && d->rings[0].n_dwords < 64);
	assert_true(d->truncated);
	assert_true(has_diag(d, GPUROBUST_CD_ERROR, "gfx_0.0.0:"));
	gpurobust_coredump_free(d);
	free(b.p);
}

/* Rings far larger than the 1 KiB chunks the parser counts newlines in:
 * the blocks end exactly on the right line, complete or cut anywhere. */
static void test_large_rings_located_exactly(void **state)
{
	struct textbuf b = { 0 };
	struct gpurobust_coredump *d;

	(void)state;
	gen_header_612(&b, "6.12.117", "a", 1, "gfx_0.0.0");
	gen_rings_612(&b, 3, 4096);
	tb_printf(&b, "VRAM is lost due to GPU reset!\n");
	d = parse(b.p, b.len);
	assert_int_equal(d->n_rings, 3);
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(d->rings[i].n_dwords, 4096);
		assert_int_equal(d->rings[i].dwords[4095], (uint32_t)(i << 16 | 4095));
	}
	assert_true(d->vram_lost);
	assert_int_equal(d->n_diags, 0);
	gpurobust_coredump_free(d);
	for (size_t cut = 1000; cut < b.len; cut += 4093) {
		size_t total = 0;

		d = parse(b.p, cut);
		assert_true(d->truncated);
		for (size_t i = 0; i < d->n_rings; i++) {
			for (size_t j = 0; j < d->rings[i].n_dwords; j++)
				assert_int_equal(d->rings[i].dwords[j], (uint32_t)(i << 16 | j));
			total += d->rings[i].n_dwords;
		}
		/* every complete dword line before the cut, at most one less */
		assert_true(total <= 3 * 4096);
		assert_false(d->vram_lost);
		gpurobust_coredump_free(d);
	}
	free(b.p);
}

/* Every prefix of a dump with every section kind parses without a crash,
 * and is never reported as complete when cut inside a block. */
static void test_D4_every_prefix(void **state)
{
	uint8_t capture[16] = { 9 };
	struct textbuf b = { 0 };

	(void)state;
	gen_header_612(&b, "7.1.0", "a b", 1, "gfx_0.0.0");
	gen_ip_dump_612(&b);
	gen_rings_612(&b, 1, 4);
	gen_ibs_71(&b);
	gen_series(&b, capture, sizeof(capture));
	for (size_t n = 0; n <= b.len; n++) {
		struct gpurobust_coredump *d = parse(b.p, n);

		if (n && b.p[n - 1] != '\n')
			assert_true(d->truncated);
		gpurobust_coredump_free(d);
	}
	free(b.p);
}

/* Not a devcoredump at all: a result, generation UNKNOWN, an error. */
static void test_garbage_is_diagnosed(void **state)
{
	static const char junk[] = "\x01\x02hello\n\xff\xfe\n****\n**** v ****\nIB #x\n";
	struct gpurobust_coredump *d = parse(junk, sizeof(junk) - 1);

	(void)state;
	assert_int_equal(d->generation, GPUROBUST_CD_GEN_UNKNOWN);
	assert_true(has_diag(d, GPUROBUST_CD_ERROR, "no \"**** AMDGPU Device Coredump ****\""));
	gpurobust_coredump_free(d);
}

static void test_bad_arguments(void **state)
{
	struct gpurobust_coredump *d;

	(void)state;
	assert_int_equal(gpurobust_coredump_parse(NULL, 1, &d), -EINVAL);
	assert_int_equal(gpurobust_coredump_parse("x", 1, NULL), -EINVAL);
	gpurobust_coredump_free(NULL);
	assert_string_equal(gpurobust_cd_generation_name(99), "invalid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_early_printer),
		cmocka_unit_test(test_fixture_612_printer_truncated),
		cmocka_unit_test(test_fixture_619_printer_abridged),
		cmocka_unit_test(test_612_rings_and_ip_dump_generated),
		cmocka_unit_test(test_ib_dump_generated),
		cmocka_unit_test(test_D1_D2_D3_series_sections_generated),
		cmocka_unit_test(test_D4_unknown_and_newer_sections),
		cmocka_unit_test(test_D3_capture_truncated),
		cmocka_unit_test(test_D3_v2_capture_layout_generated),
		cmocka_unit_test(test_D3_v1_capture_layout_still_read),
		cmocka_unit_test(test_D3_v2_capture_bad_values),
		cmocka_unit_test(test_D2_71_rings_at_hang_generated),
		cmocka_unit_test(test_D2_71_no_copy_of_timed_out_ring),
		cmocka_unit_test(test_D2_hang_ring_v2_generated),
		cmocka_unit_test(test_D1_reset_none_and_vram_lost),
		cmocka_unit_test(test_ring_truncated_partial),
		cmocka_unit_test(test_large_rings_located_exactly),
		cmocka_unit_test(test_D4_every_prefix),
		cmocka_unit_test(test_garbage_is_diagnosed),
		cmocka_unit_test(test_nul_padding_after_the_text),
		cmocka_unit_test(test_bad_arguments),
	};

	return cmocka_run_group_tests_name("coredump", tests, NULL, NULL);
}
