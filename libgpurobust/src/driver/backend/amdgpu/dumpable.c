// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * D3: GPU VA mappings the kernel copies into the devcoredump
 * (AMDGPU_VM_DUMPABLE, Documentation/uapi.md), and a breadcrumb pool in one.
 *
 * Detection is the kernel's own answer: a kernel without the flag rejects it
 * in amdgpu_gem_va_ioctl()'s valid-flags check with -EINVAL, so the mapping
 * is made again without it. A plain mapping that fails too means the
 * mapping itself was bad, and nothing is mapped.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/amdgpu-uapi.h"
#include "common/export.h"
#include "driver/backend/amdgpu/device.h"
#include "gpurobust/breadcrumbs-amdgpu.h"

_Static_assert(GPUROBUST_AMDGPU_DUMPABLE_MAX_MAPPINGS == AMDGPU_VM_DUMPABLE_MAX_MAPPINGS,
	       "count cap");
_Static_assert(GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE == AMDGPU_VM_DUMPABLE_MAX_SIZE, "size cap");

#define PAGE_BYTES 4096u
#define BC_POOL_MAP_FLAGS (AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE)

static enum gpurobust_amdgpu_capture capture_of_errno(int err)
{
	switch (err) {
	case -EINVAL:
		return GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED;
	case -ENOSPC:
		return GPUROBUST_AMDGPU_CAPTURE_NO_SLOT;
	case -E2BIG:
		return GPUROBUST_AMDGPU_CAPTURE_TOO_BIG;
	}
	return GPUROBUST_AMDGPU_CAPTURE_REFUSED;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_map_dumpable(struct gpurobust_amdgpu_device *dev,
						   amdgpu_bo_handle bo, uint64_t offset,
						   uint64_t size, uint64_t va, uint64_t flags,
						   struct gpurobust_amdgpu_capture_status *status)
{
	struct gpurobust_amdgpu_capture_status st = { 0 };
	int refused;
	int r;

	if (!dev || !bo || !status || (flags & (AMDGPU_VM_PAGE_PRT | AMDGPU_VM_DUMPABLE)))
		return -EINVAL;
	refused = __atomic_load_n(&dev->dumpable_refused, __ATOMIC_RELAXED);
	if (refused) {
		/* this kernel said -EINVAL to the flag once: it lacks it */
		r = refused;
	} else if (size > GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE) {
		r = -E2BIG;
	} else {
		r = amdgpu_bo_va_op_raw(dev->handle, bo, offset, size, va,
					flags | AMDGPU_VM_DUMPABLE, AMDGPU_VA_OP_MAP);
		if (!r) {
			st.va = va;
			st.size = size;
			*status = st;
			return 0;
		}
	}
	st.capture = capture_of_errno(r);
	st.error = r;
	/* the mapping the caller needs, without the flag */
	r = amdgpu_bo_va_op_raw(dev->handle, bo, offset, size, va, flags, AMDGPU_VA_OP_MAP);
	if (r)
		return r;
	/* Only now is -EINVAL known to be about the flag: the same mapping
	 * without it was accepted. */
	if (st.capture == GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED)
		__atomic_store_n(&dev->dumpable_refused, -EINVAL, __ATOMIC_RELAXED);
	*status = st;
	return 0;
}

GPUROBUST_EXPORT const char *gpurobust_amdgpu_capture_name(enum gpurobust_amdgpu_capture capture)
{
	switch (capture) {
	case GPUROBUST_AMDGPU_CAPTURE_KERNEL: return "kernel";
	case GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED: return "unsupported";
	case GPUROBUST_AMDGPU_CAPTURE_NO_SLOT: return "no_slot";
	case GPUROBUST_AMDGPU_CAPTURE_TOO_BIG: return "too_big";
	case GPUROBUST_AMDGPU_CAPTURE_REFUSED: return "refused";
	}
	return "invalid";
}

struct gpurobust_amdgpu_bc_pool {
	struct gpurobust_amdgpu_device *dev;
	amdgpu_bo_handle bo;
	amdgpu_va_handle va_handle;
	uint64_t va, size;
	uint64_t dumpable_bytes;	/* the first mapping: [va, va + dumpable_bytes) */
	bool mapped_first, mapped_rest;
	void *cpu;
	struct gpurobust_bc_pool *pool;
	struct gpurobust_amdgpu_capture_status capture;
};

static void pool_release(struct gpurobust_amdgpu_bc_pool *p)
{
	gpurobust_bc_pool_destroy(p->pool);
	if (p->mapped_rest)
		amdgpu_bo_va_op_raw(p->dev->handle, p->bo, p->dumpable_bytes,
				    p->size - p->dumpable_bytes, p->va + p->dumpable_bytes, 0,
				    AMDGPU_VA_OP_UNMAP);
	if (p->mapped_first)
		amdgpu_bo_va_op_raw(p->dev->handle, p->bo, 0, p->dumpable_bytes, p->va, 0,
				    AMDGPU_VA_OP_UNMAP);
	if (p->va_handle)
		amdgpu_va_range_free(p->va_handle);
	if (p->cpu)
		amdgpu_bo_cpu_unmap(p->bo);
	if (p->bo)
		amdgpu_bo_free(p->bo);
	free(p);
}

GPUROBUST_EXPORT int gpurobust_amdgpu_bc_pool_create(struct gpurobust_amdgpu_device *dev,
						     const struct gpurobust_bc_pool_config *config,
						     struct gpurobust_amdgpu_bc_pool **out)
{
	struct amdgpu_bo_alloc_request req = { 0 };
	struct gpurobust_bc_pool_config cfg;
	struct gpurobust_amdgpu_bc_pool *p;
	int r;

	if (!dev || !config || !out)
		return -EINVAL;
	*out = NULL;
	cfg = *config;
	if (!cfg.size)
		cfg.size = GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE;
	if (cfg.size > SIZE_MAX - PAGE_BYTES)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->dev = dev;
	p->size = (cfg.size + PAGE_BYTES - 1) & ~(uint64_t)(PAGE_BYTES - 1);
	p->dumpable_bytes = p->size < GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE ?
			    p->size : GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE;

	/* GTT, CPU-cached and snooped: the GPU's last writes before a hang are
	 * in system memory, where the kernel's dump worker reads them. */
	req.alloc_size = p->size;
	req.phys_alignment = PAGE_BYTES;
	req.preferred_heap = AMDGPU_GEM_DOMAIN_GTT;
	r = amdgpu_bo_alloc(dev->handle, &req, &p->bo);
	if (r)
		goto fail;
	r = amdgpu_bo_cpu_map(p->bo, &p->cpu);
	if (r) {
		p->cpu = NULL;
		goto fail;
	}
	memset(p->cpu, 0, p->size);
	r = amdgpu_va_range_alloc(dev->handle, amdgpu_gpu_va_range_general, p->size, PAGE_BYTES,
				  0, &p->va, &p->va_handle, 0);
	if (r) {
		p->va_handle = NULL;
		goto fail;
	}
	r = gpurobust_amdgpu_map_dumpable(dev, p->bo, 0, p->dumpable_bytes, p->va,
					  BC_POOL_MAP_FLAGS, &p->capture);
	if (r)
		goto fail;
	p->mapped_first = true;
	if (p->size > p->dumpable_bytes) {
		r = amdgpu_bo_va_op_raw(dev->handle, p->bo, p->dumpable_bytes,
					p->size - p->dumpable_bytes, p->va + p->dumpable_bytes,
					BC_POOL_MAP_FLAGS, AMDGPU_VA_OP_MAP);
		if (r)
			goto fail;
		p->mapped_rest = true;
	}
	cfg.cpu_map = p->cpu;
	cfg.gpu_va = p->va;
	cfg.size = (size_t)p->size;
	r = gpurobust_bc_pool_create(&cfg, &p->pool);
	if (r) {
		p->pool = NULL;
		goto fail;
	}
	*out = p;
	return 0;

fail:
	pool_release(p);
	return r;
}

GPUROBUST_EXPORT struct gpurobust_bc_pool *
gpurobust_amdgpu_bc_pool_get(const struct gpurobust_amdgpu_bc_pool *pool)
{
	return pool ? pool->pool : NULL;
}

GPUROBUST_EXPORT uint64_t gpurobust_amdgpu_bc_pool_va(const struct gpurobust_amdgpu_bc_pool *pool)
{
	return pool ? pool->va : 0;
}

GPUROBUST_EXPORT int gpurobust_amdgpu_bc_pool_capture(const struct gpurobust_amdgpu_bc_pool *pool,
						      struct gpurobust_amdgpu_capture_status *out)
{
	if (!pool || !out)
		return -EINVAL;
	*out = pool->capture;
	return 0;
}

GPUROBUST_EXPORT void gpurobust_amdgpu_bc_pool_destroy(struct gpurobust_amdgpu_bc_pool *pool)
{
	if (pool)
		pool_release(pool);
}
