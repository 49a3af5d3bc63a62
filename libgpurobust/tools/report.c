// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust report [FILE|--latest] [--json] [--dmesg FILE] [--meta FILE]
 *
 * One readable report of a GPU hang from a devcoredump (a file, or the
 * newest amdgpu dump in sysfs or in the crash store) and the kernel log.
 * The breadcrumbs in the dump's User Capture sections (D3) are decoded from
 * the dump alone when the pool mirrored its scopes into them, else with the
 * metadata the process saved (--meta).
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include <gpurobust/breadcrumbs-json.h>
#include <gpurobust/breadcrumbs.h>
#include <gpurobust/collector.h>
#include <gpurobust/report.h>

#include "commands.h"
#include "crash-common.h"

struct report_args {
	const char *file, *dmesg, *meta, *sysfs, *store, *device;
	bool latest, json;
};

static void report_usage(FILE *out)
{
	fprintf(out,
		"usage: gpurobust report [FILE|--latest [--device NODE]] [--json] [--dmesg FILE]\n"
		"                        [--meta FILE] [--sysfs DIR] [--store DIR]\n"
		"  FILE        a devcoredump (\"-\" for standard input)\n"
		"  --latest    the newest amdgpu devcoredump in sysfs, else in the store\n"
		"  --device    with --latest: only dumps of this DRM node (card0, /dev/dri/...)\n"
		"  --dmesg     kernel log lines of the hang (dmesg or journalctl -k output)\n"
		"  --meta      breadcrumb metadata the process saved, for captures that\n"
		"              do not carry their own (pools without mirror_scopes)\n"
		"  --json      one JSON object instead of text\n");
}

/* The newest devcdN of an amdgpu device (or of @device), by its number. */
static int latest_in_sysfs(const char *sysfs, const char *device, char *path, size_t size)
{
	struct gpurobust_devcd *list;
	long best = -1;
	size_t n;
	int r = gpurobust_devcd_list(sysfs, device, &list, &n);

	if (r)
		return r;
	for (size_t i = 0; i < n; i++) {
		const char *name = strrchr(list[i].path, '/');
		long num = name ? strtol(name + 6, NULL, 10) : -1;

		if (strcmp(list[i].driver, "amdgpu") || num <= best)
			continue;
		best = num;
		snprintf(path, size, "%s/data", list[i].path);
	}
	free(list);
	return best < 0 ? -ENOENT : 0;
}

/* The newest dump file in the store: names start with the Unix time. */
static int latest_in_store(const char *store, char *path, size_t size)
{
	char dir[PATH_MAX], best[NAME_MAX + 1] = "";
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/dumps", store);
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		const char *ext = strrchr(de->d_name, '.');

		if (!ext || strcmp(ext, ".devcoredump"))
			continue;
		/* equal-width time stamps compare as strings */
		if (!best[0] || strlen(de->d_name) > strlen(best) ||
		    (strlen(de->d_name) == strlen(best) && strcmp(de->d_name, best) > 0))
			snprintf(best, sizeof(best), "%s", de->d_name);
	}
	closedir(d);
	if (!best[0])
		return -ENOENT;
	return snprintf(path, size, "%s/%s", dir, best) < (int)size ? 0 : -ENAMETOOLONG;
}

/* The "captures" array: each section's size and what it held. */
static json_object *captures_json(const struct gpurobust_coredump *dump,
				  const struct crash_capture *res)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && i < dump->n_captures; i++) {
		json_object *c = json_object_new_object(), *tree = NULL;
		char *bc_text = NULL;

		if (!c || json_object_array_add(arr, c)) {
			json_object_put(c);
			goto fail;
		}
		json_object_object_add(c, "size", json_object_new_uint64(dump->captures[i].size));
		json_object_object_add(c, "bytes", json_object_new_uint64(dump->captures[i].len));
		json_object_object_add(c, "status",
				       json_object_new_string(crash_capture_status(res[i].status)));
		if (res[i].bc) {
			bc_text = gpurobust_bc_report_to_json(res[i].bc);
			tree = bc_text ? json_tokener_parse(bc_text) : NULL;
			free(bc_text);
			if (!tree || json_object_object_add(c, "breadcrumbs", tree)) {
				json_object_put(tree);
				goto fail;
			}
		}
	}
	return arr;
fail:
	json_object_put(arr);
	return NULL;
}

static int print_json(const struct gpurobust_report *report,
		      const struct gpurobust_coredump *dump,
		      const struct crash_capture *captures)
{
	char *text = gpurobust_report_to_json(report, dump);
	json_object *root = text ? json_tokener_parse(text) : NULL, *arr, *tree;
	int r = -ENOMEM;

	if (root && captures) {
		arr = captures_json(dump, captures);
		if (!arr || json_object_object_add(root, "captures", arr)) {
			json_object_put(arr);
			goto out;
		}
		/* "breadcrumbs": the tree of the capture that titled the report */
		for (size_t i = 0; i < json_object_array_length(arr); i++) {
			if (!json_object_object_get_ex(json_object_array_get_idx(arr, i),
						       "breadcrumbs", &tree))
				continue;
			if (json_object_object_add(root, "breadcrumbs", json_object_get(tree)))
				goto out;
			break;
		}
	}
	if (root) {
		puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
						     JSON_C_TO_STRING_NOSLASHESCAPE));
		r = 0;
	}
out:
	json_object_put(root);
	free(text);
	return r;
}

/* One block per User Capture section, with its breadcrumb tree. */
static int print_captures(const struct gpurobust_coredump *dump,
			  const struct crash_capture *captures)
{
	int r = 0;

	for (size_t i = 0; i < dump->n_captures && !r; i++) {
		printf("\nUser Capture %zu of %zu (%zu bytes): %s\n", i + 1, dump->n_captures,
		       dump->captures[i].len, crash_capture_status(captures[i].status));
		if (captures[i].bc)
			r = gpurobust_bc_report_print(captures[i].bc, stdout, 0);
	}
	return r;
}

static int parse_args(int argc, char **argv, struct report_args *a)
{
	static const struct option opts[] = {
		{ "latest", no_argument, NULL, 'l' },
		{ "json", no_argument, NULL, 'j' },
		{ "dmesg", required_argument, NULL, 'd' },
		{ "meta", required_argument, NULL, 'm' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "store", required_argument, NULL, 'S' },
		{ "device", required_argument, NULL, 'D' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->sysfs = "/sys";
	a->store = GPUROBUST_STORE_DIR;
	optind = 1;
	while ((c = getopt_long(argc, argv, "ljd:m:s:S:D:h", opts, NULL)) != -1) {
		switch (c) {
		case 'l': a->latest = true; break;
		case 'j': a->json = true; break;
		case 'd': a->dmesg = optarg; break;
		case 'm': a->meta = optarg; break;
		case 's': a->sysfs = optarg; break;
		case 'S': a->store = optarg; break;
		case 'D': a->device = optarg; break;
		case 'h': report_usage(stdout); return 1;
		default: report_usage(stderr); return -1;
		}
	}
	if (optind < argc)
		a->file = argv[optind++];
	if (optind < argc || (a->file && a->latest) || (!a->file && !a->latest && !a->dmesg) ||
	    (a->device && !a->latest)) {
		report_usage(stderr);
		return -1;
	}
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct crash_evidence ev = { 0 };
	char latest[PATH_MAX];
	int r = parse_args(argc, argv, &a);

	if (r)
		return r > 0 ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
	if (a.latest) {
		r = latest_in_sysfs(a.sysfs, a.device, latest, sizeof(latest));
		/* the store does not record the device */
		if (r && !a.device)
			r = latest_in_store(a.store, latest, sizeof(latest));
		if (r) {
			fprintf(stderr, "gpurobust report: no amdgpu devcoredump in %s/class/devcoredump "
				"or %s/dumps\n", a.sysfs, a.store);
			return GPUROBUST_EXIT_FAILURE;
		}
		a.file = latest;
	}
	r = crash_evidence_load(&ev, a.file, a.dmesg, "gpurobust report");
	if (r)
		return GPUROBUST_EXIT_FAILURE;
	if (a.meta && crash_evidence_decode_captures(&ev, a.meta, "gpurobust report")) {
		crash_evidence_free(&ev);
		return GPUROBUST_EXIT_FAILURE;
	}
	if (a.json) {
		r = print_json(ev.report, ev.dump, ev.captures);
	} else {
		r = gpurobust_report_print(ev.report, ev.dump, stdout);
		if (!r && ev.captures)
			r = print_captures(ev.dump, ev.captures);
	}
	crash_evidence_free(&ev);
	if (r) {
		fprintf(stderr, "gpurobust report: writing the report failed: %s\n", strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	return GPUROBUST_EXIT_OK;
}
