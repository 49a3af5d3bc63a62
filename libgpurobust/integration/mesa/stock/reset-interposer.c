// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * An ioctl-level interposer over Mesa's amdgpu drm-shim, for measuring what
 * stock RADV and radeonsi answer when the kernel reports a reset. Preload it
 * before libamdgpu_noop_drm_shim.so: it answers the amdgpu ioctls a reset
 * changes, as the kernel would, and hands every other ioctl to the shim.
 * Nothing of the drivers is replaced; they run as Debian ships them.
 *
 * Scripted by the environment (all optional; unset means "no reset"):
 *   GRB_CS_ERRNO=-125     DRM_AMDGPU_CS fails with this errno ...
 *   GRB_CS_FAIL_AFTER=N   ... after N submissions that succeed (default 0).
 *                         Each DRM_AMDGPU_CS ioctl counts once.
 *   GRB_QUERY2=0x5        the flags QUERY_STATE2 answers ...
 *   GRB_QUERY2_ALWAYS=1   ... from the start; otherwise only once a CS
 *                         failed, as the kernel learns of a reset then.
 *   GRB_WAIT_ERRNO=-125   the fence error DRM_AMDGPU_WAIT_CS and
 *                         DRM_AMDGPU_WAIT_FENCES return (the kernel reports
 *                         fence->error there; syncobj waits never do).
 *   GRB_VRAM_LOST=1       AMDGPU_INFO_VRAM_LOST_COUNTER goes from 0 to 1
 *                         with the reset.
 * AMDGPU_INFO_GPUVM_FAULT always answers "no fault", as the kernel does
 * when none happened (the shim has no answer for it).
 *   GRB_KMS_MINOR=N       the DRM minor DRM_IOCTL_VERSION reports. From 65
 *                         (7.2 with the series) it takes AMDGPU_VM_DUMPABLE
 *                         mappings; below, it rejects the flag with -EINVAL
 *                         as 7.2 does.
 * Breadcrumbs (ib-replay.c runs the IBs of every submission):
 *   GRB_HANG_AFTER=N      the GPU hangs after the N-th label start it wrote
 *                         to a dumpable mapping: the submission is taken,
 *                         and from then on the kernel knows of a reset as
 *                         if a CS had failed (GRB_QUERY2, GRB_WAIT_ERRNO;
 *                         later submissions fail with GRB_CS_ERRNO).
 *   GRB_DUMP=PATH         where the hang's devcoredump is written.
 *   GRB_IB_LOG=PATH       each packet and marker write, appended.
 * Every ioctl it answered is counted on stderr at exit ("interposer: ...").
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include <drm.h>
#include <amdgpu_drm.h>

#include "ib-replay.h"

/* AMDGPU_VM_DUMPABLE of the 7.2 series' uAPI, which sid's libdrm lacks. */
#define GRB_VM_DUMPABLE (1u << 11)

static int (*next_ioctl)(int fd, unsigned long request, ...);
static unsigned int cs_seen, cs_failed, query2_seen, waits_failed, dumpables_refused;
static bool reset_seen;

/* The scenario, read from the environment once. */
static struct {
	long cs_errno, cs_fail_after, query2, query2_always, wait_errno, vram_lost, kms_minor;
	struct ib_replay_script replay;
} script;

static long env_long(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 0) : 0;
}

static void report(void)
{
	fprintf(stderr, "interposer: %u CS, %u failed, %u QUERY_STATE2, %u failed waits\n",
		cs_seen, cs_failed, query2_seen, waits_failed);
	if (dumpables_refused)
		fprintf(stderr, "interposer: %u AMDGPU_VM_DUMPABLE mappings refused\n",
			dumpables_refused);
}

__attribute__((constructor)) static void init(void)
{
	next_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	if (!next_ioctl) {
		fprintf(stderr, "interposer: no next ioctl(): preload the drm-shim after it\n");
		abort();
	}
	script.cs_errno = env_long("GRB_CS_ERRNO");
	script.cs_fail_after = env_long("GRB_CS_FAIL_AFTER");
	script.query2 = env_long("GRB_QUERY2");
	script.query2_always = env_long("GRB_QUERY2_ALWAYS");
	script.wait_errno = env_long("GRB_WAIT_ERRNO");
	script.vram_lost = env_long("GRB_VRAM_LOST");
	script.kms_minor = env_long("GRB_KMS_MINOR");
	script.replay.hang_after_marker_writes = env_long("GRB_HANG_AFTER");
	script.replay.dumpable_taken = script.kms_minor >= 65;
	script.replay.dump_path = getenv("GRB_DUMP");
	script.replay.log_path = getenv("GRB_IB_LOG");
	atexit(report);
}

static bool reset_visible(void)
{
	return script.query2_always || reset_seen;
}

/* The DRM_AMDGPU_* command of an ioctl request, or -1. Requests are told
 * apart by command number, not by the whole request: it encodes the size of
 * the argument, which differs between a driver's uAPI copy and sid's. */
static int amdgpu_command(unsigned long request)
{
	if (_IOC_TYPE(request) != DRM_IOCTL_BASE || _IOC_NR(request) < DRM_COMMAND_BASE)
		return -1;
	return (int)(_IOC_NR(request) - DRM_COMMAND_BASE);
}

/* Returns true when it answered the ioctl itself, with *ret. */
static bool answer(unsigned long request, void *arg, int *ret)
{
	switch (amdgpu_command(request)) {
	case DRM_AMDGPU_CS:
		cs_seen++;
		if ((script.replay.hang_after_marker_writes || script.replay.log_path) && !reset_seen) {
			/* The GPU runs it; if it hangs in it, the kernel took
			 * it and learns of the reset after its timeout. */
			reset_seen = !ib_replay_cs(arg, &script.replay);
			return false;
		}
		if (!script.cs_errno || cs_seen <= (unsigned long)script.cs_fail_after)
			return false;
		cs_failed++;
		reset_seen = true;
		errno = (int)-script.cs_errno;
		*ret = -1;
		return true;
	case DRM_AMDGPU_CTX: {
		union drm_amdgpu_ctx *ctx = arg;

		if (ctx->in.op == AMDGPU_CTX_OP_ALLOC_CTX) {
			static uint32_t next_id = 1;

			memset(&ctx->out, 0, sizeof(ctx->out));
			ctx->out.alloc.ctx_id = next_id++;
			*ret = 0;
			return true;
		}
		if (ctx->in.op == AMDGPU_CTX_OP_QUERY_STATE2) {
			query2_seen++;
			memset(&ctx->out, 0, sizeof(ctx->out));
			if (reset_visible())
				ctx->out.state.flags = (uint64_t)script.query2;
			*ret = 0;
			return true;
		}
		if (ctx->in.op == AMDGPU_CTX_OP_QUERY_STATE) {
			memset(&ctx->out, 0, sizeof(ctx->out));
			*ret = 0;
			return true;
		}
		return false;
	}
	case DRM_AMDGPU_WAIT_CS:
	case DRM_AMDGPU_WAIT_FENCES:
		if (!script.wait_errno || !reset_visible())
			return false;
		waits_failed++;
		errno = (int)-script.wait_errno;
		*ret = -1;
		return true;
	case DRM_AMDGPU_INFO: {
		struct drm_amdgpu_info *info = arg;
		void *out = (void *)(uintptr_t)info->return_pointer;

		if (info->query == AMDGPU_INFO_VRAM_LOST_COUNTER) {
			*(uint32_t *)out = script.vram_lost && reset_seen;
		} else if (info->query == AMDGPU_INFO_GPUVM_FAULT) {
			/* No VM fault: the scenarios are resets, not faults.
			 * The shim has no answer for this query. */
			memset(out, 0, info->return_size < sizeof(struct drm_amdgpu_info_gpuvm_fault) ?
				       info->return_size : sizeof(struct drm_amdgpu_info_gpuvm_fault));
		} else {
			return false;
		}
		*ret = 0;
		return true;
	}
	case DRM_AMDGPU_GEM_VA: {
		struct drm_amdgpu_gem_va *va = arg;
		bool dumpable = va->flags & GRB_VM_DUMPABLE;

		if (dumpable && !script.replay.dumpable_taken) {
			ib_replay_dumpable_refused(va->handle);
			dumpables_refused++;
			errno = EINVAL;
			*ret = -1;
			return true;
		}
		ib_replay_gem_va(va, dumpable);
		return false;
	}
	default:
		return false;
	}
}

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	uint32_t handle;
	int ret;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (answer(request, arg, &ret))
		return ret;
	/* GEM_MMAP's answer overwrites the handle it was asked for. */
	handle = amdgpu_command(request) == DRM_AMDGPU_GEM_MMAP ?
		 ((union drm_amdgpu_gem_mmap *)arg)->in.handle : 0;
	ret = next_ioctl(fd, request, arg);
	if (ret == 0 && request == DRM_IOCTL_VERSION && script.kms_minor)
		((struct drm_version *)arg)->version_minor = (int)script.kms_minor;
	if (ret == 0 && amdgpu_command(request) == DRM_AMDGPU_GEM_MMAP)
		ib_replay_gem_mmap(handle, ((union drm_amdgpu_gem_mmap *)arg)->out.addr_ptr);
	return ret;
}
