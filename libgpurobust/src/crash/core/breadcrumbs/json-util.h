/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_BREADCRUMBS_JSON_UTIL_H
#define GPUROBUST_CORE_BREADCRUMBS_JSON_UTIL_H

#include <json-c/json.h>
#include <stdint.h>

#include "gpurobust/breadcrumbs-json.h"
#include "gpurobust/breadcrumbs.h"

/* Parses untrusted JSON text with at most max_depth nesting levels:
 * -EINVAL for anything malformed or too deep. */
int grb_bc_json_parse(const char *json, size_t len, int max_depth, json_object **root);

/* Reads an integer member in [min, max]; -EINVAL if absent or out of range. */
int grb_bc_json_get_int(json_object *o, const char *key, int64_t min, int64_t max, int64_t *v);

/* Reads a "queue" member written by gpurobust_bc_queue_name(). */
int grb_bc_json_get_queue(json_object *o, enum gpurobust_bc_queue *queue);

#endif
