// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The application of the collector's end-to-end guest: what a game does
 * before its GPU hangs, in raw amdgpu ioctls (the fake device has no
 * AMDGPU_INFO, which libdrm_amdgpu needs to initialize). It opens the fake
 * amdgpu device's render node, makes a context, maps a 64 KiB GTT buffer
 * with AMDGPU_VM_DUMPABLE (where breadcrumbs would live, so the driver
 * puts it in the devcoredump), submits one IB to GFX, prints "submitted",
 * and waits to be killed: a hung application still runs when its dump is
 * collected, and the collector reads its owner from /proc.
 *
 * Built statically against the series' uAPI headers. Exits 1 with a
 * message when a call fails.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/amdgpu_drm.h>
#include <drm/drm.h>

#define FAKE_DESC	"amdgpu fake device for kselftests"
#define CAPTURE_VA	(1ull << 20)
#define CAPTURE_SIZE	(64u << 10)

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
	int fd = open_fake();

	if (fd < 0)
		return fail("no fake amdgpu render node");
	if (ioctl(fd, DRM_IOCTL_AMDGPU_CTX, &ctx))
		return fail("AMDGPU_CTX");
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_CREATE, &bo))
		return fail("AMDGPU_GEM_CREATE");
	va.handle = bo.out.handle;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_GEM_VA, &va))
		return fail("AMDGPU_GEM_VA with AMDGPU_VM_DUMPABLE");
	cs.in.ctx_id = ctx.out.alloc.ctx_id;
	if (ioctl(fd, DRM_IOCTL_AMDGPU_CS, &cs))
		return fail("AMDGPU_CS");
	printf("submitted\n");
	fflush(stdout);
	for (;;)
		pause();
}
