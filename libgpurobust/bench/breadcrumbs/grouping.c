// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Grouping bench: pairwise precision, recall and F1 of the Unreal baseline
 * and of our grouping on a generated, labelled crash set, and reports per
 * minute for each.
 *
 * usage: bench-bc-grouping [SEEDS]
 *
 * Three noise mixes (default, no truncation, heavy truncation) over SEEDS
 * generated sets each (default 5). Truncated reports are where the two
 * methods' limits show: one that lost the level its hang was in cannot be
 * told apart from its siblings' causes by names alone.
 *
 * Then the default mix twice more, to show what the GPU's out counter is
 * worth to ours: withheld (every counter 0, as from a source that has none),
 * and blurred by up to +-BLUR scopes per report, since the generator's
 * frames all have one shape while real frames vary in scope count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "crashgen.h"
#include "gpurobust/breadcrumbs-signature.h"

struct scores {
	double precision, recall, f1, reports_per_minute;
	size_t clusters;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Pairs in one predicted cluster are positives; pairs with one label are
 * true ones. */
static void pairwise(const uint32_t *labels, const uint32_t *clusters, size_t n, struct scores *s)
{
	unsigned long long tp = 0, fp = 0, fn = 0;

	for (size_t i = 0; i < n; i++) {
		for (size_t j = i + 1; j < n; j++) {
			bool same = labels[i] == labels[j], grouped = clusters[i] == clusters[j];

			tp += same && grouped;
			fp += !same && grouped;
			fn += same && !grouped;
		}
	}
	s->precision = tp + fp ? (double)tp / (double)(tp + fp) : 1.0;
	s->recall = tp + fn ? (double)tp / (double)(tp + fn) : 1.0;
	s->f1 = s->precision + s->recall > 0 ?
		2 * s->precision * s->recall / (s->precision + s->recall) : 0.0;
}

static int run(const struct crash_set *set, enum gpurobust_bc_grouping method, struct scores *s)
{
	uint32_t *clusters = calloc(set->count + 1, sizeof(*clusters));
	double start, elapsed;
	int ret;

	if (!clusters)
		return -1;
	start = now();
	ret = gpurobust_bc_group((const struct gpurobust_bc_report *const *)set->reports, set->count,
				 method, clusters, &s->clusters);
	elapsed = now() - start;
	if (!ret) {
		pairwise(set->labels, clusters, set->count, s);
		s->reports_per_minute = elapsed > 0 ? (double)set->count * 60.0 / elapsed : 0;
	}
	free(clusters);
	return ret;
}

static void print_row(const char *method, const struct scores *s, unsigned int runs)
{
	printf("%-8s %9.4f %9.4f %9.4f %9.1f %14.0f\n", method, s->precision / runs,
	       s->recall / runs, s->f1 / runs, (double)s->clusters / runs,
	       s->reports_per_minute / runs);
}

static void add(struct scores *sum, const struct scores *s)
{
	sum->precision += s->precision;
	sum->recall += s->recall;
	sum->f1 += s->f1;
	sum->clusters += s->clusters;
	sum->reports_per_minute += s->reports_per_minute;
}

enum counters { COUNTERS_KEPT, COUNTERS_WITHHELD, COUNTERS_BLURRED };

#define BLUR 3
#define BLUR_TEXT "3"

/* Changes the out counters of every report's streams; reproducible. */
static void change_counters(struct crash_set *set, enum counters how, uint64_t seed)
{
	uint64_t rnd = seed * 0x9e3779b97f4a7c15ull + 7;

	for (size_t i = 0; i < set->count; i++) {
		for (uint32_t k = 0; k < set->reports[i]->stream_count; k++) {
			struct gpurobust_bc_stream_report *st = &set->reports[i]->streams[k];
			int64_t blurred;

			if (how == COUNTERS_WITHHELD) {
				st->marker_in = st->marker_out = 0;
				continue;
			}
			rnd ^= rnd << 13;
			rnd ^= rnd >> 7;
			rnd ^= rnd << 17;
			blurred = (int64_t)st->marker_out + (int64_t)(rnd % (2 * BLUR + 1)) - BLUR;
			st->marker_out = blurred < 0 ? 0 : (uint32_t)blurred;
		}
	}
}

/* One noise mix over `seeds` generated sets: mean scores of both methods. */
static int run_mix(const char *title, struct crashgen_params p, unsigned int seeds,
		   enum counters counters)
{
	struct scores unreal_sum = { 0 }, ours_sum = { 0 };

	printf("\n%s: %u seeds x %u causes x %u reports (truncated %u%%, overflow %u%%, "
	       "unknown guilty %u%%, parallel work %u%%)\n", title, seeds, p.causes,
	       p.reports_per_cause, p.truncated_pct, p.overflow_pct, p.unknown_guilty_pct,
	       p.parallel_pct);
	for (unsigned int seed = 1; seed <= seeds; seed++) {
		struct crash_set set;
		struct scores unreal, ours;

		p.seed = seed;
		if (crashgen_make(&p, &set))
			return -1;
		if (counters != COUNTERS_KEPT)
			change_counters(&set, counters, seed);
		if (run(&set, GPUROBUST_BC_GROUP_UNREAL, &unreal) ||
		    run(&set, GPUROBUST_BC_GROUP_PATH, &ours)) {
			crashgen_free(&set);
			return -1;
		}
		add(&unreal_sum, &unreal);
		add(&ours_sum, &ours);
		crashgen_free(&set);
	}
	printf("%-8s %9s %9s %9s %9s %14s\n", "method", "precision", "recall", "F1", "clusters",
	       "reports/min");
	print_row("unreal", &unreal_sum, seeds);
	print_row("ours", &ours_sum, seeds);
	return 0;
}

int main(int argc, char **argv)
{
	struct crashgen_params p = CRASHGEN_DEFAULTS, quiet, heavy;
	unsigned int seeds = argc > 1 ? (unsigned int)strtoul(argv[1], NULL, 0) : 5;

	if (!seeds) {
		fprintf(stderr, "usage: bench-bc-grouping [SEEDS]\n");
		return 2;
	}
	quiet = p;
	quiet.truncated_pct = quiet.overflow_pct = 0;
	heavy = p;
	heavy.truncated_pct = heavy.overflow_pct = 10;
	printf("pairwise precision/recall/F1 against the generator's labels, mean over seeds\n");
	if (run_mix("default mix", p, seeds, COUNTERS_KEPT) ||
	    run_mix("no truncation or overflow", quiet, seeds, COUNTERS_KEPT) ||
	    run_mix("heavy truncation and overflow", heavy, seeds, COUNTERS_KEPT) ||
	    run_mix("default mix, out counters withheld", p, seeds, COUNTERS_WITHHELD) ||
	    run_mix("default mix, out counters blurred by up to +-" BLUR_TEXT " scopes", p, seeds,
		    COUNTERS_BLURRED)) {
		fprintf(stderr, "bench-bc-grouping: generating or grouping failed\n");
		return 1;
	}
	return 0;
}
