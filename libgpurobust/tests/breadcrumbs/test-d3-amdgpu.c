// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * D3 through the amdgpu backend: the breadcrumb pool's BO mapped with
 * AMDGPU_VM_DUMPABLE by the real libdrm_amdgpu (Debian's 2.4.114) against
 * the fake amdgpu kernel of tests/fake-kernel (LD_PRELOAD), which checks the
 * flag, caps and errnos as Documentation/uapi.md gives them, or rejects the
 * flag as a kernel without the series does. Each path is checked for what
 * reaches the kernel (which GEM_VA calls, with which flags) and for the
 * capture status the public API reports. The last tests take the User
 * Capture sections the fake kernel writes for the dumpable mappings (the
 * documented text, not the series' printer) and decode the breadcrumbs from
 * them alone, as a crash collector does after the process died.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include <amdgpu.h>
#include <amdgpu_drm.h>

#include "common/amdgpu-uapi.h"
#include "driver/core/breadcrumbs/internal.h"
#include "fake-amdgpu.h"
#include "fake-gpu.h"
#include "gpurobust/breadcrumbs-amdgpu.h"
#include "gpurobust/breadcrumbs.h"
#include "gpurobust/coredump.h"

#define VA0 0x100000000ull
#define RW (AMDGPU_VM_PAGE_READABLE | AMDGPU_VM_PAGE_WRITEABLE)

struct fixture {
	int fd;
	struct gpurobust_amdgpu_device *dev;
	amdgpu_bo_handle bos[8];
	unsigned int n_bos;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	fake_amdgpu_reset();
	f->fd = open(fake_amdgpu_node(), O_RDWR | O_CLOEXEC);
	assert_true(f->fd >= 0);
	assert_int_equal(gpurobust_amdgpu_open_fd(f->fd, &f->dev), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	for (unsigned int i = 0; i < f->n_bos; i++)
		assert_int_equal(amdgpu_bo_free(f->bos[i]), 0);
	gpurobust_amdgpu_close(f->dev);
	close(f->fd);
	/* every BO went back, and every request had the uAPI's number and size */
	assert_int_equal(fake_amdgpu_bo_count(), 0);
	assert_null(fake_amdgpu_violation());
	free(f);
	return 0;
}

/* A driver's own GTT BO, as Mesa allocates one. */
static amdgpu_bo_handle driver_bo(struct fixture *f, uint64_t size)
{
	struct amdgpu_bo_alloc_request req = {
		.alloc_size = size, .phys_alignment = 4096,
		.preferred_heap = AMDGPU_GEM_DOMAIN_GTT,
	};
	amdgpu_bo_handle bo;

	assert_true(f->n_bos < 8);
	assert_int_equal(amdgpu_bo_alloc(gpurobust_amdgpu_handle(f->dev), &req, &bo), 0);
	f->bos[f->n_bos++] = bo;
	return bo;
}

static void assert_mapped(uint64_t va, bool dumpable)
{
	int64_t flags = fake_amdgpu_mapping_flags(va);

	assert_true(flags >= 0);
	assert_int_equal((flags & RW), RW);
	assert_int_equal(!!(flags & AMDGPU_VM_DUMPABLE), dumpable);
}

/* A kernel with the series: one GEM_VA, with the flag, and it is kept. */
static void test_d3_map_dumpable(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st = { .capture = -1 };
	amdgpu_bo_handle bo = driver_bo(f, 4096);

	fake_amdgpu_set_dumpable(true);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 0, 4096, VA0, RW, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_KERNEL);
	assert_int_equal(st.error, 0);
	assert_int_equal(st.va, VA0);
	assert_int_equal(st.size, 4096);
	assert_int_equal(fake_amdgpu_calls(FAKE_GEM_VA), 1);
	assert_mapped(VA0, true);
	assert_int_equal(fake_amdgpu_dumpable_count(), 1);
	assert_string_equal(gpurobust_amdgpu_capture_name(st.capture), "kernel");
}

/* A kernel without the series rejects the unknown flag with -EINVAL: the
 * mapping is made without it, the status says why, and the device does not
 * ask again. */
static void test_d3_map_old_kernel(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st;
	amdgpu_bo_handle a = driver_bo(f, 4096), b = driver_bo(f, 4096);

	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, a, 0, 4096, VA0, RW, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED);
	assert_int_equal(st.error, -EINVAL);
	assert_int_equal(st.size, 0);
	assert_int_equal(fake_amdgpu_calls(FAKE_GEM_VA), 2);
	assert_mapped(VA0, false);

	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, b, 0, 4096, VA0 + 4096, RW, &st),
			 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED);
	assert_int_equal(fake_amdgpu_calls(FAKE_GEM_VA), 3);
	assert_mapped(VA0 + 4096, false);
	assert_string_equal(gpurobust_amdgpu_capture_name(st.capture), "unsupported");
}

/* -EINVAL for a mapping that is bad anyway is not "no D3": the plain retry
 * fails too, nothing is mapped, and the next good mapping asks again. */
static void test_d3_map_bad_mapping(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st;
	amdgpu_bo_handle bo = driver_bo(f, 4096);

	fake_amdgpu_set_dumpable(true);
	/* beyond the BO's size */
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 4096, 4096, VA0, RW, &st),
			 -EINVAL);
	assert_int_equal(fake_amdgpu_mapping_flags(VA0), -ENOENT);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 0, 4096, VA0, RW, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_KERNEL);
}

/* The count cap: a fifth dumpable mapping gets -ENOSPC and is mapped plain;
 * unmapping one frees its slot. */
static void test_d3_map_count_cap(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st;
	amdgpu_bo_handle bo[5];

	fake_amdgpu_set_dumpable(true);
	for (int i = 0; i < 5; i++)
		bo[i] = driver_bo(f, 4096);
	for (int i = 0; i < GPUROBUST_AMDGPU_DUMPABLE_MAX_MAPPINGS; i++) {
		assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo[i], 0, 4096,
							       VA0 + i * 4096ull, RW, &st), 0);
		assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_KERNEL);
	}
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo[4], 0, 4096, VA0 + 4 * 4096ull,
						       RW, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_NO_SLOT);
	assert_int_equal(st.error, -ENOSPC);
	assert_mapped(VA0 + 4 * 4096ull, false);
	assert_int_equal(fake_amdgpu_dumpable_count(), 4);

	/* unmap the first and the last BO: one slot comes back */
	assert_int_equal(amdgpu_bo_va_op_raw(gpurobust_amdgpu_handle(f->dev), bo[0], 0, 4096, VA0,
					     0, AMDGPU_VA_OP_UNMAP), 0);
	assert_int_equal(amdgpu_bo_va_op_raw(gpurobust_amdgpu_handle(f->dev), bo[4], 0, 4096,
					     VA0 + 4 * 4096ull, 0, AMDGPU_VA_OP_UNMAP), 0);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo[4], 0, 4096, VA0 + 4 * 4096ull,
						       RW, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_KERNEL);
	assert_int_equal(fake_amdgpu_dumpable_count(), 4);
}

/* The size cap: a larger mapping is not asked for (one GEM_VA, plain). */
static void test_d3_map_size_cap(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st;
	uint64_t big = GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE + 4096;
	amdgpu_bo_handle bo = driver_bo(f, big);

	fake_amdgpu_set_dumpable(true);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 0, big, VA0, RW, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_TOO_BIG);
	assert_int_equal(st.error, -E2BIG);
	assert_int_equal(fake_amdgpu_calls(FAKE_GEM_VA), 1);
	assert_mapped(VA0, false);
}

/* An imported dma-buf cannot be dumped: refused with its own errno, mapped
 * plain. */
static void test_d3_map_imported(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st;
	struct amdgpu_bo_import_result res;
	int buf = memfd_create("dma-buf", MFD_CLOEXEC);

	fake_amdgpu_set_dumpable(true);
	assert_true(buf >= 0);
	assert_int_equal(ftruncate(buf, 4096), 0);
	assert_int_equal(amdgpu_bo_import(gpurobust_amdgpu_handle(f->dev),
					  amdgpu_bo_handle_type_dma_buf_fd, (uint32_t)buf, &res), 0);
	close(buf);
	f->bos[f->n_bos++] = res.buf_handle;
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, res.buf_handle, 0, 4096, VA0, RW,
						       &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_REFUSED);
	assert_int_equal(st.error, FAKE_DUMPABLE_IMPORTED_ERRNO);
	assert_mapped(VA0, false);
}

/* PRT mappings have no memory to dump: refused before any ioctl, as is a
 * caller that passes the flag itself. */
static void test_d3_map_rejects_flags(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_amdgpu_capture_status st;
	amdgpu_bo_handle bo = driver_bo(f, 4096);

	fake_amdgpu_set_dumpable(true);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 0, 4096, VA0,
						       AMDGPU_VM_PAGE_PRT, &st), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 0, 4096, VA0,
						       RW | AMDGPU_VM_DUMPABLE, &st), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(NULL, bo, 0, 4096, VA0, RW, &st), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_map_dumpable(f->dev, bo, 0, 4096, VA0, RW, NULL),
			 -EINVAL);
	assert_int_equal(fake_amdgpu_calls(FAKE_GEM_VA), 0);
	assert_string_equal(gpurobust_amdgpu_capture_name(99), "invalid");
}

/* The fake's own rules for the flag, through libdrm: what the backend and
 * the IGT test rely on (Documentation/uapi.md's errno table). */
static void test_d3_fake_errnos(void **state)
{
	struct fixture *f = *state;
	amdgpu_device_handle h = gpurobust_amdgpu_handle(f->dev);
	amdgpu_bo_handle bo = driver_bo(f, 4096);
	uint64_t D = AMDGPU_VM_DUMPABLE;

	/* old kernel: the valid-flags check */
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, RW | D, AMDGPU_VA_OP_MAP),
			 -EINVAL);
	fake_amdgpu_set_dumpable(true);
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, D | AMDGPU_VM_PAGE_PRT,
					     AMDGPU_VA_OP_MAP), -EINVAL);
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, RW | D, AMDGPU_VA_OP_MAP), 0);
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, D, AMDGPU_VA_OP_UNMAP),
			 -EINVAL);
	assert_int_equal(amdgpu_bo_va_op_raw(h, NULL, 0, 4096, VA0, D, AMDGPU_VA_OP_CLEAR),
			 -EINVAL);
	/* REPLACE keeps the slot count right: the replaced mapping's slot */
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, RW | D, AMDGPU_VA_OP_REPLACE),
			 0);
	assert_int_equal(fake_amdgpu_dumpable_count(), 1);
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, RW, AMDGPU_VA_OP_REPLACE), 0);
	assert_int_equal(fake_amdgpu_dumpable_count(), 0);
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, 0, AMDGPU_VA_OP_UNMAP), 0);
	assert_int_equal(amdgpu_bo_va_op_raw(h, bo, 0, 4096, VA0, 0, AMDGPU_VA_OP_UNMAP),
			 -ENOENT);
}

/* ---- The pool --------------------------------------------------------- */

static struct fake_ib gfx;

/* Frame 7 > Shadows > Draw 3 recorded; the GPU, replaying the packets into
 * the BO through its CPU mapping, started Draw 3 and finished nothing. */
static struct gpurobust_bc_stream *record_hang(struct gpurobust_amdgpu_bc_pool *ap)
{
	struct gpurobust_bc_pool *pool = gpurobust_amdgpu_bc_pool_get(ap);
	struct gpurobust_bc_stream *s;
	size_t me;

	gfx = (struct fake_ib){ .level = GPUROBUST_BC_GFX11, .queue = GPUROBUST_BC_QUEUE_GFX };
	assert_int_equal(fake_stream_create(pool, GPUROBUST_BC_QUEUE_GFX, "main", &gfx, &s),
			 0);
	fake_begin(s);
	fake_push(s, intern(pool, "Frame 7"));
	fake_push(s, intern(pool, "Shadows"));
	fake_push(s, intern(pool, "Draw 3"));
	me = fake_ib_mark(&gfx);
	fake_pop(s);
	fake_pop(s);
	fake_pop(s);
	/* the pool's map is the BO's CPU mapping (the fake kernel's node file) */
	fake_gpu_run(&gfx, me, 2, pool->map, gpurobust_amdgpu_bc_pool_va(ap));
	return s;
}

/* The dump of a hang of this VM: a header and the fake kernel's sections. */
static struct gpurobust_coredump *dump_now(char **text)
{
	char *captures = fake_amdgpu_user_captures();
	struct gpurobust_coredump *d;

	assert_non_null(captures);
	assert_true(asprintf(text, "**** AMDGPU Device Coredump ****\nversion: 1\n"
			     "kernel: 6.12.117-gpurobust\nmodule: amdgpu\n"
			     "process_name: rc-guilty PID: 4242\n%s", captures) > 0);
	free(captures);
	assert_int_equal(gpurobust_coredump_parse(*text, strlen(*text), &d), 0);
	return d;
}

/* The deepest active scope of the report's first stream. */
static const char *active_scope(const struct gpurobust_bc_report *rep)
{
	const struct gpurobust_bc_stream_report *s = &rep->streams[0];
	const char *name = NULL;
	uint32_t depth = 0;

	assert_true(s->valid);
	for (uint32_t i = 0; i < s->node_count; i++)
		if (s->nodes[i].state == GPUROBUST_BC_IN_PROGRESS &&
		    (!name || s->nodes[i].depth >= depth)) {
			name = s->nodes[i].name;
			depth = s->nodes[i].depth;
		}
	return name ? name : "";
}

/* The whole D3 path: the pool's BO mapped dumpable, the markers written by
 * the GPU, the process gone, the breadcrumbs decoded from the dump alone
 * (the pool mirrors its names, B3). */
static void test_d3_pool_in_dump(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_pool_config cfg = { .mirror_scopes = 8, .mirror_name_bytes = 256 };
	struct gpurobust_amdgpu_capture_status st;
	struct gpurobust_amdgpu_bc_pool *ap;

	fake_amdgpu_set_dumpable(true);
	assert_int_equal(gpurobust_amdgpu_bc_pool_create(f->dev, &cfg, &ap), 0);
	assert_int_equal(gpurobust_amdgpu_bc_pool_capture(ap, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_KERNEL);
	assert_int_equal(st.size, GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE);
	assert_int_equal(st.va, gpurobust_amdgpu_bc_pool_va(ap));
	assert_mapped(st.va, true);
	gpurobust_bc_stream_destroy(record_hang(ap));
	gpurobust_amdgpu_bc_pool_destroy(ap);
	/* destroying unmapped it: the slot is free and nothing is left */
	assert_int_equal(fake_amdgpu_dumpable_count(), 0);
	assert_int_equal(fake_amdgpu_mapping_flags(st.va), -ENOENT);
	assert_int_equal(fake_amdgpu_bo_count(), 0);
}

/* The same, read while the mapping is there (as the kernel's worker does),
 * after the writes: the dump carries va, size and the bytes. */
static void test_d3_pool_decoded_from_dump(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_pool_config cfg = { .mirror_scopes = 8, .mirror_name_bytes = 256 };
	struct gpurobust_amdgpu_bc_pool *ap;
	struct gpurobust_bc_report *rep;
	struct gpurobust_coredump *d;
	struct gpurobust_bc_stream *s;
	char *text;

	fake_amdgpu_set_dumpable(true);
	assert_int_equal(gpurobust_amdgpu_bc_pool_create(f->dev, &cfg, &ap), 0);
	s = record_hang(ap);
	/* the process dies with the stream open: the kernel's copy has it */
	d = dump_now(&text);
	gpurobust_bc_stream_destroy(s);
	assert_int_equal(d->n_captures, 1);
	assert_true(d->captures[0].has_va);
	assert_int_equal(d->captures[0].va, gpurobust_amdgpu_bc_pool_va(ap));
	assert_int_equal(d->captures[0].size, GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE);
	assert_int_equal(d->captures[0].error, 0);
	gpurobust_amdgpu_bc_pool_destroy(ap);
	/* nothing of the process is needed any more */
	assert_int_equal(gpurobust_bc_decode(d->captures[0].data, d->captures[0].len, NULL, &rep),
			 0);
	assert_int_equal(rep->stream_count, 1);
	assert_string_equal(active_scope(rep), "Draw 3");
	gpurobust_bc_report_free(rep);
	gpurobust_coredump_free(d);
	free(text);
}

/* A kernel without D3: the pool works in process, the status says kernel
 * capture is unavailable, and a dump would carry nothing of it. */
static void test_d3_pool_old_kernel(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_pool_config cfg = { .mirror_scopes = 8, .mirror_name_bytes = 256 };
	struct gpurobust_amdgpu_capture_status st;
	struct gpurobust_amdgpu_bc_pool *ap;
	struct gpurobust_bc_report *rep;
	struct gpurobust_bc_stream *s;
	char *captures;

	assert_int_equal(gpurobust_amdgpu_bc_pool_create(f->dev, &cfg, &ap), 0);
	assert_int_equal(gpurobust_amdgpu_bc_pool_capture(ap, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_UNSUPPORTED);
	assert_int_equal(st.error, -EINVAL);
	assert_mapped(gpurobust_amdgpu_bc_pool_va(ap), false);
	s = record_hang(ap);
	assert_int_equal(gpurobust_bc_pool_read(gpurobust_amdgpu_bc_pool_get(ap), &rep), 0);
	assert_string_equal(active_scope(rep), "Draw 3");
	gpurobust_bc_report_free(rep);
	gpurobust_bc_stream_destroy(s);
	captures = fake_amdgpu_user_captures();
	assert_string_equal(captures, "");
	free(captures);
	gpurobust_amdgpu_bc_pool_destroy(ap);
}

/* A pool above the size cap: its first 64 KiB dumpable, the rest mapped
 * plain right after, one slot used. */
static void test_d3_pool_above_cap(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_pool_config cfg = { .size = 256 << 10 };
	struct gpurobust_amdgpu_capture_status st;
	struct gpurobust_amdgpu_bc_pool *ap;
	uint64_t va;

	fake_amdgpu_set_dumpable(true);
	assert_int_equal(gpurobust_amdgpu_bc_pool_create(f->dev, &cfg, &ap), 0);
	va = gpurobust_amdgpu_bc_pool_va(ap);
	assert_int_equal(gpurobust_amdgpu_bc_pool_capture(ap, &st), 0);
	assert_int_equal(st.capture, GPUROBUST_AMDGPU_CAPTURE_KERNEL);
	assert_int_equal(st.size, GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE);
	assert_mapped(va, true);
	assert_mapped(va + GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE, false);
	assert_int_equal(fake_amdgpu_dumpable_count(), 1);
	gpurobust_amdgpu_bc_pool_destroy(ap);
	assert_int_equal(fake_amdgpu_mapping_flags(va + GPUROBUST_AMDGPU_DUMPABLE_MAX_SIZE),
			 -ENOENT);
}

/* Each failing step leaves nothing behind, and the error is the call's. */
static void test_d3_pool_failures(void **state)
{
	struct fixture *f = *state;
	struct gpurobust_bc_pool_config cfg = { 0 };
	struct gpurobust_amdgpu_bc_pool *ap = (void *)1;
	const enum fake_amdgpu_call steps[] = { FAKE_GEM_CREATE, FAKE_GEM_MMAP };

	fake_amdgpu_set_dumpable(true);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		fake_amdgpu_fail_next(steps[i], -ENOMEM);
		assert_int_equal(gpurobust_amdgpu_bc_pool_create(f->dev, &cfg, &ap), -ENOMEM);
		assert_null(ap);
		assert_int_equal(fake_amdgpu_bo_count(), 0);
	}
	/* a mirror that does not fit: the pool refuses, the BO and VA go */
	cfg.size = 4096;
	cfg.mirror_scopes = 1u << 20;
	assert_true(gpurobust_amdgpu_bc_pool_create(f->dev, &cfg, &ap) < 0);
	assert_int_equal(fake_amdgpu_bo_count(), 0);
	assert_int_equal(fake_amdgpu_dumpable_count(), 0);
	assert_int_equal(gpurobust_amdgpu_bc_pool_create(NULL, &cfg, &ap), -EINVAL);
	assert_int_equal(gpurobust_amdgpu_bc_pool_capture(NULL, &(struct gpurobust_amdgpu_capture_status){ 0 }),
			 -EINVAL);
	assert_null(gpurobust_amdgpu_bc_pool_get(NULL));
	gpurobust_amdgpu_bc_pool_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_d3_map_dumpable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_map_old_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_map_bad_mapping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_map_count_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_map_size_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_map_imported, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_map_rejects_flags, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_fake_errnos, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_pool_in_dump, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_pool_decoded_from_dump, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_pool_old_kernel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_pool_above_cap, setup, teardown),
		cmocka_unit_test_setup_teardown(test_d3_pool_failures, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
