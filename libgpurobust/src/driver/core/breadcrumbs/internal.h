/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_BREADCRUMBS_INTERNAL_H
#define GPUROBUST_CORE_BREADCRUMBS_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "gpurobust/breadcrumbs.h"

/*
 * Marker memory layout, version 1 (all little-endian, Documentation/breadcrumbs.md):
 *
 *   offset 0   u32 magic "GRBC"        written by the CPU at pool creation
 *          4   u16 version (1)
 *          6   u16 record size (16)
 *          8   u32 record count
 *         12   u32 pool id             matches the metadata to its buffer
 *         16   records[record count]
 *
 *   record u32 tag  recording id (0 = free), written by the CPU at begin
 *          u32 in   last push sequence the ME reached (0 = none)
 *          u32 out  last pop sequence that finished at end of pipe (0 = none)
 *          u32 reserved, 0
 */
#define BC_MAGIC 0x43425247u	/* "GRBC" read as a little-endian u32 */
#define BC_VERSION 1u
#define BC_HEADER_SIZE 16u
#define BC_RECORD_SIZE 16u
#define BC_RECORD_TAG 0u
#define BC_RECORD_IN 4u
#define BC_RECORD_OUT 8u

/*
 * Optional metadata mirror (B3), right after the records when the pool was
 * created with mirror_scopes: the CPU copies what the decoder needs into the
 * captured buffer itself, so a devcoredump decodes after the process died.
 *
 *   mirror +0  u32 magic "GRBM"
 *          4   u32 scope slots per stream (power of two)
 *          8   u32 name bytes (multiple of 4)
 *         12   u32 names mirrored
 *         16   u32 name bytes used
 *         20   u32 names that did not fit
 *         24   names: NUL-terminated, in id order
 *         24 + name bytes: one slice per record, in record order
 *
 *   slice  +0  u32 tag, +4 scopes pushed, +8 scopes dropped,
 *          +12 push sequence of the scope open at the first drop (0 = none),
 *          +16 queue, +20 label's name id, +24 the driver's first failed write
 *              (a negative errno; 0: none), +28 reserved, 0
 *          +32 slots: u32 push sequence, name id, parent's push sequence
 *              (0 = root), pop sequence (0 = open); scope k in slot
 *              (k - 1) % slots
 */
#define BC_MIRROR_MAGIC 0x4d425247u	/* "GRBM" */
#define BC_MIRROR_HEADER_SIZE 24u
#define BC_MIRROR_DEFAULT_NAME_BYTES 4096u
#define BC_MIRROR_MAX_SLOTS (1u << 16)
#define BC_SLICE_HEADER_SIZE 32u
#define BC_SLOT_SIZE 16u
#define BC_SLICE_TAG 0u
#define BC_SLICE_COUNT 4u
#define BC_SLICE_DROPPED 8u
#define BC_SLICE_OVERFLOW_PARENT 12u
#define BC_SLICE_QUEUE 16u
#define BC_SLICE_LABEL 20u
#define BC_SLICE_WRITE_ERROR 24u
/* Why a stream whose driver could not emit a write is reported invalid. */
#define BC_WRITE_FAILED_REASON "the driver could not emit a breadcrumb write"

#define BC_SLOT_PUSH 0u
#define BC_SLOT_NAME 4u
#define BC_SLOT_PARENT 8u
#define BC_SLOT_POP 12u

/* Parent of a mirrored scope whose parent fell out of the ring: the decoder
 * hangs it under one "earlier scopes not mirrored" node. */
#define BC_PARENT_EVICTED (GPUROBUST_BC_NONE - 1)
/* A stream's current scope while dropped scopes are open. */
#define BC_CURRENT_DROPPED (GPUROBUST_BC_NONE - 1)

/* One scope of a snapshot (pool metadata) or of a decoded mirror. Its push
 * sequence is its index + 1, so it is not stored; pop_seq is 0 while the
 * scope is open. A live stream keeps the same in struct bc_link and its
 * pop_seqs array. */
struct bc_scope {
	uint32_t name;
	uint32_t pop_seq;
	uint32_t parent;
};

/* A live stream keeps a scope's name and parent apart from its pop
 * sequence: push then stores two words and pop one, each at an address one
 * instruction forms from the index (8- and 4-byte elements). */
struct bc_link {
	uint32_t name;
	uint32_t parent;
};
#define BC_LIVE_SCOPE_BYTES (sizeof(struct bc_link) + sizeof(uint32_t))

struct bc_meta_stream {
	uint32_t record;
	uint32_t tag;
	enum gpurobust_bc_queue queue;
	char *label;
	uint32_t scope_count;
	struct bc_scope *scopes;
	uint32_t dropped;
	uint32_t overflow_parent;	/* scope open at the first drop, or NONE */
	/* Only from a mirror: scopes that fell out of its ring before
	 * scopes[0] (push sequence of scopes[i] is evicted + i + 1), and why
	 * the mirrored log cannot be trusted, or NULL. */
	uint32_t evicted;
	const char *broken;
};

struct gpurobust_bc_meta {
	uint32_t pool_id;
	uint32_t record_count;
	uint32_t name_count;
	char **names;
	uint32_t stream_count;
	struct bc_meta_stream *streams;
};

struct gpurobust_bc_stream {
	/* Hot fields first: push and pop touch only this cache line and the
	 * scope arrays. */
	struct bc_link *links;
	/* Set by pop; an open scope's is stale (meta_copy_stream()). */
	uint32_t *pop_seqs;
	uint32_t count;
	/* Pushes below this index take the fast path: the capacity, or 0 once
	 * a scope was dropped. One compare then covers both cases. */
	uint32_t ready;
	uint32_t capacity;
	uint32_t limit;
	/* Innermost open scope, or NONE; BC_CURRENT_DROPPED while dropped
	 * scopes are open, so that pop needs one compare for both slow cases. */
	uint32_t current;
	uint32_t pop_count;
	uint32_t overflow_depth;	/* open scopes that were dropped */
	uint64_t in_va, out_va;
	uint8_t *mirror;		/* this record's slice, or NULL */
	uint8_t *mirror_slots;		/* its ring of slots, or NULL */
	uint32_t mirror_mask;		/* ring slots - 1 */
	/* Scopes below this index have left the mirror's ring (it may be
	 * negative); INT64_MAX when not mirroring, so that pop needs one
	 * compare either way. */
	int64_t mirror_floor;

	uint32_t dropped;
	uint32_t overflow_parent;
	uint32_t recorded_current;	/* current, while dropped scopes are open */
	int write_error;
	uint32_t unbalanced_pops;
	uint32_t record;
	uint32_t tag;
	enum gpurobust_bc_queue queue;
	char *label;
	struct gpurobust_bc_pool *pool;
	struct gpurobust_bc_stream *next, *prev;	/* pool's live list */
};

struct bc_intern {
	char **names;
	uint32_t count, capacity;
	uint32_t *buckets;		/* name index + 1, 0 = empty */
	uint32_t bucket_count;		/* power of two */
};

struct gpurobust_bc_pool {
	pthread_mutex_t lock;		/* records, intern table, stream list */
	uint8_t *map;
	bool owns_map;
	size_t size;
	uint64_t gpu_va;
	uint32_t pool_id;
	uint32_t record_count;
	uint32_t max_scopes;
	uint32_t next_tag;
	uint32_t *free_records;		/* stack of free record indices */
	uint32_t free_count;
	struct bc_intern intern;
	uint8_t *mirror;		/* mirror header in map, or NULL */
	uint32_t mirror_slots;
	uint32_t mirror_name_bytes;
	uint32_t mirror_names, mirror_name_used, mirror_names_lost;
	struct gpurobust_bc_stream *streams;
};

/* Little-endian access to marker bytes, whatever the host. */
static inline uint32_t bc_read_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* One store on little-endian hosts: the mirror writes it on the hot path. */
static inline void bc_write_le32(uint8_t *p, uint32_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, sizeof(v));
#else
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
#endif
}

/* Two adjacent little-endian u32, low one first, in one store where the
 * host allows. */
static inline void bc_write_le64(uint8_t *p, uint64_t v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(p, &v, sizeof(v));
#else
	bc_write_le32(p, (uint32_t)v);
	bc_write_le32(p + 4, (uint32_t)(v >> 32));
#endif
}

/* Report construction shared by the decoder and the JSON reader. */
struct gpurobust_bc_report *grb_bc_report_alloc(uint32_t stream_count);
/* Copies `s` into the report's string storage; NULL on allocation failure. */
const char *grb_bc_report_strdup(struct gpurobust_bc_report *report, const char *s);
/* Fills first_child, next_sibling and depth from the parent links. Returns
 * -EINVAL when a parent does not precede its child. */
int grb_bc_stream_link_tree(struct gpurobust_bc_stream_report *stream);

/* Index of the deepest in-progress node reached by always taking the first
 * in-progress child (the oldest unfinished work), or NONE. */
uint32_t grb_bc_oldest_active_leaf(const struct gpurobust_bc_stream_report *stream);
/* The stream a signature is about: the guilty one if known, else the one
 * with the deepest active path (lowest index on a tie), or -1. */
int grb_bc_guilty_stream(const struct gpurobust_bc_report *report);

void grb_bc_meta_stream_fini(struct bc_meta_stream *stream);

/* Metadata read back from a pool's mirror: -ENODATA when the bytes hold no
 * mirror, -EBADMSG when its header or names are damaged. */
int grb_bc_meta_from_mirror(const uint8_t *bytes, size_t len, struct gpurobust_bc_meta **meta_out);

#endif
