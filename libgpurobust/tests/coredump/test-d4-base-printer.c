// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * D4 against the unpatched printer, on the library's side: the 6.12-format
 * parser gives the same answers on the series' dump as on the bare base's.
 *
 * kernel/fixtures/base-6.12.117-full-reset.devcoredump is what the bare
 * 6.12.117 printer wrote for the full reset of the KUnit test
 * D4_old_text_unchanged; kernel/fixtures/series-d4-full-reset.devcoredump is
 * what the series' printer wrote for D4_fixture: the same hang, but on a fake
 * device with memory (so its "gtt size:" line differs) and with a dumpable
 * mapping, then the series' sections (kernel/fixtures/README.md). The kernel
 * tier's coredump-d4-base-prefix check proves that the dump the series prints
 * for D4_old_text_unchanged is the base file's bytes followed by a new
 * section; no file holds that dump, so the second test builds it from the
 * two printers' bytes: the base's text, then the series' sections.
 *
 * Every 6.12 answer of struct gpurobust_coredump is compared: the header
 * (format version, kernel, module, time, process, pid), the SOC block, the
 * timed-out ring, the fault block, VRAM lost, the IP dump, every ring
 * (pointers, mask, size, contents, dwords), the IBs, the flags and the
 * diagnostics.
 *
 * usage: test-d4-base-printer [BASE SERIES]: other files than the fixtures,
 * to show that the comparison fails when they differ. A file that cannot be
 * read fails the test: it is never skipped.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpurobust/coredump.h>

#include "dumpgen.h"
#include "fixture.h"

static const char *base_path = KERNEL_FIXTURE_DIR "/base-6.12.117-full-reset.devcoredump";
static const char *series_path = KERNEL_FIXTURE_DIR "/series-d4-full-reset.devcoredump";

/* The IB packet header of the KUnit tests' fake command processor
 * (AMDGPU_FAKE_PKT_IB in drivers/gpu/drm/amd/amdgpu/tests/amdgpu_fake.c),
 * the first dword of the hung ring. */
#define FAKE_PKT_IB 0xfa4e0001

/* The sections the series appends to the 6.12 text. */
#define SERIES_FEATURES (GPUROBUST_CD_SERIES_RESET | GPUROBUST_CD_SERIES_HANG_RING | \
			 GPUROBUST_CD_SERIES_HANG_RING_V2 | GPUROBUST_CD_SERIES_CAPTURE)

struct dump {
	char *text;
	size_t len;
	struct gpurobust_coredump *d;
};

static void parse(struct dump *p, char *text, size_t len)
{
	p->text = text;
	p->len = len;
	assert_int_equal(gpurobust_coredump_parse(text, len, &p->d), 0);
	assert_int_equal(gpurobust_coredump_decode(p->d, text, len), 0);
}

static void load(struct dump *p, const char *path)
{
	size_t len = 0;
	char *text = fixture_read_path(path, &len);

	if (!text)
		fail_msg("cannot read %s", path);
	parse(p, text, len);
}

static void drop(struct dump *p)
{
	gpurobust_coredump_free(p->d);
	free(p->text);
}

/* Where the series' first section starts: the "\n" of the blank line after
 * the 6.12 text, which ends with its VRAM line. */
static size_t end_of_612(const char *text)
{
	const char *sec = strstr(text, "\n**** ");

	assert_non_null(sec);
	return (size_t)(sec - text);
}

static void assert_same_block(const char *ta, size_t off_a, size_t len_a, const char *tb,
			      size_t off_b, size_t len_b)
{
	assert_int_equal(len_a, len_b);
	assert_memory_equal(ta + off_a, tb + off_b, len_a);
}

/* The same decoded dwords, and the same text they were decoded from. */
static void assert_same_contents(const char *ta, size_t off_a, size_t len_a, const uint32_t *da,
				 size_t na, const char *tb, size_t off_b, size_t len_b,
				 const uint32_t *db, size_t nb)
{
	assert_same_block(ta, off_a, len_a, tb, off_b, len_b);
	assert_int_equal(na, nb);
	if (na)
		assert_memory_equal(da, db, na * sizeof(uint32_t));
}

static void assert_same_ring(const struct dump *a, const struct gpurobust_cd_ring *ra,
			     const struct dump *b, const struct gpurobust_cd_ring *rb,
			     bool same_offsets)
{
	assert_string_equal(ra->name, rb->name);
	assert_int_equal(ra->rptr, rb->rptr);
	assert_int_equal(ra->wptr, rb->wptr);
	assert_int_equal(ra->buf_mask, rb->buf_mask);
	assert_int_equal(ra->size_dw, rb->size_dw);
	assert_same_contents(a->text, ra->contents_offset, ra->contents_len, ra->dwords,
			     ra->n_dwords, b->text, rb->contents_offset, rb->contents_len,
			     rb->dwords, rb->n_dwords);
	if (same_offsets)
		assert_int_equal(ra->contents_offset, rb->contents_offset);
}

/* Every answer of the 6.12 format is the same in @a and @b. @same_offsets:
 * the two 6.12 texts have the same bytes, so the blocks are at the same
 * offsets too. */
static void assert_same_612(const struct dump *a, const struct dump *b, bool same_offsets)
{
	const struct gpurobust_coredump *x = a->d, *y = b->d;

	assert_int_equal(x->features & ~SERIES_FEATURES, y->features & ~SERIES_FEATURES);
	/* header */
	assert_int_equal(x->format_version, y->format_version);
	assert_string_equal(x->kernel, y->kernel);
	assert_string_equal(x->module, y->module);
	assert_int_equal(x->time_sec, y->time_sec);
	assert_int_equal(x->time_nsec, y->time_nsec);
	assert_string_equal(x->process, y->process);
	assert_int_equal(x->pid, y->pid);
	/* SOC information */
	assert_int_equal(x->pci_device_id, y->pci_device_id);
	assert_int_equal(x->pci_revision, y->pci_revision);
	assert_int_equal(x->family, y->family);
	/* ring timed out details */
	assert_int_equal(x->ip_type, y->ip_type);
	assert_string_equal(x->timeout_ring, y->timeout_ring);
	/* the fault block */
	assert_int_equal(x->fault_seen, y->fault_seen);
	assert_int_equal(x->fault_mmhub, y->fault_mmhub);
	assert_int_equal(x->fault_addr, y->fault_addr);
	assert_int_equal(x->fault_status, y->fault_status);
	assert_string_equal(x->fault_client, y->fault_client);
	/* VRAM lost: the series' Reset v1 vram_lost may set it; here both say 0 */
	assert_int_equal(x->vram_lost, y->vram_lost);
	assert_int_equal(x->vram_check_skipped, y->vram_check_skipped);
	/* the IP dump */
	assert_int_equal(x->n_ip_blocks, y->n_ip_blocks);
	for (size_t i = 0; i < x->n_ip_blocks; i++) {
		assert_string_equal(x->ip_blocks[i].name, y->ip_blocks[i].name);
		assert_int_equal(x->ip_blocks[i].version, y->ip_blocks[i].version);
		assert_same_block(x->ip_blocks[i].text, 0, x->ip_blocks[i].len,
				  y->ip_blocks[i].text, 0, y->ip_blocks[i].len);
	}
	/* ring buffer information, as read when the dump was read */
	assert_int_equal(x->rings_at_hang, y->rings_at_hang);
	assert_int_equal(x->n_rings, y->n_rings);
	for (size_t i = 0; i < x->n_rings; i++)
		assert_same_ring(a, &x->rings[i], b, &y->rings[i], same_offsets);
	/* IB contents (7.1+: none in a 6.12 dump, on either side) */
	assert_int_equal(x->n_ibs, y->n_ibs);
	for (size_t i = 0; i < x->n_ibs; i++) {
		const struct gpurobust_cd_ib *ia = &x->ibs[i], *ib = &y->ibs[i];

		assert_int_equal(ia->gpu_addr, ib->gpu_addr);
		assert_int_equal(ia->size_dw, ib->size_dw);
		assert_int_equal(ia->has_contents, ib->has_contents);
		assert_same_contents(a->text, ia->contents_offset, ia->contents_len,
				     ia->dwords, ia->n_dwords, b->text, ib->contents_offset,
				     ib->contents_len, ib->dwords, ib->n_dwords);
	}
	/* how the text read: whole, with nothing to say about it */
	assert_int_equal(x->partial, y->partial);
	assert_int_equal(x->truncated, y->truncated);
	assert_int_equal(x->n_diags, y->n_diags);
	for (size_t i = 0; i < x->n_diags; i++) {
		assert_int_equal(x->diags[i].severity, y->diags[i].severity);
		assert_int_equal(x->diags[i].line, y->diags[i].line);
		assert_string_equal(x->diags[i].message, y->diags[i].message);
	}
}

/* What the base's printer wrote: the 6.12 text, all of it read, and none of
 * the series' sections. */
static void assert_base_dump(const struct dump *p)
{
	const struct gpurobust_coredump *d = p->d;

	assert_int_equal(d->generation, GPUROBUST_CD_GEN_6_12);
	assert_int_equal(d->features & SERIES_FEATURES, 0);
	assert_null(strstr(p->text, "\n**** "));
	assert_int_equal(d->n_unknown, 0);
	assert_int_equal(d->reset.version, 0);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_UNKNOWN);
	assert_false(d->reset.has_vram_lost);
	assert_int_equal(d->reset.n_innocents, 0);
	assert_int_equal(d->hang_ring.name[0], '\0');
	assert_int_equal(d->n_hang_rings, 0);
	assert_int_equal(d->n_captures, 0);
	assert_null(d->capture);
	/* 6.12 reads the rings after the reset: no hang-time ring */
	assert_null(gpurobust_coredump_hung_ring(d));
	/* the hang of kernel/fixtures/README.md, so that the comparison is not
	 * of two empty results */
	assert_false(d->partial);
	assert_false(d->truncated);
	assert_int_equal(d->n_diags, 0);
	assert_int_equal(d->features & ~SERIES_FEATURES,
			 GPUROBUST_CD_HEADER | GPUROBUST_CD_SOC_INFO | GPUROBUST_CD_FIRMWARE |
				 GPUROBUST_CD_RING_TIMEOUT | GPUROBUST_CD_PAGE_FAULT |
				 GPUROBUST_CD_IP_DUMP | GPUROBUST_CD_RINGS);
	assert_string_equal(d->kernel, "6.12.117+");
	assert_string_equal(d->process, "vkcube");
	assert_int_equal(d->pid, 4101);
	assert_string_equal(d->timeout_ring, "fake_gfx");
	assert_true(d->vram_check_skipped);
	assert_int_equal(d->n_rings, 3);
	assert_int_equal(d->rings[0].n_dwords, d->rings[0].size_dw);
	/* the fake's IB packet; the reset moved the read pointer past it */
	assert_int_equal(d->rings[0].dwords[0], FAKE_PKT_IB);
	assert_int_equal(d->rings[0].rptr, 0x8);
}

/* The series' sections, each read: D1's reset, D2's hang-time rings, and
 * (@capture) D3's capture. */
static void assert_series_sections(const struct dump *p, bool capture)
{
	const struct gpurobust_coredump *d = p->d;
	const struct gpurobust_cd_ring *hung;

	assert_int_equal(d->generation, GPUROBUST_CD_GEN_SERIES);
	assert_true(d->features & GPUROBUST_CD_SERIES_RESET);
	assert_true(d->features & GPUROBUST_CD_SERIES_HANG_RING_V2);
	assert_int_equal(!!(d->features & GPUROBUST_CD_SERIES_CAPTURE), capture);
	assert_int_equal(d->n_unknown, 0);
	assert_int_equal(d->reset.type, GPUROBUST_RECOVERY_FULL);
	assert_int_equal(d->reset.outcome, GPUROBUST_OUTCOME_RECOVERED);
	assert_true(d->reset.has_vram_lost);
	assert_true(d->n_hang_rings > 0);
	hung = gpurobust_coredump_hung_ring(d);
	assert_non_null(hung);
	/* the hang-time copy, not the 6.12 block's ring as read afterwards:
	 * the command processor had read the IB packet and hung in the IB */
	assert_int_equal(hung->dwords[0], FAKE_PKT_IB);
	assert_int_equal(hung->rptr, 0x4);
	assert_int_equal(d->n_captures > 0, capture);
}

/* D4, the committed files: the series' dump (D4_fixture) and the base's
 * (D4_old_text_unchanged) are of the same hang, and their 6.12 texts differ
 * in the gtt size line only, which no answer of the parser holds. Every 6.12
 * answer is the same; the base dump has none of the series' sections and
 * the series' has all of them. */
static void test_D4_same_answers_base_and_series(void **state)
{
	struct dump base, series;
	const char *la, *lb;
	size_t diff = 0;

	(void)state;
	load(&base, base_path);
	load(&series, series_path);
	assert_same_612(&base, &series, false);
	assert_base_dump(&base);
	assert_series_sections(&series, true);
	/* the same hang: line by line up to the base's end, only the gtt size
	 * differs, and the series' sections start right there */
	for (la = base.text, lb = series.text; *la && *lb;) {
		size_t na = strcspn(la, "\n"), nb = strcspn(lb, "\n");

		if (na != nb || memcmp(la, lb, na)) {
			assert_true(!strncmp(la, "gtt size: ", 10) && !strncmp(lb, "gtt size: ", 10));
			diff++;
		}
		la += na + (la[na] == '\n');
		lb += nb + (lb[nb] == '\n');
	}
	assert_int_equal(*la, '\0');
	assert_true(diff <= 1);
	assert_int_equal(lb - series.text, end_of_612(series.text));
	drop(&base);
	drop(&series);
}

/* D4, the same hang on both printers: what the series prints for
 * D4_old_text_unchanged is the base file's bytes, then the series' sections
 * (the kernel tier's coredump-d4-base-prefix check). Built from the base
 * file and the series file's sections, its 6.12 answers are the base's to
 * the byte offset, and its sections read as they do in the series' file. */
static void test_D4_same_answers_base_and_old_text_with_series_sections(void **state)
{
	struct dump base, series, joined;
	struct textbuf b = { 0 };
	size_t cut;

	(void)state;
	load(&base, base_path);
	load(&series, series_path);
	cut = end_of_612(series.text);
	tb_printf(&b, "%s%s", base.text, series.text + cut);
	parse(&joined, b.p, b.len);

	assert_base_dump(&base);
	assert_series_sections(&joined, true);
	assert_same_612(&base, &joined, true);
	/* the sections' answers do not depend on which printer's 6.12 text is
	 * in front of them */
	assert_int_equal(joined.d->reset.type, series.d->reset.type);
	assert_int_equal(joined.d->reset.outcome, series.d->reset.outcome);
	assert_string_equal(joined.d->reset.ring, series.d->reset.ring);
	assert_int_equal(joined.d->reset.guilty_ctx, series.d->reset.guilty_ctx);
	assert_int_equal(joined.d->reset.seqno, series.d->reset.seqno);
	assert_string_equal(joined.d->reset.process, series.d->reset.process);
	assert_int_equal(joined.d->reset.pid, series.d->reset.pid);
	assert_int_equal(joined.d->reset.n_innocents, series.d->reset.n_innocents);
	for (size_t i = 0; i < series.d->reset.n_innocents; i++) {
		assert_int_equal(joined.d->reset.innocents[i].ctx, series.d->reset.innocents[i].ctx);
		assert_string_equal(joined.d->reset.innocents[i].process,
				    series.d->reset.innocents[i].process);
		assert_int_equal(joined.d->reset.innocents[i].pid, series.d->reset.innocents[i].pid);
	}
	assert_int_equal(joined.d->n_hang_rings, series.d->n_hang_rings);
	for (size_t i = 0; i < series.d->n_hang_rings; i++)
		assert_same_ring(&joined, &joined.d->hang_rings[i], &series,
				 &series.d->hang_rings[i], false);
	assert_int_equal(joined.d->n_captures, series.d->n_captures);
	for (size_t i = 0; i < series.d->n_captures; i++) {
		assert_int_equal(joined.d->captures[i].va, series.d->captures[i].va);
		assert_int_equal(joined.d->captures[i].size, series.d->captures[i].size);
		assert_int_equal(joined.d->captures[i].error, series.d->captures[i].error);
		assert_int_equal(joined.d->captures[i].len, series.d->captures[i].len);
		assert_memory_equal(joined.d->captures[i].data, series.d->captures[i].data,
				    series.d->captures[i].len);
	}
	drop(&joined);
	drop(&base);
	drop(&series);
}

/* D4 on the series' own bytes: its 6.12 text alone, as a 6.12 reader that
 * stops there sees it, gives the answers the whole dump gives. */
static void test_D4_series_sections_change_no_612_answer(void **state)
{
	struct dump series, alone;
	size_t cut;
	char *text;

	(void)state;
	load(&series, series_path);
	/* up to and with the VRAM line's newline */
	cut = end_of_612(series.text);
	text = strndup(series.text, cut);
	assert_non_null(text);
	parse(&alone, text, cut);
	assert_int_equal(alone.d->generation, GPUROBUST_CD_GEN_6_12);
	assert_int_equal(alone.d->features & SERIES_FEATURES, 0);
	assert_series_sections(&series, true);
	assert_same_612(&alone, &series, true);
	drop(&alone);
	drop(&series);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_D4_same_answers_base_and_series),
		cmocka_unit_test(test_D4_same_answers_base_and_old_text_with_series_sections),
		cmocka_unit_test(test_D4_series_sections_change_no_612_answer),
	};

	if (argc == 3) {
		base_path = argv[1];
		series_path = argv[2];
	} else if (argc != 1) {
		fprintf(stderr, "usage: %s [BASE SERIES]\n", argv[0]);
		return 2;
	}
	/* the fixtures are committed: one missing is a failure, not a skip */
	if (access(base_path, R_OK) || access(series_path, R_OK)) {
		printf("Bail out! cannot read %s\n",
		       access(base_path, R_OK) ? base_path : series_path);
		return 1;
	}
	return cmocka_run_group_tests_name("d4-base-printer", tests, NULL, NULL);
}
