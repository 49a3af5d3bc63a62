// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The JSON report, with RGD's key names where RGD has one:
 *
 *   {"format": "gpurobust-breadcrumbs-report", "version": 1, "guilty_stream": 0,
 *    "streams": [{"tag": 7, "queue": "gfx", "label": "...", "valid": true,
 *                 "invalid_reason": null, "marker_in": 12, "marker_out": 9,
 *                 "dropped": 0,
 *                 "execution_marker_tree": [{"name": "Frame 1", "execution_status":
 *                     "in_progress", "children": [...]}]}]}
 *
 * execution_status is not_started, in_progress or finished, or overflow and
 * invalid for the two states RGD does not have. Nesting deeper than
 * BC_JSON_MAX_DEPTH is cut and counted in "omitted_children", because JSON
 * readers (json-c's included) recurse per level.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/text.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"
#include "crash/core/breadcrumbs/json-util.h"

#define REPORT_FORMAT "gpurobust-breadcrumbs-report"
#define BC_JSON_MAX_DEPTH 200u

/* The application's own strings (scope names, labels): escaped as in the
 * text report, so the JSON is valid UTF-8 and inert in a terminal. */
static json_object *escaped_string(const char *s)
{
	size_t need = gpurobust_text_escape(NULL, 0, s);
	char *e = malloc(need + 1);
	json_object *o;

	if (!e)
		return NULL;
	gpurobust_text_escape(e, need + 1, s);
	o = json_object_new_string(e);
	free(e);
	return o;
}

static json_object *node_object(const struct gpurobust_bc_node *n)
{
	json_object *o = json_object_new_object();

	if (!o)
		return NULL;
	json_object_object_add(o, "name", escaped_string(n->name));
	json_object_object_add(o, "execution_status",
			       json_object_new_string(gpurobust_bc_state_name(n->state)));
	return o;
}

/* Adds `child` to the "children" array of `parent`, creating it. */
static void add_child(json_object *parent, json_object *child)
{
	json_object *children;

	if (!json_object_object_get_ex(parent, "children", &children)) {
		children = json_object_new_array();
		json_object_object_add(parent, "children", children);
	}
	json_object_array_add(children, child);
}

static void count_omitted(json_object *o)
{
	json_object *m;
	int64_t n = 0;

	if (json_object_object_get_ex(o, "omitted_children", &m))
		n = json_object_get_int64(m);
	json_object_object_add(o, "omitted_children", json_object_new_int64(n + 1));
}

static json_object *stream_object(const struct gpurobust_bc_stream_report *s)
{
	json_object *o = json_object_new_object();
	json_object *tree = json_object_new_array();
	json_object **objs = calloc(s->node_count + 1, sizeof(*objs));

	if (!o || !tree || !objs)
		goto fail;
	json_object_object_add(o, "tag", json_object_new_int64(s->tag));
	json_object_object_add(o, "queue", json_object_new_string(gpurobust_bc_queue_name(s->queue)));
	json_object_object_add(o, "label", escaped_string(s->label ? s->label : ""));
	json_object_object_add(o, "valid", json_object_new_boolean(s->valid));
	json_object_object_add(o, "invalid_reason",
			       s->invalid_reason ? json_object_new_string(s->invalid_reason) : NULL);
	json_object_object_add(o, "marker_in", json_object_new_int64(s->marker_in));
	json_object_object_add(o, "marker_out", json_object_new_int64(s->marker_out));
	json_object_object_add(o, "dropped", json_object_new_int64(s->dropped));
	/* Parents come before children in node order, so one forward pass
	 * builds the nesting without recursion. */
	for (uint32_t i = 0; i < s->node_count; i++) {
		const struct gpurobust_bc_node *n = &s->nodes[i];

		if (n->depth > BC_JSON_MAX_DEPTH) {
			continue;
		} else if (n->depth == BC_JSON_MAX_DEPTH) {
			count_omitted(objs[n->parent]);
			continue;
		}
		objs[i] = node_object(n);
		if (!objs[i])
			goto fail;
		if (n->parent == GPUROBUST_BC_NONE)
			json_object_array_add(tree, objs[i]);
		else
			add_child(objs[n->parent], objs[i]);
	}
	json_object_object_add(o, "execution_marker_tree", tree);
	free(objs);
	return o;
fail:
	free(objs);
	json_object_put(tree);
	json_object_put(o);
	return NULL;
}

GPUROBUST_EXPORT char *gpurobust_bc_report_to_json(const struct gpurobust_bc_report *report)
{
	json_object *root, *streams;
	char *text = NULL;

	if (!report)
		return NULL;
	root = json_object_new_object();
	streams = json_object_new_array();
	if (!root || !streams) {
		json_object_put(root);
		json_object_put(streams);
		return NULL;
	}
	json_object_object_add(root, "format", json_object_new_string(REPORT_FORMAT));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "guilty_stream", json_object_new_int(report->guilty_stream));
	json_object_object_add(root, "streams", streams);
	for (uint32_t i = 0; i < report->stream_count; i++) {
		json_object *s = stream_object(&report->streams[i]);

		if (!s)
			goto out;
		json_object_array_add(streams, s);
	}
	text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
							   JSON_C_TO_STRING_SPACED));
out:
	json_object_put(root);
	return text;
}

/* ---- reading ------------------------------------------------------------ */

struct node_list {
	struct gpurobust_bc_node *nodes;
	uint32_t count, capacity;
};

static int parse_state(const char *s, enum gpurobust_bc_state *state)
{
	for (int st = GPUROBUST_BC_NOT_STARTED; st <= GPUROBUST_BC_INVALID; st++) {
		if (!strcmp(s, gpurobust_bc_state_name(st))) {
			*state = st;
			return 0;
		}
	}
	return -EINVAL;
}

/* Recursion is bounded by the tokener's depth limit set in from_json. */
static int parse_nodes(struct gpurobust_bc_report *report, json_object *array, uint32_t parent,
		       struct node_list *list)
{
	if (!json_object_is_type(array, json_type_array))
		return -EINVAL;
	for (size_t i = 0; i < json_object_array_length(array); i++) {
		json_object *o = json_object_array_get_idx(array, i);
		json_object *name, *status, *children;
		struct gpurobust_bc_node *n;
		uint32_t index;
		int ret;

		if (!json_object_is_type(o, json_type_object) ||
		    !json_object_object_get_ex(o, "name", &name) ||
		    !json_object_is_type(name, json_type_string) ||
		    !json_object_object_get_ex(o, "execution_status", &status) ||
		    !json_object_is_type(status, json_type_string))
			return -EINVAL;
		if (list->count == list->capacity) {
			uint32_t cap = list->capacity ? list->capacity * 2 : 32;
			struct gpurobust_bc_node *nodes = realloc(list->nodes, cap * sizeof(*nodes));

			if (!nodes)
				return -ENOMEM;
			list->nodes = nodes;
			list->capacity = cap;
		}
		index = list->count++;
		n = &list->nodes[index];
		memset(n, 0, sizeof(*n));
		n->parent = parent;
		n->name = grb_bc_report_strdup(report, json_object_get_string(name));
		if (!n->name)
			return -ENOMEM;
		if (parse_state(json_object_get_string(status), &n->state))
			return -EINVAL;
		if (json_object_object_get_ex(o, "children", &children)) {
			ret = parse_nodes(report, children, index, list);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int get_uint(json_object *o, const char *key, uint32_t *v)
{
	int64_t x;

	if (grb_bc_json_get_int(o, key, 0, UINT32_MAX, &x))
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

static int parse_stream(struct gpurobust_bc_report *report, json_object *o,
			struct gpurobust_bc_stream_report *s)
{
	struct node_list list = { 0 };
	json_object *m, *tree;
	int ret;

	if (!json_object_is_type(o, json_type_object) || get_uint(o, "tag", &s->tag) ||
	    get_uint(o, "marker_in", &s->marker_in) || get_uint(o, "marker_out", &s->marker_out) ||
	    get_uint(o, "dropped", &s->dropped) ||
	    !json_object_object_get_ex(o, "execution_marker_tree", &tree))
		return -EINVAL;
	if (grb_bc_json_get_queue(o, &s->queue))
		return -EINVAL;
	s->label = grb_bc_report_strdup(report, json_object_object_get_ex(o, "label", &m) &&
				    json_object_is_type(m, json_type_string) ?
				    json_object_get_string(m) : "");
	if (!s->label)
		return -ENOMEM;
	s->valid = !json_object_object_get_ex(o, "valid", &m) || json_object_get_boolean(m);
	if (json_object_object_get_ex(o, "invalid_reason", &m) &&
	    json_object_is_type(m, json_type_string)) {
		s->invalid_reason = grb_bc_report_strdup(report, json_object_get_string(m));
		if (!s->invalid_reason)
			return -ENOMEM;
	} else if (!s->valid) {
		s->invalid_reason = "unknown";
	}
	ret = parse_nodes(report, tree, GPUROBUST_BC_NONE, &list);
	s->nodes = list.nodes;
	s->node_count = list.count;
	return ret ? ret : grb_bc_stream_link_tree(s);
}

GPUROBUST_EXPORT int gpurobust_bc_report_from_json(const char *json, size_t len,
						   struct gpurobust_bc_report **report_out)
{
	struct gpurobust_bc_report *report = NULL;
	json_object *root, *m, *streams;
	int ret;

	if (!report_out)
		return -EINVAL;
	*report_out = NULL;
	/* Two JSON levels per scope level (object, children array) plus the
	 * envelope. */
	ret = grb_bc_json_parse(json, len, 2 * BC_JSON_MAX_DEPTH + 8, &root);
	if (ret)
		return ret;
	ret = -EINVAL;
	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &m) ||
	    !json_object_is_type(m, json_type_string) ||
	    strcmp(json_object_get_string(m), REPORT_FORMAT) ||
	    !json_object_object_get_ex(root, "streams", &streams) ||
	    !json_object_is_type(streams, json_type_array) ||
	    json_object_array_length(streams) > UINT32_MAX)
		goto out;
	report = grb_bc_report_alloc((uint32_t)json_object_array_length(streams));
	if (!report) {
		ret = -ENOMEM;
		goto out;
	}
	if (json_object_object_get_ex(root, "guilty_stream", &m) &&
	    json_object_is_type(m, json_type_int)) {
		int64_t g = json_object_get_int64(m);

		report->guilty_stream = g >= 0 && g < report->stream_count ? (int32_t)g : -1;
	}
	for (uint32_t i = 0; i < report->stream_count; i++) {
		ret = parse_stream(report, json_object_array_get_idx(streams, i), &report->streams[i]);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	json_object_put(root);
	if (ret)
		gpurobust_bc_report_free(report);
	else
		*report_out = report;
	return ret;
}
