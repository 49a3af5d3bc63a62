/* SPDX-License-Identifier: MIT */
/* What the report, watch and triage subcommands share: the default store,
 * reading evidence files, and turning evidence text into a report. */
#ifndef GPUROBUST_TOOLS_CRASH_COMMON_H
#define GPUROBUST_TOOLS_CRASH_COMMON_H

#include <stddef.h>

#include <gpurobust/report.h>

/* Where `gpurobust watch` keeps crashes unless told otherwise. */
#define GPUROBUST_STORE_DIR "/var/lib/gpurobust/crashes"

/* A devcoredump and/or kernel log, parsed, and the report built from them. */
struct crash_evidence {
	char *dump_text, *log_text;	/* NULL when absent */
	size_t dump_len, log_len;
	struct gpurobust_coredump *dump;
	struct gpurobust_dmesg *log;
	struct gpurobust_report *report;
};

/* Read a whole file ("-" for standard input). Return: 0 or -errno. */
int crash_read_file(const char *path, char **text, size_t *len);

/* Read the files (either may be NULL, not both), parse and build. Errors
 * are printed with @prog. Return: 0 or -errno. */
int crash_evidence_load(struct crash_evidence *ev, const char *dump_path,
			const char *log_path, const char *prog);

/* Parse ev->dump_text and ev->log_text, which the caller filled, and build
 * the report. Return: 0 or -errno. */
int crash_evidence_build(struct crash_evidence *ev);

void crash_evidence_free(struct crash_evidence *ev);

#endif
