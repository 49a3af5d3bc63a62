// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The CPU side of breadcrumbs: a pool of 16-byte marker records (one per
 * stream, not per scope), interned names, and the push/pop hot path.
 *
 * Why one record per stream: the GPU only needs to say how far it got, and
 * two monotonic counters (last push reached, last pop finished) say that for
 * every scope at once, nesting included, because the CPU remembers each
 * scope's push and pop sequence numbers. Marker memory per scope is thus
 * 16 bytes divided by the stream's scope count, there is no fixed per-stack
 * array to overflow, and a 64 KiB dumpable mapping holds 4095 streams.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"

#define BC_INITIAL_SCOPES 64u

/* Only needs to tell apart pools that could be confused (two pools of one
 * process, or two runs of one game): the pool's address varies with ASLR and
 * the counter with creation order. No system call: this is the pure core. */
static uint32_t fresh_pool_id(const void *pool)
{
	static uint32_t created;
	uint64_t mix = (uint64_t)(uintptr_t)pool ^
		       (uint64_t)__atomic_add_fetch(&created, 1, __ATOMIC_RELAXED) << 32;
	uint32_t id;

	mix *= 0x9e3779b97f4a7c15ull;
	id = (uint32_t)(mix >> 32);
	return id ? id : 1;
}

/*
 * The mirror (B3) keeps the last `slots` scopes of each stream, a ring, and
 * not the first ones: a hang report needs the scopes around the point where
 * the GPU stopped, which are the newest ones, and a ring needs no decision
 * about when to stop mirroring. The ancestors of a deep scope may fall out of
 * a small ring; the decoder then shows them as one "not mirrored" node, and
 * the "in" counter still says how far the GPU got. Fixed slices per record
 * keep the hot path free of locks and atomics across streams.
 */
static size_t slice_size(uint32_t slots)
{
	return BC_SLICE_HEADER_SIZE + (size_t)slots * BC_SLOT_SIZE;
}

static int mirror_layout(const struct gpurobust_bc_pool_config *config, size_t size,
			 uint32_t *slots_out, uint32_t *name_bytes_out, uint64_t *records_out)
{
	uint32_t slots = 1, name_bytes = config->mirror_name_bytes ?
					 config->mirror_name_bytes : BC_MIRROR_DEFAULT_NAME_BYTES;
	size_t fixed;

	if (config->mirror_scopes > BC_MIRROR_MAX_SLOTS || name_bytes > UINT32_MAX - 3)
		return -EINVAL;
	while (slots < config->mirror_scopes)
		slots *= 2;
	name_bytes = (name_bytes + 3) & ~3u;
	fixed = BC_HEADER_SIZE + BC_MIRROR_HEADER_SIZE + (size_t)name_bytes;
	if (size < fixed + BC_RECORD_SIZE + slice_size(slots))
		return -EINVAL;
	*slots_out = slots;
	*name_bytes_out = name_bytes;
	*records_out = (size - fixed) / (BC_RECORD_SIZE + slice_size(slots));
	return 0;
}

static void mirror_init(struct gpurobust_bc_pool *pool, uint32_t slots, uint32_t name_bytes)
{
	pool->mirror = pool->map + BC_HEADER_SIZE + (size_t)pool->record_count * BC_RECORD_SIZE;
	pool->mirror_slots = slots;
	pool->mirror_name_bytes = name_bytes;
	memset(pool->mirror, 0, BC_MIRROR_HEADER_SIZE + (size_t)name_bytes +
	       (size_t)pool->record_count * slice_size(slots));
	bc_write_le32(pool->mirror + 0, BC_MIRROR_MAGIC);
	bc_write_le32(pool->mirror + 4, slots);
	bc_write_le32(pool->mirror + 8, name_bytes);
}

/* Names are appended in id order; once one does not fit, none after it is
 * mirrored either, so that a mirrored name's index stays its id. The counts
 * live in the pool and are only written to the map: nothing is read back
 * from memory a GPU could scribble. */
static void mirror_name(struct gpurobust_bc_pool *pool, uint32_t id, const char *name)
{
	uint8_t *h = pool->mirror;
	size_t bytes = strlen(name) + 1;

	if (pool->mirror_names != id ||
	    bytes > pool->mirror_name_bytes - pool->mirror_name_used) {
		bc_write_le32(h + 20, ++pool->mirror_names_lost);
		return;
	}
	memcpy(h + BC_MIRROR_HEADER_SIZE + pool->mirror_name_used, name, bytes);
	pool->mirror_name_used += (uint32_t)bytes;
	bc_write_le32(h + 16, pool->mirror_name_used);
	bc_write_le32(h + 12, ++pool->mirror_names);
}

static uint8_t *mirror_slice(struct gpurobust_bc_pool *pool, uint32_t record)
{
	return pool->mirror + BC_MIRROR_HEADER_SIZE + pool->mirror_name_bytes +
	       (size_t)record * slice_size(pool->mirror_slots);
}

GPUROBUST_EXPORT int gpurobust_bc_pool_create(const struct gpurobust_bc_pool_config *config,
					      struct gpurobust_bc_pool **pool_out)
{
	struct gpurobust_bc_pool *pool;
	size_t size = config && config->size ? config->size : GPUROBUST_BC_DEFAULT_POOL_SIZE;
	uint32_t slots = 0, name_bytes = 0;
	uint64_t records;
	int ret;

	if (!pool_out)
		return -EINVAL;
	*pool_out = NULL;
	if (size < BC_HEADER_SIZE + BC_RECORD_SIZE)
		return -EINVAL;
	if (config && (config->gpu_va & 3))
		return -EINVAL;
	records = (size - BC_HEADER_SIZE) / BC_RECORD_SIZE;
	if (config && config->mirror_scopes) {
		ret = mirror_layout(config, size, &slots, &name_bytes, &records);
		if (ret)
			return ret;
	}
	if (records > UINT32_MAX - 1)
		records = UINT32_MAX - 1;

	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return -ENOMEM;
	pool->size = size;
	pool->record_count = (uint32_t)records;
	pool->max_scopes = config && config->max_scopes_per_stream ?
			   config->max_scopes_per_stream : GPUROBUST_BC_DEFAULT_MAX_SCOPES;
	if (pool->max_scopes > UINT32_MAX - 1)
		pool->max_scopes = UINT32_MAX - 1;
	pool->gpu_va = config ? config->gpu_va : 0;
	if (config && config->cpu_map) {
		pool->map = config->cpu_map;
	} else {
		pool->map = calloc(1, size);
		pool->owns_map = true;
	}
	pool->free_records = malloc(sizeof(uint32_t) * pool->record_count);
	if (!pool->map || !pool->free_records ||
	    pthread_mutex_init(&pool->lock, NULL)) {
		if (pool->owns_map)
			free(pool->map);
		free(pool->free_records);
		free(pool);
		return -ENOMEM;
	}
	/* Hand out low records first, so a capture of only the first 64 KiB of a
	 * larger pool still covers the streams of a small application. */
	for (uint32_t i = 0; i < pool->record_count; i++)
		pool->free_records[i] = pool->record_count - 1 - i;
	pool->free_count = pool->record_count;
	pool->pool_id = fresh_pool_id(pool);
	pool->next_tag = 1;

	memset(pool->map, 0, BC_HEADER_SIZE + (size_t)pool->record_count * BC_RECORD_SIZE);
	bc_write_le32(pool->map + 0, BC_MAGIC);
	bc_write_le32(pool->map + 4, BC_VERSION | BC_RECORD_SIZE << 16);
	bc_write_le32(pool->map + 8, pool->record_count);
	bc_write_le32(pool->map + 12, pool->pool_id);
	if (slots)
		mirror_init(pool, slots, name_bytes);
	*pool_out = pool;
	return 0;
}

GPUROBUST_EXPORT void gpurobust_bc_pool_destroy(struct gpurobust_bc_pool *pool)
{
	if (!pool)
		return;
	while (pool->streams)
		gpurobust_bc_stream_destroy(pool->streams);
	for (uint32_t i = 0; i < pool->intern.count; i++)
		free(pool->intern.names[i]);
	free(pool->intern.names);
	free(pool->intern.buckets);
	free(pool->free_records);
	if (pool->owns_map)
		free(pool->map);
	pthread_mutex_destroy(&pool->lock);
	free(pool);
}

/* FNV-1a: the table is small and names are short; no need for more. */
static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (uint8_t)*s++) * 16777619u;
	return h;
}

static int intern_grow(struct bc_intern *t)
{
	uint32_t n = t->bucket_count ? t->bucket_count * 2 : 64;
	uint32_t *buckets = calloc(n, sizeof(*buckets));

	if (!buckets)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->count; i++) {
		uint32_t b = name_hash(t->names[i]) & (n - 1);

		while (buckets[b])
			b = (b + 1) & (n - 1);
		buckets[b] = i + 1;
	}
	free(t->buckets);
	t->buckets = buckets;
	t->bucket_count = n;
	return 0;
}

/* Returns 1 when the name is new, 0 when it was interned before. */
static int intern_locked(struct bc_intern *t, const char *name, uint32_t *id_out)
{
	uint32_t b;
	char *copy;

	if (t->count * 2 >= t->bucket_count && intern_grow(t))
		return -ENOMEM;
	for (b = name_hash(name) & (t->bucket_count - 1); t->buckets[b];
	     b = (b + 1) & (t->bucket_count - 1)) {
		if (!strcmp(t->names[t->buckets[b] - 1], name)) {
			*id_out = t->buckets[b] - 1;
			return 0;
		}
	}
	if (t->count == t->capacity) {
		uint32_t cap = t->capacity ? t->capacity * 2 : 64;
		char **names = realloc(t->names, sizeof(*names) * cap);

		if (!names)
			return -ENOMEM;
		t->names = names;
		t->capacity = cap;
	}
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	t->names[t->count] = copy;
	t->buckets[b] = t->count + 1;
	*id_out = t->count++;
	return 1;
}

/* Interns under the pool lock and mirrors a new name. */
static int pool_intern_locked(struct gpurobust_bc_pool *pool, const char *name, uint32_t *id_out)
{
	int ret = intern_locked(&pool->intern, name, id_out);

	if (ret == 1 && pool->mirror)
		mirror_name(pool, *id_out, name);
	return ret < 0 ? ret : 0;
}

GPUROBUST_EXPORT int gpurobust_bc_intern(struct gpurobust_bc_pool *pool, const char *name,
					 uint32_t *id_out)
{
	int ret;

	if (!pool || !name || !id_out)
		return -EINVAL;
	pthread_mutex_lock(&pool->lock);
	ret = pool_intern_locked(pool, name, id_out);
	pthread_mutex_unlock(&pool->lock);
	return ret;
}

static uint8_t *record_ptr(struct gpurobust_bc_pool *pool, uint32_t record)
{
	return pool->map + BC_HEADER_SIZE + (size_t)record * BC_RECORD_SIZE;
}

GPUROBUST_EXPORT int gpurobust_bc_stream_create(struct gpurobust_bc_pool *pool,
						enum gpurobust_bc_queue queue,
						const char *label,
						struct gpurobust_bc_stream **stream_out)
{
	struct gpurobust_bc_stream *s;
	uint32_t label_id = 0;
	uint64_t record_va;

	if (!stream_out)
		return -EINVAL;
	*stream_out = NULL;
	if (!pool || queue > GPUROBUST_BC_QUEUE_SDMA)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->label = strdup(label ? label : "");
	if (!s->label) {
		free(s);
		return -ENOMEM;
	}
	pthread_mutex_lock(&pool->lock);
	if (!pool->free_count) {
		pthread_mutex_unlock(&pool->lock);
		free(s->label);
		free(s);
		return -ENOSPC;
	}
	if (pool->mirror && pool_intern_locked(pool, s->label, &label_id)) {
		pthread_mutex_unlock(&pool->lock);
		free(s->label);
		free(s);
		return -ENOMEM;
	}
	s->record = pool->free_records[--pool->free_count];
	s->next = pool->streams;
	if (pool->streams)
		pool->streams->prev = s;
	pool->streams = s;
	pthread_mutex_unlock(&pool->lock);

	record_va = pool->gpu_va + BC_HEADER_SIZE + (uint64_t)s->record * BC_RECORD_SIZE;
	s->in_va = record_va + BC_RECORD_IN;
	s->out_va = record_va + BC_RECORD_OUT;
	s->queue = queue;
	s->pool = pool;
	s->limit = pool->max_scopes;
	s->current = GPUROBUST_BC_NONE;
	s->overflow_parent = GPUROBUST_BC_NONE;
	s->mirror_floor = INT64_MAX;
	if (pool->mirror) {
		s->mirror = mirror_slice(pool, s->record);
		s->mirror_slots = s->mirror + BC_SLICE_HEADER_SIZE;
		s->mirror_mask = pool->mirror_slots - 1;
		bc_write_le32(s->mirror + BC_SLICE_QUEUE, queue);
		bc_write_le32(s->mirror + BC_SLICE_LABEL, label_id);
	}
	*stream_out = s;
	return 0;
}

GPUROBUST_EXPORT void gpurobust_bc_stream_destroy(struct gpurobust_bc_stream *s)
{
	struct gpurobust_bc_pool *pool;

	if (!s)
		return;
	pool = s->pool;
	pthread_mutex_lock(&pool->lock);
	memset(record_ptr(pool, s->record), 0, BC_RECORD_SIZE);
	if (s->mirror)
		memset(s->mirror, 0, BC_SLICE_HEADER_SIZE);
	pool->free_records[pool->free_count++] = s->record;
	if (s->prev)
		s->prev->next = s->next;
	else
		pool->streams = s->next;
	if (s->next)
		s->next->prev = s->prev;
	pthread_mutex_unlock(&pool->lock);
	free(s->links);
	free(s->pop_seqs);
	free(s->label);
	free(s);
}

GPUROBUST_EXPORT void gpurobust_bc_stream_markers(const struct gpurobust_bc_stream *s,
						   uint64_t *in_va, uint64_t *out_va)
{
	*in_va = s->in_va;
	*out_va = s->out_va;
}

/* The driver's command buffer is broken now, so a report of this recording
 * would misplace its scopes: say why. Only the first failure is kept. */
GPUROBUST_EXPORT void gpurobust_bc_stream_write_failed(struct gpurobust_bc_stream *s, int err)
{
	if (s->write_error)
		return;
	s->write_error = err < 0 ? err : -EIO;
	if (s->mirror)
		bc_write_le32(s->mirror + BC_SLICE_WRITE_ERROR, (uint32_t)s->write_error);
}

GPUROBUST_EXPORT void gpurobust_bc_stream_begin(struct gpurobust_bc_stream *s)
{
	struct gpurobust_bc_pool *pool = s->pool;
	uint8_t *rec = record_ptr(pool, s->record);

	pthread_mutex_lock(&pool->lock);
	s->tag = pool->next_tag++;
	if (!pool->next_tag)
		pool->next_tag = 1;
	pthread_mutex_unlock(&pool->lock);

	s->count = 0;
	s->ready = s->capacity;
	s->current = GPUROBUST_BC_NONE;
	s->pop_count = 0;
	s->overflow_depth = 0;
	s->dropped = 0;
	s->overflow_parent = GPUROBUST_BC_NONE;
	s->unbalanced_pops = 0;
	s->write_error = 0;
	bc_write_le32(rec + BC_RECORD_TAG, s->tag);
	bc_write_le32(rec + BC_RECORD_IN, 0);
	bc_write_le32(rec + BC_RECORD_OUT, 0);
	if (s->mirror) {
		s->mirror_floor = 0;
		bc_write_le32(s->mirror + BC_SLICE_TAG, s->tag);
		bc_write_le32(s->mirror + BC_SLICE_COUNT, 0);
		bc_write_le32(s->mirror + BC_SLICE_DROPPED, 0);
		bc_write_le32(s->mirror + BC_SLICE_OVERFLOW_PARENT, 0);
		bc_write_le32(s->mirror + BC_SLICE_WRITE_ERROR, 0);
	}
}

static bool stream_grow(struct gpurobust_bc_stream *s)
{
	uint32_t cap;
	struct bc_link *links;
	uint32_t *pop_seqs;

	if (s->capacity >= s->limit)
		return false;
	cap = s->capacity ? s->capacity * 2 : BC_INITIAL_SCOPES;
	if (cap > s->limit || cap < s->capacity)
		cap = s->limit;
	links = realloc(s->links, sizeof(*links) * cap);
	if (!links)
		return false;
	s->links = links;
	pop_seqs = realloc(s->pop_seqs, sizeof(*pop_seqs) * cap);
	if (!pop_seqs)
		return false;
	s->pop_seqs = pop_seqs;
	s->capacity = cap;
	s->ready = cap;
	return true;
}

/* The mirror's half of a push, out of line and jumped to last, so that a
 * stream without a mirror pays one compare for it. Returns seq. */
static __attribute__((noinline)) uint32_t mirror_push(struct gpurobust_bc_stream *s,
						      size_t index, uint32_t name_id,
						      uint32_t parent, uint32_t seq)
{
	uint8_t *slot = s->mirror_slots + (index & s->mirror_mask) * BC_SLOT_SIZE;

	s->mirror_floor = (int64_t)index - s->mirror_mask;
	bc_write_le32(slot + BC_SLOT_PUSH, seq);
	bc_write_le32(slot + BC_SLOT_NAME, name_id);
	/* The parent, and a pop sequence of 0 (open), in one store. */
	bc_write_le64(slot + BC_SLOT_PARENT, (uint64_t)parent + 1);
	bc_write_le32(s->mirror + BC_SLICE_COUNT, seq);
	return seq;
}

static inline uint32_t record_push(struct gpurobust_bc_stream *s, size_t index, uint32_t name_id)
{
	struct bc_link *link = &s->links[index];
	uint32_t parent = s->current;
	uint32_t seq = (uint32_t)index + 1;

	/* Two plain stores: GCC's SLP vectorizer would pack them through a
	 * vector register, three instructions more. */
	__atomic_store_n(&link->name, name_id, __ATOMIC_RELAXED);
	__atomic_store_n(&link->parent, parent, __ATOMIC_RELAXED);
	s->current = (uint32_t)index;
	s->count = seq;
	if (__builtin_expect(s->mirror_slots != NULL, 0))
		return mirror_push(s, index, name_id, parent, seq);
	return seq;
}

/* Out of line, so that the fast path needs no stack frame: growing the scope
 * arrays (only until a stream reaches its steady size) and overflow.
 *
 * A dropped scope keeps its two GPU writes, with the sequence numbers it
 * would have had: the overflow is in the CPU's bookkeeping, not in marker
 * memory, and the counters then still say how far past the last recorded
 * scope the GPU got and how much of it finished. That is what tells two
 * hangs apart once a recording was cut. Once a stream has dropped a scope it
 * records no more, so that push sequence numbers stay in push order. */
static __attribute__((noinline)) uint32_t push_slow(struct gpurobust_bc_stream *s,
						    uint32_t name_id)
{
	if (!s->dropped && stream_grow(s))
		return record_push(s, s->count, name_id);
	if (!s->dropped)
		s->overflow_parent = s->current;
	if (!s->overflow_depth) {
		s->recorded_current = s->current;
		s->current = BC_CURRENT_DROPPED;
	}
	s->dropped++;
	if (s->mirror) {
		bc_write_le32(s->mirror + BC_SLICE_DROPPED, s->dropped);
		bc_write_le32(s->mirror + BC_SLICE_OVERFLOW_PARENT, s->overflow_parent + 1);
	}
	s->overflow_depth++;
	s->ready = 0;
	return s->count + s->dropped;
}

GPUROBUST_EXPORT uint32_t gpurobust_bc_push(struct gpurobust_bc_stream *s, uint32_t name_id)
{
	size_t index = s->count;

	if (__builtin_expect(index >= s->ready, 0))
		return push_slow(s, name_id);
	return record_push(s, index, name_id);
}

static __attribute__((noinline)) uint32_t pop_slow(struct gpurobust_bc_stream *s)
{
	if (!s->overflow_depth) {
		s->unbalanced_pops++;
		return 0;
	}
	if (!--s->overflow_depth)
		s->current = s->recorded_current;
	return ++s->pop_count;
}

GPUROBUST_EXPORT uint32_t gpurobust_bc_pop(struct gpurobust_bc_stream *s)
{
	size_t index = s->current;
	uint32_t seq;

	if (__builtin_expect(index >= BC_CURRENT_DROPPED, 0))
		return pop_slow(s);
	seq = ++s->pop_count;
	s->pop_seqs[index] = seq;
	s->current = s->links[index].parent;
	/* Only while the scope is still in the ring: its slot may hold a newer
	 * scope by now. */
	if (__builtin_expect((int64_t)index >= s->mirror_floor, 0))
		bc_write_le32(s->mirror_slots + BC_SLOT_POP + (index & s->mirror_mask) * BC_SLOT_SIZE,
			      seq);
	return seq;
}

/* The innermost open scope that was recorded, or NONE. */
static uint32_t innermost_recorded(const struct gpurobust_bc_stream *s)
{
	return s->overflow_depth ? s->recorded_current : s->current;
}

GPUROBUST_EXPORT void gpurobust_bc_stream_stats(const struct gpurobust_bc_stream *s,
						struct gpurobust_bc_stream_stats *stats)
{
	uint32_t depth = s->overflow_depth;

	for (uint32_t i = innermost_recorded(s); i != GPUROBUST_BC_NONE; i = s->links[i].parent)
		depth++;
	stats->scopes = s->count;
	stats->depth = depth;
	stats->dropped = s->dropped;
	stats->unbalanced_pops = s->unbalanced_pops;
	stats->write_error = s->write_error;
}

void grb_bc_meta_stream_fini(struct bc_meta_stream *stream)
{
	free(stream->label);
	free(stream->scopes);
}

GPUROBUST_EXPORT void gpurobust_bc_meta_free(struct gpurobust_bc_meta *meta)
{
	if (!meta)
		return;
	for (uint32_t i = 0; i < meta->name_count; i++)
		free(meta->names[i]);
	free(meta->names);
	for (uint32_t i = 0; i < meta->stream_count; i++)
		grb_bc_meta_stream_fini(&meta->streams[i]);
	free(meta->streams);
	free(meta);
}

static int meta_copy_stream(struct bc_meta_stream *dst, const struct gpurobust_bc_stream *s)
{
	dst->record = s->record;
	dst->tag = s->tag;
	dst->queue = s->queue;
	dst->scope_count = s->count;
	dst->dropped = s->dropped;
	dst->overflow_parent = s->overflow_parent;
	if (s->write_error)
		dst->broken = BC_WRITE_FAILED_REASON;
	dst->label = strdup(s->label);
	dst->scopes = malloc(sizeof(*dst->scopes) * (s->count ? s->count : 1));
	if (!dst->label || !dst->scopes)
		return -ENOMEM;
	for (uint32_t i = 0; i < s->count; i++) {
		dst->scopes[i].name = s->links[i].name;
		dst->scopes[i].parent = s->links[i].parent;
		dst->scopes[i].pop_seq = s->pop_seqs[i];
	}
	/* Push leaves a scope's pop sequence alone, so an open scope may hold
	 * one from an earlier recording or none at all. Every scope off the
	 * open chain was popped in this recording, as pops are LIFO. */
	for (uint32_t i = innermost_recorded(s); i != GPUROBUST_BC_NONE; i = s->links[i].parent)
		dst->scopes[i].pop_seq = 0;
	return 0;
}

GPUROBUST_EXPORT int gpurobust_bc_pool_meta(struct gpurobust_bc_pool *pool,
					    struct gpurobust_bc_meta **meta_out)
{
	struct gpurobust_bc_meta *meta;
	const struct gpurobust_bc_stream *s;
	int ret = -ENOMEM;
	uint32_t n = 0;

	if (!pool || !meta_out)
		return -EINVAL;
	*meta_out = NULL;
	meta = calloc(1, sizeof(*meta));
	if (!meta)
		return -ENOMEM;
	pthread_mutex_lock(&pool->lock);
	meta->pool_id = pool->pool_id;
	meta->record_count = pool->record_count;
	for (s = pool->streams; s; s = s->next)
		if (s->tag)
			n++;
	meta->names = calloc(pool->intern.count ? pool->intern.count : 1, sizeof(char *));
	meta->streams = calloc(n ? n : 1, sizeof(*meta->streams));
	if (!meta->names || !meta->streams)
		goto out;
	for (; meta->name_count < pool->intern.count; meta->name_count++) {
		meta->names[meta->name_count] = strdup(pool->intern.names[meta->name_count]);
		if (!meta->names[meta->name_count])
			goto out;
	}
	/* The list is newest first; report streams in creation order. */
	for (s = pool->streams; s && s->next; s = s->next)
		;
	for (; s; s = s->prev) {
		if (!s->tag)
			continue;
		ret = meta_copy_stream(&meta->streams[meta->stream_count++], s);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	pthread_mutex_unlock(&pool->lock);
	if (ret)
		gpurobust_bc_meta_free(meta);
	else
		*meta_out = meta;
	return ret;
}

GPUROBUST_EXPORT int gpurobust_bc_pool_read(struct gpurobust_bc_pool *pool,
					    struct gpurobust_bc_report **report_out)
{
	struct gpurobust_bc_meta *meta;
	int ret;

	if (!report_out)
		return -EINVAL;
	*report_out = NULL;
	ret = gpurobust_bc_pool_meta(pool, &meta);
	if (ret)
		return ret;
	ret = gpurobust_bc_decode(pool->map, BC_HEADER_SIZE +
				  (size_t)pool->record_count * BC_RECORD_SIZE, meta, report_out);
	gpurobust_bc_meta_free(meta);
	return ret;
}
