/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BREADCRUMBS_SIGNATURE_H
#define GPUROBUST_BREADCRUMBS_SIGNATURE_H

/*
 * Crash signatures and grouping over breadcrumb reports (B2).
 *
 * The baseline is the published Unreal Engine / REDengine method: filter the
 * tree, replace numbers with "x", hash with xxh64, title by the deepest
 * active scope. Ours keys on the guilty queue's oldest active path instead,
 * so that parallel work and timing noise do not split one root cause.
 */
#include <stddef.h>
#include <stdint.h>

#include "breadcrumbs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUROBUST_BC_TITLE_MAX 256

struct gpurobust_bc_signature {
	uint64_t hash;
	char title[GPUROBUST_BC_TITLE_MAX];
};

enum gpurobust_bc_grouping {
	GPUROBUST_BC_GROUP_UNREAL,	/* equal baseline signatures */
	GPUROBUST_BC_GROUP_PATH,	/* ours: guilty active path + similarity */
};

/* Copies `in` to `out` with every run of decimal digits replaced by one "x",
 * as the baseline does. Returns the length of the full result (like
 * snprintf); out is always terminated when size > 0. */
size_t gpurobust_bc_normalize_numbers(const char *in, char *out, size_t size);

/* The baseline's filtered dump, before normalisation: per stream a header
 * line and one "[state] <indent>name" line per kept scope. free() it. */
char *gpurobust_bc_unreal_dump(const struct gpurobust_bc_report *report);
int gpurobust_bc_unreal_signature(const struct gpurobust_bc_report *report,
				  struct gpurobust_bc_signature *signature);

/* Ours: hash of the normalised active path on the guilty stream. */
int gpurobust_bc_path_signature(const struct gpurobust_bc_report *report,
				struct gpurobust_bc_signature *signature);

/* Clusters n reports. cluster_of[i] receives the cluster of report i,
 * numbered from 0 in order of first appearance; *cluster_count the number of
 * clusters. */
int gpurobust_bc_group(const struct gpurobust_bc_report *const *reports,
		       size_t n, enum gpurobust_bc_grouping method,
		       uint32_t *cluster_of, size_t *cluster_count);

#ifdef __cplusplus
}
#endif

#endif
