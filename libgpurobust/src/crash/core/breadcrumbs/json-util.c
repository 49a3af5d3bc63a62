// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* The few JSON reading rules the metadata and report readers share. */
#include <errno.h>
#include <string.h>

#include "crash/core/breadcrumbs/json-util.h"

int grb_bc_json_parse(const char *json, size_t len, int max_depth, json_object **root)
{
	struct json_tokener *tok;

	*root = NULL;
	if (!json || len > INT32_MAX)
		return -EINVAL;
	tok = json_tokener_new_ex(max_depth);
	if (!tok)
		return -ENOMEM;
	*root = json_tokener_parse_ex(tok, json, (int)len);
	json_tokener_free(tok);
	return *root ? 0 : -EINVAL;
}

int grb_bc_json_get_int(json_object *o, const char *key, int64_t min, int64_t max, int64_t *v)
{
	json_object *m;

	if (!json_object_object_get_ex(o, key, &m) || !json_object_is_type(m, json_type_int))
		return -EINVAL;
	*v = json_object_get_int64(m);
	return *v < min || *v > max ? -EINVAL : 0;
}

int grb_bc_json_get_queue(json_object *o, enum gpurobust_bc_queue *queue)
{
	json_object *m;

	if (!json_object_object_get_ex(o, "queue", &m) || !json_object_is_type(m, json_type_string))
		return -EINVAL;
	for (int q = GPUROBUST_BC_QUEUE_GFX; q <= GPUROBUST_BC_QUEUE_SDMA; q++) {
		if (!strcmp(json_object_get_string(m), gpurobust_bc_queue_name(q))) {
			*queue = q;
			return 0;
		}
	}
	return -EINVAL;
}
