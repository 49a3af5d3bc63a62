// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust wedged [--store DIR] [--journal]
 *
 * Records one DRM "device wedged" uevent (Linux 6.14+) beside the stored
 * crashes, from the environment udev runs the rule's program with: DEVPATH,
 * WEDGED (the recovery method), PID and TASK (the task of the hang; the
 * kernel series makes it the guilty one). `gpurobust list` and `info` link
 * it to the crash of the same hang. On a kernel that sends none (6.12),
 * nothing runs and crashes are listed without it.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <systemd/sd-journal.h>

#include <gpurobust/collector.h>

#include "commands.h"
#include "crash-common.h"
#include "crash-journal.h"

/* DEVPATH=/devices/pci0000:00/0000:03:00.0/drm/card0: card0 is the node,
 * the path component before "drm" the device. */
static int parse_devpath(const char *devpath, struct gpurobust_wedged *w)
{
	const char *node = strrchr(devpath, '/'), *drm, *dev;

	if (!node || node == devpath)
		return -EINVAL;
	for (drm = node - 1; drm > devpath && *drm != '/'; drm--)
		;
	if (strncmp(drm, "/drm/", 5))
		return -EINVAL;
	for (dev = drm - 1; dev > devpath && *dev != '/'; dev--)
		;
	snprintf(w->node, sizeof(w->node), "%s", node + 1);
	snprintf(w->device, sizeof(w->device), "%.*s", (int)(drm - dev - 1), dev + 1);
	return 0;
}

int cmd_wedged(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "proc", required_argument, NULL, 'p' },
		{ "journal", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store = GPUROBUST_STORE_DIR, *proc = "/proc";
	const char *devpath = getenv("DEVPATH"), *method = getenv("WEDGED");
	const char *pid = getenv("PID"), *task = getenv("TASK");
	struct gpurobust_wedged w = { .seen = time(NULL) };
	bool journal = false;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:p:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': store = optarg; break;
		case 'p': proc = optarg; break;
		case 'j': journal = true; break;
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: gpurobust wedged [--store DIR] [--journal]\n"
				"  Records the uevent udev passes in DEVPATH, WEDGED, PID and TASK\n"
				"  (what 71-gpurobust-collect.rules runs for a wedged DRM device).\n");
			return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
		}
	}
	if (optind != argc || !devpath || !method || parse_devpath(devpath, &w)) {
		fprintf(stderr, "gpurobust wedged: not a DRM wedged uevent (DEVPATH=%s WEDGED=%s)\n",
			devpath ? devpath : "", method ? method : "");
		return GPUROBUST_EXIT_USAGE;
	}
	snprintf(w.method, sizeof(w.method), "%s", method);
	snprintf(w.task, sizeof(w.task), "%s", task ? task : "");
	w.pid = pid ? atoi(pid) : 0;
	w.owner_known = crash_process_owner(proc, w.pid, w.task, &w.uid, &w.gid);
	crash_store_parent(store);
	r = gpurobust_store_record_wedged(store, &w);
	if (r) {
		fprintf(stderr, "gpurobust wedged: cannot record the uevent in %s: %s\n", store,
			strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	if (journal)
		sd_journal_send("MESSAGE=GPU %s (%s) wedged, recovery method %s, task %d (%s)",
				w.device, w.node, w.method, w.pid, w.task,
				"MESSAGE_ID=" GPUROBUST_JOURNAL_WEDGED_MESSAGE_ID,
				"PRIORITY=4",
				"GPUCRASH_DEVICE=%s", w.device,
				"GPUCRASH_WEDGED=%s", w.method,
				"GPUCRASH_PID=%d", w.pid,
				"GPUCRASH_COMM=%s", w.task,
				NULL);
	return GPUROBUST_EXIT_OK;
}
