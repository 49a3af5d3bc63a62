// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust watch [--store DIR] [--clear] [--once]
 *
 * The crash collector: stores every amdgpu devcoredump with the kernel log
 * around it, and every reset the DRM device announces (WEDGED= uevent), in
 * the crash store. It first collects the dumps already present, since the
 * kernel deletes a dump five minutes after it was written.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/collector.h>

#include "commands.h"
#include "crash-common.h"

struct watch {
	struct gpurobust_store *store;
	const char *sysfs;
	struct crash_collect_opts collect;
	/* devcdN numbers are never reused within a boot: remember them */
	long *seen;
	size_t n_seen, cap_seen;
};

/* How long a reset uevent waits for its devcoredump before it is stored
 * from the kernel log alone. */
#define RESET_DUMP_GRACE_MS	5000

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

/* The N of a ".../devcdN" path; -1 for anything else. */
static long devcd_number(const char *devcd)
{
	const char *name = strrchr(devcd, '/') ? strrchr(devcd, '/') + 1 : devcd;

	return strncmp(name, "devcd", 5) ? -1 : strtol(name + 5, NULL, 10);
}

static bool seen_before(struct watch *w, const char *devcd)
{
	long num = devcd_number(devcd);

	for (size_t i = 0; i < w->n_seen; i++)
		if (w->seen[i] == num)
			return true;
	if (w->n_seen == w->cap_seen) {
		size_t cap = w->cap_seen ? w->cap_seen * 2 : 16;
		long *n = realloc(w->seen, cap * sizeof(*n));

		if (!n)
			return false;	/* collect again rather than lose one */
		w->seen = n;
		w->cap_seen = cap;
	}
	w->seen[w->n_seen++] = num;
	return false;
}

/* Record one hang: @devcd may be NULL for a reset without a dump. Input
 * with nothing amdgpu in it is not stored: it would share one bucket with
 * every other stray file. */
static int collect(struct watch *w, const char *devcd)
{
	return crash_collect(w->store, &w->collect, devcd, "gpurobust watch");
}

/* Collect every amdgpu dump not collected yet. Return: how many. */
static int sweep(struct watch *w)
{
	struct gpurobust_devcd *list;
	size_t n;
	int done = 0;

	if (gpurobust_devcd_list(w->sysfs, NULL, &list, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(list[i].driver, "amdgpu") || seen_before(w, list[i].path))
			continue;
		done += !collect(w, list[i].path);
	}
	free(list);
	return done;
}

static int run(struct watch *w)
{
	struct gpurobust_watcher *watcher;
	struct gpurobust_watch_event ev;
	bool reset_pending = false;
	struct pollfd pfd;
	int r = gpurobust_watcher_open(&watcher);

	if (r) {
		fprintf(stderr, "gpurobust watch: cannot listen to udev: %s\n", strerror(-r));
		return r;
	}
	/* dumps written while we were not running, after the socket is open
	 * so that none falls between the two */
	sweep(w);
	pfd.fd = gpurobust_watcher_fd(watcher);
	pfd.events = POLLIN;
	while (!stop) {
		/* a reset waits this long for its dump, which 7.1 formats in a
		 * worker and may announce after the reset */
		int n = poll(&pfd, 1, reset_pending ? RESET_DUMP_GRACE_MS : -1);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		if (!n) {
			/* no dump came: store the reset from the log alone */
			if (!sweep(w))
				collect(w, NULL);
			reset_pending = false;
			continue;
		}
		while (!gpurobust_watcher_next(watcher, &ev)) {
			if (ev.kind == GPUROBUST_WATCH_DEVCOREDUMP) {
				if (sweep(w))
					reset_pending = false;
			} else {
				printf("reset on %s: WEDGED=%s%s%s\n", ev.syspath, ev.wedged,
				       ev.task[0] ? ", task " : "", ev.task);
				fflush(stdout);
				reset_pending = !sweep(w);
			}
		}
	}
	gpurobust_watcher_close(watcher);
	return r;
}

int cmd_watch(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "sysfs", required_argument, NULL, 's' },
		{ "kmsg", required_argument, NULL, 'k' },
		{ "clear", no_argument, NULL, 'c' },
		{ "once", no_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct watch w = { .sysfs = "/sys",
			   .collect = { .kmsg = "/dev/kmsg", .proc = "/proc" } };
	const char *store = GPUROBUST_STORE_DIR;
	bool once = false;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:s:k:coh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': store = optarg; break;
		case 's': w.sysfs = optarg; break;
		case 'k': w.collect.kmsg = optarg; break;
		case 'c': w.collect.clear = true; break;
		case 'o': once = true; break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: gpurobust watch [--store DIR] [--clear] [--once]\n"
				"  --store DIR  crash store (default %s), created owner-only\n"
				"  --clear      free each devcoredump once it is stored\n"
				"  --once       collect the dumps present now and exit\n",
				GPUROBUST_STORE_DIR);
			return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return GPUROBUST_EXIT_USAGE;
	w.collect.store_dir = store;
	if (crash_store_open(store, "gpurobust watch", &w.store))
		return GPUROBUST_EXIT_FAILURE;
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	r = once ? (sweep(&w), 0) : run(&w);
	gpurobust_store_close(w.store);
	free(w.seen);
	return r ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
