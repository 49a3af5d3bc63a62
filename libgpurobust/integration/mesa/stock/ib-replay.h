/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_IB_REPLAY_H
#define GPUROBUST_IB_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include <drm.h>
#include <amdgpu_drm.h>

struct ib_replay_script {
	/* the GPU hangs after this many writes of a label's start (0: never) */
	long hang_after_marker_writes;
	/* the kernel took AMDGPU_VM_DUMPABLE: its dump carries the mapping */
	bool dumpable_taken;
	const char *dump_path;	/* where the hang's devcoredump goes, or NULL */
	const char *log_path;	/* every packet and marker write, or NULL */
};

/* What the interposer saw the shim answer, and the driver ask. */
void ib_replay_gem_mmap(uint32_t handle, uint64_t offset);
void ib_replay_gem_va(const struct drm_amdgpu_gem_va *va, bool dumpable);
/* The kernel refused AMDGPU_VM_DUMPABLE for this BO (7.2 without the
 * series): its plain mapping still holds the breadcrumbs. */
void ib_replay_dumpable_refused(uint32_t handle);

/* Runs the IBs of a submission; false when the GPU hung in it. */
bool ib_replay_cs(const union drm_amdgpu_cs *cs, const struct ib_replay_script *script);

#endif
