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
#include <gpurobust/text.h>

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

/* The uAPI's name of an AMDGPU_FAMILY_* number, as amdgpu_drm.h spells it. */
static const char *family_name(uint32_t family)
{
	static const struct { uint32_t id; const char *name; } names[] = {
		{ 110, "SI" }, { 120, "CI" }, { 125, "KV" }, { 130, "VI" }, { 135, "CZ" },
		{ 141, "AI" }, { 142, "RV" }, { 143, "NV" }, { 144, "VGH" },
		{ 145, "GC_11_0_0" }, { 146, "YC" }, { 148, "GC_11_0_1" },
		{ 149, "GC_10_3_6" }, { 150, "GC_11_5_0" }, { 151, "GC_10_3_7" },
		{ 152, "GC_12_0_0" }, { 154, "GC_11_5_4" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == family)
			return names[i].name;
	return NULL;
}

/* Text from the hung process or the device, made inert: the store keeps
 * nothing a database's encoding refuses or a terminal acts on. */
#define INERT(field, text) gpurobust_text_escape(c->field, sizeof(c->field), text)

void crash_fleet_row(const struct gpurobust_report *report,
		     const struct gpurobust_stored_crash *stored, const char *device_dir,
		     struct gpurobust_fleet_crash *c)
{
	char vendor[16], device[16], vbios[64];
	const char *family = family_name(report->family);
	struct utsname u;

	memset(c, 0, sizeof(*c));
	snprintf(c->signature, sizeof(c->signature), "%.16s", stored->signature);
	INERT(title, stored->title);
	read_line("/etc", "machine-id", c->machine_id, sizeof(c->machine_id));
	if (strspn(c->machine_id, "0123456789abcdef") != strlen(c->machine_id))
		c->machine_id[0] = '\0';
	/* sysfs spells the ids "0x1002" */
	read_line(device_dir, "vendor", vendor, sizeof(vendor));
	read_line(device_dir, "device", device, sizeof(device));
	if (!strncmp(vendor, "0x", 2) && strspn(vendor + 2, "0123456789abcdef") == 4 &&
	    !strncmp(device, "0x", 2) && strspn(device + 2, "0123456789abcdef") == 4)
		snprintf(c->pci_id, sizeof(c->pci_id), "%.4s:%.4s", vendor + 2, device + 2);
	read_line(device_dir, "vbios_version", vbios, sizeof(vbios));
	INERT(vbios, vbios);
	if (family)
		snprintf(c->family, sizeof(c->family), "%s", family);
	else if (report->family)
		snprintf(c->family, sizeof(c->family), "%u", report->family);
	if (report->kernel[0])
		INERT(kernel, report->kernel);
	else if (!uname(&u))
		INERT(kernel, u.release);
	/* the dump format: "series" when it has the kernel series' sections */
	if (report->generation == GPUROBUST_CD_GEN_SERIES)
		snprintf(c->series, sizeof(c->series), "%s",
			 gpurobust_cd_generation_name(report->generation));
	INERT(application, stored->process);
	c->seen = stored->seen;
	INERT(recovery, stored->recovery);
	INERT(outcome, stored->outcome);
	INERT(breadcrumbs, stored->doing);
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
