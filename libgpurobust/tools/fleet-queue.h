/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_TOOLS_FLEET_QUEUE_H
#define GPUROBUST_TOOLS_FLEET_QUEUE_H

#include <gpurobust/collector.h>
#include <gpurobust/fleet.h>
#include <gpurobust/report.h>

/* The fleet's row of a crash this machine stored: the report's group and
 * recovery, the machine id, the GPU from the failing device's sysfs
 * directory (@device_dir, or NULL), the kernel. The userspace driver's
 * version is not in a devcoredump: it stays unknown. */
void crash_fleet_row(const struct gpurobust_report *report,
		     const struct gpurobust_stored_crash *stored, const char *device_dir,
		     struct gpurobust_fleet_crash *crash);

/* Queue a stored crash in @outbox for `gpurobust send`. @devcd (or NULL)
 * names its GPU. Return: 0 or -errno of gpurobust_fleet_outbox_add(). */
int crash_fleet_queue(const char *outbox, const struct gpurobust_report *report,
		      const struct gpurobust_stored_crash *stored, const char *devcd);

#endif
