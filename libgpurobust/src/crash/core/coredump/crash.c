// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The crash pipeline: dump and log bytes to a report with its decoded
 * captures. The pieces stay public (parsers, report, breadcrumb decoder);
 * this is the one order in which a collector needs them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include <gpurobust/breadcrumbs-json.h>
#include <gpurobust/crash.h>

#include "common/export.h"

/* Decode every User Capture section: from the dump alone (the capture is
 * self-describing when the pool mirrors its scopes), or with the metadata
 * the process saved. The first capture that decodes titles and signs the
 * report. Captures that hold no breadcrumbs are results, not errors. */
static int decode_captures(struct gpurobust_crash *c, const struct gpurobust_bc_meta *meta)
{
	const struct gpurobust_coredump *dump = c->dump;
	bool attached = false;
	int r = 0;

	if (!dump || !dump->n_captures) {
		c->meta_status = meta ? -ENOENT : 0;
		return 0;
	}
	c->captures = calloc(dump->n_captures, sizeof(*c->captures));
	if (!c->captures)
		return -ENOMEM;
	c->n_captures = dump->n_captures;
	for (size_t i = 0; i < dump->n_captures && !r; i++) {
		const struct gpurobust_cd_capture *cap = &dump->captures[i];
		struct gpurobust_crash_capture *res = &c->captures[i];

		/* a mapping the kernel could not copy: nothing to decode */
		if (cap->error) {
			res->status = -ENODATA;
			continue;
		}
		res->status = gpurobust_bc_decode(cap->data, cap->len, meta, &res->bc);
		if (res->status == -ENOMEM) {
			r = -ENOMEM;
		} else if (!res->status && !attached) {
			r = gpurobust_report_attach_breadcrumbs(c->report, res->bc);
			attached = true;
		}
	}
	c->meta_status = meta && !attached ? -EBADMSG : 0;
	return r;
}

GPUROBUST_EXPORT
int gpurobust_crash_analyze(const char *dump, size_t dump_len, const char *log, size_t log_len,
			    const struct gpurobust_bc_meta *meta, struct gpurobust_crash **out)
{
	struct gpurobust_crash *c;
	int r = 0;

	if (!out || (!dump && !log))
		return -EINVAL;
	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	if (dump)
		r = gpurobust_coredump_parse(dump, dump_len, &c->dump);
	/* a "dump" with no devcoredump section in it is often a kernel log
	 * handed over as one: read it as the log when there is no other */
	if (!r && dump && !log && !c->dump->features) {
		gpurobust_coredump_free(c->dump);
		c->dump = NULL;
		log = dump;
		log_len = dump_len;
	}
	if (!r && log)
		r = gpurobust_dmesg_parse(log, log_len, &c->log);
	if (!r)
		r = gpurobust_report_build(c->dump, c->log, &c->report);
	if (!r)
		r = decode_captures(c, meta);
	if (r) {
		gpurobust_crash_free(c);
		return r;
	}
	*out = c;
	return 0;
}

GPUROBUST_EXPORT
void gpurobust_crash_free(struct gpurobust_crash *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n_captures; i++)
		gpurobust_bc_report_free(c->captures[i].bc);
	free(c->captures);
	gpurobust_report_free(c->report);
	gpurobust_dmesg_free(c->log);
	gpurobust_coredump_free(c->dump);
	free(c);
}

GPUROBUST_EXPORT
const char *gpurobust_crash_capture_status(int status)
{
	switch (status) {
	case 0: return "breadcrumbs";
	/* our header, but no mirrored names: only metadata can decode it */
	case -ENODATA: return "no breadcrumbs in the dump (pool without mirror_scopes; use --meta)";
	case -EBADMSG: return "no breadcrumbs (not a breadcrumb buffer, or a damaged one)";
	case -EPROTONOSUPPORT: return "breadcrumbs of an unknown version";
	case -ESTALE: return "breadcrumbs of another pool than --meta describes";
	}
	return strerror(-status);
}

/* What a capture held, or why the kernel did not copy it. */
static void capture_status_text(const struct gpurobust_cd_capture *cap,
				const struct gpurobust_crash_capture *res, char *buf, size_t size)
{
	if (cap->error)
		snprintf(buf, size, "not copied by the kernel (error %d: %s)", cap->error,
			 strerror(-cap->error));
	else
		snprintf(buf, size, "%s", gpurobust_crash_capture_status(res->status));
}

GPUROBUST_EXPORT
int gpurobust_crash_print(const struct gpurobust_crash *c, FILE *out)
{
	int r;

	if (!c || !out)
		return -EINVAL;
	r = gpurobust_report_print(c->report, c->dump, out);
	for (size_t i = 0; i < c->n_captures && !r; i++) {
		const struct gpurobust_cd_capture *cap = &c->dump->captures[i];
		char at[32] = "";
		char why[96];

		if (cap->has_va)
			snprintf(at, sizeof(at), " at 0x%016" PRIx64, cap->va);
		capture_status_text(cap, &c->captures[i], why, sizeof(why));
		fprintf(out, "\nUser Capture %zu of %zu (%zu bytes%s): %s\n", i + 1, c->n_captures,
			cap->len, at, why);
		if (c->captures[i].bc)
			r = gpurobust_bc_report_print(c->captures[i].bc, out, 0);
	}
	return r;
}

/* One "captures" entry: the section's size and what it held. */
static json_object *capture_json(const struct gpurobust_cd_capture *cap,
				 const struct gpurobust_crash_capture *res)
{
	json_object *o = json_object_new_object(), *tree = NULL;
	char *bc_text, why[96], va[24];

	if (!o)
		return NULL;
	capture_status_text(cap, res, why, sizeof(why));
	if (cap->has_va) {
		snprintf(va, sizeof(va), "0x%016" PRIx64, cap->va);
		json_object_object_add(o, "va", json_object_new_string(va));
	}
	json_object_object_add(o, "size", json_object_new_uint64(cap->size));
	json_object_object_add(o, "bytes", json_object_new_uint64(cap->len));
	if (cap->error)
		json_object_object_add(o, "error", json_object_new_int(cap->error));
	json_object_object_add(o, "status", json_object_new_string(why));
	if (res->bc) {
		bc_text = gpurobust_bc_report_to_json(res->bc);
		tree = bc_text ? json_tokener_parse(bc_text) : NULL;
		free(bc_text);
		if (!tree || json_object_object_add(o, "breadcrumbs", tree)) {
			json_object_put(tree);
			json_object_put(o);
			return NULL;
		}
	}
	return o;
}

GPUROBUST_EXPORT
char *gpurobust_crash_to_json(const struct gpurobust_crash *c)
{
	json_object *root, *arr, *tree;
	char *text, *result = NULL;

	if (!c)
		return NULL;
	text = gpurobust_report_to_json(c->report, c->dump);
	root = text ? json_tokener_parse(text) : NULL;
	free(text);
	if (!root)
		return NULL;
	if (c->n_captures) {
		arr = json_object_new_array();
		if (!arr || json_object_object_add(root, "captures", arr)) {
			json_object_put(arr);
			goto out;
		}
		for (size_t i = 0; i < c->n_captures; i++) {
			json_object *o = capture_json(&c->dump->captures[i], &c->captures[i]);

			if (!o || json_object_array_add(arr, o)) {
				json_object_put(o);
				goto out;
			}
		}
		/* "breadcrumbs": the tree of the capture that titled the report */
		for (size_t i = 0; i < c->n_captures; i++) {
			if (!json_object_object_get_ex(json_object_array_get_idx(arr, i),
						       "breadcrumbs", &tree))
				continue;
			if (json_object_object_add(root, "breadcrumbs", json_object_get(tree)))
				goto out;
			break;
		}
	}
	result = strdup(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
out:
	json_object_put(root);
	return result;
}
