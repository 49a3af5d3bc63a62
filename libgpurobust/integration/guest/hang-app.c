// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The application of the collector's end-to-end guest: what a game does
 * before its GPU hangs, in raw amdgpu ioctls (the fake device has no
 * AMDGPU_INFO, which libdrm_amdgpu needs to initialize). It opens the fake
 * amdgpu device's render node, makes a context, maps a 64 KiB GTT buffer
 * with AMDGPU_VM_DUMPABLE, so that the driver puts it in the devcoredump,
 * and keeps its breadcrumbs there with the packaged libgpurobust-driver, as
 * RADV does: a pool that mirrors its scopes, so the dump decodes without
 * anything the process saved. It records a frame's scopes, submits one IB
 * to GFX, prints "submitted", and waits to be killed: a hung application
 * still runs when its dump is collected, and the collector reads its owner
 * from /proc.
 *
 * The fake command processor executes no PM4, so the CPU stands in for it:
 * through the buffer's CPU mapping it makes the WRITE_DATA and RELEASE_MEM
 * writes of the recorded scopes, in order, up to the draw the GPU hangs in.
 *
 * Built against the series' uAPI headers and the packages' libgpurobust-dev.
 * Exits 1 with a message when a call fails.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm/amdgpu_drm.h>
#include <drm/drm.h>
#include <gpurobust/breadcrumbs.h>

#define FAKE_DESC	"amdgpu fake device for kselftests"
#define CAPTURE_VA	(1ull << 20)
#define CAPTURE_SIZE	(64u << 10)
#define MAX_WRITES	16

static int fail(const char *what)
{
	fprintf(stderr, "hang-app: %s: %s\n", what, strerror(errno));
	return 1;
}

/* The fake device's render node, by its description. */
static int open_fake(void)
{
	DIR *dir = opendir("/dev/dri");
	struct dirent *entry;
	int fd = -1;

	while (dir && fd < 0 && (entry = readdir(dir))) {
		char path[300], name[16] = "", desc[64] = "";
		struct drm_version version = {
			.name = name, .name_len = sizeof(name) - 1,
			.desc = desc, .desc_len = sizeof(desc) - 1,
		};

		if (strncmp(entry->d_name, "renderD", 7))
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", entry->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && (ioctl(fd, DRM_IOCTL_VERSION, &version) || strcmp(name, "amdgpu") ||
				strcmp(desc, FAKE_DESC))) {
			close(fd);
			fd = -1;
		}
	}
	if (dir)
		closedir(dir);
	return fd;
}

/* One write the command processor makes: a value to a breadcrumb counter. */
struct cp_write {
	uint64_t va;
	uint32_t value;
};

struct recording {
	struct gpurobust_bc_pool *pool;
	struct gpurobust_bc_stream *stream;
	uint64_t in_va, out_va;
	struct cp_write writes[MAX_WRITES];
	unsigned int n_writes;
};

static void emit(struct recording *rec, uint64_t va, uint32_t value)
{
	if (rec->n_writes < MAX_WRITES)
		rec->writes[rec->n_writes++] = (struct cp_write){ va, value };
}

static int push(struct recording *rec, const char *name)
{
	uint32_t id;
	int r = gpurobust_bc_intern(rec->pool, name, &id);

	if (!r)
		emit(rec, rec->in_va, gpurobust_bc_push(rec->stream, id));
	return r;
}

static void pop(struct recording *rec)
{
	uint32_t value = gpurobust_bc_pop(rec->stream);

	if (value)
		emit(rec, rec->out_va, value);
}

/*
 * A frame as a game's command buffer has it, in the pool at CAPTURE_VA;
 * returns the number of writes the GPU makes before it hangs in the
 * lighting pass's draw, or a negative errno.
 */
static int record_frame(struct recording *rec, void *cpu_map)
{
	struct gpurobust_bc_pool_config config = {
		.size = CAPTURE_SIZE, .cpu_map = cpu_map, .gpu_va = CAPTURE_VA,
		.mirror_scopes = 16,
	};
	int hung_after, r;

	r = gpurobust_bc_pool_create(&config, &rec->pool);
	if (!r)
		r = gpurobust_bc_stream_create(rec->pool, GPUROBUST_BC_QUEUE_GFX, "frame",
					       &rec->stream);
	if (r)
		return r;
	gpurobust_bc_stream_markers(rec->stream, &rec->in_va, &rec->out_va);
	gpurobust_bc_stream_begin(rec->stream);
	emit(rec, rec->in_va, 0);
	emit(rec, rec->out_va, 0);
	r = push(rec, "Frame 1");
	r = r ? r : push(rec, "Shadow pass");
	pop(rec);
	r = r ? r : push(rec, "Lighting pass");
	r = r ? r : push(rec, "DrawIndexed");
	/* the GPU reaches the draw and never finishes it */
	hung_after = rec->n_writes;
	pop(rec);
	pop(rec);
	r = r ? r : push(rec, "Post-processing");
	pop(rec);
	pop(rec);
	return r ? r : hung_after;
}

/* The command processor's writes up to the hang, by the CPU. */
static void execute(const struct recording *rec, unsigned int n, uint8_t *cpu_map)
{
	for (unsigned int i = 0; i < n; i++)
		*(volatile uint32_t *)(cpu_map + (rec->writes[i].va - CAPTURE_VA)) =
			rec->writes[i].value;
	/* out of the CPU's write-combining buffers, as the GPU's writes reach memory */
	__sync_synchronize();
}

int main(void)
{
	union drm_amdgpu_ctx ctx = { .in.op = AMDGPU_CTX_OP_ALLOC_CTX };
	union drm_amdgpu_gem_create bo = {
		.in.bo_size = CAPTURE_SIZE, .in.alignment = 4096,
		.in.domains = AMDGPU_GEM_DOMAIN_GTT,
	};
	struct drm_amdgpu_gem_va va = {
		.operation = AMDGPU_VA_OP_MAP,
		.flags = AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE | AMDGPU_VM_DUMPABLE,
		.va_address = CAPTURE_VA, .map_size = CAPTURE_SIZE,
	};
	/* the fake hardware knows an IB by its address */
	struct drm_amdgpu_cs_chunk_ib ib = {
		.ip_type = AMDGPU_HW_IP_GFX, .va_start = 1ull << 30, .ib_bytes = 64,
	};
	struct drm_amdgpu_cs_chunk chunk = {
		.chunk_id = AMDGPU_CHUNK_ID_IB, .length_dw = sizeof(ib) / 4,
		.chunk_data = (uintptr_t)&ib,
	};
	uint64_t chunk_ptr = (uintptr_t)&chunk;
	union drm_amdgpu_cs cs = { .in.num_chunks = 1, .in.chunks = (uintptr_t)&chunk_ptr };
	union drm_amdgpu_gem_mmap map = { 0 };
	struct recording rec = { 0 };
	int fd = open_fake(), hung_after;
	void *cpu_map;

	if (fd < 0)
		return fail("no fake amdgpu render node");
	if (ioctl(fd, DRM_IOCTL_AMDGPU_CTX, &ctx))
		return fail("AMDGPU_CTX");
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_CREATE, &bo))
		return fail("AMDGPU_GEM_CREATE");
	va.handle = bo.out.handle;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_VA, &va))
		return fail("AMDGPU_GEM_VA with AMDGPU_VM_DUMPABLE");
	map.in.handle = bo.out.handle;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_MMAP, &map))
		return fail("AMDGPU_GEM_MMAP");
	cpu_map = mmap(NULL, CAPTURE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       map.out.addr_ptr);
	if (cpu_map == MAP_FAILED)
		return fail("mmap of the breadcrumb buffer");
	hung_after = record_frame(&rec, cpu_map);
	if (hung_after < 0) {
		errno = -hung_after;
		return fail("recording breadcrumbs");
	}
	cs.in.ctx_id = ctx.out.alloc.ctx_id;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs))
		return fail("AMDGPU_CS");
	execute(&rec, hung_after, cpu_map);
	printf("submitted\n");
	fflush(stdout);
	for (;;)
		pause();
}
