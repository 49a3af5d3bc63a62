// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The fake amdgpu kernel described in fake-amdgpu.h. Each handler reads
 * its argument the way the kernel's handler does (drivers/gpu/drm/amd/amdgpu:
 * amdgpu_ctx_ioctl(), amdgpu_cs_ioctl(), amdgpu_cs_wait_ioctl(),
 * amdgpu_cs_wait_fences_ioctl(), amdgpu_info_ioctl(); drm_syncobj.c and
 * dma-buf/sync_file.c), and answers from the script.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm.h>
#include <amdgpu_drm.h>
#include <linux/sync_file.h>

#include "fake-amdgpu.h"

#define MAX_CTXS 64
#define MAX_FENCES 64
#define MAX_SYNCOBJS 8
#define MAX_SYNC_FILES 16
#define MAX_SYNC_FENCES 8
#define GPUVM_FAULT_KMS_MINOR 55
#ifndef AMDGPU_INFO_GPUVM_FAULT
#define AMDGPU_INFO_GPUVM_FAULT 0x23
#endif
#define QUERY2_PER_CTX_RESET (1u << 6)
#define MAX_BOS 32
#define MAX_MAPPINGS 64
#define PAGE 4096ull
/* D3 (Documentation/uapi.md): the series' flag and caps, which Debian's
 * libdrm 2.4.114 headers lack. */
#ifndef AMDGPU_VM_DUMPABLE
#define AMDGPU_VM_DUMPABLE (1 << 11)
#endif
#ifndef AMDGPU_VM_DUMPABLE_MAX_MAPPINGS
#define AMDGPU_VM_DUMPABLE_MAX_MAPPINGS 4
#endif
#ifndef AMDGPU_VM_DUMPABLE_MAX_SIZE
#define AMDGPU_VM_DUMPABLE_MAX_SIZE (64 << 10)
#endif
#ifndef AMDGPU_VM_PAGE_NOALLOC
#define AMDGPU_VM_PAGE_NOALLOC (1 << 9)
#endif
/* amdgpu_gem_va_ioctl()'s valid_flags and prt_flags (6.12) */
#define VA_VALID_FLAGS (AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_READABLE | \
			AMDGPU_VM_PAGE_WRITEABLE | AMDGPU_VM_PAGE_EXECUTABLE | \
			AMDGPU_VM_MTYPE_MASK | AMDGPU_VM_PAGE_NOALLOC)
#define VA_PRT_FLAGS (AMDGPU_VM_DELAY_UPDATE | AMDGPU_VM_PAGE_PRT)
/* AMDGPU_VA_RESERVED_BOTTOM and the end of the fake's 47-bit VA space */
#define VA_BOTTOM (2ull << 20)
#define VA_END (1ull << 47)

struct fake_fence {
	uint64_t seq_no;
	int state;
};

struct fake_ctx {
	uint32_t id;		/* 0: slot free */
	uint64_t query2;
	uint32_t query1;
	int cs_error;
	uint64_t last_seq;
	struct fake_fence fences[MAX_FENCES];
	unsigned int fence_count;
};

struct fake_syncobj {
	uint32_t handle;	/* 0: slot free */
	int export_err;
	int status[MAX_SYNC_FENCES];
	unsigned int count;
};

struct fake_bo {
	uint32_t handle;	/* 0: slot free */
	uint64_t size;
	uint64_t file_offset;	/* where its bytes live in the node file */
	bool imported;
};

struct fake_mapping {
	bool used;
	uint32_t handle;	/* 0 for a PRT mapping */
	uint64_t va, offset, size, flags;
	uint64_t order;		/* when it was made, for the dump's order */
};

struct fake_sync_file {
	dev_t dev;
	ino_t ino;		/* 0: slot free */
	int status[MAX_SYNC_FENCES];
	unsigned int count;
};

static struct {
	pthread_mutex_t lock;
	char node[256];
	dev_t node_dev;
	ino_t node_ino;

	char driver[32];
	int kms_minor;
	int kms_patchlevel;
	bool per_ctx;
	int fail_next[FAKE_CALL_COUNT];
	struct fake_ctx ctxs[MAX_CTXS];
	uint32_t last_ctx;
	struct drm_amdgpu_info_gpuvm_fault_uapi {
		uint64_t addr;
		uint32_t status;
		uint32_t vmhub;
	} gpuvm_fault;
	struct fake_syncobj syncobjs[MAX_SYNCOBJS];
	struct fake_sync_file sync_files[MAX_SYNC_FILES];
	bool dumpable;
	struct fake_bo bos[MAX_BOS];
	uint32_t last_bo;
	uint64_t file_end;
	struct fake_mapping mappings[MAX_MAPPINGS];
	uint64_t map_order;
	unsigned int calls[FAKE_CALL_COUNT];
	unsigned int calls_total;
	char violation[256];
} fake = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int (*real_ioctl)(int fd, unsigned long request, ...);
static void violate(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void reset_locked(void)
{
	memset(fake.fail_next, 0, sizeof(fake.fail_next));
	memset(fake.ctxs, 0, sizeof(fake.ctxs));
	memset(&fake.gpuvm_fault, 0, sizeof(fake.gpuvm_fault));
	memset(fake.syncobjs, 0, sizeof(fake.syncobjs));
	memset(fake.sync_files, 0, sizeof(fake.sync_files));
	memset(fake.calls, 0, sizeof(fake.calls));
	fake.calls_total = 0;
	fake.last_ctx = 0;
	fake.violation[0] = '\0';
	snprintf(fake.driver, sizeof(fake.driver), "amdgpu");
	fake.kms_minor = 59;
	fake.kms_patchlevel = 0;
	fake.per_ctx = false;
	fake.dumpable = false;
	memset(fake.bos, 0, sizeof(fake.bos));
	memset(fake.mappings, 0, sizeof(fake.mappings));
	fake.last_bo = 0;
	fake.file_end = 0;
	fake.map_order = 0;
	/* the BOs' bytes of the previous test go */
	if (fake.node[0] && truncate(fake.node, 0))
		violate("cannot truncate the node: %s", strerror(errno));
}

__attribute__((constructor)) static void fake_init(void)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;
	int fd;

	/* POSIX's way to a function pointer from dlsym(). */
	*(void **)&real_ioctl = dlsym(RTLD_NEXT, "ioctl");
	snprintf(fake.node, sizeof(fake.node), "%s/fake-amdgpu-renderD128-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(fake.node);
	if (fd < 0 || fstat(fd, &st)) {
		fprintf(stderr, "fake-amdgpu: cannot create the node %s: %s\n", fake.node,
			strerror(errno));
		abort();
	}
	close(fd);
	fake.node_dev = st.st_dev;
	fake.node_ino = st.st_ino;
	reset_locked();
}

__attribute__((destructor)) static void fake_fini(void)
{
	unlink(fake.node);
}

static void violate(const char *fmt, ...)
{
	va_list ap;

	if (fake.violation[0])
		return;
	va_start(ap, fmt);
	vsnprintf(fake.violation, sizeof(fake.violation), fmt, ap);
	va_end(ap);
}

/* Counts the call and consumes a scripted failure of its kind. */
static int enter(enum fake_amdgpu_call call)
{
	int err = fake.fail_next[call];

	fake.calls[call]++;
	fake.fail_next[call] = 0;
	return err;
}

static struct fake_ctx *find_ctx(uint32_t id)
{
	for (int i = 0; id && i < MAX_CTXS; i++)
		if (fake.ctxs[i].id == id)
			return &fake.ctxs[i];
	return NULL;
}

/* Scripted state of a fence; sequence numbers never handed out are -EINVAL,
 * as amdgpu_ctx_get_fence() has them. */
static int fence_state(const struct fake_ctx *ctx, uint64_t seq_no, bool *known)
{
	*known = seq_no && seq_no <= ctx->last_seq;
	for (unsigned int i = 0; i < ctx->fence_count; i++)
		if (ctx->fences[i].seq_no == seq_no)
			return ctx->fences[i].state;
	return 0;
}

static int version_ioctl(struct drm_version *v)
{
	static const char date[] = "20150101", desc[] = "fake AMD GPU";
	size_t name_len = strlen(fake.driver);
	int err = enter(FAKE_VERSION);

	if (err)
		return err;
	v->version_major = 3;
	v->version_minor = fake.kms_minor;
	v->version_patchlevel = fake.kms_patchlevel;
	/* drm_copy_field(): copy what fits, report the full length. */
	if (v->name && v->name_len)
		memcpy(v->name, fake.driver, name_len < v->name_len ? name_len : v->name_len);
	if (v->date && v->date_len)
		memcpy(v->date, date, sizeof(date) - 1 < v->date_len ? sizeof(date) - 1 : v->date_len);
	if (v->desc && v->desc_len)
		memcpy(v->desc, desc, sizeof(desc) - 1 < v->desc_len ? sizeof(desc) - 1 : v->desc_len);
	v->name_len = name_len;
	v->date_len = sizeof(date) - 1;
	v->desc_len = sizeof(desc) - 1;
	return 0;
}

static int get_client_ioctl(struct drm_client *client)
{
	int err = enter(FAKE_GET_CLIENT);

	if (err)
		return err;
	if (client->idx != 0)
		return -EINVAL;
	client->auth = 1;
	client->pid = (unsigned long)getpid();
	client->uid = (unsigned long)getuid();
	client->magic = 0;
	client->iocs = 0;
	return 0;
}

static int ctx_ioctl(union drm_amdgpu_ctx *args)
{
	uint32_t op = args->in.op, id = args->in.ctx_id;
	enum fake_amdgpu_call call;
	struct fake_ctx *ctx;
	int err;

	switch (op) {
	case AMDGPU_CTX_OP_ALLOC_CTX: call = FAKE_CTX_ALLOC; break;
	case AMDGPU_CTX_OP_FREE_CTX: call = FAKE_CTX_FREE; break;
	case AMDGPU_CTX_OP_QUERY_STATE: call = FAKE_CTX_QUERY_STATE; break;
	case AMDGPU_CTX_OP_QUERY_STATE2: call = FAKE_CTX_QUERY_STATE2; break;
	default:
		violate("DRM_AMDGPU_CTX op %u", op);
		return -EINVAL;
	}
	err = enter(call);
	if (err)
		return err;

	if (op == AMDGPU_CTX_OP_ALLOC_CTX) {
		for (int i = 0; i < MAX_CTXS; i++) {
			if (fake.ctxs[i].id)
				continue;
			memset(&fake.ctxs[i], 0, sizeof(fake.ctxs[i]));
			fake.ctxs[i].id = ++fake.last_ctx;
			memset(&args->out, 0, sizeof(args->out));
			args->out.alloc.ctx_id = fake.ctxs[i].id;
			return 0;
		}
		return -ENOMEM;
	}
	ctx = find_ctx(id);
	if (!ctx)
		return -EINVAL;
	memset(&args->out, 0, sizeof(args->out));
	switch (op) {
	case AMDGPU_CTX_OP_FREE_CTX:
		ctx->id = 0;
		break;
	case AMDGPU_CTX_OP_QUERY_STATE:
		args->out.state.reset_status = ctx->query1;
		break;
	case AMDGPU_CTX_OP_QUERY_STATE2:
		args->out.state.flags = ctx->query2 | (fake.per_ctx ? QUERY2_PER_CTX_RESET : 0);
		break;
	}
	return 0;
}

static int cs_ioctl(union drm_amdgpu_cs *cs)
{
	const uint64_t *chunk_ptrs = (const uint64_t *)(uintptr_t)cs->in.chunks;
	struct fake_ctx *ctx = find_ctx(cs->in.ctx_id);
	unsigned int ibs = 0;
	int err = enter(FAKE_CS);

	if (err)
		return err;
	if (!ctx || !cs->in.num_chunks || !chunk_ptrs)
		return -EINVAL;
	for (uint32_t i = 0; i < cs->in.num_chunks; i++) {
		const struct drm_amdgpu_cs_chunk *chunk =
			(const struct drm_amdgpu_cs_chunk *)(uintptr_t)chunk_ptrs[i];

		if (chunk->chunk_id != AMDGPU_CHUNK_ID_IB)
			continue;
		/* amdgpu_cs_pass1(): an IB chunk smaller than the uAPI struct is
		 * refused. */
		if (chunk->length_dw * 4u < sizeof(struct drm_amdgpu_cs_chunk_ib))
			return -EINVAL;
		ibs++;
	}
	if (!ibs)
		return -EINVAL;
	if (ctx->cs_error)
		return ctx->cs_error;
	memset(&cs->out, 0, sizeof(cs->out));
	cs->out.handle = ++ctx->last_seq;
	return 0;
}

static int wait_cs_ioctl(union drm_amdgpu_wait_cs *wait)
{
	struct fake_ctx *ctx = find_ctx(wait->in.ctx_id);
	uint64_t handle = wait->in.handle;
	bool known;
	int state, err = enter(FAKE_WAIT_CS);

	if (err)
		return err;
	if (!ctx)
		return -EINVAL;
	state = fence_state(ctx, handle, &known);
	if (handle && !known)
		return -EINVAL;
	if (state < 0)
		return state;
	memset(wait, 0, sizeof(*wait));
	wait->out.status = state == FAKE_FENCE_BUSY;
	return 0;
}

static int wait_fences_ioctl(union drm_amdgpu_wait_fences *wait)
{
	const struct drm_amdgpu_fence *fences =
		(const struct drm_amdgpu_fence *)(uintptr_t)wait->in.fences;
	uint32_t count = wait->in.fence_count, first = count;
	bool all = wait->in.wait_all, signalled = all;
	int r = 0, err = enter(FAKE_WAIT_FENCES);

	if (err)
		return err;
	if (!count || !fences)
		return -EINVAL;
	for (uint32_t i = 0; i < count; i++) {
		struct fake_ctx *ctx = find_ctx(fences[i].ctx_id);
		bool known;
		int state;

		if (!ctx)
			return -EINVAL;
		state = fence_state(ctx, fences[i].seq_no, &known);
		if (!known)
			return -EINVAL;
		if (all) {
			/* amdgpu_cs_wait_all_fences(): the first error ends it. */
			if (state < 0)
				return state;
			if (state == FAKE_FENCE_BUSY) {
				signalled = false;
				break;
			}
		} else if (state != FAKE_FENCE_BUSY && first == count) {
			/* amdgpu_cs_wait_any_fence(): the first signalled fence
			 * answers, with its error. */
			first = i;
			signalled = true;
			r = state;
		}
	}
	memset(wait, 0, sizeof(*wait));
	wait->out.status = signalled;
	wait->out.first_signaled = first;
	return r;
}

/* ---- Buffers and mappings (D3) ---- */

static struct fake_bo *find_bo(uint32_t handle)
{
	for (int i = 0; handle && i < MAX_BOS; i++)
		if (fake.bos[i].handle == handle)
			return &fake.bos[i];
	return NULL;
}

static struct fake_bo *new_bo(uint64_t size)
{
	for (int i = 0; i < MAX_BOS; i++) {
		struct fake_bo *bo = &fake.bos[i];

		if (bo->handle)
			continue;
		bo->handle = ++fake.last_bo;
		bo->size = (size + PAGE - 1) & ~(PAGE - 1);
		bo->file_offset = fake.file_end;
		bo->imported = false;
		fake.file_end += bo->size;
		/* the node file grows to hold the BO: mmap() reads it back */
		if (truncate(fake.node, (off_t)fake.file_end)) {
			bo->handle = 0;
			return NULL;
		}
		return bo;
	}
	return NULL;
}

static int gem_create_ioctl(union drm_amdgpu_gem_create *args)
{
	uint64_t size = args->in.bo_size;
	struct fake_bo *bo;
	int err = enter(FAKE_GEM_CREATE);

	if (err)
		return err;
	/* amdgpu_gem_create_ioctl(): known domains only, a size */
	if (!size || (args->in.domains & ~(uint64_t)AMDGPU_GEM_DOMAIN_MASK) || size > (1ull << 32))
		return -EINVAL;
	bo = new_bo(size);
	if (!bo)
		return -ENOMEM;
	memset(args, 0, sizeof(*args));
	args->out.handle = bo->handle;
	return 0;
}

static int gem_mmap_ioctl(union drm_amdgpu_gem_mmap *args)
{
	struct fake_bo *bo;
	int err = enter(FAKE_GEM_MMAP);

	if (err)
		return err;
	bo = find_bo(args->in.handle);
	if (!bo)
		return -ENOENT;
	/* an imported BO's pages are the exporter's: the fake has none */
	if (bo->imported)
		return -EPERM;
	memset(args, 0, sizeof(*args));
	args->out.addr_ptr = bo->file_offset;
	return 0;
}

static void unmap_slot(struct fake_mapping *m)
{
	memset(m, 0, sizeof(*m));
}

static int gem_close_ioctl(const struct drm_gem_close *args)
{
	struct fake_bo *bo;
	int err = enter(FAKE_GEM_CLOSE);

	if (err)
		return err;
	bo = find_bo(args->handle);
	if (!bo || args->pad)
		return -EINVAL;
	/* the BO's bo_va goes with its last handle, and its mappings with it */
	for (int i = 0; i < MAX_MAPPINGS; i++)
		if (fake.mappings[i].used && fake.mappings[i].handle == bo->handle)
			unmap_slot(&fake.mappings[i]);
	bo->handle = 0;
	return 0;
}

static int prime_import_ioctl(struct drm_prime_handle *args)
{
	struct fake_bo *bo;
	off_t size;
	int err = enter(FAKE_PRIME_IMPORT);

	if (err)
		return err;
	size = lseek(args->fd, 0, SEEK_END);
	if (size <= 0)
		return -EINVAL;
	bo = new_bo((uint64_t)size);
	if (!bo)
		return -ENOMEM;
	bo->imported = true;
	args->handle = bo->handle;
	return 0;
}

static unsigned int dumpable_count(void)
{
	unsigned int n = 0;

	for (int i = 0; i < MAX_MAPPINGS; i++)
		n += fake.mappings[i].used && (fake.mappings[i].flags & AMDGPU_VM_DUMPABLE);
	return n;
}

static bool overlaps(const struct fake_mapping *m, uint64_t va, uint64_t size)
{
	return m->used && m->va < va + size && va < m->va + m->size;
}

static int gem_va_ioctl(const struct drm_amdgpu_gem_va *va)
{
	uint64_t valid = VA_VALID_FLAGS | (fake.dumpable ? AMDGPU_VM_DUMPABLE : 0);
	bool dumpable = va->flags & AMDGPU_VM_DUMPABLE, prt = va->flags & AMDGPU_VM_PAGE_PRT;
	struct fake_mapping *slot = NULL;
	struct fake_bo *bo = NULL;
	int err = enter(FAKE_GEM_VA);

	if (err)
		return err;
	if (va->_pad)
		return -EINVAL;
	if (va->va_address < VA_BOTTOM || va->va_address + va->map_size > VA_END)
		return -EINVAL;
	/* the valid-flags check: how a kernel without D3 refuses the flag */
	if ((va->flags & ~valid) && (va->flags & ~(uint64_t)VA_PRT_FLAGS))
		return -EINVAL;
	switch (va->operation) {
	case AMDGPU_VA_OP_MAP:
	case AMDGPU_VA_OP_UNMAP:
	case AMDGPU_VA_OP_CLEAR:
	case AMDGPU_VA_OP_REPLACE:
		break;
	default:
		return -EINVAL;
	}
	/* D3's checks, where the series makes them: the operation and size
	 * before the handle lookup, the buffer after it, the count last */
	if (dumpable) {
		if (va->operation == AMDGPU_VA_OP_UNMAP || va->operation == AMDGPU_VA_OP_CLEAR)
			return -EINVAL;
		if (va->map_size > AMDGPU_VM_DUMPABLE_MAX_SIZE)
			return -E2BIG;
	}
	if (va->operation != AMDGPU_VA_OP_CLEAR && !prt) {
		bo = find_bo(va->handle);
		if (!bo)
			return -ENOENT;
		if (dumpable && bo->imported)
			return FAKE_DUMPABLE_IMPORTED_ERRNO;
	}
	if ((va->va_address | va->offset_in_bo | va->map_size) & (PAGE - 1))
		return -EINVAL;

	switch (va->operation) {
	case AMDGPU_VA_OP_UNMAP:
		for (int i = 0; i < MAX_MAPPINGS; i++) {
			struct fake_mapping *m = &fake.mappings[i];

			if (m->used && m->handle == bo->handle && m->va == va->va_address) {
				unmap_slot(m);
				return 0;
			}
		}
		return -ENOENT;
	case AMDGPU_VA_OP_CLEAR:
		for (int i = 0; i < MAX_MAPPINGS; i++)
			if (overlaps(&fake.mappings[i], va->va_address, va->map_size))
				unmap_slot(&fake.mappings[i]);
		return 0;
	}
	/* MAP and REPLACE */
	if (!va->map_size || (bo && va->offset_in_bo + va->map_size > bo->size))
		return -EINVAL;
	if (va->operation == AMDGPU_VA_OP_MAP) {
		for (int i = 0; i < MAX_MAPPINGS; i++)
			if (overlaps(&fake.mappings[i], va->va_address, va->map_size))
				return -EINVAL;
	}
	if (dumpable) {
		unsigned int n = dumpable_count();

		/* the mappings REPLACE removes give their slots back first */
		for (int i = 0; va->operation == AMDGPU_VA_OP_REPLACE && i < MAX_MAPPINGS; i++)
			if (overlaps(&fake.mappings[i], va->va_address, va->map_size) &&
			    (fake.mappings[i].flags & AMDGPU_VM_DUMPABLE))
				n--;
		if (n >= AMDGPU_VM_DUMPABLE_MAX_MAPPINGS)
			return -ENOSPC;
	}
	for (int i = 0; va->operation == AMDGPU_VA_OP_REPLACE && i < MAX_MAPPINGS; i++)
		if (overlaps(&fake.mappings[i], va->va_address, va->map_size))
			unmap_slot(&fake.mappings[i]);
	for (int i = 0; i < MAX_MAPPINGS && !slot; i++)
		if (!fake.mappings[i].used)
			slot = &fake.mappings[i];
	if (!slot)
		return -ENOMEM;
	slot->used = true;
	slot->handle = bo ? bo->handle : 0;
	slot->va = va->va_address;
	slot->offset = va->offset_in_bo;
	slot->size = va->map_size;
	slot->flags = va->flags;
	slot->order = ++fake.map_order;
	return 0;
}

static int copy_answer(const struct drm_amdgpu_info *info, const void *answer, size_t size)
{
	if (!info->return_pointer || !info->return_size)
		return -EINVAL;
	memcpy((void *)(uintptr_t)info->return_pointer, answer,
	       info->return_size < size ? info->return_size : size);
	return 0;
}

static int info_ioctl(const struct drm_amdgpu_info *info)
{
	int err = enter(FAKE_INFO);

	if (err)
		return err;
	switch (info->query) {
	case AMDGPU_INFO_ACCEL_WORKING: {
		uint32_t working = 1;

		return copy_answer(info, &working, sizeof(working));
	}
	case AMDGPU_INFO_DEV_INFO: {
		/* A Navi 21 (GFX10.3) with the address space amdgpu gives it. */
		struct drm_amdgpu_info_device dev = {
			.device_id = 0x73bf,
			.chip_rev = 1,
			.external_rev = 0x29,
			.pci_rev = 0xc1,
			.family = AMDGPU_FAMILY_NV,
			.num_shader_engines = 4,
			.num_shader_arrays_per_engine = 2,
			.virtual_address_offset = 0x200000,
			.virtual_address_max = 0x800000000000ull,
			.virtual_address_alignment = 4096,
			.high_va_offset = 0xffff800000000000ull,
			.high_va_max = 0xffffffffffe00000ull,
			.num_hw_gfx_contexts = 8,
		};

		return copy_answer(info, &dev, sizeof(dev));
	}
	case AMDGPU_INFO_READ_MMR_REG: {
		uint32_t regs[128] = { 0 };

		if (!info->read_mmr_reg.count || info->read_mmr_reg.count > 128 ||
		    info->return_size < info->read_mmr_reg.count * sizeof(uint32_t))
			return -EINVAL;
		if (info->read_mmr_reg.dword_offset == 0x263e)	/* GB_ADDR_CONFIG */
			regs[0] = 0x00000044;
		return copy_answer(info, regs, info->read_mmr_reg.count * sizeof(uint32_t));
	}
	case AMDGPU_INFO_GPUVM_FAULT:
		/* Unknown to kernels before KMS 3.55, which refuse it. */
		if (fake.kms_minor < GPUVM_FAULT_KMS_MINOR)
			return -EINVAL;
		return copy_answer(info, &fake.gpuvm_fault, sizeof(fake.gpuvm_fault));
	}
	return -EINVAL;
}

static int syncobj_export_ioctl(struct drm_syncobj_handle *args)
{
	struct fake_syncobj *obj = NULL;
	struct stat st;
	int fds[2], err = enter(FAKE_SYNCOBJ_EXPORT);

	if (err)
		return err;
	if (args->flags != DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE || args->pad) {
		violate("DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD with flags 0x%x", args->flags);
		return -EINVAL;
	}
	for (int i = 0; i < MAX_SYNCOBJS; i++)
		if (args->handle && fake.syncobjs[i].handle == args->handle)
			obj = &fake.syncobjs[i];
	if (!obj)
		return -ENOENT;
	if (obj->export_err)
		return obj->export_err;
	/* A sync_file is a file of its own: a pipe's read end stands in, and
	 * its inode identifies it on SYNC_IOC_FILE_INFO. */
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	close(fds[1]);
	fstat(fds[0], &st);
	for (int i = 0; i < MAX_SYNC_FILES; i++) {
		struct fake_sync_file *f = &fake.sync_files[i];

		if (f->ino)
			continue;
		f->dev = st.st_dev;
		f->ino = st.st_ino;
		memcpy(f->status, obj->status, sizeof(f->status));
		f->count = obj->count;
		args->fd = fds[0];
		return 0;
	}
	close(fds[0]);
	return -EMFILE;
}

static int sync_file_info_ioctl(struct fake_sync_file *f, struct sync_file_info *info)
{
	struct sync_fence_info *out = (struct sync_fence_info *)(uintptr_t)info->sync_fence_info;
	int err = enter(FAKE_SYNC_FILE_INFO);

	if (err)
		return err;
	if (info->flags || info->pad)
		return -EINVAL;
	snprintf(info->name, sizeof(info->name), "fake-amdgpu");
	if (!info->num_fences) {
		/* dma_fence_get_status() of the whole set: an error, else
		 * active while any fence is, else signalled. */
		info->status = 1;
		for (unsigned int i = 0; i < f->count; i++)
			if ((f->status[i] < 0 && info->status >= 0) ||
			    (f->status[i] == 0 && info->status == 1))
				info->status = f->status[i];
		info->num_fences = f->count;
		return 0;
	}
	if (info->num_fences < f->count || !out)
		return -EINVAL;
	info->status = 1;
	for (unsigned int i = 0; i < f->count; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		snprintf(out[i].obj_name, sizeof(out[i].obj_name), "gfx_0.0.0");
		snprintf(out[i].driver_name, sizeof(out[i].driver_name), "drm_sched");
		out[i].status = f->status[i];
		info->status = info->status <= 0 ? info->status : f->status[i];
	}
	info->num_fences = f->count;
	return 0;
}

/* The fake's answer, or 1 when @fd is none of its files. */
static int fake_ioctl(int fd, unsigned long request, void *arg)
{
	struct stat st;

	if (fstat(fd, &st))
		return 1;
	if (st.st_dev == fake.node_dev && st.st_ino == fake.node_ino) {
		fake.calls_total++;
		switch (request) {
		case DRM_IOCTL_VERSION:
			return version_ioctl(arg);
		case DRM_IOCTL_GET_CLIENT:
			return get_client_ioctl(arg);
		case DRM_IOCTL_AMDGPU_CTX:
			return ctx_ioctl(arg);
		case DRM_IOCTL_AMDGPU_CS:
			return cs_ioctl(arg);
		case DRM_IOCTL_AMDGPU_WAIT_CS:
			return wait_cs_ioctl(arg);
		case DRM_IOCTL_AMDGPU_WAIT_FENCES:
			return wait_fences_ioctl(arg);
		case DRM_IOCTL_AMDGPU_INFO:
			return info_ioctl(arg);
		case DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD:
			return syncobj_export_ioctl(arg);
		case DRM_IOCTL_AMDGPU_GEM_CREATE:
			return gem_create_ioctl(arg);
		case DRM_IOCTL_AMDGPU_GEM_MMAP:
			return gem_mmap_ioctl(arg);
		case DRM_IOCTL_GEM_CLOSE:
			return gem_close_ioctl(arg);
		case DRM_IOCTL_AMDGPU_GEM_VA:
		/* libdrm's amdgpu_bo_va_op_raw() sends it through
		 * drmCommandWriteRead(): read-write, same number and size,
		 * which drm_ioctl() accepts */
		case DRM_IOWR(DRM_COMMAND_BASE + DRM_AMDGPU_GEM_VA, struct drm_amdgpu_gem_va):
			return gem_va_ioctl(arg);
		case DRM_IOCTL_PRIME_FD_TO_HANDLE:
			return prime_import_ioctl(arg);
		}
		/* The request number carries direction and argument size: a
		 * known command with another size is a caller built against
		 * another uAPI. */
		violate("ioctl 0x%lx (type '%c', nr 0x%02x, size %u) is not a request the uAPI "
			"headers define or the fake knows", request, (int)_IOC_TYPE(request),
			(unsigned int)_IOC_NR(request), (unsigned int)_IOC_SIZE(request));
		return -ENOTTY;
	}
	for (int i = 0; i < MAX_SYNC_FILES; i++) {
		struct fake_sync_file *f = &fake.sync_files[i];

		if (!f->ino || f->dev != st.st_dev || f->ino != st.st_ino)
			continue;
		if (request == SYNC_IOC_FILE_INFO)
			return sync_file_info_ioctl(f, arg);
		violate("ioctl 0x%lx on a sync_file", request);
		return -ENOTTY;
	}
	return 1;
}

/* The project builds with -fvisibility=hidden; what follows is the fake's
 * interface: ioctl(), which interposes the C library's, and the script. */
#pragma GCC visibility push(default)

int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	int r;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);

	pthread_mutex_lock(&fake.lock);
	r = fake_ioctl(fd, request, arg);
	pthread_mutex_unlock(&fake.lock);
	if (r == 1)
		return real_ioctl(fd, request, arg);
	if (r < 0) {
		errno = -r;
		return -1;
	}
	return r;
}

/* ---- The script ------------------------------------------------------ */

const char *fake_amdgpu_node(void)
{
	return fake.node;
}

void fake_amdgpu_reset(void)
{
	pthread_mutex_lock(&fake.lock);
	reset_locked();
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_set_driver(const char *name)
{
	pthread_mutex_lock(&fake.lock);
	snprintf(fake.driver, sizeof(fake.driver), "%s", name);
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_set_kms_minor(int minor)
{
	pthread_mutex_lock(&fake.lock);
	fake.kms_minor = minor;
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_set_kms_version(int minor, int patchlevel)
{
	pthread_mutex_lock(&fake.lock);
	fake.kms_minor = minor;
	fake.kms_patchlevel = patchlevel;
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_set_per_ctx(bool per_ctx)
{
	pthread_mutex_lock(&fake.lock);
	fake.per_ctx = per_ctx;
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_fail_next(enum fake_amdgpu_call call, int err)
{
	pthread_mutex_lock(&fake.lock);
	if (call < FAKE_CALL_COUNT)
		fake.fail_next[call] = err;
	pthread_mutex_unlock(&fake.lock);
}

/* The script names contexts the kernel handed out; anything else is a bug
 * in the test, reported as a violation so that it fails. */
static struct fake_ctx *script_ctx(uint32_t ctx_id)
{
	struct fake_ctx *ctx = find_ctx(ctx_id);

	if (!ctx)
		violate("the script names context %u, which does not exist", ctx_id);
	return ctx;
}

void fake_amdgpu_ctx_state(uint32_t ctx_id, uint64_t query2_flags, uint32_t query1_status)
{
	struct fake_ctx *ctx;

	pthread_mutex_lock(&fake.lock);
	ctx = script_ctx(ctx_id);
	if (ctx) {
		ctx->query2 = query2_flags;
		ctx->query1 = query1_status;
	}
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_ctx_cs_error(uint32_t ctx_id, int err)
{
	struct fake_ctx *ctx;

	pthread_mutex_lock(&fake.lock);
	ctx = script_ctx(ctx_id);
	if (ctx)
		ctx->cs_error = err;
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_fence(uint32_t ctx_id, uint64_t seq_no, int state)
{
	struct fake_ctx *ctx;

	pthread_mutex_lock(&fake.lock);
	ctx = script_ctx(ctx_id);
	if (ctx && ctx->fence_count < MAX_FENCES) {
		ctx->fences[ctx->fence_count].seq_no = seq_no;
		ctx->fences[ctx->fence_count].state = state;
		ctx->fence_count++;
	}
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_gpuvm_fault(uint64_t addr, uint32_t status, uint32_t vmhub)
{
	pthread_mutex_lock(&fake.lock);
	fake.gpuvm_fault.addr = addr;
	fake.gpuvm_fault.status = status;
	fake.gpuvm_fault.vmhub = vmhub;
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_syncobj(uint32_t syncobj, int export_err, const int *fence_status,
			 unsigned int count)
{
	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < MAX_SYNCOBJS; i++) {
		struct fake_syncobj *obj = &fake.syncobjs[i];

		if (obj->handle && obj->handle != syncobj)
			continue;
		obj->handle = syncobj;
		obj->export_err = export_err;
		obj->count = count < MAX_SYNC_FENCES ? count : MAX_SYNC_FENCES;
		if (fence_status)
			memcpy(obj->status, fence_status, obj->count * sizeof(int));
		break;
	}
	pthread_mutex_unlock(&fake.lock);
}

void fake_amdgpu_set_dumpable(bool dumpable)
{
	pthread_mutex_lock(&fake.lock);
	fake.dumpable = dumpable;
	pthread_mutex_unlock(&fake.lock);
}

unsigned int fake_amdgpu_dumpable_count(void)
{
	unsigned int n;

	pthread_mutex_lock(&fake.lock);
	n = dumpable_count();
	pthread_mutex_unlock(&fake.lock);
	return n;
}

int64_t fake_amdgpu_mapping_flags(uint64_t va)
{
	int64_t flags = -ENOENT;

	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < MAX_MAPPINGS; i++)
		if (fake.mappings[i].used && fake.mappings[i].va == va)
			flags = (int64_t)fake.mappings[i].flags;
	pthread_mutex_unlock(&fake.lock);
	return flags;
}

unsigned int fake_amdgpu_bo_count(void)
{
	unsigned int n = 0;

	pthread_mutex_lock(&fake.lock);
	for (int i = 0; i < MAX_BOS; i++)
		n += fake.bos[i].handle != 0;
	pthread_mutex_unlock(&fake.lock);
	return n;
}

/* Appends to the growing string *@buf; false when out of memory. */
static bool __attribute__((format(printf, 3, 4)))
append(char **buf, size_t *len, const char *fmt, ...)
{
	va_list ap;
	char *n;
	int w;

	va_start(ap, fmt);
	w = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	n = w < 0 ? NULL : realloc(*buf, *len + (size_t)w + 1);
	if (!n)
		return false;
	*buf = n;
	va_start(ap, fmt);
	vsnprintf(*buf + *len, (size_t)w + 1, fmt, ap);
	va_end(ap);
	*len += (size_t)w;
	return true;
}

char *fake_amdgpu_user_captures(void)
{
	char *out = calloc(1, 1);
	size_t len = 0;
	bool ok = out != NULL;
	uint64_t done = 0;
	int fd;

	pthread_mutex_lock(&fake.lock);
	fd = open(fake.node, O_RDONLY | O_CLOEXEC);
	ok = ok && fd >= 0;
	/* in the order the mappings were made */
	while (ok) {
		struct fake_mapping *m = NULL;
		struct fake_bo *bo;
		uint32_t dw;

		for (int i = 0; i < MAX_MAPPINGS; i++) {
			struct fake_mapping *c = &fake.mappings[i];

			if (c->used && (c->flags & AMDGPU_VM_DUMPABLE) && c->order > done &&
			    (!m || c->order < m->order))
				m = c;
		}
		if (!m)
			break;
		done = m->order;
		bo = find_bo(m->handle);
		ok = append(&out, &len, "**** User Capture v1 ****\nva: 0x%016llx\nsize: %u\n",
			    (unsigned long long)m->va, (unsigned int)m->size);
		for (uint64_t at = 0; ok && at < m->size; at += 4) {
			unsigned char b[4] = { 0 };

			if (pread(fd, b, 4, (off_t)(bo->file_offset + m->offset + at)) != 4)
				memset(b, 0, sizeof(b));
			dw = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
			     (uint32_t)b[3] << 24;
			ok = append(&out, &len, "%08x%s", dw, (at / 4) % 8 == 7 ? "\n" : " ");
		}
		if (ok && m->size % 32)
			out[len - 1] = '\n';
	}
	if (fd >= 0)
		close(fd);
	pthread_mutex_unlock(&fake.lock);
	if (!ok) {
		free(out);
		return NULL;
	}
	return out;
}

unsigned int fake_amdgpu_calls(enum fake_amdgpu_call call)
{
	unsigned int n;

	pthread_mutex_lock(&fake.lock);
	n = call < FAKE_CALL_COUNT ? fake.calls[call] : 0;
	pthread_mutex_unlock(&fake.lock);
	return n;
}

unsigned int fake_amdgpu_calls_total(void)
{
	unsigned int n;

	pthread_mutex_lock(&fake.lock);
	n = fake.calls_total;
	pthread_mutex_unlock(&fake.lock);
	return n;
}

uint32_t fake_amdgpu_last_ctx(void)
{
	uint32_t id;

	pthread_mutex_lock(&fake.lock);
	id = fake.last_ctx;
	pthread_mutex_unlock(&fake.lock);
	return id;
}

const char *fake_amdgpu_violation(void)
{
	const char *v;

	pthread_mutex_lock(&fake.lock);
	v = fake.violation[0] ? fake.violation : NULL;
	pthread_mutex_unlock(&fake.lock);
	return v;
}

void fake_amdgpu_clear_violation(void)
{
	pthread_mutex_lock(&fake.lock);
	fake.violation[0] = '\0';
	pthread_mutex_unlock(&fake.lock);
}

#pragma GCC visibility pop
