// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* A stored crash as the fleet store keeps it, queued in the outbox. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <gpurobust/coredump.h>

#include "crash-common.h"
#include "fleet-queue.h"

/* The first line of @dir/@name, without its newline; "" when unreadable. */
static void read_line(const char *dir, const char *name, char *out, size_t size)
{
	char path[PATH_MAX];
	size_t len = 0;
	char *text;

	out[0] = '\0';
	if (!dir || snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    crash_read_file(path, &text, &len))
		return;
	snprintf(out, size, "%.*s", (int)strcspn(text, "\n"), text);
	free(text);
}

void crash_fleet_row(const struct gpurobust_report *report,
		     const struct gpurobust_stored_crash *stored, const char *device_dir,
		     struct gpurobust_fleet_crash *c)
{
	char vendor[16], device[16];
	struct utsname u;

	memset(c, 0, sizeof(*c));
	snprintf(c->signature, sizeof(c->signature), "%.16s", stored->signature);
	snprintf(c->title, sizeof(c->title), "%.255s", stored->title);
	read_line("/etc", "machine-id", c->machine_id, sizeof(c->machine_id));
	/* sysfs spells the ids "0x1002" */
	read_line(device_dir, "vendor", vendor, sizeof(vendor));
	read_line(device_dir, "device", device, sizeof(device));
	if (!strncmp(vendor, "0x", 2) && !strncmp(device, "0x", 2))
		snprintf(c->pci_id, sizeof(c->pci_id), "%.4s:%.4s", vendor + 2, device + 2);
	read_line(device_dir, "vbios_version", c->vbios, sizeof(c->vbios));
	if (report->family)
		snprintf(c->family, sizeof(c->family), "%u", report->family);
	if (report->kernel[0])
		snprintf(c->kernel, sizeof(c->kernel), "%.63s", report->kernel);
	else if (!uname(&u))
		snprintf(c->kernel, sizeof(c->kernel), "%.63s", u.release);
	if (report->generation == GPUROBUST_CD_GEN_SERIES)
		snprintf(c->series, sizeof(c->series), "%s",
			 gpurobust_cd_generation_name(report->generation));
	snprintf(c->application, sizeof(c->application), "%s", stored->process);
	c->seen = stored->seen;
	snprintf(c->recovery, sizeof(c->recovery), "%s", stored->recovery);
	snprintf(c->outcome, sizeof(c->outcome), "%s", stored->outcome);
	snprintf(c->breadcrumbs, sizeof(c->breadcrumbs), "%s", stored->doing);
	gpurobust_fleet_crash_id(c);
}

int crash_fleet_queue(const char *outbox, const struct gpurobust_report *report,
		      const struct gpurobust_stored_crash *stored, const char *devcd)
{
	char device_dir[PATH_MAX];
	struct gpurobust_fleet_crash c;

	crash_fleet_row(report, stored, devcd ? crash_failing_device_path(devcd, device_dir) :
						NULL, &c);
	return gpurobust_fleet_outbox_add(outbox, &c);
}
