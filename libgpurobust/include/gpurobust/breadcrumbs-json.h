/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BREADCRUMBS_JSON_H
#define GPUROBUST_BREADCRUMBS_JSON_H

/*
 * JSON forms of breadcrumb metadata and reports, for crash collectors
 * (libgpurobust-crash; json-c). A driver records and reads back breadcrumbs
 * with gpurobust/breadcrumbs.h alone and never needs these.
 */
#include <stddef.h>

#include "breadcrumbs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A JSON form of the metadata, freed with free(). NULL on allocation failure. */
char *gpurobust_bc_meta_to_json(const struct gpurobust_bc_meta *meta);
int gpurobust_bc_meta_from_json(const char *json, size_t len,
				struct gpurobust_bc_meta **meta_out);

/* JSON text freed with free(); NULL on allocation failure. */
char *gpurobust_bc_report_to_json(const struct gpurobust_bc_report *report);
/* Reads what gpurobust_bc_report_to_json() wrote; -EINVAL on anything else. */
int gpurobust_bc_report_from_json(const char *json, size_t len,
				  struct gpurobust_bc_report **report_out);

#ifdef __cplusplus
}
#endif

#endif
