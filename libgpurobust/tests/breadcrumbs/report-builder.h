/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_TESTS_BREADCRUMBS_REPORT_BUILDER_H
#define GPUROBUST_TESTS_BREADCRUMBS_REPORT_BUILDER_H

#include "gpurobust/breadcrumbs.h"

/* One line of a tree written as an outline: depth, state, name. */
struct outline {
	uint32_t depth;
	enum gpurobust_bc_state state;
	const char *name;
};

struct outline_stream {
	enum gpurobust_bc_queue queue;
	const struct outline *lines;
	uint32_t count;
	uint32_t dropped;
	bool invalid;
};

/* Builds a report straight from outlines, without a pool or a GPU. */
struct gpurobust_bc_report *build_report(const struct outline_stream *streams, uint32_t count,
					 int32_t guilty);

#define OUTLINE(queue, lines) { (queue), (lines), sizeof(lines) / sizeof((lines)[0]), 0, false }

#endif
