/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/*
 * One structured journal entry per stored GPU crash, named the way
 * systemd-coredump names its fields (COREDUMP_PID → GPUCRASH_PID), under
 * one MESSAGE_ID, so that `journalctl MESSAGE_ID=...` lists GPU crashes.
 */
#ifndef GPUROBUST_TOOLS_CRASH_JOURNAL_H
#define GPUROBUST_TOOLS_CRASH_JOURNAL_H

#include <gpurobust/collector.h>
#include <gpurobust/report.h>

/* Every GPU crash entry carries it; Documentation/collector.md. */
#define GPUROBUST_JOURNAL_MESSAGE_ID "8d1e4cbf3a6f4f0c9b5e2d7a61c0f3e2"
/* A DRM device's WEDGED uevent (`gpurobust wedged`). */
#define GPUROBUST_JOURNAL_WEDGED_MESSAGE_ID "3f9a0c6e5b2d4e71a8c4d0b7e19f6a25"

/* Log @crash (as stored in @store_dir, from the devcoredump @devcd or
 * NULL). Return: 0 or the -errno of sd_journal_send(). */
int crash_journal_log(const struct gpurobust_report *report,
		      const struct gpurobust_stored_crash *crash, const char *store_dir,
		      const char *devcd);

#endif
