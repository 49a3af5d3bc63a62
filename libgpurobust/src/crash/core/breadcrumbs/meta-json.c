// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The metadata's file form, so that a crash collector can decode a
 * devcoredump capture after the recording process died:
 *
 *   {"format": "gpurobust-breadcrumbs-meta", "version": 1,
 *    "pool_id": 123, "record_count": 131071, "names": ["Frame", ...],
 *    "streams": [{"record": 0, "tag": 7, "queue": "gfx", "label": "...",
 *                 "dropped": 0, "overflow_parent": -1,
 *                 "scopes": [name, parent, pop_seq, name, parent, pop_seq, ...]}]}
 *
 * parent is -1 for a root. The reader checks every index, because the file
 * is as untrusted as the capture.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"
#include "crash/core/breadcrumbs/json-util.h"

#define META_FORMAT "gpurobust-breadcrumbs-meta"

static int64_t index_or_minus_one(uint32_t v)
{
	return v == GPUROBUST_BC_NONE ? -1 : (int64_t)v;
}

static json_object *stream_to_json(const struct bc_meta_stream *ms)
{
	json_object *o = json_object_new_object();
	json_object *scopes = json_object_new_array_ext((int)ms->scope_count * 3);

	if (!o || !scopes) {
		json_object_put(o);
		json_object_put(scopes);
		return NULL;
	}
	json_object_object_add(o, "record", json_object_new_int64(ms->record));
	json_object_object_add(o, "tag", json_object_new_int64(ms->tag));
	json_object_object_add(o, "queue", json_object_new_string(gpurobust_bc_queue_name(ms->queue)));
	json_object_object_add(o, "label", json_object_new_string(ms->label ? ms->label : ""));
	json_object_object_add(o, "dropped", json_object_new_int64(ms->dropped));
	json_object_object_add(o, "overflow_parent",
			       json_object_new_int64(index_or_minus_one(ms->overflow_parent)));
	for (uint32_t i = 0; i < ms->scope_count; i++) {
		json_object_array_add(scopes, json_object_new_int64(ms->scopes[i].name));
		json_object_array_add(scopes,
				      json_object_new_int64(index_or_minus_one(ms->scopes[i].parent)));
		json_object_array_add(scopes, json_object_new_int64(ms->scopes[i].pop_seq));
	}
	json_object_object_add(o, "scopes", scopes);
	return o;
}

GPUROBUST_EXPORT char *gpurobust_bc_meta_to_json(const struct gpurobust_bc_meta *meta)
{
	json_object *root, *names, *streams;
	char *text = NULL;

	if (!meta)
		return NULL;
	root = json_object_new_object();
	names = json_object_new_array();
	streams = json_object_new_array();
	if (!root || !names || !streams)
		goto out;
	json_object_object_add(root, "format", json_object_new_string(META_FORMAT));
	json_object_object_add(root, "version", json_object_new_int(1));
	json_object_object_add(root, "pool_id", json_object_new_int64(meta->pool_id));
	json_object_object_add(root, "record_count", json_object_new_int64(meta->record_count));
	for (uint32_t i = 0; i < meta->name_count; i++)
		json_object_array_add(names, json_object_new_string(meta->names[i]));
	for (uint32_t i = 0; i < meta->stream_count; i++) {
		json_object *s = stream_to_json(&meta->streams[i]);

		if (!s)
			goto out;
		json_object_array_add(streams, s);
	}
	json_object_object_add(root, "names", names);
	json_object_object_add(root, "streams", streams);
	names = streams = NULL;
	text = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PLAIN));
out:
	json_object_put(names);
	json_object_put(streams);
	json_object_put(root);
	return text;
}

static int parse_stream(json_object *o, uint32_t name_count, struct bc_meta_stream *ms)
{
	json_object *label, *scopes;
	int64_t v;
	size_t n;

	if (!json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "scopes", &scopes) ||
	    !json_object_is_type(scopes, json_type_array) ||
	    grb_bc_json_get_queue(o, &ms->queue))
		return -EINVAL;
	if (grb_bc_json_get_int(o, "record", 0, UINT32_MAX - 1, &v))
		return -EINVAL;
	ms->record = (uint32_t)v;
	if (grb_bc_json_get_int(o, "tag", 0, UINT32_MAX, &v))
		return -EINVAL;
	ms->tag = (uint32_t)v;
	if (grb_bc_json_get_int(o, "dropped", 0, UINT32_MAX, &v))
		return -EINVAL;
	ms->dropped = (uint32_t)v;
	n = json_object_array_length(scopes);
	if (n % 3 || n / 3 >= UINT32_MAX)
		return -EINVAL;
	ms->scope_count = (uint32_t)(n / 3);
	if (grb_bc_json_get_int(o, "overflow_parent", -1, (int64_t)ms->scope_count - 1, &v))
		return -EINVAL;
	ms->overflow_parent = v < 0 ? GPUROBUST_BC_NONE : (uint32_t)v;
	ms->label = strdup(json_object_object_get_ex(o, "label", &label) &&
			   json_object_is_type(label, json_type_string) ?
			   json_object_get_string(label) : "");
	ms->scopes = malloc(sizeof(*ms->scopes) * (ms->scope_count ? ms->scope_count : 1));
	if (!ms->label || !ms->scopes)
		return -ENOMEM;
	for (uint32_t i = 0; i < ms->scope_count; i++) {
		json_object *name = json_object_array_get_idx(scopes, (size_t)i * 3);
		json_object *parent = json_object_array_get_idx(scopes, (size_t)i * 3 + 1);
		json_object *pop = json_object_array_get_idx(scopes, (size_t)i * 3 + 2);
		int64_t nv, pv, sv;

		if (!json_object_is_type(name, json_type_int) ||
		    !json_object_is_type(parent, json_type_int) ||
		    !json_object_is_type(pop, json_type_int))
			return -EINVAL;
		nv = json_object_get_int64(name);
		pv = json_object_get_int64(parent);
		sv = json_object_get_int64(pop);
		/* Parents precede their children, as push order guarantees. */
		if (nv < 0 || nv >= name_count || pv < -1 || pv >= i || sv < 0 || sv > UINT32_MAX)
			return -EINVAL;
		ms->scopes[i].name = (uint32_t)nv;
		ms->scopes[i].parent = pv < 0 ? GPUROBUST_BC_NONE : (uint32_t)pv;
		ms->scopes[i].pop_seq = (uint32_t)sv;
	}
	return 0;
}

static int parse_meta(json_object *root, struct gpurobust_bc_meta *meta)
{
	json_object *format, *names, *streams;
	int64_t v;
	int ret;

	if (!json_object_is_type(root, json_type_object) ||
	    !json_object_object_get_ex(root, "format", &format) ||
	    !json_object_is_type(format, json_type_string) ||
	    strcmp(json_object_get_string(format), META_FORMAT) ||
	    grb_bc_json_get_int(root, "version", 1, 1, &v) ||
	    !json_object_object_get_ex(root, "names", &names) ||
	    !json_object_is_type(names, json_type_array) ||
	    !json_object_object_get_ex(root, "streams", &streams) ||
	    !json_object_is_type(streams, json_type_array))
		return -EINVAL;
	if (grb_bc_json_get_int(root, "pool_id", 0, UINT32_MAX, &v))
		return -EINVAL;
	meta->pool_id = (uint32_t)v;
	if (grb_bc_json_get_int(root, "record_count", 0, UINT32_MAX, &v))
		return -EINVAL;
	meta->record_count = (uint32_t)v;
	meta->names = calloc(json_object_array_length(names) + 1, sizeof(char *));
	meta->streams = calloc(json_object_array_length(streams) + 1, sizeof(*meta->streams));
	if (!meta->names || !meta->streams)
		return -ENOMEM;
	for (size_t i = 0; i < json_object_array_length(names); i++) {
		json_object *n = json_object_array_get_idx(names, i);

		if (!json_object_is_type(n, json_type_string))
			return -EINVAL;
		meta->names[meta->name_count] = strdup(json_object_get_string(n));
		if (!meta->names[meta->name_count])
			return -ENOMEM;
		meta->name_count++;
	}
	for (size_t i = 0; i < json_object_array_length(streams); i++) {
		/* Counted before parsing so that a half-filled stream is freed. */
		ret = parse_stream(json_object_array_get_idx(streams, i), meta->name_count,
				   &meta->streams[meta->stream_count++]);
		if (ret)
			return ret;
	}
	return 0;
}

GPUROBUST_EXPORT int gpurobust_bc_meta_from_json(const char *json, size_t len,
						 struct gpurobust_bc_meta **meta_out)
{
	struct gpurobust_bc_meta *meta;
	json_object *root;
	int ret;

	if (!meta_out)
		return -EINVAL;
	*meta_out = NULL;
	/* Metadata nests four levels: root, streams, stream, scopes. */
	ret = grb_bc_json_parse(json, len, 8, &root);
	if (ret)
		return ret;
	meta = calloc(1, sizeof(*meta));
	ret = meta ? parse_meta(root, meta) : -ENOMEM;
	json_object_put(root);
	if (ret) {
		gpurobust_bc_meta_free(meta);
		return ret;
	}
	*meta_out = meta;
	return 0;
}
