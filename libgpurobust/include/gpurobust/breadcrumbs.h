/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_BREADCRUMBS_H
#define GPUROBUST_BREADCRUMBS_H

/*
 * GPU breadcrumbs (contract rows B1 to B3, Documentation/breadcrumbs.md).
 *
 * A driver records named, nested scopes into a command stream. Names and
 * nesting stay on the CPU; the GPU writes only two small integers per scope:
 * the scope's push sequence number to the stream's "in" counter when the
 * command processor reaches the scope (ME), and its pop sequence number to the
 * stream's "out" counter when all work before the pop has finished (end of
 * pipe). After a hang the two counters place every scope in one of the states
 * below, and the report code turns the tree into text, JSON and a signature.
 *
 * Every function returns 0 or a negative errno unless it says otherwise. A
 * pool may be used from many threads; one stream must only be used by one
 * thread at a time (like a Vulkan command buffer).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GPUROBUST_BC_DEFAULT_POOL_SIZE (2u << 20)
#define GPUROBUST_BC_DEFAULT_MAX_SCOPES (1u << 20)
/* "No node" in parent, first_child and next_sibling links. */
#define GPUROBUST_BC_NONE UINT32_MAX

enum gpurobust_bc_state {
	GPUROBUST_BC_NOT_STARTED,
	GPUROBUST_BC_IN_PROGRESS,	/* "active": in reached, out not yet */
	GPUROBUST_BC_FINISHED,
	GPUROBUST_BC_OVERFLOW,		/* scopes dropped because the stream was full */
	GPUROBUST_BC_INVALID,		/* the marker record cannot be trusted */
};

enum gpurobust_bc_queue {
	GPUROBUST_BC_QUEUE_GFX,
	GPUROBUST_BC_QUEUE_COMPUTE,
	GPUROBUST_BC_QUEUE_SDMA,
};

/* Which of the two per-scope writes (or the stream preamble) a driver emits;
 * gpurobust_bc_encode_write() builds the packets for each
 * (gpurobust/breadcrumbs-pm4.h). */
enum gpurobust_bc_write_mode {
	/* Written when the command processor reaches it, after all earlier work
	 * has started: PM4 WRITE_DATA from the ME, SDMA WRITE. */
	GPUROBUST_BC_WRITE_IN,
	/* Written when all earlier work has finished: PM4 RELEASE_MEM at the
	 * bottom of the pipe, SDMA FENCE. */
	GPUROBUST_BC_WRITE_OUT,
	/* Stream preamble: zero a counter so that a resubmitted stream starts
	 * from "nothing started". Emit it like WRITE_IN. */
	GPUROBUST_BC_WRITE_RESET,
};

struct gpurobust_bc_pool_config {
	/* Bytes of GPU-visible marker memory; 0 means the 2 MiB default. Each
	 * stream uses one 16-byte record of it, whatever its number of scopes. */
	size_t size;
	/* CPU mapping and GPU address of that memory. Map it uncached (GTT, or
	 * VRAM with VA_UNCACHED) so the last writes survive a reset. A NULL
	 * cpu_map makes the pool allocate host memory itself (tests, tools). */
	void *cpu_map;
	uint64_t gpu_va;
	/* Scopes one stream may record before it overflows; 0 means
	 * GPUROBUST_BC_DEFAULT_MAX_SCOPES. */
	uint32_t max_scopes_per_stream;
	/* Self-describing capture (B3): when not 0, the pool also mirrors the
	 * interned names and the last mirror_scopes scopes of every stream
	 * (rounded up to a power of two) into its memory after the records, so
	 * that gpurobust_bc_decode() of a devcoredump needs no metadata saved
	 * by the process. Each record then costs 48 + 16 * mirror_scopes bytes,
	 * so size the pool to the dumpable mapping it is in (64 KiB at most,
	 * gpurobust/breadcrumbs-amdgpu.h). */
	uint32_t mirror_scopes;
	/* Room for mirrored names; 0 means 4096 bytes when mirroring. */
	uint32_t mirror_name_bytes;
};

struct gpurobust_bc_pool;
struct gpurobust_bc_stream;
struct gpurobust_bc_meta;

int gpurobust_bc_pool_create(const struct gpurobust_bc_pool_config *config,
			     struct gpurobust_bc_pool **pool_out);
void gpurobust_bc_pool_destroy(struct gpurobust_bc_pool *pool);

/* Interns `name` and returns its id in *id_out. Ids stay valid for the
 * pool's lifetime; intern once, push the id many times. */
int gpurobust_bc_intern(struct gpurobust_bc_pool *pool, const char *name,
			uint32_t *id_out);

/* Takes a marker record from the pool: -ENOSPC when every record is in use.
 *
 * The stream keeps the names and the nesting; the driver emits the GPU's
 * two writes per scope into its own command stream, with its own emit
 * helpers or with gpurobust_bc_encode_write(): push and pop return the
 * value, gpurobust_bc_stream_markers() the two addresses. */
int gpurobust_bc_stream_create(struct gpurobust_bc_pool *pool,
			       enum gpurobust_bc_queue queue, const char *label,
			       struct gpurobust_bc_stream **stream_out);
void gpurobust_bc_stream_destroy(struct gpurobust_bc_stream *stream);

/* The GPU addresses of the stream's "in" and "out" counters. They stay the
 * same for the stream's lifetime. */
void gpurobust_bc_stream_markers(const struct gpurobust_bc_stream *stream,
				 uint64_t *in_va, uint64_t *out_va);

/* Starts (re)recording: forgets earlier scopes and keeps their memory. The
 * driver then emits the preamble, a GPUROBUST_BC_WRITE_RESET of 0 to each
 * counter, so that a resubmission starts from "nothing started". */
void gpurobust_bc_stream_begin(struct gpurobust_bc_stream *stream);

/* The hot path: no allocation once a stream has reached its size, no lock.
 *
 * push returns the value the driver writes to the "in" counter
 * (GPUROBUST_BC_WRITE_IN), pop the value it writes to the "out" counter
 * (GPUROBUST_BC_WRITE_OUT); a pop that returns 0 has no write. A push beyond
 * max_scopes_per_stream is counted, not recorded, and still has its writes;
 * a pop without a push is counted and has none. */
uint32_t gpurobust_bc_push(struct gpurobust_bc_stream *stream, uint32_t name_id);
uint32_t gpurobust_bc_pop(struct gpurobust_bc_stream *stream);

/* The driver could not append a write (its command stream had no room:
 * -ENOMEM, -ENOSPC). RADV and radeonsi fail such a command buffer; a report
 * of this recording then marks the stream invalid instead of misplacing its
 * scopes, and gpurobust_bc_stream_stats() says why. The first error since
 * gpurobust_bc_stream_begin() is kept. */
void gpurobust_bc_stream_write_failed(struct gpurobust_bc_stream *stream, int err);

/* Counters for the report of a live stream. */
struct gpurobust_bc_stream_stats {
	uint32_t scopes;	/* recorded since begin */
	uint32_t depth;		/* open scopes now */
	uint32_t dropped;	/* pushes lost to overflow */
	uint32_t unbalanced_pops;
	int write_error;	/* the first failed write since begin, or 0 */
};
void gpurobust_bc_stream_stats(const struct gpurobust_bc_stream *stream,
			       struct gpurobust_bc_stream_stats *stats);

/* ---- Readback ---------------------------------------------------------- */

struct gpurobust_bc_node {
	const char *name;
	enum gpurobust_bc_state state;
	uint32_t parent, first_child, next_sibling;	/* node indices */
	uint32_t depth;					/* 0 for a root */
};

struct gpurobust_bc_stream_report {
	uint32_t tag;			/* recording id, also in the marker record */
	enum gpurobust_bc_queue queue;
	const char *label;
	bool valid;
	const char *invalid_reason;	/* NULL when valid */
	uint32_t marker_in, marker_out;
	uint32_t dropped;
	uint32_t node_count;
	struct gpurobust_bc_node *nodes;	/* push order; roots have parent NONE */
};

struct gpurobust_bc_report {
	uint32_t stream_count;
	struct gpurobust_bc_stream_report *streams;
	/* Index of the stream the kernel blamed (its ring), or -1 if unknown. */
	int32_t guilty_stream;
};

/* CPU-side metadata: names, nesting and record of every stream recorded so
 * far. Together with the marker bytes it is everything the decoder needs, so
 * a crash collector can save it (gpurobust/breadcrumbs-json.h) and decode a
 * devcoredump after the process died. Call it when no thread is recording
 * (after the device was lost). */
int gpurobust_bc_pool_meta(struct gpurobust_bc_pool *pool,
			   struct gpurobust_bc_meta **meta_out);
void gpurobust_bc_meta_free(struct gpurobust_bc_meta *meta);

/* Decodes marker memory (the pool's bytes, a copy, or the bytes of the
 * devcoredump's "User Capture v1" section) with its metadata into a report.
 * With meta NULL the metadata comes from the pool's own mirror (see
 * mirror_scopes): -ENODATA when the bytes hold none, -EBADMSG when it is
 * damaged; a damaged scope log marks its stream invalid.
 * Never reads outside [bytes, bytes + len). A header that is not ours fails
 * with -EBADMSG, an unknown version with -EPROTONOSUPPORT, and metadata of
 * another pool with -ESTALE; a record scribbled by the GPU or cut off by the
 * capture size marks that stream invalid and the call still succeeds. */
int gpurobust_bc_decode(const void *bytes, size_t len,
			const struct gpurobust_bc_meta *meta,
			struct gpurobust_bc_report **report_out);
/* Live readback: gpurobust_bc_pool_meta() plus decoding the pool's memory. */
int gpurobust_bc_pool_read(struct gpurobust_bc_pool *pool,
			   struct gpurobust_bc_report **report_out);
void gpurobust_bc_report_free(struct gpurobust_bc_report *report);

/* ---- Reports ----------------------------------------------------------- */

enum gpurobust_bc_text_flags {
	/* Show the scopes inside finished and not-started scopes too. */
	GPUROBUST_BC_TEXT_EXPAND = 1 << 0,
};

/* RGD-style execution marker tree, then the in-progress paths. */
int gpurobust_bc_report_print(const struct gpurobust_bc_report *report,
			      FILE *out, unsigned int flags);

const char *gpurobust_bc_state_name(enum gpurobust_bc_state state);
const char *gpurobust_bc_queue_name(enum gpurobust_bc_queue queue);

#ifdef __cplusplus
}
#endif

#endif
