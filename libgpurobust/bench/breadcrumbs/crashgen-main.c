// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Writes a generated crash set to a directory, for `gpurobust group DIR`:
 * one report-NNNN.json per report and labels.tsv ("file<TAB>cause").
 *
 * usage: bc-crashgen DIR [SEED [CAUSES [REPORTS_PER_CAUSE]]]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "crashgen.h"
#include "gpurobust/breadcrumbs-json.h"

int main(int argc, char **argv)
{
	struct crashgen_params p = CRASHGEN_DEFAULTS;
	struct crash_set set;
	char path[4096];
	FILE *labels;

	if (argc < 2) {
		fprintf(stderr, "usage: bc-crashgen DIR [SEED [CAUSES [REPORTS_PER_CAUSE]]]\n");
		return 2;
	}
	if (argc > 2)
		p.seed = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		p.causes = (unsigned int)strtoul(argv[3], NULL, 0);
	if (argc > 4)
		p.reports_per_cause = (unsigned int)strtoul(argv[4], NULL, 0);
	if (mkdir(argv[1], 0755) && errno != EEXIST) {
		fprintf(stderr, "bc-crashgen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	if (!p.causes || !p.reports_per_cause || crashgen_make(&p, &set)) {
		fprintf(stderr, "bc-crashgen: cannot generate the crash set\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/labels.tsv", argv[1]);
	labels = fopen(path, "w");
	for (size_t i = 0; labels && i < set.count; i++) {
		char *json = gpurobust_bc_report_to_json(set.reports[i]);
		FILE *f;

		snprintf(path, sizeof(path), "%s/report-%04zu.json", argv[1], i);
		f = fopen(path, "w");
		if (!json || !f || fputs(json, f) < 0 || fclose(f)) {
			fprintf(stderr, "bc-crashgen: cannot write %s\n", path);
			free(json);
			crashgen_free(&set);
			return 1;
		}
		free(json);
		fprintf(labels, "report-%04zu.json\t%u\n", i, set.labels[i]);
	}
	if (!labels || fclose(labels)) {
		fprintf(stderr, "bc-crashgen: cannot write labels.tsv\n");
		crashgen_free(&set);
		return 1;
	}
	printf("%zu reports of %u causes in %s\n", set.count, p.causes, argv[1]);
	crashgen_free(&set);
	return 0;
}
