// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The report object: streams of nodes in push order, linked into a tree.
 * Shared by the snapshot decoder and the JSON reader.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"

struct report_storage {
	struct gpurobust_bc_report pub;	/* first: the public pointer is ours */
	char **strings;
	size_t string_count, string_capacity;
};

struct gpurobust_bc_report *grb_bc_report_alloc(uint32_t stream_count)
{
	struct report_storage *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->pub.guilty_stream = -1;
	r->pub.streams = calloc(stream_count ? stream_count : 1, sizeof(*r->pub.streams));
	if (!r->pub.streams) {
		free(r);
		return NULL;
	}
	r->pub.stream_count = stream_count;
	return &r->pub;
}

const char *grb_bc_report_strdup(struct gpurobust_bc_report *report, const char *s)
{
	struct report_storage *r = (struct report_storage *)report;
	char *copy;

	if (r->string_count == r->string_capacity) {
		size_t cap = r->string_capacity ? r->string_capacity * 2 : 16;
		char **strings = realloc(r->strings, cap * sizeof(*strings));

		if (!strings)
			return NULL;
		r->strings = strings;
		r->string_capacity = cap;
	}
	copy = strdup(s);
	if (copy)
		r->strings[r->string_count++] = copy;
	return copy;
}

GPUROBUST_EXPORT void gpurobust_bc_report_free(struct gpurobust_bc_report *report)
{
	struct report_storage *r = (struct report_storage *)report;

	if (!r)
		return;
	for (size_t i = 0; i < r->string_count; i++)
		free(r->strings[i]);
	free(r->strings);
	for (uint32_t i = 0; i < report->stream_count; i++)
		free(report->streams[i].nodes);
	free(report->streams);
	free(r);
}

int grb_bc_stream_link_tree(struct gpurobust_bc_stream_report *stream)
{
	struct gpurobust_bc_node *nodes = stream->nodes;
	uint32_t last_root = GPUROBUST_BC_NONE;
	uint32_t *last_child;

	last_child = malloc(sizeof(*last_child) * (stream->node_count ? stream->node_count : 1));
	if (!last_child)
		return -ENOMEM;
	for (uint32_t i = 0; i < stream->node_count; i++) {
		struct gpurobust_bc_node *n = &nodes[i];

		last_child[i] = GPUROBUST_BC_NONE;
		n->first_child = GPUROBUST_BC_NONE;
		n->next_sibling = GPUROBUST_BC_NONE;
		if (n->parent == GPUROBUST_BC_NONE) {
			n->depth = 0;
			if (last_root != GPUROBUST_BC_NONE)
				nodes[last_root].next_sibling = i;
			last_root = i;
			continue;
		}
		/* Parents precede children in push order; anything else would
		 * make a cycle possible. */
		if (n->parent >= i) {
			free(last_child);
			return -EINVAL;
		}
		n->depth = nodes[n->parent].depth + 1;
		if (last_child[n->parent] == GPUROBUST_BC_NONE)
			nodes[n->parent].first_child = i;
		else
			nodes[last_child[n->parent]].next_sibling = i;
		last_child[n->parent] = i;
	}
	free(last_child);
	return 0;
}

uint32_t grb_bc_oldest_active_leaf(const struct gpurobust_bc_stream_report *stream)
{
	uint32_t at = GPUROBUST_BC_NONE;
	uint32_t next = stream->node_count ? 0 : GPUROBUST_BC_NONE;

	/* Several siblings can be in progress at once because the command
	 * processor runs ahead of the shaders; the first of them is the oldest
	 * unfinished work and the likely culprit (RGD says the same). */
	while (next != GPUROBUST_BC_NONE) {
		uint32_t child = next;

		while (child != GPUROBUST_BC_NONE &&
		       stream->nodes[child].state != GPUROBUST_BC_IN_PROGRESS)
			child = stream->nodes[child].next_sibling;
		if (child == GPUROBUST_BC_NONE)
			break;
		at = child;
		next = stream->nodes[child].first_child;
	}
	return at;
}

int grb_bc_guilty_stream(const struct gpurobust_bc_report *report)
{
	int best = -1;
	uint32_t best_depth = 0;

	if (report->guilty_stream >= 0 && (uint32_t)report->guilty_stream < report->stream_count)
		return report->guilty_stream;
	for (uint32_t i = 0; i < report->stream_count; i++) {
		uint32_t leaf = grb_bc_oldest_active_leaf(&report->streams[i]);
		uint32_t depth;

		if (leaf == GPUROBUST_BC_NONE)
			continue;
		depth = report->streams[i].nodes[leaf].depth + 1;
		if (depth > best_depth) {
			best_depth = depth;
			best = (int)i;
		}
	}
	return best;
}

GPUROBUST_EXPORT const char *gpurobust_bc_state_name(enum gpurobust_bc_state state)
{
	switch (state) {
	case GPUROBUST_BC_NOT_STARTED:
		return "not_started";
	case GPUROBUST_BC_IN_PROGRESS:
		return "in_progress";
	case GPUROBUST_BC_FINISHED:
		return "finished";
	case GPUROBUST_BC_OVERFLOW:
		return "overflow";
	case GPUROBUST_BC_INVALID:
		return "invalid";
	}
	return "unknown";
}

GPUROBUST_EXPORT const char *gpurobust_bc_queue_name(enum gpurobust_bc_queue queue)
{
	switch (queue) {
	case GPUROBUST_BC_QUEUE_GFX:
		return "gfx";
	case GPUROBUST_BC_QUEUE_COMPUTE:
		return "compute";
	case GPUROBUST_BC_QUEUE_SDMA:
		return "sdma";
	}
	return "unknown";
}
