/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_BREADCRUMBS_SIGNATURE_INTERNAL_H
#define GPUROBUST_CORE_BREADCRUMBS_SIGNATURE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "gpurobust/breadcrumbs.h"

/* A growing NUL-terminated string; after a failed append it stays failed. */
struct bc_text {
	char *data;
	size_t len, capacity;
	bool failed;
};

int grb_bc_text_append(struct bc_text *text, const char *s, size_t n);

/* Our normaliser: decimal runs, hex literals and hash-like words to "x". */
size_t grb_bc_normalize_name(const char *in, char *out, size_t size);

/* Marks in keep[] what the baseline filter keeps among the siblings that
 * start at `first`. */
void grb_bc_unreal_keep(const struct gpurobust_bc_stream_report *stream, uint32_t first, bool *keep);

/* "queue:/a/b/c", the normalised oldest active path on the guilty stream;
 * *leaf_name is its raw last name, or NULL when nothing is active. */
int grb_bc_path_key(const struct gpurobust_bc_report *report, struct bc_text *key,
		const char **leaf_name);

#endif
