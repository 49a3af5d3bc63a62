// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust collect [OPTIONS] DEVCD
 *
 * Stores one devcoredump, named as udev names it (devcdN) or by its path,
 * with the kernel log around its hang, as collect.conf says, logs it to the
 * journal and frees it: what gpurobust-collect@.service runs when udev sees
 * a devcoredump appear. A dump of another driver is left alone.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/collector.h>

#include "collect-conf.h"
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

static int usage(int c)
{
	fprintf(c == 'h' ? stdout : stderr,
		"usage: gpurobust collect [--store DIR] [--config-dir DIR] [--keep]\n"
		"                         [--journal|--no-journal] DEVCD\n"
		"       gpurobust collect [--config-dir DIR] [--store DIR] --show-config\n"
		"  DEVCD            the devcoredump: devcdN, as udev names it, or its path\n"
		"  --store DIR      crash store (default %s)\n"
		"  --config-dir DIR collect.conf and collect.conf.d/ (default %s)\n"
		"  --keep           leave the devcoredump in sysfs once it is stored\n"
		"  --journal        log the crash to the journal (the default under systemd)\n"
		"  --show-config    print the settings in effect and exit\n",
		GPUROBUST_STORE_DIR, GPUROBUST_CONF_DIR);
	return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
}

int cmd_collect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "proc", required_argument, NULL, 'p' },
		{ "config-dir", required_argument, NULL, 'C' },
		{ "keep", no_argument, NULL, 'K' },
		{ "journal", no_argument, NULL, 'j' },
		{ "no-journal", no_argument, NULL, 'J' },
		{ "show-config", no_argument, NULL, 'P' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	/* systemd sets INVOCATION_ID for a service: the journal is where a
	 * collector started by udev reports */
	struct crash_collect_opts co = {
		.store_dir = GPUROBUST_STORE_DIR, .kmsg = "/dev/kmsg", .proc = "/proc",
		.clear = true, .journal = getenv("INVOCATION_ID") != NULL,
	};
	const char *sysfs = "/sys", *conf_dir = GPUROBUST_CONF_DIR;
	const struct gpurobust_devcd *devcd;
	struct gpurobust_store *store;
	struct gpurobust_devcd *list;
	struct collect_conf conf;
	bool show = false;
	size_t n;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:s:k:p:C:KjJPh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': co.store_dir = optarg; break;
		case 's': sysfs = optarg; break;
		case 'k': co.kmsg = optarg; break;
		case 'p': co.proc = optarg; break;
		case 'C': conf_dir = optarg; break;
		case 'K': co.clear = false; break;
		case 'j': co.journal = true; break;
		case 'J': co.journal = false; break;
		case 'P': show = true; break;
		default: return usage(c);
		}
	}
	collect_conf_defaults(&conf);
	collect_conf_load(&conf, conf_dir);
	if (show) {
		collect_conf_print(&conf, stdout);
		return optind == argc ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
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
	if (crash_store_open(co.store_dir, "gpurobust collect", &store)) {
		free(list);
		return GPUROBUST_EXIT_FAILURE;
	}
	collect_conf_resolve(&conf, co.store_dir);
	gpurobust_store_set_policy(store, &conf.policy);
	if (conf.fleet_store[0])
		co.fleet_outbox = conf.fleet_outbox;
	r = crash_collect(store, &co, devcd->path, "gpurobust collect");
	gpurobust_store_close(store);
	free(list);
	/* gone while being read, or nothing amdgpu in it: nothing was lost */
	return r && r != -ENODATA ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
