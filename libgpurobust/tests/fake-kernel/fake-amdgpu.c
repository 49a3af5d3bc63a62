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
	unsigned int calls[FAKE_CALL_COUNT];
	unsigned int calls_total;
	char violation[256];
} fake = { .lock = PTHREAD_MUTEX_INITIALIZER };

static int (*real_ioctl)(int fd, unsigned long request, ...);

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
	fake.per_ctx = false;
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
	v->version_patchlevel = 0;
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
