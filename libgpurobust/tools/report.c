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
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <gpurobust/breadcrumbs.h>
#include <gpurobust/collector.h>
#include <gpurobust/report.h>

#include "commands.h"
#include "crash-common.h"
#include "stored.h"

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

/* The report of the newest stored crash that kept its dump. */
static int latest_in_store(const char *store, struct gpurobust_crash **crash)
{
	struct gpurobust_stored_crash *list;
	size_t n;
	int r = gpurobust_store_entries(store, &list, &n, NULL);

	if (r)
		return r;
	r = -ENOENT;
	while (n-- && r == -ENOENT)
		if (list[n].dump_present)
			r = stored_crash_load(store, &list[n], crash);
	free(list);
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
	struct gpurobust_crash *crash;
	char latest[PATH_MAX], *json;
	int r = parse_args(argc, argv, &a);

	if (r)
		return r > 0 ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
	if (a.latest) {
		r = latest_in_sysfs(a.sysfs, a.device, latest, sizeof(latest));
		a.file = r ? NULL : latest;
		/* the store's latest, when sysfs has none (it does not match
		 * stored crashes by DRM node) */
		if (r && !a.device && !a.dmesg && !a.meta)
			r = latest_in_store(a.store, &crash);
		if (r) {
			fprintf(stderr, "gpurobust report: no amdgpu devcoredump in %s/class/devcoredump "
				"or in the store %s\n", a.sysfs, a.store);
			return GPUROBUST_EXIT_FAILURE;
		}
	}
	r = a.file || !a.latest ? crash_load(a.file, a.dmesg, a.meta, "gpurobust report", &crash) : 0;
	if (r)
		return r == -ENODATA ? GPUROBUST_EXIT_NOTHING : GPUROBUST_EXIT_FAILURE;
	if (a.json) {
		json = gpurobust_crash_to_json(crash);
		r = json ? 0 : -ENOMEM;
		if (json)
			puts(json);
		free(json);
	} else {
		r = gpurobust_crash_print(crash, stdout);
	}
	gpurobust_crash_free(crash);
	if (!r && (fflush(stdout) || ferror(stdout)))
		r = -EIO;
	if (r) {
		fprintf(stderr, "gpurobust report: writing the report failed: %s\n", strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	return GPUROBUST_EXIT_OK;
}
