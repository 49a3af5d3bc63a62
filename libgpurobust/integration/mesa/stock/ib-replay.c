// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The part of reset-interposer.so that plays the GPU for breadcrumbs: it
 * reads the IBs a driver submits on the drm-shim and performs the memory
 * writes of the packets breadcrumbs use, in order, until a scripted hang.
 * Then it writes the devcoredump the kernel series would publish for that
 * hang, with the dumpable mapping in its "User Capture v1" section, so that
 * `gpurobust report` can be run on what the driver's own packets left.
 *
 * Only what a breadcrumb test needs is modelled: WRITE_DATA and COPY_DATA
 * of an immediate to memory (the command processor reaching them), and
 * RELEASE_MEM and EVENT_WRITE_EOP with 32-bit data (all earlier work done);
 * INDIRECT_BUFFER packets are followed. Every other packet is skipped by its
 * length, and no shader runs: the hang point stands for the work that never
 * finished.
 *
 * Where the memory is: every drm-shim BO lives in one memfd ("shim mem") at
 * the offset the shim answers DRM_AMDGPU_GEM_MMAP with. GEM_VA says which
 * GPU address range maps which handle.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <drm.h>
#include <amdgpu_drm.h>

#include "ib-replay.h"

#define PKT_TYPE(h) ((h) >> 30)
#define PKT3_OPCODE(h) (((h) >> 8) & 0xff)
#define PKT_COUNT(h) (((h) >> 16) & 0x3fff)

#define PKT3_WRITE_DATA 0x37
#define PKT3_INDIRECT_BUFFER_CNST 0x33
#define PKT3_INDIRECT_BUFFER 0x3f
#define PKT3_COPY_DATA 0x40
#define PKT3_EVENT_WRITE_EOP 0x47
#define PKT3_RELEASE_MEM 0x49

#define WRITE_DATA_DST_SEL(c) (((c) >> 8) & 0xf)
#define WRITE_DATA_DST_MEM 5
#define COPY_DATA_SRC_SEL(c) ((c) & 0xf)
#define COPY_DATA_SRC_IMM 5
#define COPY_DATA_DST_SEL(c) (((c) >> 8) & 0xf)
#define COPY_DATA_DST_MEM 5
#define EOP_DATA_SEL(s) (((s) >> 29) & 7)
#define EOP_DATA_SEL_VALUE_32BIT 1

#define MAX_MAPPINGS 4096
#define MAX_HANDLES 65536
#define MAX_IB_DEPTH 4

struct mapping {
	uint32_t handle;
	/* the driver asked for AMDGPU_VM_DUMPABLE, whether or not the kernel
	 * took it: the breadcrumbs */
	bool dumpable;
	uint64_t va, offset, size;
};

static struct mapping mappings[MAX_MAPPINGS];
static unsigned int mapping_count;
/* handle -> offset in the shim's memfd, plus one (0: never mapped) */
static uint64_t handle_offset[MAX_HANDLES];
static uint8_t *shim_mem;
static size_t shim_mem_size;
/* submissions so far: the seqno of the ring's latest job */
static unsigned int submissions;
static unsigned int marker_writes;

void ib_replay_gem_mmap(uint32_t handle, uint64_t offset)
{
	if (handle < MAX_HANDLES)
		handle_offset[handle] = offset + 1;
}

/* A kernel that refused AMDGPU_VM_DUMPABLE sees the same BO mapped again
 * without it: it is still the one the driver wanted dumped. */
static uint32_t refused_handle;

void ib_replay_dumpable_refused(uint32_t handle)
{
	refused_handle = handle;
}

void ib_replay_gem_va(const struct drm_amdgpu_gem_va *va, bool dumpable)
{
	dumpable = dumpable || (refused_handle && va->handle == refused_handle);
	if (va->operation == AMDGPU_VA_OP_UNMAP || va->operation == AMDGPU_VA_OP_CLEAR) {
		for (unsigned int i = 0; i < mapping_count; i++) {
			if (mappings[i].va == va->va_address) {
				mappings[i] = mappings[--mapping_count];
				break;
			}
		}
		return;
	}
	if (va->operation != AMDGPU_VA_OP_MAP || mapping_count == MAX_MAPPINGS)
		return;
	mappings[mapping_count++] = (struct mapping){
		.handle = va->handle, .dumpable = dumpable, .va = va->va_address,
		.offset = va->offset_in_bo, .size = va->map_size,
	};
}

/* GPU addresses compare without their sign extension: drivers give the
 * high half both ways (0xffff8001... in GEM_VA, 0x8001... in a packet). */
#define VA_MASK ((1ull << 48) - 1)

static const struct mapping *find_mapping(uint64_t va, uint64_t bytes)
{
	va &= VA_MASK;
	for (unsigned int i = 0; i < mapping_count; i++) {
		const struct mapping *m = &mappings[i];
		uint64_t start = m->va & VA_MASK;

		if (va >= start && va - start + bytes <= m->size)
			return m;
	}
	return NULL;
}

/* The shim's memory, mapped once. Its memfd is found without /proc (the
 * root may have none mounted): of the descriptors that are memfds (only
 * they answer F_GET_SEALS), the largest, which the shim sizes to hold every
 * BO. */
static bool map_shim_mem(void)
{
	off_t best_size = 0;
	int best = -1;

	if (shim_mem)
		return true;
	for (int fd = 0; fd < 4096; fd++) {
		struct stat st;

		if (fcntl(fd, F_GET_SEALS) >= 0 && !fstat(fd, &st) && st.st_size > best_size) {
			best = fd;
			best_size = st.st_size;
		}
	}
	if (best < 0)
		return false;
	shim_mem = mmap(NULL, (size_t)best_size, PROT_READ | PROT_WRITE, MAP_SHARED, best, 0);
	if (shim_mem == MAP_FAILED) {
		shim_mem = NULL;
		return false;
	}
	shim_mem_size = (size_t)best_size;
	return true;
}

/* The CPU address of [va, va + bytes), or NULL if no mapping the driver
 * CPU-mapped holds it. */
static void *gpu_ptr(uint64_t va, uint64_t bytes, const struct mapping **out)
{
	const struct mapping *m = find_mapping(va, bytes);
	uint64_t at;

	if (!m || m->handle >= MAX_HANDLES || !handle_offset[m->handle])
		return NULL;
	at = handle_offset[m->handle] - 1 + m->offset + ((va - m->va) & VA_MASK);
	if (at + bytes > shim_mem_size)
		return NULL;
	if (out)
		*out = m;
	return shim_mem + at;
}

struct replay {
	const struct ib_replay_script *script;
	FILE *log;
};

/* Performs one memory write; false when the script's hang point is reached
 * after it. */
static bool write_dword(struct replay *r, const char *kind, uint64_t va, uint32_t value)
{
	const struct mapping *m = NULL;
	uint32_t *p = gpu_ptr(va, 4, &m);

	if (!p)
		return true;
	*p = value;
	if (!m->dumpable)
		return true;
	if (r->log)
		fprintf(r->log, "write %s 0x%llx %u\n", kind, (unsigned long long)((va - m->va) & VA_MASK),
			value);
	/* The hang point counts the writes of a driver reaching a label: the
	 * command processor's writes of a value, not the zeroing preamble. */
	if (strcmp(kind, "me") || !value)
		return true;
	return ++marker_writes != (unsigned int)r->script->hang_after_marker_writes;
}

static bool run_ib(struct replay *r, uint64_t va, uint32_t dwords, unsigned int depth)
{
	const uint32_t *ib = gpu_ptr(va, (uint64_t)dwords * 4, NULL);
	uint32_t i = 0;

	if (!ib) {
		if (r->log)
			fprintf(r->log, "ib 0x%llx: not mapped for the CPU, skipped\n", (unsigned long long)va);
		return true;
	}
	while (i < dwords) {
		uint32_t h = ib[i], body = PKT_COUNT(h) + 1;
		const uint32_t *b = ib + i + 1;

		if (PKT_TYPE(h) == 2) {
			i++;
			continue;
		}
		if (i + 1 + body > dwords)
			break;
		if (PKT_TYPE(h) == 3) {
			switch (PKT3_OPCODE(h)) {
			case PKT3_WRITE_DATA:
				if (WRITE_DATA_DST_SEL(b[0]) == WRITE_DATA_DST_MEM && body >= 4 &&
				    !write_dword(r, "me", b[1] | (uint64_t)b[2] << 32, b[3]))
					return false;
				break;
			case PKT3_COPY_DATA:
				if (COPY_DATA_SRC_SEL(b[0]) == COPY_DATA_SRC_IMM &&
				    COPY_DATA_DST_SEL(b[0]) == COPY_DATA_DST_MEM && body >= 5 &&
				    !write_dword(r, "me", b[3] | (uint64_t)b[4] << 32, b[1]))
					return false;
				break;
			case PKT3_RELEASE_MEM:
				if (body >= 5 && EOP_DATA_SEL(b[1]) == EOP_DATA_SEL_VALUE_32BIT &&
				    !write_dword(r, "eop", b[2] | (uint64_t)b[3] << 32, b[4]))
					return false;
				break;
			case PKT3_EVENT_WRITE_EOP:
				if (body >= 4 && EOP_DATA_SEL(b[2]) == EOP_DATA_SEL_VALUE_32BIT &&
				    !write_dword(r, "eop", b[1] | (uint64_t)(b[2] & 0xffff) << 32, b[3]))
					return false;
				break;
			case PKT3_INDIRECT_BUFFER:
			case PKT3_INDIRECT_BUFFER_CNST:
				if (r->log && body >= 3)
					fprintf(r->log, "ib called %u dw\n", b[2] & 0xfffff);
				if (body >= 3 && depth < MAX_IB_DEPTH &&
				    !run_ib(r, (b[0] & ~3u) | (uint64_t)(b[1] & 0xffff) << 32,
					    b[2] & 0xfffff, depth + 1))
					return false;
				break;
			default:
				break;
			}
			if (r->log && PKT3_OPCODE(h) != PKT3_INDIRECT_BUFFER)
				fprintf(r->log, "packet 0x%02x\n", PKT3_OPCODE(h));
		}
		i += 1 + body;
	}
	return true;
}

/* The devcoredump the series publishes after the hang: the header, the
 * timed-out ring, and each dumpable mapping the kernel took as a capture
 * section (Documentation/uapi.md). */
static void write_dump(const struct ib_replay_script *script, uint32_t ctx_id, unsigned int seqno)
{
	const char *comm = program_invocation_short_name;
	FILE *f = fopen(script->dump_path, "w");
	struct timespec now;

	if (!f) {
		fprintf(stderr, "interposer: %s: %s\n", script->dump_path, strerror(errno));
		return;
	}
	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "**** AMDGPU Device Coredump ****\n");
	fprintf(f, "version: 1\n");
	fprintf(f, "kernel: drm-shim (the gpurobust 7.2 series' printer)\n");
	fprintf(f, "module: amdgpu\n");
	fprintf(f, "time: %lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
	fprintf(f, "process_name: %s PID: %d\n", comm, (int)getpid());
	fprintf(f, "\nRing timed out details\n");
	fprintf(f, "IP Type: %d Ring Name: %s\n", AMDGPU_HW_IP_GFX, "gfx_0.0.0");
	/* The hang ends in a ring reset that recovers, the job's context the
	 * only guilty one: the reset class the scenario scripts (-ETIME). */
	fprintf(f, "\n**** Reset v1 ****\n");
	fprintf(f, "type: ring_reset\noutcome: recovered\nring: gfx_0.0.0\n");
	fprintf(f, "guilty_ctx: %u\nseqno: %u\nprocess: %s\npid: %d\nvram_lost: 0\n", ctx_id, seqno,
		comm, (int)getpid());
	for (unsigned int i = 0; i < mapping_count; i++) {
		const struct mapping *m = &mappings[i];
		const uint32_t *dw;

		if (!m->dumpable || !script->dumpable_taken)
			continue;
		dw = gpu_ptr(m->va, m->size, NULL);
		fprintf(f, "\n**** User Capture v1 ****\n");
		fprintf(f, "va: 0x%016llx\n", (unsigned long long)m->va);
		fprintf(f, "size: %llu\n", dw ? (unsigned long long)m->size : 0ULL);
		if (!dw) {
			fprintf(f, "error: %d\n", -EFAULT);
			continue;
		}
		for (uint64_t k = 0; k < m->size / 4; k++)
			fprintf(f, "%08x%s", dw[k], k % 8 == 7 ? "\n" : " ");
	}
	fclose(f);
}

bool ib_replay_cs(const union drm_amdgpu_cs *cs, const struct ib_replay_script *script)
{
	const uint64_t *chunks = (const uint64_t *)(uintptr_t)cs->in.chunks;
	struct replay r = { .script = script };
	bool hung = false;

	submissions++;
	if (!map_shim_mem())
		return true;
	if (script->log_path)
		r.log = fopen(script->log_path, "a");
	for (uint32_t c = 0; c < cs->in.num_chunks && !hung; c++) {
		const struct drm_amdgpu_cs_chunk *chunk = (const void *)(uintptr_t)chunks[c];
		const struct drm_amdgpu_cs_chunk_ib *ib = (const void *)(uintptr_t)chunk->chunk_data;

		if (chunk->chunk_id != AMDGPU_CHUNK_ID_IB ||
		    (ib->ip_type != AMDGPU_HW_IP_GFX && ib->ip_type != AMDGPU_HW_IP_COMPUTE))
			continue;
		if (r.log)
			fprintf(r.log, "ib %s %u dw\n", ib->ip_type == AMDGPU_HW_IP_GFX ? "gfx" : "compute",
				ib->ib_bytes / 4);
		hung = !run_ib(&r, ib->va_start, ib->ib_bytes / 4, 0);
	}
	if (hung) {
		if (r.log)
			fprintf(r.log, "hang\n");
		if (script->dump_path)
			write_dump(script, cs->in.ctx_id, submissions);
	}
	if (r.log)
		fclose(r.log);
	return !hung;
}
