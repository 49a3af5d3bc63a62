// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The amdgpu devcoredump text parser.
 *
 * The printer (amdgpu_dev_coredump.c) writes a header, then blocks that each
 * start with a fixed title line. Titles and their order changed between
 * kernels, but never their spelling, so the parser is a loop over lines that
 * switches section on a title and otherwise hands the line to the current
 * section. Unknown lines inside a known section are tolerated (later kernels
 * add keys); unknown `**** Name vN ****` sections are kept raw (D4).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/coredump.h>

#include "common/amdgpu-uapi.h"
#include "common/export.h"
#include "crash/core/coredump/text.h"

/* The kernel's caps bound what a dump holds (D3). */
#define GRB_DUMPABLE_MAX_SIZE ((unsigned int)AMDGPU_VM_DUMPABLE_MAX_SIZE)
_Static_assert(GPUROBUST_CD_MAX_CAPTURES == AMDGPU_VM_DUMPABLE_MAX_MAPPINGS,
	       "a dump has one User Capture section per dumpable mapping");

enum section {
	SEC_NONE,		/* before the header */
	SEC_HEADER,
	SEC_SOC,		/* SOC Information */
	SEC_SKIP,		/* parsed elsewhere or not needed: kept out of the result */
	SEC_RING_TIMEOUT,
	SEC_PAGE_FAULT,
	SEC_IP_DUMP,
	SEC_RINGS,
	SEC_REGISTERS,
	SEC_IB,
	SEC_SERIES_RESET,
	SEC_SERIES_HANG_RING,
	SEC_SERIES_HANG_RING_V2,
	SEC_SERIES_CAPTURE,
	SEC_SERIES_UNKNOWN,
};

/* Titles that open a block, with the feature bit they set. */
static const struct {
	const char *title;
	enum section section;
	unsigned int feature;
} titles[] = {
	{ "SOC Information", SEC_SOC, GPUROBUST_CD_SOC_INFO },
	{ "SOC Memory Information", SEC_SKIP, GPUROBUST_CD_SOC_INFO },
	{ "GDS Config", SEC_SKIP, GPUROBUST_CD_SOC_INFO },
	{ "HW IP Version Information", SEC_SKIP, GPUROBUST_CD_SOC_INFO },
	{ "HW IP Discovery", SEC_SKIP, GPUROBUST_CD_IP_DISCOVERY },
	{ "IP Firmwares", SEC_SKIP, GPUROBUST_CD_FIRMWARE },
	{ "VBIOS Information", SEC_SKIP, GPUROBUST_CD_FIRMWARE },
	{ "VBIOS Information: NA", SEC_SKIP, GPUROBUST_CD_FIRMWARE },
	{ "Ring timed out details", SEC_RING_TIMEOUT, GPUROBUST_CD_RING_TIMEOUT },
	{ "IP Dump", SEC_IP_DUMP, GPUROBUST_CD_IP_DUMP },
	{ "Ring buffer information", SEC_RINGS, GPUROBUST_CD_RINGS },
	{ "AMDGPU register dumps:", SEC_REGISTERS, GPUROBUST_CD_REGISTERS },
	/* the 6.7 prototype printed the kernel log's fault lines under it */
	{ "Page fault information", SEC_PAGE_FAULT, GPUROBUST_CD_PAGE_FAULT },
};

struct parser {
	struct gpurobust_coredump *d;
	struct line_reader r;
	enum section sec;
	int oom;
	struct gpurobust_cd_ring *ring;	/* the ring being read */
	struct gpurobust_cd_ib *ib;		/* the IB being read */
	const char *base;		/* the text, for contents offsets */
	/* The dword lines being located: a ring's or IB's contents range. */
	struct {
		size_t *offset, *len;
		size_t lines, want;	/* want 0: the count was not printed */
		const char *what;
		size_t line;		/* where the block started */
	} block;
	struct gpurobust_cd_raw *raw;	/* IP block or unknown section being kept */
	size_t raw_cap;
	struct gpurobust_cd_capture *capture;	/* the user capture being read */
	size_t rings_cap, ibs_cap, ip_cap, unknown_cap, innocent_cap, hang_rings_cap;
};

/* Grow *@arr so that it holds at least @need elements of @size bytes. */
static int grow(void **arr, size_t *cap, size_t need, size_t size)
{
	size_t ncap;
	void *n;

	if (need <= *cap)
		return 0;
	ncap = *cap ? *cap * 2 : 8;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / size)
		return -ENOMEM;
	n = realloc(*arr, ncap * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

/* Add a diagnostic to @d; false when out of memory. */
static bool __attribute__((format(printf, 4, 0)))
vdump_diag(struct gpurobust_coredump *d, enum gpurobust_cd_severity sev, size_t line,
	   const char *fmt, va_list ap)
{
	struct gpurobust_cd_diag *n;

	/* A corrupt dump could otherwise produce one diagnostic per line. */
	if (d->n_diags >= 64)
		return true;
	n = realloc(d->diags, (d->n_diags + 1) * sizeof(*n));
	if (!n)
		return false;
	d->diags = n;
	n = &d->diags[d->n_diags++];
	n->severity = sev;
	n->line = line;
	vsnprintf(n->message, sizeof(n->message), fmt, ap);
	return true;
}

static bool __attribute__((format(printf, 4, 5)))
dump_diag(struct gpurobust_coredump *d, enum gpurobust_cd_severity sev, size_t line,
	  const char *fmt, ...)
{
	va_list ap;
	bool ok;

	va_start(ap, fmt);
	ok = vdump_diag(d, sev, line, fmt, ap);
	va_end(ap);
	return ok;
}

static void __attribute__((format(printf, 4, 5)))
diag(struct parser *ps, enum gpurobust_cd_severity sev, size_t line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (!vdump_diag(ps->d, sev, line, fmt, ap))
		ps->oom = 1;
	va_end(ap);
}

/* Start locating dword lines; they begin at the next line. */
static void block_open(struct parser *ps, size_t *offset, size_t *len, size_t want,
		       const char *what)
{
	ps->block.offset = offset;
	ps->block.len = len;
	ps->block.lines = 0;
	ps->block.want = want;
	ps->block.what = what;
	ps->block.line = ps->r.lineno + 1;
	*offset = (size_t)(ps->r.pos - ps->base);
	*len = 0;
}

/* Extend the block to the end of the line or bytes that end at @end. */
static void block_extend(struct parser *ps, const char *end)
{
	*ps->block.len = (size_t)(end - ps->base) - *ps->block.offset;
}

/* One dword line of a block whose count is unknown. */
static void block_line(struct parser *ps, struct span line)
{
	if (!ps->block.lines)
		*ps->block.offset = (size_t)(line.p - ps->base);
	block_extend(ps, ps->r.pos);
	ps->block.lines++;
}

/* The rest of a block whose count is known, in one step (see grb_line_skip()). */
static void block_bulk(struct parser *ps)
{
	struct span bytes;

	if (ps->block.lines >= ps->block.want)
		return;
	ps->block.lines += grb_line_skip(&ps->r, ps->block.want - ps->block.lines, &bytes);
	block_extend(ps, ps->r.pos);
}

/* Check that the dword block that just ended is complete. */
static void close_block(struct parser *ps, bool at_eof)
{
	if (ps->block.offset && ps->block.lines < ps->block.want) {
		if (at_eof)
			ps->d->truncated = true;
		diag(ps, at_eof ? GPUROBUST_CD_ERROR : GPUROBUST_CD_WARNING, ps->block.line,
		     "%s: %zu of %zu dwords%s", ps->block.what, ps->block.lines, ps->block.want,
		     at_eof ? " before the end of the input" : "");
	}
	ps->block.offset = NULL;
	ps->ring = NULL;
	ps->ib = NULL;
}

static void close_raw(struct parser *ps)
{
	ps->raw = NULL;
	ps->raw_cap = 0;
}

static struct gpurobust_cd_raw *new_raw(struct parser *ps, struct gpurobust_cd_raw **arr,
					size_t *n, size_t *cap, struct span name,
					unsigned int version)
{
	struct gpurobust_cd_raw *raw;

	if (grow((void **)arr, cap, *n + 1, sizeof(**arr))) {
		ps->oom = 1;
		return NULL;
	}
	raw = &(*arr)[*n];
	memset(raw, 0, sizeof(*raw));
	raw->name = strndup(name.p, name.n);
	if (!raw->name) {
		ps->oom = 1;
		return NULL;
	}
	raw->version = version;
	(*n)++;
	ps->raw = raw;
	ps->raw_cap = 0;
	return raw;
}

static void raw_append(struct parser *ps, struct span line)
{
	struct gpurobust_cd_raw *raw = ps->raw;

	if (!raw)
		return;
	if (grow((void **)&raw->text, &ps->raw_cap, raw->len + line.n + 2, 1)) {
		ps->oom = 1;
		return;
	}
	memcpy(raw->text + raw->len, line.p, line.n);
	raw->len += line.n;
	raw->text[raw->len++] = '\n';
	raw->text[raw->len] = '\0';
}

/* Split @s at its last blank: @head before it, @tail after it. */
static bool split_last_word(struct span s, struct span *head, struct span *tail)
{
	size_t i = s.n;

	while (i && s.p[i - 1] != ' ')
		i--;
	if (!i || i == s.n)
		return false;
	*tail = span_skip(s, i);
	head->p = s.p;
	head->n = i - 1;
	*head = span_trim(*head);
	return head->n > 0;
}

/* "**** Name vN ****": the series' section header (D4). */
static bool series_title(struct span line, struct span *name, unsigned int *version)
{
	struct span s = line, v;
	int64_t ver;

	if (!take_lit(&s, "**** ") || s.n < 5 || memcmp(s.p + s.n - 5, " ****", 5))
		return false;
	s.n -= 5;
	if (!split_last_word(s, name, &v) || !take_lit(&v, "v") || !take_dec(&v, &ver) ||
	    v.n || ver < 0 || ver > 0xffff)
		return false;
	*version = (unsigned int)ver;
	return true;
}

/* A capture that stopped short of its size: data is missing. */
static void finish_capture(struct parser *ps, const char *where)
{
	struct gpurobust_cd_capture *c = ps->capture;

	ps->capture = NULL;
	if (!c || !c->data || c->len >= c->size)
		return;
	diag(ps, GPUROBUST_CD_ERROR, c->line, "User Capture: %zu of %zu bytes before %s",
	     c->len, c->size, where);
}

/* Up to GPUROBUST_CD_MAX_CAPTURES "User Capture" sections, one per dumpable
 * mapping of the guilty VM (D3); more means a corrupt dump. */
static void open_capture(struct parser *ps, unsigned int version, size_t line)
{
	struct gpurobust_coredump *d = ps->d;

	if (d->n_captures >= GPUROBUST_CD_MAX_CAPTURES) {
		diag(ps, GPUROBUST_CD_WARNING, line,
		     "User Capture section %zu ignored (a VM has at most %d dumpable mappings)",
		     d->n_captures + 1, GPUROBUST_CD_MAX_CAPTURES);
		ps->sec = SEC_SKIP;
		return;
	}
	if (version > 1)
		diag(ps, GPUROBUST_CD_NOTE, line, "User Capture v%u: reading the v1 keys only",
		     version);
	/* the array never exceeds GPUROBUST_CD_MAX_CAPTURES: allocate it once */
	if (!d->captures) {
		d->captures = calloc(GPUROBUST_CD_MAX_CAPTURES, sizeof(*d->captures));
		if (!d->captures) {
			ps->oom = 1;
			return;
		}
	}
	d->features |= GPUROBUST_CD_SERIES_CAPTURE;
	ps->sec = SEC_SERIES_CAPTURE;
	ps->capture = &d->captures[d->n_captures++];
	ps->capture->line = line;
}

static void open_series(struct parser *ps, struct span name, unsigned int version,
			size_t line)
{
	struct gpurobust_coredump *d = ps->d;
	static const struct {
		const char *name;
		enum section sec;
		unsigned int feature;
	} known[] = {
		{ "Reset", SEC_SERIES_RESET, GPUROBUST_CD_SERIES_RESET },
		{ "Hang Ring", SEC_SERIES_HANG_RING, GPUROBUST_CD_SERIES_HANG_RING },
		{ "User Capture", SEC_SERIES_CAPTURE, GPUROBUST_CD_SERIES_CAPTURE },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!span_eq(name, known[i].name) || version < 1)
			continue;
		if (known[i].sec == SEC_SERIES_CAPTURE) {
			open_capture(ps, version, line);
			return;
		}
		/* v2: upstream 7.1's ring blocks instead of v1's keys */
		if (known[i].sec == SEC_SERIES_HANG_RING && version >= 2) {
			if (d->features & GPUROBUST_CD_SERIES_HANG_RING_V2) {
				diag(ps, GPUROBUST_CD_WARNING, line,
				     "second Hang Ring v2 section ignored");
				break;
			}
			if (version > 2)
				diag(ps, GPUROBUST_CD_NOTE, line,
				     "Hang Ring v%u: reading it as v2", version);
			d->features |= GPUROBUST_CD_SERIES_HANG_RING_V2;
			ps->sec = SEC_SERIES_HANG_RING_V2;
			return;
		}
		if (d->features & known[i].feature) {
			diag(ps, GPUROBUST_CD_WARNING, line,
			     "second %s section ignored", known[i].name);
			break;
		}
		if (version > 1)
			diag(ps, GPUROBUST_CD_NOTE, line,
			     "%s v%u: reading the v1 keys only", known[i].name, version);
		d->features |= known[i].feature;
		ps->sec = known[i].sec;
		if (ps->sec == SEC_SERIES_RESET) {
			d->reset.version = version;
		} else {
			ps->ring = &d->hang_ring;
		}
		return;
	}
	ps->sec = SEC_SERIES_UNKNOWN;
	new_raw(ps, &d->unknown, &d->n_unknown, &ps->unknown_cap, name, version);
}

static void open_section(struct parser *ps, enum section sec)
{
	ps->sec = sec;
	/* the pre-6.11 register list: kept raw, like an unknown section */
	if (sec == SEC_REGISTERS) {
		struct span name = { "AMDGPU register dumps", 21 };

		new_raw(ps, &ps->d->unknown, &ps->d->n_unknown, &ps->unknown_cap, name, 0);
	}
}

/* A line that starts a new block; false for content lines. */
static bool handle_title(struct parser *ps, struct span line)
{
	struct gpurobust_coredump *d = ps->d;
	struct span name, s;
	unsigned int version;
	char hub[16];

	if (span_eq(line, "**** AMDGPU Device Coredump ****")) {
		if (d->features & GPUROBUST_CD_HEADER) {
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
			     "second dump header: only the first dump is read");
			return false;
		}
		close_block(ps, false);
		close_raw(ps);
		d->features |= GPUROBUST_CD_HEADER;
		ps->sec = SEC_HEADER;
		return true;
	}
	if (line.n >= 6 && line.p[0] == '*' && series_title(line, &name, &version)) {
		close_block(ps, false);
		close_raw(ps);
		finish_capture(ps, "the next section");
		open_series(ps, name, version, ps->r.lineno);
		return true;
	}
	/* The series' sections run to the next "****" header (D4): inside
	 * them, 6.12 titles are content. */
	if (ps->sec >= SEC_SERIES_RESET)
		return false;
	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++) {
		if (span_eq(line, titles[i].title)) {
			close_block(ps, false);
			close_raw(ps);
			d->features |= titles[i].feature;
			open_section(ps, titles[i].section);
			return true;
		}
	}
	/* "[gfxhub] Page fault observed", in its first posting "... observed
	 * for GPU family:143" (6.7) */
	s = line;
	if (s.n && s.p[0] == '[' && span_find(s, "] Page fault observed") &&
	    take_lit(&s, "[") && take_word(&s, ']', hub, sizeof(hub)) &&
	    take_lit(&s, "] Page fault observed")) {
		int64_t family;

		if (take_lit(&s, " for GPU family:") && take_dec(&s, &family) && family >= 0 &&
		    family <= UINT32_MAX)
			d->family = (uint32_t)family;
		if (s.n)
			return false;
		close_block(ps, false);
		close_raw(ps);
		d->features |= GPUROBUST_CD_PAGE_FAULT;
		d->fault_mmhub = !strncmp(hub, "mmhub", 5);
		ps->sec = SEC_PAGE_FAULT;
		return true;
	}
	/* "IB #0 0x800100000 64 dw" (7.1+) */
	s = line;
	if (take_lit(&s, "IB #")) {
		struct gpurobust_cd_ib *ib;
		int64_t idx, size_dw;
		uint64_t addr;

		if (!take_dec(&s, &idx) || !take_lit(&s, " ") || !take_hex(&s, &addr) ||
		    !take_lit(&s, " ") || !take_dec(&s, &size_dw) || !take_lit(&s, " dw") ||
		    s.n || size_dw < 0 || size_dw > UINT32_MAX) {
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "malformed IB header");
			return false;
		}
		close_block(ps, false);
		close_raw(ps);
		if (grow((void **)&d->ibs, &ps->ibs_cap, d->n_ibs + 1, sizeof(*d->ibs))) {
			ps->oom = 1;
			return true;
		}
		ib = &d->ibs[d->n_ibs++];
		memset(ib, 0, sizeof(*ib));
		ib->gpu_addr = addr;
		ib->size_dw = (uint32_t)size_dw;
		d->features |= GPUROBUST_CD_IBS;
		ps->ib = ib;
		ps->sec = SEC_IB;
		/* contents follow unless the kernel could not reach the IB */
		if (ps->r.end - ps->r.pos >= 2 && !memcmp(ps->r.pos, "0x", 2)) {
			ib->has_contents = true;
			block_open(ps, &ib->contents_offset, &ib->contents_len, ib->size_dw, "IB");
			block_bulk(ps);
		}
		return true;
	}
	if (span_eq(line, "VRAM is lost due to GPU reset!")) {
		close_block(ps, false);
		close_raw(ps);
		d->vram_lost = true;
		ps->sec = SEC_SKIP;
		return true;
	}
	if (span_eq(line, "VRAM lost check is skipped!")) {
		close_block(ps, false);
		close_raw(ps);
		d->vram_check_skipped = true;
		ps->sec = SEC_SKIP;
		return true;
	}
	return false;
}

static void copy_str(char *dst, size_t size, struct span v)
{
	span_copy(span_trim(v), dst, size);
}

static void soc_line(struct parser *ps, struct span line)
{
	struct gpurobust_coredump *d = ps->d;
	struct span s = line;
	int64_t v;

	if (take_lit(&s, "SOC Device id: ") && take_dec(&s, &v) && v >= 0 && v <= UINT32_MAX)
		d->pci_device_id = (uint32_t)v;
	else if (take_lit(&s, "SOC PCI Revision id: ") && take_dec(&s, &v) && v >= 0 &&
		 v <= UINT32_MAX)
		d->pci_revision = (uint32_t)v;
	else if (take_lit(&s, "SOC Family: ") && take_dec(&s, &v) && v >= 0 && v <= UINT32_MAX)
		d->family = (uint32_t)v;
}

static void header_line(struct parser *ps, struct span line)
{
	struct gpurobust_coredump *d = ps->d;
	struct span s = line;
	int64_t v;

	if (take_lit(&s, "version: ")) {
		if (take_dec(&s, &v) && v >= 0 && v <= 0xffff)
			d->format_version = (unsigned int)v;
	} else if (take_lit(&s, "kernel: ")) {
		copy_str(d->kernel, sizeof(d->kernel), s);
	} else if (take_lit(&s, "module: ")) {
		copy_str(d->module, sizeof(d->module), s);
	} else if (take_lit(&s, "time: ")) {
		if (take_dec(&s, &v)) {
			d->time_sec = v;
			if (take_lit(&s, ".") && take_dec(&s, &v) && v >= 0 && v < 1000000000)
				d->time_nsec = (uint32_t)v;
		}
	} else if (take_lit(&s, "process_name: ")) {
		/*
		 * 6.10 to 6.12: "<name> PID: <tgid>". Since 6.17 (a72002cb181f,
		 * the task info of wedge events): "<name> TGID: <tgid> thread:
		 * <comm> PID: <tid>", where the process is <name> and <tgid>.
		 * Names may contain blanks, so split at the last separators.
		 */
		struct span name = s, pid = { 0 };
		const char *at = span_find_last(s, " PID: ");

		if (at) {
			name.n = (size_t)(at - s.p);
			pid = span_skip(s, name.n + 6);
		}
		at = span_find_last(name, " thread: ");
		if (at) {
			struct span head = { name.p, (size_t)(at - name.p) };
			const char *tgid = span_find_last(head, " TGID: ");

			if (tgid) {
				name.n = (size_t)(tgid - name.p);
				pid = span_skip(head, name.n + 7);
			}
		}
		if (pid.p && take_dec(&pid, &v) && v >= 0 && v <= INT32_MAX)
			d->pid = (int32_t)v;
		else
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "process_name: no readable PID");
		copy_str(d->process, sizeof(d->process), name);
	} else if (take_lit(&s, "SOC ")) {
		/* an abridged dump that lost the "SOC Information" title */
		soc_line(ps, line);
		d->features |= GPUROBUST_CD_SOC_INFO;
	}
}

static void ring_timeout_line(struct parser *ps, struct span line)
{
	struct gpurobust_coredump *d = ps->d;
	struct span s = line;
	int64_t v;

	if (!line.n)
		return;
	if (take_lit(&s, "IP Type: ") && take_dec(&s, &v) && v >= 0 && v < 256 &&
	    take_lit(&s, " Ring Name: ")) {
		d->ip_type = (int)v;
		copy_str(d->timeout_ring, sizeof(d->timeout_ring), s);
	} else {
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "unexpected line in ring timeout");
	}
}

/* "key: value", "key:value" (6.7) and "key value" (6.7) alike. */
static bool take_key(struct span *s, const char *key)
{
	if (!take_lit(s, key))
		return false;
	take_lit(s, ":");
	skip_blanks(s);
	return true;
}

static void page_fault_line(struct parser *ps, struct span line)
{
	struct gpurobust_coredump *d = ps->d;
	struct span s = line;
	uint64_t v;
	char hub[16];

	if (!line.n)
		return;
	if (take_key(&s, "Faulty page starting at address")) {
		if (take_hex(&s, &v) && !(ps->r.unterminated && ps->r.pos == ps->r.end))
			d->fault_addr = v;
		else
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "bad fault address");
	} else if (take_key(&s, "Protection fault status register")) {
		if (take_hex(&s, &v) && v <= UINT32_MAX)
			d->fault_status = (uint32_t)v;
		else
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "bad fault status");
	} else if (take_lit(&s, "[") && take_word(&s, ']', hub, sizeof(hub)) &&
		   take_lit(&s, "] page fault (")) {
		/* the 6.7 prototype: "[gfxhub] page fault (src_id:0 ring:24 ...)" */
		d->fault_seen = true;
		d->fault_mmhub = !strncmp(hub, "mmhub", 5);
	} else if (span_after(line, "in page starting at address ", &s) && take_hex(&s, &v)) {
		/* "... from client 0x1b (UTCL2)" */
		d->fault_addr = v;
		d->fault_seen = true;
		if (span_after(s, " (", &s))
			take_word(&s, ')', d->fault_client, sizeof(d->fault_client));
	} else {
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "unexpected line in the page fault block");
	}
}

static void ip_dump_line(struct parser *ps, struct span line)
{
	struct span s = line;

	if (take_lit(&s, "IP: ")) {
		close_raw(ps);
		new_raw(ps, &ps->d->ip_blocks, &ps->d->n_ip_blocks, &ps->ip_cap, s, 0);
		return;
	}
	if (!ps->raw) {
		if (line.n)
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
			     "IP dump line before any \"IP:\" line");
		return;
	}
	raw_append(ps, line);
}

/* A line of ring blocks ("ring name:", "Rptr:", ..., the contents) into
 * *@rings: the 6.12 and 7.1 "Ring buffer information" and Hang Ring v2. */
static void ring_blocks_line(struct parser *ps, struct span line, struct gpurobust_cd_ring **rings,
			     size_t *n_rings, size_t *cap)
{
	struct span s = line;
	uint64_t a, b;
	int64_t v;

	if (take_lit(&s, "ring name: ")) {
		struct gpurobust_cd_ring *ring;

		close_block(ps, false);
		if (grow((void **)rings, cap, *n_rings + 1, sizeof(**rings))) {
			ps->oom = 1;
			return;
		}
		ring = &(*rings)[(*n_rings)++];
		memset(ring, 0, sizeof(*ring));
		copy_str(ring->name, sizeof(ring->name), s);
		ps->ring = ring;
		return;
	}
	if (!ps->ring) {
		if (line.n)
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
			     "ring line before any \"ring name:\" line");
		return;
	}
	if (span_starts(line, "0x") && ps->block.offset &&
	    (!ps->block.want || ps->block.lines < ps->block.want)) {
		block_line(ps, line);
		return;
	}
	if (take_lit(&s, "Rptr: ") && take_hex(&s, &a) && take_lit(&s, " Wptr: ") &&
	    take_hex(&s, &b)) {
		ps->ring->rptr = a;
		ps->ring->wptr = b;
		if (take_lit(&s, " RB mask: ") && take_hex(&s, &a) && a <= UINT32_MAX)
			ps->ring->buf_mask = (uint32_t)a;
	} else if (take_lit(&s, "Ring size in dwords: ") && take_dec(&s, &v) && v >= 0 &&
		   v <= UINT32_MAX) {
		ps->ring->size_dw = (uint32_t)v;
	} else if (span_starts(line, "Offset") && !ps->block.offset) {
		/* the column titles: the contents follow, size_dw lines */
		block_open(ps, &ps->ring->contents_offset, &ps->ring->contents_len,
			   ps->ring->size_dw, ps->ring->name);
		block_bulk(ps);
	} else if (span_eq(line, "Ring contents") || !line.n) {
		/* the block's title */
	} else {
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "%s: unexpected line",
		     ps->ring->name);
	}
}

static void rings_line(struct parser *ps, struct span line)
{
	ring_blocks_line(ps, line, &ps->d->rings, &ps->d->n_rings, &ps->rings_cap);
}

static void ib_line(struct parser *ps, struct span line)
{
	if (!line.n)
		return;
	diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
	     span_starts(line, "0x") ? "IB longer than its header says" : "unexpected line in IB");
	ps->sec = SEC_SKIP;
}

static enum gpurobust_recovery_type parse_type(struct span v)
{
	if (span_eq(v, "soft_recovery"))
		return GPUROBUST_RECOVERY_SOFT;
	if (span_eq(v, "ring_reset"))
		return GPUROBUST_RECOVERY_RING;
	if (span_eq(v, "full_reset"))
		return GPUROBUST_RECOVERY_FULL;
	if (span_eq(v, "none"))
		return GPUROBUST_RECOVERY_NONE;
	return GPUROBUST_RECOVERY_UNKNOWN;
}

static enum gpurobust_recovery_outcome parse_outcome(struct span v)
{
	if (span_eq(v, "pending"))
		return GPUROBUST_OUTCOME_PENDING;
	if (span_eq(v, "recovered"))
		return GPUROBUST_OUTCOME_RECOVERED;
	if (span_eq(v, "failed"))
		return GPUROBUST_OUTCOME_FAILED;
	return GPUROBUST_OUTCOME_UNKNOWN;
}

/* Split "key: value"; false for other lines. */
static bool key_value(struct span line, struct span *key, struct span *value)
{
	const char *colon = memchr(line.p, ':', line.n);

	if (!colon || colon == line.p)
		return false;
	key->p = line.p;
	key->n = (size_t)(colon - line.p);
	*value = span_trim(span_skip(line, key->n + 1));
	return true;
}

static bool take_u64_any(struct span v, uint64_t *out)
{
	int64_t d;

	if (v.n > 2 && v.p[0] == '0' && (v.p[1] | 0x20) == 'x')
		return take_hex(&v, out) && !v.n;
	if (!take_dec(&v, &d) || v.n || d < 0)
		return false;
	*out = (uint64_t)d;
	return true;
}

static bool take_pid(struct span v, int32_t *out)
{
	int64_t d;

	if (!take_dec(&v, &d) || v.n || d < 0 || d > INT32_MAX)
		return false;
	*out = (int32_t)d;
	return true;
}

/* "innocent_ctx: <id> <process> <pid>"; the process name may hold blanks. */
static bool add_innocent(struct parser *ps, struct span v)
{
	struct gpurobust_cd_reset *r = &ps->d->reset;
	struct gpurobust_cd_innocent in = { 0 };
	struct span id = v, rest, name, pid;
	char word[24];

	if (!take_word(&id, ' ', word, sizeof(word)))
		return false;
	rest = span_trim(id);
	id.p = word;
	id.n = strlen(word);
	if (!take_u64_any(id, &in.ctx) || !split_last_word(rest, &name, &pid) ||
	    !take_pid(pid, &in.pid))
		return false;
	copy_str(in.process, sizeof(in.process), name);
	if (grow((void **)&r->innocents, &ps->innocent_cap, r->n_innocents + 1,
		 sizeof(*r->innocents))) {
		ps->oom = 1;
		return true;
	}
	r->innocents[r->n_innocents++] = in;
	return true;
}

static void series_reset_line(struct parser *ps, struct span line)
{
	struct gpurobust_cd_reset *r = &ps->d->reset;
	struct span key, v;
	bool ok = true;

	if (!line.n)
		return;
	if (!key_value(line, &key, &v)) {
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "Reset: not a key: value line");
		return;
	}
	if (span_eq(key, "type")) {
		r->type = parse_type(v);
		ok = r->type != GPUROBUST_RECOVERY_UNKNOWN;
	} else if (span_eq(key, "outcome")) {
		r->outcome = parse_outcome(v);
		ok = r->outcome != GPUROBUST_OUTCOME_UNKNOWN;
	} else if (span_eq(key, "ring")) {
		copy_str(r->ring, sizeof(r->ring), v);
	} else if (span_eq(key, "guilty_ctx")) {
		ok = take_u64_any(v, &r->guilty_ctx);
	} else if (span_eq(key, "seqno")) {
		ok = take_u64_any(v, &r->seqno);
	} else if (span_eq(key, "process")) {
		copy_str(r->process, sizeof(r->process), v);
	} else if (span_eq(key, "pid")) {
		ok = take_pid(v, &r->pid);
	} else if (span_eq(key, "innocent_ctx")) {
		ok = add_innocent(ps, v);
	} else if (span_eq(key, "vram_lost")) {
		ok = span_eq(v, "0") || span_eq(v, "1");
		if (ok) {
			r->has_vram_lost = true;
			ps->d->vram_lost = span_eq(v, "1");
		}
	}
	/* other keys: a later version's additions (D4) */
	if (!ok)
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "Reset: bad value for %.*s",
		     (int)(key.n < 24 ? key.n : 24), key.p);
}

static void series_hang_ring_line(struct parser *ps, struct span line)
{
	struct gpurobust_cd_ring *ring = &ps->d->hang_ring;
	struct span key, v, s = line;
	uint64_t x;

	if (!line.n)
		return;
	/* contents: "0x<offset> \t 0x<value>" lines, as the 6.12 ring printer */
	if (span_starts(line, "0x") && memchr(line.p, '\t', line.n)) {
		if (!ps->block.offset)
			block_open(ps, &ring->contents_offset, &ring->contents_len, 0, "Hang Ring");
		block_line(ps, line);
		return;
	}
	if (!key_value(s, &key, &v)) {
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "Hang Ring: unexpected line");
		return;
	}
	if (span_eq(key, "ring")) {
		copy_str(ring->name, sizeof(ring->name), v);
	} else if (span_eq(key, "rptr") && take_u64_any(v, &x)) {
		ring->rptr = x;
	} else if (span_eq(key, "wptr") && take_u64_any(v, &x)) {
		ring->wptr = x;
	} else if (span_eq(key, "size") && take_u64_any(v, &x) && x <= UINT32_MAX) {
		ring->size_dw = (uint32_t)x;
	}
}

/* A "key: value" line of a User Capture section; false when @line is none
 * (then it is data). */
static bool capture_key(struct parser *ps, struct span line)
{
	struct gpurobust_cd_capture *c = ps->capture;
	struct span key, v;
	uint64_t x;
	int64_t e;

	if (!key_value(line, &key, &v))
		return false;
	if (span_eq(key, "size")) {
		if (c->data) {
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "User Capture: second size");
			return true;
		}
		if (!take_u64_any(v, &x) || x > GRB_DUMPABLE_MAX_SIZE) {
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
			     "User Capture: bad size (the cap is %u)", GRB_DUMPABLE_MAX_SIZE);
			ps->sec = SEC_SKIP;
			return true;
		}
		c->size = (size_t)x;
		c->data = calloc(1, x ? x : 1);
		if (!c->data)
			ps->oom = 1;
	} else if (span_eq(key, "va")) {
		if (take_u64_any(v, &x)) {
			c->va = x;
			c->has_va = true;
		} else {
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "User Capture: bad va");
		}
	} else if (span_eq(key, "error")) {
		if (take_lit(&v, "-") && take_dec(&v, &e) && !v.n && e > 0 && e < 4096)
			c->error = (int)-e;
		else
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
			     "User Capture: bad error (a negative errno)");
	}
	/* other keys: a later layout's additions (D4) */
	return true;
}

static void series_capture_line(struct parser *ps, struct span line)
{
	struct gpurobust_cd_capture *c = ps->capture;
	struct span s = line;
	uint64_t x;

	if (!line.n || capture_key(ps, line))
		return;
	if (!c->data) {
		diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "User Capture: data before size");
		return;
	}
	/* hex dwords, 8 per line, little-endian bytes of the buffer */
	while (skip_blanks(&s), s.n) {
		if (!take_hex(&s, &x) || x > UINT32_MAX) {
			diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno, "User Capture: bad dword");
			return;
		}
		for (int i = 0; i < 4; i++) {
			if (c->len >= c->size) {
				if (x >> (8 * i))
					diag(ps, GPUROBUST_CD_WARNING, ps->r.lineno,
					     "User Capture: more data than its size");
				return;
			}
			c->data[c->len++] = (uint8_t)(x >> (8 * i));
		}
	}
}

static void content_line(struct parser *ps, struct span line)
{
	switch (ps->sec) {
	case SEC_NONE:
		break;
	case SEC_HEADER:
		header_line(ps, line);
		break;
	case SEC_SOC:
		soc_line(ps, line);
		break;
	case SEC_SKIP:
		break;
	case SEC_RING_TIMEOUT:
		ring_timeout_line(ps, line);
		break;
	case SEC_PAGE_FAULT:
		page_fault_line(ps, line);
		break;
	case SEC_IP_DUMP:
		ip_dump_line(ps, line);
		break;
	case SEC_RINGS:
		rings_line(ps, line);
		break;
	case SEC_REGISTERS:
	case SEC_SERIES_UNKNOWN:
		raw_append(ps, line);
		break;
	case SEC_IB:
		ib_line(ps, line);
		break;
	case SEC_SERIES_RESET:
		series_reset_line(ps, line);
		break;
	case SEC_SERIES_HANG_RING:
		series_hang_ring_line(ps, line);
		break;
	case SEC_SERIES_HANG_RING_V2:
		ring_blocks_line(ps, line, &ps->d->hang_rings, &ps->d->n_hang_rings,
				 &ps->hang_rings_cap);
		break;
	case SEC_SERIES_CAPTURE:
		series_capture_line(ps, line);
		break;
	}
}

/* The printer generation a kernel release ships: 6.10 moved the printer to
 * amdgpu_dev_coredump.c and added the SOC blocks, 7.1 added the IB dump. */
static enum gpurobust_cd_generation generation_of_kernel(const char *release)
{
	struct span s = { release, strlen(release) };
	int64_t major, minor;

	if (!take_dec(&s, &major) || !take_lit(&s, ".") || !take_dec(&s, &minor))
		return GPUROBUST_CD_GEN_UNKNOWN;
	if (major > 7 || (major == 7 && minor >= 1))
		return GPUROBUST_CD_GEN_IB_DUMP;
	if (major == 7 || (major == 6 && minor >= 10))
		return GPUROBUST_CD_GEN_6_12;
	return GPUROBUST_CD_GEN_EARLY;
}

/* The generation from the sections seen, raised to the one the kernel
 * release implies: a dump that was cut or abridged before its SOC blocks
 * still comes from its kernel's printer. */
static enum gpurobust_cd_generation generation(const struct gpurobust_coredump *d)
{
	unsigned int f = d->features;
	enum gpurobust_cd_generation by_kernel = generation_of_kernel(d->kernel);
	enum gpurobust_cd_generation by_sections;

	if (!f)
		return GPUROBUST_CD_GEN_UNKNOWN;
	if (f & (GPUROBUST_CD_SERIES_RESET | GPUROBUST_CD_SERIES_HANG_RING |
		 GPUROBUST_CD_SERIES_HANG_RING_V2 | GPUROBUST_CD_SERIES_CAPTURE))
		return GPUROBUST_CD_GEN_SERIES;
	if (f & (GPUROBUST_CD_IP_DISCOVERY | GPUROBUST_CD_IBS))
		by_sections = GPUROBUST_CD_GEN_IB_DUMP;
	else if (f & (GPUROBUST_CD_SOC_INFO | GPUROBUST_CD_FIRMWARE | GPUROBUST_CD_IP_DUMP |
		      GPUROBUST_CD_RINGS))
		by_sections = GPUROBUST_CD_GEN_6_12;
	else
		by_sections = GPUROBUST_CD_GEN_EARLY;
	return by_kernel > by_sections ? by_kernel : by_sections;
}

GPUROBUST_EXPORT
int gpurobust_coredump_parse(const char *text, size_t len, struct gpurobust_coredump **out)
{
	struct parser ps = { 0 };
	size_t skipped = 0, nul_padding = 0;
	struct span line;

	if (!out || (!text && len))
		return -EINVAL;
	*out = NULL;
	ps.d = calloc(1, sizeof(*ps.d));
	if (!ps.d)
		return -ENOMEM;
	ps.d->ip_type = -1;
	ps.base = text ? text : "";
	/*
	 * amdgpu formats a dump twice, the first time only to size its buffer,
	 * and that pass counts every IB's dwords. An IB whose memory the second
	 * pass cannot read (not mapped, or the VM gone) prints no dwords, and
	 * the dump ends in the NUL bytes it did not fill (7.2).
	 */
	while (len && !ps.base[len - 1]) {
		len--;
		nul_padding++;
	}
	line_reader_init(&ps.r, ps.base, len);

	while (!ps.oom && line_next(&ps.r, &line)) {
		/* a dump quoted in a mail ("> ", ">> ") reads as the dump */
		while (line.n && line.p[0] == '>') {
			line = span_skip(line, 1);
			if (line.n && line.p[0] == ' ')
				line = span_skip(line, 1);
		}
		if (handle_title(&ps, line))
			continue;
		if (ps.sec == SEC_NONE)
			skipped += line.n != 0;
		else
			content_line(&ps, line);
	}
	if (ps.oom) {
		gpurobust_coredump_free(ps.d);
		return -ENOMEM;
	}
	close_block(&ps, true);
	if (ps.sec == SEC_SERIES_CAPTURE && ps.capture && ps.capture->data &&
	    ps.capture->len < ps.capture->size)
		ps.d->truncated = true;
	finish_capture(&ps, "the end of the input");
	if (ps.d->n_captures) {
		ps.d->capture = ps.d->captures[0].data;
		ps.d->capture_len = ps.d->captures[0].len;
	}
	if (ps.r.unterminated) {
		ps.d->truncated = true;
		diag(&ps, GPUROBUST_CD_ERROR, ps.r.lineno,
		     "input ends inside a line: the dump is truncated");
	}
	if (nul_padding)
		diag(&ps, GPUROBUST_CD_NOTE, 0, "%zu NUL bytes after the text: room the kernel "
		     "sized for IB contents it could not print", nul_padding);
	if (skipped)
		diag(&ps, GPUROBUST_CD_NOTE, 0, "%zu line%s before the first devcoredump section "
		     "skipped", skipped, skipped == 1 ? "" : "s");
	if (!(ps.d->features & GPUROBUST_CD_HEADER) && ps.d->features) {
		/* people paste the part of a dump that matters */
		ps.d->partial = true;
		diag(&ps, GPUROBUST_CD_WARNING, 0, "no \"**** AMDGPU Device Coredump ****\" "
		     "header: a partial dump, read as far as its lines go");
	} else if (!(ps.d->features & GPUROBUST_CD_HEADER)) {
		diag(&ps, GPUROBUST_CD_ERROR, 0, "no \"**** AMDGPU Device Coredump ****\" header");
	}
	ps.d->generation = generation(ps.d);
	/* 7.1's printer saves the rings when the job times out */
	ps.d->rings_at_hang = (ps.d->features & GPUROBUST_CD_RINGS) &&
			      (ps.d->generation == GPUROBUST_CD_GEN_IB_DUMP ||
			       generation_of_kernel(ps.d->kernel) == GPUROBUST_CD_GEN_IB_DUMP);
	if (ps.oom) {
		gpurobust_coredump_free(ps.d);
		return -ENOMEM;
	}
	*out = ps.d;
	return 0;
}

/* Decode "0x<offset> \t 0x<value>" (@offsets) or "0x<value>" lines. */
static int decode_block(struct gpurobust_coredump *d, const char *what, struct span text,
			bool offsets, uint32_t **dwords, size_t *n)
{
	struct line_reader r;
	struct span line;
	size_t lines = 0;

	if (*dwords || !text.n)
		return 0;
	for (const char *p = text.p; (p = memchr(p, '\n', (size_t)(text.p + text.n - p))); p++)
		lines++;
	*dwords = calloc(lines + 1, sizeof(**dwords));
	if (!*dwords)
		return -ENOMEM;
	line_reader_init(&r, text.p, text.n);
	/* a last line without its newline was cut: parsing said so already */
	while (line_next(&r, &line) && !r.unterminated) {
		uint64_t off = (uint64_t)*n * 4, val;
		struct span s = line;
		bool ok = true;

		if (offsets) {
			ok = take_hex(&s, &off);
			skip_blanks(&s);
		}
		if (!ok || !take_hex(&s, &val) || s.n || val > UINT32_MAX ||
		    off != (uint64_t)*n * 4) {
			if (!dump_diag(d, GPUROBUST_CD_WARNING, 0,
				       "%s: dword %zu is not a%s dword line: contents stop there",
				       what, *n, offsets ? "n offset and" : ""))
				return -ENOMEM;
			break;
		}
		(*dwords)[(*n)++] = (uint32_t)val;
	}
	return 0;
}

/* The range @offset, @len of @text, or an empty span when it lies outside. */
static bool range_of(const char *text, size_t text_len, size_t offset, size_t len,
		     struct span *out)
{
	if (offset > text_len || len > text_len - offset)
		return false;
	out->p = text + offset;
	out->n = len;
	return true;
}

GPUROBUST_EXPORT
int gpurobust_coredump_decode(struct gpurobust_coredump *d, const char *text, size_t len)
{
	struct span s;
	int r = 0;

	if (!d || (!text && len))
		return -EINVAL;
	for (size_t i = 0; i < d->n_rings && !r; i++) {
		struct gpurobust_cd_ring *ring = &d->rings[i];

		if (!range_of(text, len, ring->contents_offset, ring->contents_len, &s))
			return -EINVAL;
		r = decode_block(d, ring->name, s, true, &ring->dwords, &ring->n_dwords);
	}
	for (size_t i = 0; i < d->n_ibs && !r; i++) {
		struct gpurobust_cd_ib *ib = &d->ibs[i];

		if (!range_of(text, len, ib->contents_offset, ib->contents_len, &s))
			return -EINVAL;
		r = decode_block(d, "IB", s, false, &ib->dwords, &ib->n_dwords);
	}
	for (size_t i = 0; i < d->n_hang_rings && !r; i++) {
		struct gpurobust_cd_ring *ring = &d->hang_rings[i];

		if (!range_of(text, len, ring->contents_offset, ring->contents_len, &s))
			return -EINVAL;
		r = decode_block(d, ring->name, s, true, &ring->dwords, &ring->n_dwords);
	}
	if (!r) {
		struct gpurobust_cd_ring *ring = &d->hang_ring;

		if (!range_of(text, len, ring->contents_offset, ring->contents_len, &s))
			return -EINVAL;
		r = decode_block(d, "Hang Ring", s, true, &ring->dwords, &ring->n_dwords);
	}
	return r;
}

GPUROBUST_EXPORT
const struct gpurobust_cd_ring *gpurobust_coredump_hung_ring(const struct gpurobust_coredump *d)
{
	if (!d)
		return NULL;
	const char *name = d->reset.ring[0] ? d->reset.ring : d->timeout_ring;

	if (d->features & GPUROBUST_CD_SERIES_HANG_RING)
		return &d->hang_ring;
	for (size_t i = 0; name[0] && i < d->n_hang_rings; i++)
		if (!strcmp(d->hang_rings[i].name, name))
			return &d->hang_rings[i];
	if (!d->rings_at_hang || !d->timeout_ring[0])
		return NULL;
	for (size_t i = 0; i < d->n_rings; i++)
		if (!strcmp(d->rings[i].name, d->timeout_ring))
			return &d->rings[i];
	return NULL;
}

static void free_raws(struct gpurobust_cd_raw *raws, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(raws[i].name);
		free(raws[i].text);
	}
	free(raws);
}

GPUROBUST_EXPORT
void gpurobust_coredump_free(struct gpurobust_coredump *d)
{
	if (!d)
		return;
	free_raws(d->ip_blocks, d->n_ip_blocks);
	free_raws(d->unknown, d->n_unknown);
	for (size_t i = 0; i < d->n_rings; i++)
		free(d->rings[i].dwords);
	free(d->rings);
	for (size_t i = 0; i < d->n_ibs; i++)
		free(d->ibs[i].dwords);
	free(d->ibs);
	free(d->hang_ring.dwords);
	for (size_t i = 0; i < d->n_hang_rings; i++)
		free(d->hang_rings[i].dwords);
	free(d->hang_rings);
	free(d->reset.innocents);
	for (size_t i = 0; i < d->n_captures; i++)
		free(d->captures[i].data);
	free(d->captures);
	free(d->diags);
	free(d);
}

GPUROBUST_EXPORT
const char *gpurobust_cd_generation_name(enum gpurobust_cd_generation gen)
{
	switch (gen) {
	case GPUROBUST_CD_GEN_UNKNOWN: return "unknown";
	case GPUROBUST_CD_GEN_EARLY: return "early";
	case GPUROBUST_CD_GEN_6_12: return "6.12";
	case GPUROBUST_CD_GEN_IB_DUMP: return "ib-dump";
	case GPUROBUST_CD_GEN_SERIES: return "series";
	}
	return "invalid";
}

GPUROBUST_EXPORT
const char *gpurobust_recovery_type_name(enum gpurobust_recovery_type type)
{
	switch (type) {
	case GPUROBUST_RECOVERY_UNKNOWN: return "unknown";
	case GPUROBUST_RECOVERY_SOFT: return "soft_recovery";
	case GPUROBUST_RECOVERY_RING: return "ring_reset";
	case GPUROBUST_RECOVERY_FULL: return "full_reset";
	case GPUROBUST_RECOVERY_NONE: return "none";
	}
	return "invalid";
}

GPUROBUST_EXPORT
const char *gpurobust_recovery_outcome_name(enum gpurobust_recovery_outcome outcome)
{
	switch (outcome) {
	case GPUROBUST_OUTCOME_UNKNOWN: return "unknown";
	case GPUROBUST_OUTCOME_PENDING: return "pending";
	case GPUROBUST_OUTCOME_RECOVERED: return "recovered";
	case GPUROBUST_OUTCOME_FAILED: return "failed";
	}
	return "invalid";
}
