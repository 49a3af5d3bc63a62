/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/*
 * The reset class lattice as data: which class a context has after one piece
 * of evidence and then another (contract rows L1-L8), on a kernel with
 * per-context reset state and on one without.
 *
 * libgpurobust's tests (test-classify.c) and Mesa's ac_reset_test.c include
 * this same file, so that the library and the ac_reset code in Mesa cannot
 * drift apart: the Mesa series carries a byte-identical copy as
 * src/amd/common/tests/ac_reset_lattice.h, and make check compares the two.
 * It names nothing of either project: errnos, QUERY_STATE2 flag bits of the
 * kernel's amdgpu_drm.h, and one letter per class:
 *   N none, U unknown (lost, cause unknown), I innocent,
 *   S guilty of a soft recovery, H guilty of a hard recovery.
 */
#ifndef RESET_LATTICE_H
#define RESET_LATTICE_H

#include <errno.h>

#define RESET_LATTICE_SIZE 7

struct reset_lattice_evidence {
	char kind;		/* 'e': a CS or fence errno; 'q': QUERY_STATE2 flags */
	long long value;
};

/* Rows and columns, in this order. Flags: RESET 1, VRAMLOST 2, GUILTY 4. */
static const struct reset_lattice_evidence reset_lattice_evidence[RESET_LATTICE_SIZE] = {
	{ 'e', -ENODATA },
	{ 'e', -ETIME },
	{ 'e', -ECANCELED },
	{ 'e', -ENODEV },
	{ 'q', 1 | 4 },		/* RESET | GUILTY */
	{ 'q', 1 | 2 },		/* RESET | VRAMLOST */
	{ 'q', 1 },		/* RESET */
};

/* Kernel with per-context reset state (QUERY_STATE2 PER_CTX_RESET). Row:
 * the first evidence; column: the second. */
static const char *const reset_lattice_per_ctx[RESET_LATTICE_SIZE] = {
	/* ENODATA ETIME ECANCELED ENODEV GUILTY VRAMLOST RESET */
	"SHSSSSS",	/* -ENODATA */
	"HHHHHHH",	/* -ETIME */
	"SHIIHII",	/* -ECANCELED */
	"SHUUHUU",	/* -ENODEV: -ECANCELED and VRAMLOST echo the loss */
	"SHHHHHH",	/* GUILTY: an errno names the kind of guilt */
	"SHIIHII",	/* VRAMLOST */
	"SHIIHII",	/* RESET */
};

/* Kernel without it (upstream): -ECANCELED and VRAMLOST are ambiguous (L4),
 * and a bare RESET is anyone's (L7). */
static const char *const reset_lattice_legacy[RESET_LATTICE_SIZE] = {
	/* ENODATA ETIME ECANCELED ENODEV GUILTY VRAMLOST RESET */
	"SHSSSSS",	/* -ENODATA */
	"HHHHHHH",	/* -ETIME */
	"SHUUHUU",	/* -ECANCELED: resolved by guilt only */
	"SHUUHUU",	/* -ENODEV */
	"SHHHHHH",	/* GUILTY */
	"SHUUHUU",	/* VRAMLOST: the guilty context's VRAM is lost too */
	"SHUUHUN",	/* RESET */
};

#endif
