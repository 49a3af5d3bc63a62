/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_TESTS_FAKE_AMDGPU_H
#define GPUROBUST_TESTS_FAKE_AMDGPU_H

/*
 * A fake amdgpu kernel at the ioctl level, for the backend tests: loaded
 * with LD_PRELOAD, it answers the ioctls that the real libdrm and
 * libdrm_amdgpu (Debian's 2.4.114) issue on one fake render node, and passes
 * every other file's ioctls to the C library. It stands in for the kernel,
 * never for libdrm or the code under test.
 *
 * The node is a regular file the fake creates; the fake recognizes it, and
 * every duplicate libdrm makes of it, by device and inode. Being no character
 * device, it takes libdrm's primary-node path (DRM_IOCTL_GET_CLIENT), which
 * the fake answers as an authenticated client.
 *
 * Every request's number, so its direction and argument size, must equal
 * the uAPI header's definition; anything else, or an ioctl the fake does
 * not know, is a violation: the call fails and fake_amdgpu_violation() says
 * what it was. Answers follow the kernel's rules where the tests rely on
 * them (errno of a signalled fence from WAIT_CS and WAIT_FENCES, -EINVAL for
 * unknown contexts, IB chunks at least the size of drm_amdgpu_cs_chunk_ib).
 * Everything else is what the test scripts below.
 */
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum fake_amdgpu_call {
	FAKE_VERSION,		/* DRM_IOCTL_VERSION */
	FAKE_GET_CLIENT,	/* DRM_IOCTL_GET_CLIENT */
	FAKE_CTX_ALLOC,		/* DRM_AMDGPU_CTX, AMDGPU_CTX_OP_ALLOC_CTX */
	FAKE_CTX_FREE,
	FAKE_CTX_QUERY_STATE,
	FAKE_CTX_QUERY_STATE2,
	FAKE_CS,		/* DRM_AMDGPU_CS */
	FAKE_WAIT_CS,		/* DRM_AMDGPU_WAIT_CS */
	FAKE_WAIT_FENCES,	/* DRM_AMDGPU_WAIT_FENCES */
	FAKE_INFO,		/* DRM_AMDGPU_INFO, any query */
	FAKE_SYNCOBJ_EXPORT,	/* DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD, EXPORT_SYNC_FILE */
	FAKE_SYNC_FILE_INFO,	/* SYNC_IOC_FILE_INFO on a sync_file the fake made */
	FAKE_GEM_CREATE,	/* DRM_AMDGPU_GEM_CREATE */
	FAKE_GEM_MMAP,		/* DRM_AMDGPU_GEM_MMAP */
	FAKE_GEM_CLOSE,		/* DRM_IOCTL_GEM_CLOSE */
	FAKE_GEM_VA,		/* DRM_AMDGPU_GEM_VA, any operation */
	FAKE_PRIME_IMPORT,	/* DRM_IOCTL_PRIME_FD_TO_HANDLE */
	FAKE_CALL_COUNT,
};

/* A fence that has not signalled: waits on it time out. */
#define FAKE_FENCE_BUSY 1

/* Path of the fake render node. */
const char *fake_amdgpu_node(void);

/* A fresh kernel: no contexts, no scripted answers, counters at 0, driver
 * "amdgpu" 3.59.0, legacy semantics, no violation. */
void fake_amdgpu_reset(void);

void fake_amdgpu_set_driver(const char *name);
void fake_amdgpu_set_kms_minor(int minor);
/* The driver version DRM_IOCTL_VERSION reports: 3.@minor.@patchlevel. */
void fake_amdgpu_set_kms_version(int minor, int patchlevel);
/* A kernel with this project's series: every QUERY_STATE2 answer carries
 * AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET. */
void fake_amdgpu_set_per_ctx(bool per_ctx);

/* The next ioctl of this kind fails with @err (negative errno). */
void fake_amdgpu_fail_next(enum fake_amdgpu_call call, int err);

/* What a context's QUERY_STATE2 and QUERY_STATE answer from now on. */
void fake_amdgpu_ctx_state(uint32_t ctx_id, uint64_t query2_flags, uint32_t query1_status);
/* Every later CS of the context fails with @err (0: accepted again). */
void fake_amdgpu_ctx_cs_error(uint32_t ctx_id, int err);
/* The state of one submission's fence: 0 signalled, a negative errno
 * signalled with that error, or FAKE_FENCE_BUSY. Submissions start at 0. */
void fake_amdgpu_fence(uint32_t ctx_id, uint64_t seq_no, int state);

/*
 * Buffers and their GPU mappings (D3). GEM_CREATE hands out BOs whose bytes
 * live in the node file itself, so GEM_MMAP's offset and the real mmap()
 * that libdrm makes on the node give the test the BO's memory. GEM_VA
 * follows amdgpu_gem_va_ioctl(): flags outside the valid set are -EINVAL,
 * so a kernel without the series rejects AMDGPU_VM_DUMPABLE that way; an
 * overlapping or out-of-BO mapping is -EINVAL, unmapping what is not mapped
 * -ENOENT, an unknown handle -ENOENT. With the series
 * (fake_amdgpu_set_dumpable()) the flag is checked as the series' D3 patch
 * and Documentation/uapi.md have it: -EINVAL with AMDGPU_VM_PAGE_PRT or on
 * UNMAP / CLEAR, -E2BIG above AMDGPU_VM_DUMPABLE_MAX_SIZE, then the handle
 * (-ENOENT), FAKE_DUMPABLE_IMPORTED_ERRNO for an imported BO, -ENOSPC beyond
 * AMDGPU_VM_DUMPABLE_MAX_MAPPINGS (a REPLACE first gives back the slots of
 * what it replaces). Unmapping, replacing or clearing a dumpable mapping, or
 * closing its BO, frees the slot (the fake drops a mapping that is replaced
 * or cleared in part, where the kernel keeps the rest, not dumpable). All
 * files of the node share one VM: the tests open one file per kernel reset.
 */
#define FAKE_DUMPABLE_IMPORTED_ERRNO (-EOPNOTSUPP)

/* A kernel with the series' D3 patch: AMDGPU_VM_DUMPABLE is a valid flag. */
void fake_amdgpu_set_dumpable(bool dumpable);
/* Mappings that carry AMDGPU_VM_DUMPABLE now. */
unsigned int fake_amdgpu_dumpable_count(void);
/* The flags of the mapping at @va, or -ENOENT when nothing is mapped there. */
int64_t fake_amdgpu_mapping_flags(uint64_t va);
/* BOs the fake holds (created or imported, not closed). */
unsigned int fake_amdgpu_bo_count(void);
/*
 * The "**** User Capture v1 ****" sections the dump of a hang of this VM
 * would carry (Documentation/uapi.md): one per dumpable mapping in the order
 * they were made, with va:, size: and the mapping's bytes as dwords, read
 * from the BO's memory now. This is the interface's documented text, not the
 * series' printer. Returns a malloc'd NUL-terminated string, or NULL.
 */
char *fake_amdgpu_user_captures(void);

/* AMDGPU_INFO_GPUVM_FAULT's answer. */
void fake_amdgpu_gpuvm_fault(uint64_t addr, uint32_t status, uint32_t vmhub);

/* What exporting @syncobj gives: @export_err when not 0, else a sync_file
 * whose fences have these statuses, as SYNC_IOC_FILE_INFO reports them:
 * 1 signalled, 0 active, <0 signalled with that error. */
void fake_amdgpu_syncobj(uint32_t syncobj, int export_err, const int *fence_status,
			 unsigned int count);

unsigned int fake_amdgpu_calls(enum fake_amdgpu_call call);
/* Every ioctl on the node since the last reset, whatever it was. */
unsigned int fake_amdgpu_calls_total(void);
/* The id the last AMDGPU_CTX_OP_ALLOC_CTX handed out, 0 before any. */
uint32_t fake_amdgpu_last_ctx(void);
/* The first violation since the last reset, or NULL. */
const char *fake_amdgpu_violation(void);
/* Forgets it, for a test that caused one on purpose. */
void fake_amdgpu_clear_violation(void);

#ifdef __cplusplus
}
#endif

#endif
