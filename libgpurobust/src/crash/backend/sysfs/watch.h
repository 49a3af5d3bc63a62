/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BACKEND_SYSFS_WATCH_H
#define GPUROBUST_BACKEND_SYSFS_WATCH_H

#include <stdbool.h>

#include <gpurobust/collector.h>

/* The uevent fields the watcher looks at; NULL for an absent property. */
struct uevent_fields {
	const char *action, *subsystem, *syspath;
	const char *wedged, *pid, *task;	/* WEDGED=, PID=, TASK= */
};

/* Whether a uevent is one the collector wants, and which. Pure, so that
 * tests need no netlink socket. */
bool grb_watch_classify(const struct uevent_fields *u, struct gpurobust_watch_event *ev);

#endif
