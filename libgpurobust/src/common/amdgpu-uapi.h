/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_COMMON_AMDGPU_UAPI_H
#define GPUROBUST_COMMON_AMDGPU_UAPI_H

/* The amdgpu uAPI bits that Debian 12's libdrm 2.4.114 headers lack. Mesa
 * solves this by carrying its own amdgpu_drm.h; we define only these few.
 * Without the libdrm backend the driver core still needs the reset answers'
 * values, so they are copied here from amdgpu_drm.h (stable uAPI). */
#include <stddef.h>
#include <stdint.h>
#ifdef GPUROBUST_HAVE_LIBDRM
#include <amdgpu_drm.h>
#else
#define AMDGPU_CTX_NO_RESET 0
#define AMDGPU_CTX_GUILTY_RESET 1
#define AMDGPU_CTX_INNOCENT_RESET 2
#define AMDGPU_CTX_UNKNOWN_RESET 3
#define AMDGPU_CTX_QUERY2_FLAGS_RESET (1 << 0)
#define AMDGPU_CTX_QUERY2_FLAGS_VRAMLOST (1 << 1)
#define AMDGPU_CTX_QUERY2_FLAGS_GUILTY (1 << 2)
#define AMDGPU_CTX_QUERY2_FLAGS_RAS_CE (1 << 3)
#define AMDGPU_CTX_QUERY2_FLAGS_RAS_UE (1 << 4)
#endif

/* Kernel 6.8+ (KMS 3.54) and this project's series; the public names are
 * in gpurobust/reset.h, amdgpu-uapi.c checks them against libdrm's. */
#ifndef AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS
#define AMDGPU_CTX_QUERY2_FLAGS_RESET_IN_PROGRESS (1 << 5)
#endif
#ifndef AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET
#define AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET (1 << 6)
#endif

/* D3 (Documentation/uapi.md, the series' D3 patch): a drm_amdgpu_gem_va flag
 * for AMDGPU_VA_OP_MAP and _REPLACE that puts the mapping's contents into
 * the devcoredump of a hang its VM is guilty of, and the kernel's caps per VM
 * (per DRM file). Kernels without it reject the flag with -EINVAL. */
#ifndef AMDGPU_VM_DUMPABLE
#define AMDGPU_VM_DUMPABLE (1 << 11)
#endif
#ifndef AMDGPU_VM_DUMPABLE_MAX_MAPPINGS
#define AMDGPU_VM_DUMPABLE_MAX_MAPPINGS 4
#endif
#ifndef AMDGPU_VM_DUMPABLE_MAX_SIZE
#define AMDGPU_VM_DUMPABLE_MAX_SIZE (64 << 10)
#endif

/* The driver versions with which this project's kernel series report the
 * per-context semantics (Documentation/uapi.md; kernel/scripts/check-uapi.sh
 * compares each with its series): the upstream series on Linux 7.2 bumps the
 * minor to 3.65.0; its 6.12 backport cannot take an upstream minor (3.62
 * to 3.64 stand for features 6.12 lacks), so it reports 3.61.1 and later
 * patchlevels of the 3.61 branch. */
#define GPUROBUST_PER_CTX_RESET_KMS_MINOR 65
#define GPUROBUST_PER_CTX_RESET_KMS_PATCHLEVEL 0
#define GPUROBUST_PER_CTX_RESET_BACKPORT_KMS_MINOR 61
#define GPUROBUST_PER_CTX_RESET_BACKPORT_KMS_PATCHLEVEL 1

/* Kernel-internal, but listed by contract row L8 as "not a reset". It never
 * reaches a well-behaved caller; accepting it costs nothing. */
#define GPUROBUST_ERESTARTSYS 512

struct grb_query2_flag_name {
	uint64_t flag;
	const char *name;	/* the AMDGPU_CTX_QUERY2_FLAGS_ suffix */
};

/* Every QUERY_STATE2 flag this library knows, lowest bit first; ends with
 * a zero entry. */
extern const struct grb_query2_flag_name grb_query2_flag_names[];

#endif
