// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust collect [--store DIR] [--sysfs DIR] [--kmsg FILE] [--keep] DEVCD
 *
 * Stores one devcoredump, named as udev names it (devcdN) or by its path,
 * with the kernel log around its hang, then frees it: what
 * gpurobust-collect@.service runs when udev sees an amdgpu devcoredump
 * appear. A dump of another driver is left alone.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/collector.h>

#include "commands.h"
#include "crash-common.h"

/* The devcoredump @name names (devcdN, or a path ending in it): its entry
 * in the list of @sysfs, or NULL. */
static const struct gpurobust_devcd *find_devcd(const struct gpurobust_devcd *list, size_t n,
						const char *name)
{
	const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;

	for (size_t i = 0; i < n; i++) {
		const char *entry = strrchr(list[i].path, '/');

		if (entry && !strcmp(entry + 1, base))
			return &list[i];
	}
	return NULL;
}

int cmd_collect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "keep", no_argument, NULL, 'K' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_dir = GPUROBUST_STORE_DIR, *sysfs = "/sys", *kmsg = "/dev/kmsg";
	const struct gpurobust_devcd *devcd;
	struct gpurobust_store *store;
	struct gpurobust_devcd *list;
	bool keep = false;
	size_t n;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:s:k:Kh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': store_dir = optarg; break;
		case 's': sysfs = optarg; break;
		case 'k': kmsg = optarg; break;
		case 'K': keep = true; break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: gpurobust collect [--store DIR] [--keep] DEVCD\n"
				"  DEVCD        the devcoredump: devcdN, as udev names it, or its path\n"
				"  --store DIR  crash store (default %s), created owner-only\n"
				"  --keep       leave the devcoredump in sysfs once it is stored\n",
				GPUROBUST_STORE_DIR);
			return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
		}
	}
	if (optind + 1 != argc) {
		fprintf(stderr, "gpurobust collect: name one devcoredump (devcdN)\n");
		return GPUROBUST_EXIT_USAGE;
	}
	r = gpurobust_devcd_list(sysfs, NULL, &list, &n);
	if (r) {
		fprintf(stderr, "gpurobust collect: cannot list devcoredumps: %s\n", strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	devcd = find_devcd(list, n, argv[optind]);
	if (!devcd || strcmp(devcd->driver, "amdgpu")) {
		/* gone already (another collector, or the 5 minutes passed), or
		 * another driver's: nothing to do, which is no failure */
		printf("gpurobust collect: %s: %s\n", argv[optind],
		       devcd ? "not an amdgpu devcoredump, left alone" : "no such devcoredump");
		free(list);
		return GPUROBUST_EXIT_OK;
	}
	if (crash_store_open(store_dir, "gpurobust collect", &store)) {
		free(list);
		return GPUROBUST_EXIT_FAILURE;
	}
	r = crash_collect(store, kmsg, !keep, devcd->path, "gpurobust collect");
	gpurobust_store_close(store);
	free(list);
	return r && r != -ENODATA ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
