// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * libFuzzer target for the two JSON readers a crash collector feeds with
 * files from disk: the breadcrumb metadata and the breadcrumb report. A
 * report that parses is an arbitrary tree of arbitrary states, so it also
 * drives everything that reads reports: text, JSON, signatures, grouping.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "gpurobust/breadcrumbs-signature.h"
#include "gpurobust/breadcrumbs-json.h"
#include "gpurobust/breadcrumbs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpurobust_bc_meta *meta;
	struct gpurobust_bc_report *report;
	struct gpurobust_bc_signature sig;
	static FILE *sink;
	uint32_t cluster[2];
	size_t clusters;

	if (gpurobust_bc_meta_from_json((const char *)data, size, &meta) == 0) {
		free(gpurobust_bc_meta_to_json(meta));
		gpurobust_bc_meta_free(meta);
	}
	if (gpurobust_bc_report_from_json((const char *)data, size, &report) == 0) {
		const struct gpurobust_bc_report *pair[2] = { report, report };

		if (!sink)
			sink = fopen("/dev/null", "w");
		if (sink)
			gpurobust_bc_report_print(report, sink, 0);
		gpurobust_bc_unreal_signature(report, &sig);
		gpurobust_bc_path_signature(report, &sig);
		gpurobust_bc_group(pair, 2, GPUROBUST_BC_GROUP_PATH, cluster, &clusters);
		gpurobust_bc_group(pair, 2, GPUROBUST_BC_GROUP_UNREAL, cluster, &clusters);
		free(gpurobust_bc_report_to_json(report));
		gpurobust_bc_report_free(report);
	}
	return 0;
}
