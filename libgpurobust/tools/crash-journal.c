// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include <systemd/sd-journal.h>

#include "crash-journal.h"

int crash_journal_log(const struct gpurobust_report *r, const struct gpurobust_stored_crash *c,
		      const char *store_dir, const char *devcd)
{
	char uid[16] = "", gid[16] = "", file[PATH_MAX + 32] = "", dmesg[PATH_MAX + 32] = "";
	const char *dev = devcd && strrchr(devcd, '/') ? strrchr(devcd, '/') + 1 : devcd;

	if (c->owner_known) {
		snprintf(uid, sizeof(uid), "%u", c->uid);
		snprintf(gid, sizeof(gid), "%u", c->gid);
	}
	if (*c->dump_file)
		snprintf(file, sizeof(file), "%s/dumps/%s", store_dir, c->dump_file);
	if (*c->dmesg_file)
		snprintf(dmesg, sizeof(dmesg), "%s/dumps/%s", store_dir, c->dmesg_file);
	/* Fields with no value are sent empty rather than left out, so every
	 * entry has the same fields; journald keeps an empty field as one. */
	return sd_journal_send(
		"MESSAGE=GPU hang in process %d (%s): %s", c->pid, c->process, c->title,
		"MESSAGE_ID=" GPUROBUST_JOURNAL_MESSAGE_ID,
		"PRIORITY=2",
		"GPUCRASH_PID=%d", c->pid,
		"GPUCRASH_UID=%s", uid,
		"GPUCRASH_GID=%s", gid,
		"GPUCRASH_COMM=%s", c->process,
		"GPUCRASH_RING=%s", r->ring,
		"GPUCRASH_DEVICE=%s", c->device,
		"GPUCRASH_RECOVERY=%s", c->recovery,
		"GPUCRASH_OUTCOME=%s", c->outcome,
		"GPUCRASH_VRAM_LOST=%s", r->vram_lost ? "yes" : "no",
		"GPUCRASH_SIGNATURE=%s", c->signature,
		"GPUCRASH_TITLE=%s", c->title,
		"GPUCRASH_BREADCRUMBS=%s", c->doing,
		"GPUCRASH_KERNEL=%s", r->kernel,
		"GPUCRASH_DEVCOREDUMP=%s", dev ? dev : "",
		"GPUCRASH_ENTRY=%s", c->name,
		"GPUCRASH_FILENAME=%s", file,
		"GPUCRASH_DMESG_FILENAME=%s", dmesg,
		"GPUCRASH_NOT_KEPT=%s", c->not_kept,
		"GPUCRASH_EVENT_ID=%" PRId64, c->id,
		NULL);
}
