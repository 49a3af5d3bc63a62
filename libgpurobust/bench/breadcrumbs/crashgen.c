// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"
#include "crashgen.h"

#define MAX_NODES 4096
#define MAX_DEPTH 8

/* xorshift64*: reproducible from the seed, good enough for noise. */
static uint64_t next_random(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static unsigned int below(uint64_t *s, unsigned int n)
{
	return (unsigned int)(next_random(s) % n);
}

static bool chance(uint64_t *s, unsigned int pct)
{
	return below(s, 100) < pct;
}

/* A template node: a printf format with at most one %u or %06x. */
struct tnode {
	char format[48];
	uint32_t parent, depth;
	bool hex;
};

struct frame_template {
	struct tnode nodes[MAX_NODES];
	uint32_t count;
};

static const char *const pass_names[] = {
	"Shadow Cascade %u", "Depth Prepass", "GBuffer", "Decals", "SSAO", "Lighting",
	"Volumetric Fog", "Transparency", "Bloom", "Tonemap", "UI",
};
static const char *const child_names[] = {
	"Draw Mesh %u", "Draw Terrain Tile %u", "Dispatch Cull %u", "Draw Foliage %u",
	"Blur Pass %u", "Dispatch PSO 0x%06x", "Draw Particles %u", "Resolve %u",
};

static uint32_t add_tnode(struct frame_template *t, uint32_t parent, const char *format)
{
	struct tnode *n = &t->nodes[t->count];

	snprintf(n->format, sizeof(n->format), "%s", format);
	n->parent = parent;
	n->depth = parent == GPUROBUST_BC_NONE ? 0 : t->nodes[parent].depth + 1;
	n->hex = strstr(format, "%06x") != NULL;
	return t->count++;
}

/* Pre-order: a node's subtree follows it. Siblings get distinct names, so
 * that two causes never share a path once numbers are normalised: such
 * causes could not be told apart by any method. */
static void add_children(struct frame_template *t, uint64_t *rnd, uint32_t parent)
{
	enum { N_NAMES = sizeof(child_names) / sizeof(child_names[0]) };
	unsigned int order[N_NAMES], n = 2 + below(rnd, 5);

	for (unsigned int i = 0; i < N_NAMES; i++)
		order[i] = i;
	for (unsigned int i = N_NAMES; i > 1; i--) {
		unsigned int j = below(rnd, i), k = order[i - 1];

		order[i - 1] = order[j];
		order[j] = k;
	}
	for (unsigned int i = 0; i < n && t->count < MAX_NODES - 64; i++) {
		uint32_t c = add_tnode(t, parent, child_names[order[i]]);

		if (t->nodes[c].depth < 4 && chance(rnd, 30))
			add_children(t, rnd, c);
	}
}

static void make_template(struct frame_template *t, uint64_t *rnd)
{
	uint32_t root = add_tnode(t, GPUROBUST_BC_NONE, "Frame %u");

	for (size_t p = 0; p < sizeof(pass_names) / sizeof(pass_names[0]); p++)
		add_children(t, rnd, add_tnode(t, root, pass_names[p]));
}

static bool is_leaf(const struct frame_template *t, uint32_t i)
{
	return i + 1 >= t->count || t->nodes[i + 1].parent != i;
}

/* ---- one report ---------------------------------------------------------- */

struct builder {
	struct gpurobust_bc_report *report;
	struct gpurobust_bc_stream_report *stream;
	uint32_t capacity;
};

static int emit(struct builder *b, uint32_t parent, enum gpurobust_bc_state state, const char *name)
{
	struct gpurobust_bc_stream_report *s = b->stream;
	struct gpurobust_bc_node *n;

	if (s->node_count == b->capacity) {
		uint32_t cap = b->capacity ? b->capacity * 2 : 64;
		struct gpurobust_bc_node *nodes = realloc(s->nodes, cap * sizeof(*nodes));

		if (!nodes)
			return -ENOMEM;
		s->nodes = nodes;
		b->capacity = cap;
	}
	n = &s->nodes[s->node_count++];
	memset(n, 0, sizeof(*n));
	n->parent = parent;
	n->state = state;
	n->name = grb_bc_report_strdup(b->report, name);
	return n->name ? 0 : -ENOMEM;
}

static void start_stream(struct builder *b, uint32_t index, enum gpurobust_bc_queue queue,
			 const char *label)
{
	b->stream = &b->report->streams[index];
	b->stream->tag = index + 1;
	b->stream->queue = queue;
	b->stream->label = label;
	b->stream->valid = true;
	b->capacity = 0;
}

/* The hang path of a cause, root first. */
struct cause {
	uint32_t path[MAX_DEPTH];
	uint32_t depth;	/* nodes on the path */
};

/*
 * The stream's two GPU counters, as the decoder reads them from the marker
 * record: "in" is the push sequence of the furthest scope the command
 * processor started (pushes are numbered in pre-order), "out" the pop
 * sequence of the last scope that finished at end of pipe, which, since end
 * of pipe is in order, is the number of finished scopes.
 */
static void set_counters(struct gpurobust_bc_stream_report *s,
			 const enum gpurobust_bc_state *state, uint32_t count)
{
	s->marker_in = 0;
	s->marker_out = 0;
	for (uint32_t i = 0; i < count; i++) {
		if (state[i] != GPUROBUST_BC_NOT_STARTED)
			s->marker_in = i + 1;
		s->marker_out += state[i] == GPUROBUST_BC_FINISHED;
	}
}

static int gfx_stream(struct builder *b, const struct frame_template *t, const struct cause *c,
		      uint64_t *rnd, const struct crashgen_params *p)
{
	enum gpurobust_bc_state state[MAX_NODES];
	uint32_t map[MAX_NODES];	/* template index -> node index */
	uint32_t keep_depth = MAX_DEPTH, keep_count = MAX_NODES, dropped = 0;
	uint32_t overflow_parent = GPUROBUST_BC_NONE;
	bool on_path[MAX_NODES] = { false };
	char name[96];
	int ret;

	for (uint32_t d = 0; d < c->depth; d++)
		on_path[c->path[d]] = true;
	/* Finished before the path, in progress on it, not started after,
	 * except the run-ahead siblings right after each path node. */
	for (uint32_t i = 0; i < t->count; i++) {
		if (on_path[i])
			state[i] = GPUROBUST_BC_IN_PROGRESS;
		else if (i < c->path[c->depth - 1])
			state[i] = GPUROBUST_BC_FINISHED;
		else
			state[i] = GPUROBUST_BC_NOT_STARTED;
	}
	for (uint32_t d = 0; d < c->depth; d++) {
		unsigned int ahead = below(rnd, 3);
		uint32_t at = c->path[d];

		for (uint32_t i = at + 1; i < t->count && ahead; i++) {
			if (t->nodes[i].depth < t->nodes[at].depth)
				break;
			if (t->nodes[i].parent == t->nodes[at].parent) {
				state[i] = GPUROBUST_BC_IN_PROGRESS;
				ahead--;
			}
		}
	}
	set_counters(b->stream, state, t->count);
	/* A depth limit loses the deepest level of the frame, where the hang
	 * is; an overflow can cut the path anywhere below the root. Neither
	 * stops the GPU's counters, set above from the whole frame: a dropped
	 * scope keeps its writes (pool.c). */
	if (chance(rnd, p->truncated_pct))
		keep_depth = c->depth - 1;
	else if (chance(rnd, p->overflow_pct))
		keep_count = c->path[1 + below(rnd, c->depth - 1)];

	for (uint32_t i = 0; i < t->count; i++) {
		const struct tnode *tn = &t->nodes[i];
		uint32_t parent = tn->parent == GPUROBUST_BC_NONE ? GPUROBUST_BC_NONE : map[tn->parent];

		map[i] = GPUROBUST_BC_NONE;
		if (i >= keep_count || tn->depth >= keep_depth ||
		    (tn->parent != GPUROBUST_BC_NONE && parent == GPUROBUST_BC_NONE)) {
			if (!dropped++)
				overflow_parent = parent;
			continue;
		}
		if (tn->hex)
			snprintf(name, sizeof(name), tn->format, (unsigned int)next_random(rnd) & 0xffffff);
		else
			snprintf(name, sizeof(name), tn->format, 1 + below(rnd, 99999));
		map[i] = b->stream->node_count;
		ret = emit(b, parent, state[i], name);
		if (ret)
			return ret;
	}
	if (dropped < t->count && dropped) {
		snprintf(name, sizeof(name), "%u scopes dropped: stream overflow", dropped);
		b->stream->dropped = dropped;
		ret = emit(b, overflow_parent, GPUROBUST_BC_OVERFLOW, name);
		if (ret)
			return ret;
	}
	return grb_bc_stream_link_tree(b->stream);
}

static int parallel_stream(struct builder *b, uint64_t *rnd, enum gpurobust_bc_queue queue)
{
	static const char *const compute[] = {
		"Async Cull %u", "Async SSAO", "Async Particles %u", "Async Light Bins",
		"Async Skinning %u", "Async BVH Refit",
	};
	static const char *const sdma[] = { "Upload Texture %u", "Upload Buffer %u", "Readback %u" };
	const char *const *names = queue == GPUROBUST_BC_QUEUE_SDMA ? sdma : compute;
	unsigned int n_names = queue == GPUROBUST_BC_QUEUE_SDMA ? 3 : 6;
	unsigned int count = 1 + below(rnd, 4), active = below(rnd, count + 1);
	enum gpurobust_bc_state state[4];
	char name[64];
	int ret;

	for (unsigned int i = 0; i < count; i++) {
		enum gpurobust_bc_state st = i < active ? GPUROBUST_BC_FINISHED :
					     i == active ? GPUROBUST_BC_IN_PROGRESS :
							   GPUROBUST_BC_NOT_STARTED;

		state[i] = st;
		snprintf(name, sizeof(name), names[below(rnd, n_names)], below(rnd, 5000));
		ret = emit(b, GPUROBUST_BC_NONE, st, name);
		if (ret)
			return ret;
	}
	set_counters(b->stream, state, count);
	return grb_bc_stream_link_tree(b->stream);
}

static int make_report(const struct frame_template *t, const struct cause *c, uint64_t *rnd,
		       const struct crashgen_params *p, struct gpurobust_bc_report **out)
{
	bool parallel = chance(rnd, p->parallel_pct);
	struct builder b = { .report = grb_bc_report_alloc(parallel ? 3 : 1) };
	int ret;

	if (!b.report)
		return -ENOMEM;
	b.report->guilty_stream = chance(rnd, p->unknown_guilty_pct) ? -1 : 0;
	start_stream(&b, 0, GPUROBUST_BC_QUEUE_GFX, "frame");
	ret = gfx_stream(&b, t, c, rnd, p);
	if (!ret && parallel) {
		start_stream(&b, 1, GPUROBUST_BC_QUEUE_COMPUTE, "async");
		ret = parallel_stream(&b, rnd, GPUROBUST_BC_QUEUE_COMPUTE);
	}
	if (!ret && parallel) {
		start_stream(&b, 2, GPUROBUST_BC_QUEUE_SDMA, "copy");
		ret = parallel_stream(&b, rnd, GPUROBUST_BC_QUEUE_SDMA);
	}
	if (ret) {
		gpurobust_bc_report_free(b.report);
		return ret;
	}
	*out = b.report;
	return 0;
}

static void pick_cause(const struct frame_template *t, uint64_t *rnd, struct cause *c,
		       const struct cause *taken, unsigned int n_taken)
{
	for (;;) {
		uint32_t leaf = 1 + below(rnd, t->count - 1);
		bool dup = false;

		if (!is_leaf(t, leaf) || t->nodes[leaf].depth < 2)
			continue;
		for (unsigned int i = 0; i < n_taken; i++)
			dup |= taken[i].path[taken[i].depth - 1] == leaf;
		if (dup)
			continue;
		c->depth = t->nodes[leaf].depth + 1;
		for (uint32_t at = leaf, d = c->depth; at != GPUROBUST_BC_NONE; at = t->nodes[at].parent)
			c->path[--d] = at;
		return;
	}
}

int crashgen_make(const struct crashgen_params *p, struct crash_set *set)
{
	struct frame_template *t = calloc(1, sizeof(*t));
	struct cause *causes = calloc(p->causes + 1, sizeof(*causes));
	uint64_t rnd = p->seed * 0x9e3779b97f4a7c15ull + 1;
	size_t n = (size_t)p->causes * p->reports_per_cause;
	int ret = 0;

	memset(set, 0, sizeof(*set));
	set->reports = calloc(n + 1, sizeof(*set->reports));
	set->labels = calloc(n + 1, sizeof(*set->labels));
	if (!t || !causes || !set->reports || !set->labels) {
		ret = -ENOMEM;
		goto out;
	}
	make_template(t, &rnd);
	for (unsigned int c = 0; c < p->causes; c++)
		pick_cause(t, &rnd, &causes[c], causes, c);
	for (size_t i = 0; i < n && !ret; i++) {
		set->labels[i] = (uint32_t)(i / p->reports_per_cause);
		ret = make_report(t, &causes[set->labels[i]], &rnd, p, &set->reports[i]);
		if (!ret)
			set->count++;
	}
	/* Shuffle, so that no method profits from arrival order. */
	for (size_t i = set->count; i > 1; i--) {
		size_t j = below(&rnd, (unsigned int)i);
		struct gpurobust_bc_report *r = set->reports[i - 1];
		uint32_t l = set->labels[i - 1];

		set->reports[i - 1] = set->reports[j];
		set->labels[i - 1] = set->labels[j];
		set->reports[j] = r;
		set->labels[j] = l;
	}
out:
	free(t);
	free(causes);
	if (ret)
		crashgen_free(set);
	return ret;
}

void crashgen_free(struct crash_set *set)
{
	for (size_t i = 0; i < set->count; i++)
		gpurobust_bc_report_free(set->reports[i]);
	free(set->reports);
	free(set->labels);
	memset(set, 0, sizeof(*set));
}
