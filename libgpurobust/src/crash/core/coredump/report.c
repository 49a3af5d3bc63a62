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

/* RW bit of *VM_L2_PROTECTION_FAULT_STATUS, the same on GFX9 to GFX12. */
#define FAULT_STATUS_RW		(1u << 18)

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

static void from_dump(struct gpurobust_report *r, const struct gpurobust_coredump *d)
{
	r->sources |= GPUROBUST_REPORT_FROM_DUMP;
	copy_field(r->ring, sizeof(r->ring), d->timeout_ring);
	copy_field(r->process, sizeof(r->process), d->process);
	r->pid = d->pid;
	r->vram_lost = d->vram_lost;
	if (d->features & GPUROBUST_CD_PAGE_FAULT && (d->fault_addr || d->fault_status)) {
		r->fault = true;
		copy_field(r->fault_hub, sizeof(r->fault_hub), d->fault_mmhub ? "mmhub" : "gfxhub");
		r->fault_addr = d->fault_addr;
		r->fault_status = d->fault_status;
		r->fault_write = d->fault_status & FAULT_STATUS_RW;
	}
	copy_field(r->kernel, sizeof(r->kernel), d->kernel);
	r->generation = d->generation;
	r->time_sec = d->time_sec;
	r->time_nsec = d->time_nsec;
	r->n_diags = d->n_diags;
	r->truncated = d->truncated;

	if (d->features & GPUROBUST_CD_SERIES_RESET) {
		const struct gpurobust_cd_reset *s = &d->reset;

		r->sources |= GPUROBUST_REPORT_FROM_SERIES;
		r->type = s->type;
		r->outcome = s->outcome;
		if (s->ring[0])
			copy_field(r->ring, sizeof(r->ring), s->ring);
		if (s->process[0]) {
			copy_field(r->process, sizeof(r->process), s->process);
			r->pid = s->pid;
		}
		r->guilty_ctx = s->guilty_ctx;
		r->seqno = s->seqno;
	}
}

static void from_log(struct gpurobust_report *r, const struct gpurobust_dmesg *l)
{
	r->sources |= GPUROBUST_REPORT_FROM_DMESG;
	if (l->timeout) {
		if (!r->ring[0])
			copy_field(r->ring, sizeof(r->ring), l->ring);
		if (!r->process[0] && l->process[0]) {
			copy_field(r->process, sizeof(r->process), l->process);
			r->pid = l->pid;
		}
		/* D1 data is authoritative; the log only fills older dumps */
		if (!(r->sources & GPUROBUST_REPORT_FROM_SERIES)) {
			r->type = l->recovery;
			r->outcome = l->outcome;
		}
		r->vram_lost |= l->vram_lost;
	}
	if (l->fault) {
		if (!r->fault) {
			r->fault = true;
			copy_field(r->fault_hub, sizeof(r->fault_hub), l->fault_hub);
			r->fault_addr = l->fault_addr;
			r->fault_status = l->fault_status;
			r->fault_write = l->fault_status_known ? l->fault_status & FAULT_STATUS_RW : l->rw;
		}
		copy_field(r->fault_client, sizeof(r->fault_client), l->fault_client);
	}
}

/* Recompute title and signature from the report's facts; called again when
 * breadcrumbs are attached. */
void report_sign(struct gpurobust_report *r)
{
	char process[32], what[96], path[24] = "";
	const char *fault_kind = r->fault_write ? "write" : "read";

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
	if (r->doing[0])
		fieldf(r->title, sizeof(r->title), "%s: %s hung on %s (%s)",
			 r->doing, r->process[0] ? r->process : "kernel",
			 r->ring[0] ? r->ring : "an unknown ring", what);
	else
		fieldf(r->title, sizeof(r->title), "%s hung on %s (%s)",
			 r->process[0] ? r->process : "kernel",
			 r->ring[0] ? r->ring : "an unknown ring", what);
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
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	if (dump) {
		from_dump(r, dump);
		if (dump->reset.n_innocents) {
			r->innocents = calloc(dump->reset.n_innocents, sizeof(*r->innocents));
			if (!r->innocents) {
				free(r);
				return -ENOMEM;
			}
			memcpy(r->innocents, dump->reset.innocents,
			       dump->reset.n_innocents * sizeof(*r->innocents));
			r->n_innocents = dump->reset.n_innocents;
		}
	}
	if (log)
		from_log(r, log);
	report_map(r);
	report_sign(r);
	*out = r;
	return 0;
}

GPUROBUST_EXPORT
void gpurobust_report_free(struct gpurobust_report *report)
{
	if (!report)
		return;
	free(report->innocents);
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
