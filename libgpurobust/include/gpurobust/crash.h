/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: the crash pipeline
 *
 * One call from the bytes a collector has (a devcoredump, kernel log lines)
 * to everything a report needs: both parsed, the report built, every User
 * Capture section's breadcrumbs decoded (D3) and the first that decodes
 * attached, so that title and signature include it (B2). `gpurobust report`,
 * `gpurobust watch` and any other collector call this and print or store the
 * result; none of them assembles the pieces itself. Pure: no files, no
 * devices.
 */
#ifndef GPUROBUST_CRASH_H
#define GPUROBUST_CRASH_H

#include <stddef.h>
#include <stdio.h>

#include "breadcrumbs.h"
#include "coredump.h"
#include "report.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What the breadcrumb decoder made of one User Capture section. */
struct gpurobust_crash_capture {
	struct gpurobust_bc_report *bc;	/* NULL when nothing decoded */
	int status;			/* 0, or gpurobust_bc_decode()'s errno */
};

struct gpurobust_crash {
	struct gpurobust_coredump *dump;	/* NULL without dump text */
	struct gpurobust_dmesg *log;		/* NULL without log text */
	struct gpurobust_report *report;
	struct gpurobust_crash_capture *captures;	/* one per dump->captures */
	size_t n_captures;
	/* With metadata: 0 when a capture decoded with it, -ENOENT when the
	 * dump has no capture, -EBADMSG when none decodes. 0 without. */
	int meta_status;
};

/**
 * gpurobust_crash_analyze() - parse, build the report and decode the captures
 * @dump: devcoredump text, or NULL
 * @dump_len: its length
 * @log: kernel log text (dmesg, journalctl -k, /dev/kmsg), or NULL
 * @log_len: its length
 * @meta: breadcrumb metadata the process saved, for captures that do not
 *        describe themselves; NULL to decode the captures alone
 * @out: the result; free it with gpurobust_crash_free()
 *
 * A @dump without any devcoredump section, given without a @log, is read
 * as a kernel log: people hand over whatever they saved.
 *
 * Return: 0; -EINVAL when both texts are NULL or @out is; -ENOMEM; -ENODATA
 * when there is nothing amdgpu to report (no devcoredump section, no hang
 * or fault line): a collector must not store such input.
 */
int gpurobust_crash_analyze(const char *dump, size_t dump_len, const char *log, size_t log_len,
			    const struct gpurobust_bc_meta *meta, struct gpurobust_crash **out);

/* Safe on NULL. */
void gpurobust_crash_free(struct gpurobust_crash *crash);

/**
 * gpurobust_crash_print() - the report as text, then each capture's tree
 * @crash: the result of gpurobust_crash_analyze()
 * @out: where to write
 *
 * Every string that came from the input is escaped (gpurobust_text_escape()).
 *
 * Return: 0, -EINVAL for NULL pointers, -EIO when writing failed, -ENOMEM.
 */
int gpurobust_crash_print(const struct gpurobust_crash *crash, FILE *out);

/**
 * gpurobust_crash_to_json() - the report as one JSON object
 * @crash: the result of gpurobust_crash_analyze()
 *
 * gpurobust_report_to_json() plus "captures" (one object per User Capture
 * section: size, bytes, status and, when it decoded, breadcrumbs) and
 * "breadcrumbs", the tree of the capture that titles the report.
 *
 * Return: a NUL-terminated string to free(), or NULL on allocation failure.
 */
char *gpurobust_crash_to_json(const struct gpurobust_crash *crash);

/* A short text for a gpurobust_crash_capture status. */
const char *gpurobust_crash_capture_status(int status);

#ifdef __cplusplus
}
#endif

#endif
