/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BENCH_BREADCRUMBS_CRASHGEN_H
#define GPUROBUST_BENCH_BREADCRUMBS_CRASHGEN_H

/*
 * Labelled synthetic crash sets for judging signatures and grouping.
 *
 * One random frame template (passes, sub-passes, draws) is shared by the
 * whole set; a root cause is one leaf of it at depth 2 or more where the GPU
 * hangs. Each report of a cause instantiates the frame with the hang there,
 * plus the noise real reports carry:
 *   - numbers in names that change per report (frame numbers, mesh ids) and,
 *     for some causes, a hex PSO hash that changes too;
 *   - run-ahead: the command processor has started up to two later siblings
 *     at each level of the hang path;
 *   - parallel work: async compute and SDMA streams with random progress;
 *   - truncated stacks: the level the hang is in, and every level below it,
 *     was not recorded;
 *   - overflow: the stream ran out of scopes at a scope of the hang path;
 *   - an unknown guilty queue (no devcoredump) for a share of reports.
 * Every stream carries the two GPU counters a decoded report has (in: the
 * furthest push started, out: the last pop finished), counted over the
 * whole frame: truncation loses names, not the GPU's writes.
 */
#include <stddef.h>
#include <stdint.h>

#include "gpurobust/breadcrumbs.h"

struct crashgen_params {
	uint64_t seed;
	unsigned int causes;
	unsigned int reports_per_cause;
	/* Shares in percent. */
	unsigned int truncated_pct, overflow_pct, unknown_guilty_pct, parallel_pct;
};

#define CRASHGEN_DEFAULTS { .seed = 1, .causes = 30, .reports_per_cause = 20, \
	.truncated_pct = 5, .overflow_pct = 5, .unknown_guilty_pct = 10, .parallel_pct = 70 }

struct crash_set {
	size_t count;
	struct gpurobust_bc_report **reports;
	uint32_t *labels;	/* root cause of each report */
};

/* Builds the set; 0 or -ENOMEM. Reports are shuffled. */
int crashgen_make(const struct crashgen_params *params, struct crash_set *set);
void crashgen_free(struct crash_set *set);

#endif
