/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* What the report, watch and triage subcommands share: the default store,
 * reading evidence files, and messages for the crash pipeline's errors. The
 * pipeline itself is the library's (gpurobust/crash.h). */
#ifndef GPUROBUST_TOOLS_CRASH_COMMON_H
#define GPUROBUST_TOOLS_CRASH_COMMON_H

#include <stddef.h>

#include <gpurobust/crash.h>

/* Where `gpurobust watch` keeps crashes unless told otherwise. */
#define GPUROBUST_STORE_DIR "/var/lib/gpurobust/crashes"

/* Read a whole file ("-" for standard input). Return: 0 or -errno. */
int crash_read_file(const char *path, char **text, size_t *len);

/* Read the files (either may be NULL, not both) and, when @meta_path is
 * not NULL, the breadcrumb metadata, then run the pipeline. Errors are
 * printed with @prog; nothing to report (-ENODATA) says so. Return: 0 or
 * -errno; -ENOENT or -EBADMSG when the metadata decodes no capture. */
int crash_load(const char *dump_path, const char *log_path, const char *meta_path,
	       const char *prog, struct gpurobust_crash **out);

#endif
