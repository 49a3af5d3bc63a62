/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: reset classification
 *
 * One gpurobust_ctx shadows one amdgpu context (AMDGPU_CTX_OP_ALLOC_CTX). The
 * driver feeds it every piece of evidence it sees: the errno of a CS or wait
 * ioctl, a fence status, a QUERY_STATE2 flag word or a QUERY_STATE (v1)
 * answer. The context keeps a sticky classification (contract rows L1-L8)
 * and answers in API terms: a VkResult (L9) or a GL reset status (L11, L12).
 * A context that is not robust follows the lost policy (L13).
 *
 * This header needs no graphics API header: the Vulkan answers are in
 * gpurobust/reset-vulkan.h, the GL answer in gpurobust/reset-gl.h, so that a
 * GL driver never sees vulkan_core.h. Nothing here performs I/O; the amdgpu backend (gpurobust/amdgpu.h) fetches
 * the evidence. Every function is safe to call from many threads on the same
 * context at once.
 */
#ifndef GPUROBUST_RESET_H
#define GPUROBUST_RESET_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What the evidence says about one context. Lost classes are sticky: a
 * context never goes back to NONE. Which class may follow which is the
 * lattice in Documentation/libgpurobust-api.md ("Class lattice"): more
 * specific evidence refines, except that innocence never follows a lost
 * device (GPUROBUST_RESET_FLAG_DEVICE_GONE). */
enum gpurobust_reset_class {
	GPUROBUST_RESET_NONE = 0,	/* nothing happened to this context */
	GPUROBUST_RESET_UNKNOWN,	/* lost, cause unknown (L4, L5) */
	GPUROBUST_RESET_INNOCENT,	/* its work was thrown away (L3, L6) */
	GPUROBUST_RESET_GUILTY_SOFT,	/* it hung; soft recovery killed its waves (L1) */
	GPUROBUST_RESET_GUILTY_HARD,	/* it hung; a ring or full reset followed (L2) */
};

/* Flags next to the class. VRAM_LOST and RESET_ELSEWHERE are sticky;
 * RESET_IN_PROGRESS follows the latest QUERY_STATE2 answer. */
#define GPUROBUST_RESET_FLAG_VRAM_LOST		(1u << 0)
#define GPUROBUST_RESET_FLAG_IN_PROGRESS	(1u << 1)
/* A reset happened on the device, but not necessarily to this context (L7). */
#define GPUROBUST_RESET_FLAG_ELSEWHERE		(1u << 2)
/* Sticky: -ENODEV or -EHWPOISON said the device itself is gone (L5). */
#define GPUROBUST_RESET_FLAG_DEVICE_GONE	(1u << 3)

/*
 * AMDGPU_CTX_OP_QUERY_STATE2 flags, as the kernel's amdgpu_drm.h defines
 * them, under names a driver can use whatever its copy of that header has.
 */
#define GPUROBUST_QUERY2_RESET			(1u << 0)
#define GPUROBUST_QUERY2_VRAMLOST		(1u << 1)
#define GPUROBUST_QUERY2_GUILTY			(1u << 2)
#define GPUROBUST_QUERY2_RAS_CE			(1u << 3)
#define GPUROBUST_QUERY2_RAS_UE			(1u << 4)
/* Linux 6.8 (KMS 3.54): a reset has started and not finished yet. */
#define GPUROBUST_QUERY2_RESET_IN_PROGRESS	(1u << 5)
/* This project's kernel series (Documentation/uapi.md): set in every answer
 * when RESET, GUILTY and VRAMLOST are per context. */
#define GPUROBUST_QUERY2_PER_CTX_RESET		(1u << 6)

/* Whether the kernel reports RESET/GUILTY/VRAMLOST per context. */
enum gpurobust_semantics {
	GPUROBUST_SEMANTICS_LEGACY = 0,	/* RESET is device-global (upstream 6.12) */
	GPUROBUST_SEMANTICS_PER_CTX,	/* AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET */
};

/* The semantics a QUERY_STATE2 answer proves: PER_CTX when it carries
 * GPUROBUST_QUERY2_PER_CTX_RESET, LEGACY otherwise. Any answer will do, the
 * one a driver reads once when it creates its context included. */
enum gpurobust_semantics gpurobust_semantics_from_query2(uint64_t query2_flags);

enum gpurobust_evidence_kind {
	GPUROBUST_EVIDENCE_ERRNO = 1,	/* CS/wait ioctl result or fence status, <= 0 */
	GPUROBUST_EVIDENCE_QUERY2,	/* AMDGPU_CTX_OP_QUERY_STATE2 flags */
	GPUROBUST_EVIDENCE_QUERY1,	/* AMDGPU_CTX_OP_QUERY_STATE reset_status */
};

/* Only the member that `kind` names is read. Not a union: an anonymous one
 * is not C99, and a named one would make every initializer longer. */
struct gpurobust_evidence {
	enum gpurobust_evidence_kind kind;
	int err;		/* ERRNO: 0 or -errno */
	uint64_t query2_flags;	/* QUERY2 */
	uint32_t query1_status;	/* QUERY1: AMDGPU_CTX_*_RESET */
};

struct gpurobust_reset_status {
	enum gpurobust_reset_class reset_class;
	uint32_t flags;		/* GPUROBUST_RESET_FLAG_* */
	/* The errno that first moved the class off NONE, 0 if query flags did. */
	int first_errno;
};

/**
 * gpurobust_classify() - classify one piece of evidence on its own
 * @evidence: what the kernel said
 * @semantics: the kernel's reset semantics
 * @out: the verdict; NONE for evidence that is not about a reset (L8)
 *
 * Return: 0, or -EINVAL for an unknown evidence kind or a NULL pointer.
 */
int gpurobust_classify(const struct gpurobust_evidence *evidence,
		       enum gpurobust_semantics semantics,
		       struct gpurobust_reset_status *out);

/* Context creation flags. */
/* The API reports resets to the application: a GL context created with
 * LOSE_CONTEXT_ON_RESET, or any Vulkan device. Without it the context uses
 * NO_RESET_NOTIFICATION (L12) and the lost policy applies (L13). */
#define GPUROBUST_CTX_ROBUST	(1u << 0)

struct gpurobust_ctx;

/**
 * gpurobust_ctx_create() - start tracking one amdgpu context
 * @semantics: the kernel's semantics, from gpurobust_amdgpu_semantics()
 * @flags: GPUROBUST_CTX_* flags
 * @out: the new context
 *
 * Return: 0, -EINVAL for unknown flags or semantics, -ENOMEM.
 */
int gpurobust_ctx_create(enum gpurobust_semantics semantics, uint32_t flags,
			 struct gpurobust_ctx **out);
/* Safe on NULL. No other thread may use @ctx any more. */
void gpurobust_ctx_destroy(struct gpurobust_ctx *ctx);

/**
 * gpurobust_ctx_update() - fold one piece of evidence into a context
 * @ctx: the context
 * @evidence: what the kernel said
 *
 * When this moves a context that is not robust from NONE to lost, the lost
 * policy runs once (L13): the handler if one is set, else the process is
 * terminated with a message on stderr.
 *
 * Return: 0, or -EINVAL for a NULL pointer or an unknown evidence kind.
 */
int gpurobust_ctx_update(struct gpurobust_ctx *ctx,
			 const struct gpurobust_evidence *evidence);
/* Shorthands for gpurobust_ctx_update() with one evidence kind. */
int gpurobust_ctx_note_errno(struct gpurobust_ctx *ctx, int err);
int gpurobust_ctx_note_query2(struct gpurobust_ctx *ctx, uint64_t flags);
int gpurobust_ctx_note_query1(struct gpurobust_ctx *ctx, uint32_t status);

/* Return: 0 with *out filled, -EINVAL for NULL pointers. */
int gpurobust_ctx_get_status(const struct gpurobust_ctx *ctx,
			     struct gpurobust_reset_status *out);

/* GUILTY, INNOCENT and UNKNOWN mean lost (L9); NONE with any flags does not. */
int gpurobust_reset_is_lost(enum gpurobust_reset_class reset_class);

/* Called once, on the thread whose evidence made a non-robust context lost. */
typedef void (*gpurobust_lost_handler)(struct gpurobust_ctx *ctx,
				       const struct gpurobust_reset_status *status,
				       void *user_data);

/**
 * gpurobust_ctx_set_lost_handler() - choose the L13 policy of a context
 * @ctx: the context
 * @handler: called instead of terminating; NULL restores termination
 * @user_data: passed to @handler
 *
 * Return: 0, or -EINVAL for a NULL context.
 */
int gpurobust_ctx_set_lost_handler(struct gpurobust_ctx *ctx,
				   gpurobust_lost_handler handler,
				   void *user_data);

/* Stable lower-case names for logs and JSON; "invalid" for unknown values. */
const char *gpurobust_reset_class_name(enum gpurobust_reset_class reset_class);
const char *gpurobust_semantics_name(enum gpurobust_semantics semantics);

#ifdef __cplusplus
}
#endif

#endif
