/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: breadcrumb memory the kernel puts in the devcoredump (D3)
 *
 * With the series (Documentation/uapi.md), a GPU VA mapping made with the
 * drm_amdgpu_gem_va flag AMDGPU_VM_DUMPABLE is copied into the devcoredump
 * of a hang a job of its VM (its DRM file) is guilty of, as a
 * "**** User Capture v1 ****" section: so a crash collector reads the
 * breadcrumbs after the process died. Nothing is pinned; the kernel copies
 * the mapping in its dump worker after recovery. It allows at most
 * GPUROBUST_AMDGPU_DUMPABLE_MAX_MAPPINGS such mappings per file, each at
 * most GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE bytes.
 *
 * A kernel without the series rejects the unknown flag with -EINVAL. The
 * functions here then map without it, so the breadcrumbs still work in
 * process, and say so: the capture status below is how a caller learns
 * that kernel capture is unavailable, and why.
 */
#ifndef GPUROBUST_BREADCRUMBS_AMDGPU_H
#define GPUROBUST_BREADCRUMBS_AMDGPU_H

#include <amdgpu.h>
#include <stdint.h>

#include "gpurobust/amdgpu.h"
#include "gpurobust/breadcrumbs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kernel's caps (AMDGPU_VM_DUMPABLE_MAX_MAPPINGS, _MAX_SIZE), per file. */
#define GPUROBUST_AMDGPU_DUMPABLE_MAX_MAPPINGS 4
#define GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE (64u << 10)

/* Whether a mapping reaches the devcoredump. */
enum gpurobust_amdgpu_capture {
	/* mapped with AMDGPU_VM_DUMPABLE: the kernel captures it */
	GPUROBUST_AMDGPU_CAPTURE_KERNEL = 0,
	/* the kernel rejected the flag with -EINVAL: it predates the series;
	 * later mappings of the same device do not ask again */
	GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED,
	/* -ENOSPC: the file already has its dumpable mappings (the count cap) */
	GPUROBUST_AMDGPU_CAPTURE_NO_SLOT,
	/* the mapping is larger than the size cap: not asked (-E2BIG) */
	GPUROBUST_AMDGPU_CAPTURE_TOO_BIG,
	/* the kernel refused the flag for another reason (error says which,
	 * e.g. a BO that cannot be dumped, such as an imported dma-buf) */
	GPUROBUST_AMDGPU_CAPTURE_REFUSED,
};

struct gpurobust_amdgpu_capture_status {
	enum gpurobust_amdgpu_capture capture;
	/* the negative errno of the refused flag; 0 for CAPTURE_KERNEL */
	int error;
	/* the dumpable range, as the dump's "va:" and "size:" lines will give
	 * it; size 0 when nothing is dumpable */
	uint64_t va;
	uint64_t size;
};

/**
 * gpurobust_amdgpu_map_dumpable() - map a driver's BO so that it is captured
 * @dev: the device (gpurobust_amdgpu_wrap() of the driver's libdrm device)
 * @bo: the BO
 * @offset: byte offset in @bo, page aligned
 * @size: bytes to map, page aligned
 * @va: GPU address, from the driver's VA allocator
 * @flags: AMDGPU_VM_PAGE_* and AMDGPU_VM_MTYPE_* flags of the mapping
 * @status: what the kernel said about capturing it
 *
 * AMDGPU_VA_OP_MAP with @flags | AMDGPU_VM_DUMPABLE. When the kernel refuses
 * the flag, the same mapping is made without it, so the caller always gets
 * its mapping and @status says whether the kernel captures it. A @size above
 * the size cap is mapped without asking. Unmap with amdgpu_bo_va_op_raw()
 * (AMDGPU_VA_OP_UNMAP, flags 0), which frees the kernel's slot.
 *
 * Return: 0 when mapped (@status filled); -EINVAL for NULL pointers, or for
 * @flags with AMDGPU_VM_PAGE_PRT or AMDGPU_VM_DUMPABLE (not asked: PRT
 * mappings have no memory to dump); otherwise the -errno of the plain
 * mapping, and nothing is mapped.
 */
int gpurobust_amdgpu_map_dumpable(struct gpurobust_amdgpu_device *dev, amdgpu_bo_handle bo,
				  uint64_t offset, uint64_t size, uint64_t va, uint64_t flags,
				  struct gpurobust_amdgpu_capture_status *status);

/* A stable lower-case name ("kernel", "unsupported", "no_slot", "too_big",
 * "refused"); "invalid" for other values. */
const char *gpurobust_amdgpu_capture_name(enum gpurobust_amdgpu_capture capture);

struct gpurobust_amdgpu_bc_pool;

/**
 * gpurobust_amdgpu_bc_pool_create() - a breadcrumb pool in its own GTT BO
 * @dev: the device
 * @config: the pool's configuration; cpu_map and gpu_va are ignored (the
 *          BO's are used). size 0 means GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE,
 *          so that the whole pool, and its mirror (B3), is in the dump.
 * @out: the pool
 *
 * Allocates a GTT BO, maps it for the CPU and at a GPU address of libdrm's
 * allocator, and creates the pool there. The first
 * GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE bytes are mapped with
 * gpurobust_amdgpu_map_dumpable(), the rest (if @config asks for more) by a
 * second, plain mapping right after it: the pool hands out low records
 * first, so the dump holds the first streams. It uses one of the file's
 * dumpable slots. gpurobust_amdgpu_bc_pool_capture() says whether the
 * kernel captures it.
 *
 * Return: 0; -EINVAL for NULL pointers; -ENOMEM; the -errno of the libdrm
 * call or pool creation that failed, with nothing left allocated.
 */
int gpurobust_amdgpu_bc_pool_create(struct gpurobust_amdgpu_device *dev,
				    const struct gpurobust_bc_pool_config *config,
				    struct gpurobust_amdgpu_bc_pool **out);

/* The breadcrumb pool, for gpurobust_bc_stream_create() and the rest of
 * gpurobust/breadcrumbs.h; owned by @pool. NULL for NULL. */
struct gpurobust_bc_pool *gpurobust_amdgpu_bc_pool_get(const struct gpurobust_amdgpu_bc_pool *pool);

/* The GPU address of the pool's memory. */
uint64_t gpurobust_amdgpu_bc_pool_va(const struct gpurobust_amdgpu_bc_pool *pool);

/* Return: 0 with *out filled, -EINVAL for NULL pointers. */
int gpurobust_amdgpu_bc_pool_capture(const struct gpurobust_amdgpu_bc_pool *pool,
				     struct gpurobust_amdgpu_capture_status *out);

/* Destroys the pool, unmaps the BO (freeing the dumpable slot) and frees it.
 * Safe on NULL. The GPU must be done with the pool's memory. */
void gpurobust_amdgpu_bc_pool_destroy(struct gpurobust_amdgpu_bc_pool *pool);

#ifdef __cplusplus
}
#endif

#endif
