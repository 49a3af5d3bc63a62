// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Folding a devcoredump and kernel log lines into one report, and the
 * signature that buckets reports with the same cause.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include <gpurobust/report.h>

#include "common/export.h"
#include "crash/core/coredump/report-internal.h"

/* Faults below this address are NULL-pointer dereferences plus a small
 * offset, the most common single cause in public reports. */
#define NULL_PAGE_LIMIT		0x10000ull

/* snprintf() into a fixed field; a long process or ring name is cut, which
 * is what the field sizes are for. */
static void __attribute__((format(printf, 3, 4)))
fieldf(char *dst, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dst, size, fmt, ap);
	va_end(ap);
}

static void copy_field(char *dst, size_t size, const char *src)
{
	fieldf(dst, size, "%s", src);
}

/* Copy with every run of decimal digits replaced by one 'x', so that
 * "python3.13" and "python3.12" share a bucket (the B2 method). */
static void normalize_numbers(const char *in, char *out, size_t size)
{
	size_t o = 0;

	for (; *in && o + 1 < size; in++) {
		if (isdigit((unsigned char)*in)) {
			out[o++] = 'x';
			while (isdigit((unsigned char)in[1]))
				in++;
		} else {
			out[o++] = *in;
		}
	}
	out[o] = '\0';
}

static void copy_cut(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* A dump speaks about something: its header, or (partial) any section. */
static bool dump_says_something(const struct gpurobust_coredump *d)
{
	return d && (d->features || d->process[0] || d->timeout_ring[0]);
}

/* The dump's hang: the ring that timed out and the process the job was for;
 * with the series (D1), the recovery. */
static void hang_of_dump(struct gpurobust_report_hang *h, const struct gpurobust_coredump *d)
{
	memset(h, 0, sizeof(*h));
	h->sources = GPUROBUST_REPORT_FROM_DUMP;
	copy_cut(h->ring, sizeof(h->ring), d->timeout_ring);
	if (d->process[0] || d->pid) {
		h->has_process = true;
		copy_cut(h->process, sizeof(h->process), d->process);
		h->pid = d->pid;
	}
	h->vram_lost = d->vram_lost;
	if (d->features & GPUROBUST_CD_SERIES_RESET) {
		const struct gpurobust_cd_reset *s = &d->reset;

		h->type = s->type;
		h->outcome = s->outcome;
		if (s->ring[0])
			copy_cut(h->ring, sizeof(h->ring), s->ring);
		if (s->process[0]) {
			h->has_process = true;
			copy_cut(h->process, sizeof(h->process), s->process);
			h->pid = s->pid;
		}
	}
}

static void hang_of_log(struct gpurobust_report_hang *h, const struct gpurobust_log_hang *l)
{
	memset(h, 0, sizeof(*h));
	h->sources = GPUROBUST_REPORT_FROM_DMESG;
	h->line = l->line;
	copy_cut(h->device, sizeof(h->device), l->device);
	copy_cut(h->ring, sizeof(h->ring), l->ring);
	h->has_process = l->has_process;
	h->has_tid = l->has_tid;
	copy_cut(h->process, sizeof(h->process), l->process);
	copy_cut(h->thread, sizeof(h->thread), l->thread);
	h->pid = l->pid;
	h->tid = l->tid;
	h->type = l->recovery;
	h->outcome = l->outcome;
	h->vram_lost = l->vram_lost;
}

/* The dump wins where both speak; the series' D1 data decides the recovery. */
static void merge_hang(struct gpurobust_report_hang *into, const struct gpurobust_report_hang *dump,
		       bool series)
{
	into->sources |= GPUROBUST_REPORT_FROM_DUMP;
	if (dump->ring[0])
		copy_cut(into->ring, sizeof(into->ring), dump->ring);
	if (dump->has_process) {
		if (!into->has_process || dump->process[0])
			copy_cut(into->process, sizeof(into->process), dump->process);
		into->pid = dump->pid;
		into->has_process = true;
	}
	into->vram_lost |= dump->vram_lost;
	if (series) {
		into->type = dump->type;
		into->outcome = dump->outcome;
	}
}

/* The dump's fault: the 6.12 printer's block is always there, so only an
 * address, a status, or a fault line of the 6.7 prototype make it one. */
static bool fault_of_dump(struct gpurobust_report_fault *f, const struct gpurobust_coredump *d)
{
	memset(f, 0, sizeof(*f));
	if (!(d->features & GPUROBUST_CD_PAGE_FAULT) ||
	    (!d->fault_addr && !d->fault_status && !d->fault_seen))
		return false;
	f->sources = GPUROBUST_REPORT_FROM_DUMP;
	copy_cut(f->hub, sizeof(f->hub), d->fault_mmhub ? "mmhub" : "gfxhub");
	f->has_addr = true;
	f->addr = d->fault_addr;
	f->has_status = d->fault_status || !d->fault_seen;
	f->status = d->fault_status;
	copy_cut(f->client, sizeof(f->client), d->fault_client);
	if (f->has_status)
		gpurobust_fault_decode(f->status, gpurobust_fault_layout_of_family(d->family),
				       &f->bits);
	f->write = f->bits.layout && f->bits.rw;
	return true;
}

static void fault_of_log(struct gpurobust_report_fault *f, const struct gpurobust_log_fault *l)
{
	memset(f, 0, sizeof(*f));
	f->sources = GPUROBUST_REPORT_FROM_DMESG;
	f->line = l->line;
	copy_cut(f->device, sizeof(f->device), l->device);
	copy_cut(f->hub, sizeof(f->hub), l->hub);
	f->has_addr = l->has_addr;
	f->addr = l->addr;
	f->has_status = l->has_status;
	f->status = l->status;
	if (l->has_status)
		gpurobust_fault_decode(l->status, l->layout, &f->bits);
	copy_cut(f->client, sizeof(f->client), l->client);
	f->has_process = l->has_process;
	copy_cut(f->process, sizeof(f->process), l->process);
	f->pid = l->pid;
	copy_cut(f->thread, sizeof(f->thread), l->thread);
	f->tid = l->tid;
	f->has_tid = l->has_tid;
	f->write = f->bits.layout ? f->bits.rw : l->write;
}

/* Every hang: the log's in order, with the dump's merged into the last one
 * on its ring (or added after them); the headline is the dump's hang, else
 * the first. */
static int collect_hangs(struct gpurobust_report *r, const struct gpurobust_coredump *dump,
			 const struct gpurobust_dmesg *log)
{
	size_t n_log = log ? log->n_hangs : 0;
	bool have_dump = dump_says_something(dump);
	struct gpurobust_report_hang dh;
	long into = -1;

	r->hangs = calloc(n_log + 1, sizeof(*r->hangs));
	if (!r->hangs)
		return -ENOMEM;
	for (size_t i = 0; i < n_log; i++)
		hang_of_log(&r->hangs[r->n_hangs++], &log->hangs[i]);
	if (!have_dump)
		return 0;
	hang_of_dump(&dh, dump);
	for (size_t i = n_log; i-- > 0 && into < 0;)
		if (!dh.ring[0] || !strcmp(r->hangs[i].ring, dh.ring))
			into = (long)i;
	if (into < 0) {
		into = (long)r->n_hangs;
		r->hangs[r->n_hangs++] = dh;
	} else {
		merge_hang(&r->hangs[into], &dh, dump->features & GPUROBUST_CD_SERIES_RESET);
	}
	r->headline = (size_t)into;
	return 0;
}

/* Every fault: the log's in order, the dump's merged into the log's fault
 * at the same address (its client and RW bit fill the dump's) or added. */
static int collect_faults(struct gpurobust_report *r, const struct gpurobust_coredump *dump,
			  const struct gpurobust_dmesg *log)
{
	size_t n_log = log ? log->n_faults : 0;
	struct gpurobust_report_fault df;
	long into = -1;

	r->faults = calloc(n_log + 1, sizeof(*r->faults));
	if (!r->faults)
		return -ENOMEM;
	for (size_t i = 0; i < n_log; i++)
		fault_of_log(&r->faults[r->n_faults++], &log->faults[i]);
	if (!dump || !fault_of_dump(&df, dump))
		return 0;
	for (size_t i = n_log; i-- > 0 && into < 0;)
		if (r->faults[i].has_addr && r->faults[i].addr == df.addr)
			into = (long)i;
	if (into < 0) {
		into = (long)r->n_faults;
		r->faults[r->n_faults++] = df;
	} else {
		struct gpurobust_report_fault *f = &r->faults[into];

		f->sources |= GPUROBUST_REPORT_FROM_DUMP;
		if (df.has_status && !f->has_status) {
			f->has_status = true;
			f->status = df.status;
			f->bits = df.bits;
			f->write = df.write;
		}
	}
	r->headline_fault = (size_t)into;
	return 0;
}

static void from_dump(struct gpurobust_report *r, const struct gpurobust_coredump *d)
{
	r->sources |= GPUROBUST_REPORT_FROM_DUMP;
	if (d->features & GPUROBUST_CD_SERIES_RESET) {
		r->sources |= GPUROBUST_REPORT_FROM_SERIES;
		r->guilty_ctx = d->reset.guilty_ctx;
		r->seqno = d->reset.seqno;
	}
	copy_field(r->kernel, sizeof(r->kernel), d->kernel);
	r->generation = d->generation;
	r->time_sec = d->time_sec;
	r->time_nsec = d->time_nsec;
	r->n_diags = d->n_diags;
	r->truncated = d->truncated;
	r->partial = d->partial;
	r->family = d->family;
}

/* The scalar fields: the headline hang and the headline fault. */
static void headline(struct gpurobust_report *r)
{
	if (r->n_hangs) {
		const struct gpurobust_report_hang *h = &r->hangs[r->headline];

		copy_field(r->ring, sizeof(r->ring), h->ring);
		copy_field(r->process, sizeof(r->process), h->process);
		r->pid = h->pid;
		r->type = h->type;
		r->outcome = h->outcome;
		r->vram_lost = h->vram_lost;
	}
	if (r->n_faults) {
		const struct gpurobust_report_fault *f = &r->faults[r->headline_fault];

		r->fault = true;
		copy_field(r->fault_hub, sizeof(r->fault_hub), f->hub[0] ? f->hub : "gpuvm");
		r->fault_addr = f->addr;
		r->fault_status = f->status;
		copy_field(r->fault_client, sizeof(r->fault_client), f->client);
		r->fault_write = f->write;
		/* a fault without a hang: its process is the one to name */
		if (!r->n_hangs && f->has_process) {
			copy_field(r->process, sizeof(r->process), f->process);
			r->pid = f->pid;
		}
	}
}

/* Recompute title and signature from the report's facts; called again when
 * breadcrumbs are attached. */
void grb_report_sign(struct gpurobust_report *r)
{
	char process[32], what[96], path[24] = "", event[192];
	const char *who, *fault_kind = r->fault_write ? "write" : "read";

	normalize_numbers(r->process[0] ? r->process : "kernel", process, sizeof(process));
	if (r->fault)
		fieldf(what, sizeof(what), "%s %s fault%s%s%s", r->fault_hub, fault_kind,
			 r->fault_addr < NULL_PAGE_LIMIT ? " near NULL" : "",
			 r->fault_client[0] ? " by " : "", r->fault_client);
	else
		fieldf(what, sizeof(what), "no fault");
	/* The breadcrumb path, when known, is the best cause we have (B2). */
	if (r->breadcrumb_signature)
		fieldf(path, sizeof(path), "|path %016" PRIx64, r->breadcrumb_signature);
	fieldf(r->signature_key, sizeof(r->signature_key), "%s|%s|%s%s", process,
		 r->ring[0] ? r->ring : "?", what, path);
	r->signature = XXH64(r->signature_key, strlen(r->signature_key), 0);
	/* an empty name is a kernel job, unless the excerpt lost the line */
	who = r->process[0] ? r->process : r->partial ? "an unknown process" : "kernel";
	if (!r->n_hangs && r->fault)
		fieldf(event, sizeof(event), "%s faulted (%s)", who, what);
	else
		fieldf(event, sizeof(event), "%s hung on %s (%s)", who,
		       r->ring[0] ? r->ring : "an unknown ring", what);
	/* the headline says what it rests on; the signature does not, so that
	 * a pasted excerpt buckets with the whole dump */
	fieldf(r->title, sizeof(r->title), "%s%s%s%s", r->doing, r->doing[0] ? ": " : "",
	       event, r->partial ? " [partial devcoredump]" : "");
}

GPUROBUST_EXPORT
int gpurobust_report_build(const struct gpurobust_coredump *dump,
			   const struct gpurobust_dmesg *log,
			   struct gpurobust_report **out)
{
	struct gpurobust_report *r;

	if (!out || (!dump && !log))
		return -EINVAL;
	*out = NULL;
	if (!dump_says_something(dump) && (!log || (!log->n_hangs && !log->n_faults)))
		return -ENODATA;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (dump)
		from_dump(r, dump);
	if (log)
		r->sources |= GPUROBUST_REPORT_FROM_DMESG;
	if (collect_hangs(r, dump, log) || collect_faults(r, dump, log))
		goto oom;
	if (dump && dump->reset.n_innocents) {
		r->innocents = calloc(dump->reset.n_innocents, sizeof(*r->innocents));
		if (!r->innocents)
			goto oom;
		memcpy(r->innocents, dump->reset.innocents,
		       dump->reset.n_innocents * sizeof(*r->innocents));
		r->n_innocents = dump->reset.n_innocents;
	}
	if (log && log->n_diags) {
		r->log_diags = calloc(log->n_diags, sizeof(*r->log_diags));
		if (!r->log_diags)
			goto oom;
		memcpy(r->log_diags, log->diags, log->n_diags * sizeof(*r->log_diags));
		r->n_log_diags = log->n_diags;
	}
	headline(r);
	grb_report_map(r);
	grb_report_sign(r);
	*out = r;
	return 0;
oom:
	gpurobust_report_free(r);
	return -ENOMEM;
}

GPUROBUST_EXPORT
void gpurobust_report_free(struct gpurobust_report *report)
{
	if (!report)
		return;
	free(report->innocents);
	free(report->hangs);
	free(report->faults);
	free(report->log_diags);
	free(report);
}

GPUROBUST_EXPORT
const char *gpurobust_role_name(enum gpurobust_role role)
{
	switch (role) {
	case GPUROBUST_ROLE_UNKNOWN: return "unknown";
	case GPUROBUST_ROLE_GUILTY: return "guilty";
	case GPUROBUST_ROLE_INNOCENT: return "innocent";
	}
	return "invalid";
}
