/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* What the report, watch and triage subcommands share: the default store,
 * reading evidence files, and turning evidence text into a report. */
#ifndef GPUROBUST_TOOLS_CRASH_COMMON_H
#define GPUROBUST_TOOLS_CRASH_COMMON_H

#include <stddef.h>

#include <gpurobust/report.h>

/* Where `gpurobust watch` keeps crashes unless told otherwise. */
#define GPUROBUST_STORE_DIR "/var/lib/gpurobust/crashes"

/* What the breadcrumb decoder made of one User Capture section (D3). */
struct crash_capture {
	struct gpurobust_bc_report *bc;	/* NULL when nothing decoded */
	int status;			/* 0, or gpurobust_bc_decode()'s errno */
};

/* A devcoredump and/or kernel log, parsed, and the report built from them. */
struct crash_evidence {
	char *dump_text, *log_text;	/* NULL when absent */
	size_t dump_len, log_len;
	struct gpurobust_coredump *dump;
	struct gpurobust_dmesg *log;
	struct gpurobust_report *report;
	struct crash_capture *captures;	/* one per dump->captures, or NULL */
};

/* Read a whole file ("-" for standard input). Return: 0 or -errno. */
int crash_read_file(const char *path, char **text, size_t *len);

/* Read the files (either may be NULL, not both), parse and build. Errors
 * are printed with @prog. Return: 0 or -errno. */
int crash_evidence_load(struct crash_evidence *ev, const char *dump_path,
			const char *log_path, const char *prog);

/* Parse ev->dump_text and ev->log_text, which the caller filled, build the
 * report and decode the captures that describe themselves. Return: 0 or
 * -errno. */
int crash_evidence_build(struct crash_evidence *ev);

/* (Re)decode every User Capture section, with the breadcrumb metadata in
 * @meta_path or, when NULL, from the captures alone; the first capture that
 * decodes is attached to the report. Errors are printed with @prog.
 * Return: 0; -ENOENT (no capture) or -EBADMSG (none decodes) with
 * @meta_path; -errno of reading it; -ENOMEM. */
int crash_evidence_decode_captures(struct crash_evidence *ev, const char *meta_path,
				   const char *prog);

/* A short text for a crash_capture status. */
const char *crash_capture_status(int status);

void crash_evidence_free(struct crash_evidence *ev);

#endif
