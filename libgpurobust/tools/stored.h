/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/*
 * What list, info and dump share: the stored crashes the caller may read,
 * picked the way coredumpctl picks core dumps (a PID, a process name, or a
 * signature; --since and --until), and a stored crash's report.
 */
#ifndef GPUROBUST_TOOLS_STORED_H
#define GPUROBUST_TOOLS_STORED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gpurobust/collector.h>
#include <gpurobust/crash.h>

struct stored_query {
	const char *store_dir;
	int64_t since, until;		/* Unix times; 0 and INT64_MAX: any */
	char *const *matches;		/* PID, COMM or signature; all must hold */
	int n_matches;
	bool json;
	const char *output;		/* dump: a file instead of stdout */
};

/* "@UNIX", "YYYY-MM-DD", "YYYY-MM-DD HH:MM[:SS]" (local time, as
 * journalctl reads them), "today", "yesterday", or "-N" seconds, or with
 * s, min, h or d, before now. Return: 0, -EINVAL, or -ERANGE. */
int stored_parse_time(const char *s, int64_t *out);

/* Parse the options list, info and dump share into @q (the matches are
 * what is left of argv). Prints usage with @usage_line on a bad option.
 * Return: 0, 1 after --help, -1 on a usage error. */
int stored_parse_args(int argc, char **argv, const char *usage_line, struct stored_query *q);

/* The crashes @q selects, oldest first. Prints, with @prog, why there are
 * none, and how many other users' crashes were not shown. Return: 0 (with
 * *n possibly 0), or -errno of reading the store. */
int stored_select(const struct stored_query *q, const char *prog,
		  struct gpurobust_stored_crash **out, size_t *n);

/* The report of @crash from its stored dump and log. Return: 0, -ENOENT
 * when neither was kept, or -errno. */
int stored_crash_load(const char *store_dir, const struct gpurobust_stored_crash *crash,
		      struct gpurobust_crash **out);

/* "present", "missing" (kept once, or not kept for a reason) or "none". */
const char *stored_dump_state(const struct gpurobust_stored_crash *crash);

/* @t as "Mon 2026-12-07 19:17:17 UTC", in local time. */
void stored_format_time(int64_t t, char *buf, size_t size);

#endif
