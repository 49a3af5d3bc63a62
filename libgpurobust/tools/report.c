// SPDX-License-Identifier: MIT
/*
 * gpurobust report [FILE|--latest] [--json] [--dmesg FILE] [--meta FILE]
 *
 * One readable report of a GPU hang from a devcoredump (a file, or the
 * newest amdgpu dump in sysfs or in the crash store) and the kernel log.
 * With --meta, the breadcrumbs in the dump's User Capture section (D3) are
 * decoded with the metadata the process saved.
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
		"  --meta      breadcrumb metadata the process saved, to decode its capture\n"
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

/* Decode the capture with --meta and attach it; the decoded tree is
 * returned for printing. */
static int decode_breadcrumbs(const char *meta_path, const struct gpurobust_coredump *dump,
			      struct gpurobust_report *report, struct gpurobust_bc_report **bc)
{
	struct gpurobust_bc_meta *meta;
	size_t len;
	char *json;
	int r;

	if (!dump || !(dump->features & GPUROBUST_CD_SERIES_CAPTURE)) {
		fprintf(stderr, "gpurobust report: the dump has no User Capture section to decode\n");
		return -ENOENT;
	}
	r = crash_read_file(meta_path, &json, &len);
	if (r) {
		fprintf(stderr, "gpurobust report: %s: %s\n", meta_path, strerror(-r));
		return r;
	}
	r = gpurobust_bc_meta_from_json(json, len, &meta);
	free(json);
	if (r) {
		fprintf(stderr, "gpurobust report: %s: not breadcrumb metadata (%s)\n", meta_path,
			strerror(-r));
		return r;
	}
	r = gpurobust_bc_decode(dump->capture, dump->capture_len, meta, bc);
	gpurobust_bc_meta_free(meta);
	if (r) {
		fprintf(stderr, "gpurobust report: the capture does not decode with %s (%s)\n",
			meta_path, strerror(-r));
		return r;
	}
	return gpurobust_report_attach_breadcrumbs(report, *bc);
}

static int print_json(const struct gpurobust_report *report,
		      const struct gpurobust_coredump *dump,
		      const struct gpurobust_bc_report *bc)
{
	char *text = gpurobust_report_to_json(report, dump), *bc_text = NULL;
	json_object *root = text ? json_tokener_parse(text) : NULL, *tree = NULL;
	int r = -ENOMEM;

	if (root && bc) {
		bc_text = gpurobust_bc_report_to_json(bc);
		tree = bc_text ? json_tokener_parse(bc_text) : NULL;
		if (!tree || json_object_object_add(root, "breadcrumbs", tree)) {
			json_object_put(tree);
			goto out;
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
	free(bc_text);
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
	struct gpurobust_bc_report *bc = NULL;
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
	if (a.meta && decode_breadcrumbs(a.meta, ev.dump, ev.report, &bc)) {
		crash_evidence_free(&ev);
		return GPUROBUST_EXIT_FAILURE;
	}
	if (a.json) {
		r = print_json(ev.report, ev.dump, bc);
	} else {
		r = gpurobust_report_print(ev.report, ev.dump, stdout);
		if (!r && bc) {
			printf("\nBreadcrumbs\n");
			r = gpurobust_bc_report_print(bc, stdout, 0);
		}
	}
	gpurobust_bc_report_free(bc);
	crash_evidence_free(&ev);
	if (r) {
		fprintf(stderr, "gpurobust report: writing the report failed: %s\n", strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	return GPUROBUST_EXIT_OK;
}
