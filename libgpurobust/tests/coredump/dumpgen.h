/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/*
 * Structurally generated devcoredump text, for the printer generations that
 * have no public fixture yet (fixtures/SOURCES.md). Every line uses the
 * format string of the printer it stands for: amdgpu_dev_coredump.c of 6.12
 * for rings and IP dumps, of 7.1 for IB dumps, and Documentation/uapi.md for
 * the series' sections. Tests that use it say so in their names ("generated").
 */
#ifndef GPUROBUST_TESTS_COREDUMP_DUMPGEN_H
#define GPUROBUST_TESTS_COREDUMP_DUMPGEN_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct textbuf {
	char *p;
	size_t len, cap;
};

static inline void __attribute__((format(printf, 2, 3)))
tb_printf(struct textbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p)
			abort();
	}
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* Header, SOC block, ring timeout and page fault as the 6.12 printer writes
 * them (firmware and IP version lists left out: the parser skips them). */
static inline void gen_header_612(struct textbuf *b, const char *kernel, const char *process,
				  int pid, const char *ring)
{
	tb_printf(b, "**** AMDGPU Device Coredump ****\n");
	tb_printf(b, "version: 1\n");
	tb_printf(b, "kernel: %s\n", kernel);
	tb_printf(b, "module: amdgpu\n");
	tb_printf(b, "time: %lld.%09ld\n", 1234LL, 5678L);
	tb_printf(b, "process_name: %s PID: %d\n", process, pid);
	tb_printf(b, "\nSOC Information\n");
	tb_printf(b, "SOC Device id: %d\n", 29631);
	tb_printf(b, "SOC PCI Revision id: %d\n", 193);
	tb_printf(b, "SOC Family: %d\n", 143);
	tb_printf(b, "SOC Revision id: %d\n", 0);
	tb_printf(b, "SOC External Revision id: %d\n", 40);
	tb_printf(b, "\nSOC Memory Information\n");
	tb_printf(b, "real vram size: %llu\n", 17163091968ULL);
	tb_printf(b, "\nIP Firmwares\n");
	tb_printf(b, "ME feature version: %u, fw version: 0x%08x\n", 38u, 0x73u);
	tb_printf(b, "\nVBIOS Information\n");
	tb_printf(b, "vbios name       : %s\n", "NAVI21");
	tb_printf(b, "\nRing timed out details\n");
	tb_printf(b, "IP Type: %d Ring Name: %s\n", 0, ring);
	tb_printf(b, "\n[%s] Page fault observed\n", "gfxhub");
	tb_printf(b, "Faulty page starting at address: 0x%016llx\n", 0x800100000ULL);
	tb_printf(b, "Protection fault status register: 0x%x\n\n", 0x40b31u);
}

static inline void gen_ip_dump_612(struct textbuf *b)
{
	tb_printf(b, "IP Dump\n");
	tb_printf(b, "IP: %s\n", "gfx_v10_0");
	tb_printf(b, "%-50s \t 0x%08x\n", "regGRBM_STATUS", 0xa0003028u);
	tb_printf(b, "%-50s \t 0x%08x\n", "regCP_STAT", 0x84228000u);
	tb_printf(b, "\n");
	tb_printf(b, "IP: %s\n", "sdma_v5_2");
	tb_printf(b, "Instance:%d\n", 0);
	tb_printf(b, "%-50s \t 0x%08x\n", "regSDMA0_STATUS_REG", 0x46dee557u);
	tb_printf(b, "\n");
}

/* "Ring buffer information" with @n rings of @size_dw dwords; ring i dword j
 * holds (i << 16) | j. */
static inline void gen_rings_612(struct textbuf *b, int n, int size_dw)
{
	tb_printf(b, "Ring buffer information\n");
	for (int i = 0; i < n; i++) {
		tb_printf(b, "ring name: %s\n", i ? "comp_1.0.0" : "gfx_0.0.0");
		tb_printf(b, "Rptr: 0x%llx Wptr: 0x%llx RB mask: %x\n", 0x10ULL, 0x20ULL,
			  size_dw - 1);
		tb_printf(b, "Ring size in dwords: %d\n", size_dw);
		tb_printf(b, "Ring contents\n");
		tb_printf(b, "Offset \t Value\n");
		for (int j = 0; j < size_dw * 4; j += 4)
			tb_printf(b, "0x%x \t 0x%x\n", j, (unsigned int)(i << 16 | j / 4));
	}
}

/* The 7.1 IB dump: IB 0 with contents, IB 1 whose memory was unreachable. */
static inline void gen_ibs_71(struct textbuf *b)
{
	tb_printf(b, "\nHW IP Discovery\n");
	tb_printf(b, "die %d\n", 0);
	tb_printf(b, "hw_id %d %s\n", 11, "GC");
	tb_printf(b, "\tinstance %d\n", 0);
	tb_printf(b, "\tmajor %d\n", 10);
	tb_printf(b, "VRAM lost check is skipped!\n");
	tb_printf(b, "\nIB #%d 0x%llx %d dw\n", 0, 0x800200000ULL, 3);
	tb_printf(b, "0x%08x\n", 0xc0032200u);
	tb_printf(b, "0x%08x\n", 0x00000000u);
	tb_printf(b, "0x%08x\n", 0xffff1000u);
	tb_printf(b, "\nIB #%d 0x%llx %d dw\n", 1, 0x800300000ULL, 16);
}

/* A "User Capture v1" section in its first layout, as the series' v1
 * printer wrote it (kernel/fixtures/series-d4-full-reset.devcoredump of
 * main at bbb5ad8): size: and 8 dwords a line, no va:. */
static inline void gen_capture(struct textbuf *b, const uint8_t *capture, size_t capture_len)
{
	tb_printf(b, "**** User Capture v1 ****\n");
	tb_printf(b, "size: %zu\n", capture_len);
	for (size_t i = 0; i < capture_len; i += 4) {
		uint32_t dw = 0;

		for (size_t k = 0; k < 4 && i + k < capture_len; k++)
			dw |= (uint32_t)capture[i + k] << (8 * k);
		tb_printf(b, "%08x%s", dw, (i / 4) % 8 == 7 || i + 4 >= capture_len ? "\n" : " ");
	}
}

/* A "User Capture v1" section in D3 v2's layout, built from the printer's
 * format strings of Documentation/uapi.md ("va: 0x%016llx", "size: %u",
 * "error: %d", 8 dwords a line): no kernel has printed one yet. @error not
 * 0 prints a failed copy (size 0, no dwords); @extra_key adds a key a later
 * layout might, before the size. */
static inline void gen_capture_v2(struct textbuf *b, uint64_t va, const uint8_t *capture,
				  size_t capture_len, int error, const char *extra_key)
{
	tb_printf(b, "**** User Capture v1 ****\n");
	tb_printf(b, "va: 0x%016llx\n", (unsigned long long)va);
	if (extra_key)
		tb_printf(b, "%s\n", extra_key);
	tb_printf(b, "size: %u\n", error ? 0u : (unsigned int)capture_len);
	if (error) {
		tb_printf(b, "error: %d\n", error);
		return;
	}
	for (size_t i = 0; i < capture_len; i += 4) {
		uint32_t dw = 0;

		for (size_t k = 0; k < 4 && i + k < capture_len; k++)
			dw |= (uint32_t)capture[i + k] << (8 * k);
		tb_printf(b, "%08x%s", dw, (i / 4) % 8 == 7 || i + 4 >= capture_len ? "\n" : " ");
	}
}

/* The series' "**** Hang Ring v2 ****" (D2), built from the layout the
 * series' printer is documented to write (Documentation/uapi.md): one 7.1
 * ring block per ring copied at hang time, ring i dword j =
 * 0xa0000000 | i << 16 | j. */
static inline void gen_hang_ring_v2(struct textbuf *b, int n, int size_dw)
{
	tb_printf(b, "\n**** Hang Ring v2 ****\n");
	for (int i = 0; i < n; i++) {
		tb_printf(b, "ring name: %s\n", i ? "comp_1.0.0" : "gfx_0.0.0");
		tb_printf(b, "Rptr: 0x%llx Wptr: 0x%llx RB mask: %x\n", 0x10ULL + (unsigned)i,
			  0x20ULL + (unsigned)i, (unsigned int)size_dw - 1);
		tb_printf(b, "Ring size in dwords: %d\n", size_dw);
		tb_printf(b, "Ring contents\n");
		tb_printf(b, "Offset \t Value\n");
		for (int j = 0; j < size_dw * 4; j += 4)
			tb_printf(b, "0x%x \t 0x%x\n", j, 0xa0000000u | (unsigned int)(i << 16 | j / 4));
	}
}

/* The series' sections, per Documentation/uapi.md. */
static inline void gen_series(struct textbuf *b, const uint8_t *capture, size_t capture_len)
{
	tb_printf(b, "**** Reset v1 ****\n");
	tb_printf(b, "type: ring_reset\n");
	tb_printf(b, "outcome: recovered\n");
	tb_printf(b, "ring: gfx_0.0.0\n");
	tb_printf(b, "guilty_ctx: 7\n");
	tb_printf(b, "seqno: 9264\n");
	tb_printf(b, "process: glretrace\n");
	tb_printf(b, "pid: 12755\n");
	tb_printf(b, "innocent_ctx: 3 gnome-shell 2743\n");
	tb_printf(b, "innocent_ctx: 12 Web Content 4100\n");
	tb_printf(b, "**** Hang Ring v1 ****\n");
	tb_printf(b, "ring: gfx_0.0.0\n");
	tb_printf(b, "rptr: 0x%llx\n", 0x240ULL);
	tb_printf(b, "wptr: 0x%llx\n", 0x260ULL);
	tb_printf(b, "size: %u\n", 2u);
	tb_printf(b, "0x%x \t 0x%x\n", 0, 0xc0032200u);
	tb_printf(b, "0x%x \t 0x%x\n", 4, 0x1u);
	if (capture)
		gen_capture(b, capture, capture_len);
}

#endif
