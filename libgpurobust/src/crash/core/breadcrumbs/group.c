// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Grouping many reports into root causes.
 *
 * Baseline: one cluster per Unreal signature.
 *
 * Ours, in two passes:
 *   1. Reports whose guilty stream is complete (no overflow, valid record)
 *      cluster on their path key: the normalised oldest active path on the
 *      guilty queue. Parallel work on other queues, how far the command
 *      processor ran ahead, and the numbers in names do not enter the key.
 *   2. A truncated report (its stream overflowed or its record is invalid)
 *      only knows part of its tree: a prefix of the push order, or the levels
 *      above some depth. What it does know must still agree with the hang it
 *      comes from, so it is matched as a cut of the complete reports rather
 *      than compared with them:
 *        - a candidate cluster's key extends the truncated active path;
 *        - every scope the truncated report recorded is at the same place in
 *          the candidate's tree (same chain of normalised names), and agrees
 *          on whether it finished, is on the hang path, or had not finished;
 *          the overflow and invalid markers are an unknown tail, and say
 *          nothing either way;
 *        - the report joins the one candidate that agrees. When several
 *          agree, the names the cut lost told them apart (a depth cut above
 *          two sibling causes, an overflow before two later causes), but the
 *          GPU's counters did not stop at the cut: the out counter says how
 *          many scopes finished before the hang, which places the hang in
 *          the frame. The report joins the one candidate whose own reports'
 *          out counters, within their spread, match it;
 *        - else the other queues decide, only when they clearly prefer one,
 *          and else the report stays on its own. Guessing would merge two
 *          root causes, keeping it apart only leaves one report unplaced.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"
#include "crash/core/breadcrumbs/signature-internal.h"
#include "gpurobust/breadcrumbs-signature.h"

/* What a recorded scope says about the hang. */
enum place_class {
	PLACE_UNKNOWN,		/* an invalid record: no evidence */
	PLACE_FINISHED,		/* ran before the hang */
	PLACE_HANG_PATH,	/* on the oldest active path */
	PLACE_OPEN,		/* not finished and not on the path: after the hang */
};

/* A scope of the guilty stream: where it sits in the tree (a hash of the
 * normalised names from the root, each with its rank among same-named
 * siblings) and what it says. */
struct place {
	uint64_t hash;
	enum place_class what;
};

/* One scope kept by the baseline filter on a stream other than the guilty
 * one, normalised and hashed with its queue, depth and state. */
struct evidence {
	uint64_t hash;
};

struct item {
	struct bc_text key;
	bool truncated;
	bool counted;			/* finished is from a valid record */
	uint32_t finished;		/* the guilty stream's out counter */
	struct place *places;		/* sorted by hash */
	size_t place_count;
	struct evidence *evidence;	/* sorted, unique */
	size_t evidence_count;
};

static int cmp_u64(uint64_t x, uint64_t y)
{
	return x < y ? -1 : x > y;
}

static int cmp_place(const void *a, const void *b)
{
	return cmp_u64(((const struct place *)a)->hash, ((const struct place *)b)->hash);
}

static int cmp_evidence(const void *a, const void *b)
{
	return cmp_u64(((const struct evidence *)a)->hash, ((const struct evidence *)b)->hash);
}

static uint64_t name_hash(const char *name, uint64_t seed)
{
	char buf[512];

	grb_bc_normalize_name(name, buf, sizeof(buf));
	return XXH64(buf, strlen(buf), seed);
}

/* How many earlier siblings share a name hash: "Draw x" twice under one pass
 * are two places. An open-addressing count table over name hashes, which
 * already include the parent's place. */
struct rank_table {
	uint64_t *keys;
	uint32_t *counts;
	size_t mask;
};

static uint32_t next_rank(struct rank_table *t, uint64_t key)
{
	size_t b = (size_t)key & t->mask;

	while (t->counts[b] && t->keys[b] != key)
		b = (b + 1) & t->mask;
	t->keys[b] = key;
	return t->counts[b]++;
}

static enum place_class place_class(const struct gpurobust_bc_node *node, bool on_path)
{
	if (on_path)
		return PLACE_HANG_PATH;
	switch (node->state) {
	case GPUROBUST_BC_FINISHED:
		return PLACE_FINISHED;
	case GPUROBUST_BC_NOT_STARTED:
	case GPUROBUST_BC_IN_PROGRESS:	/* run-ahead past the hang */
		return PLACE_OPEN;
	default:
		return PLACE_UNKNOWN;
	}
}

static int collect_places(const struct gpurobust_bc_stream_report *s, struct item *it)
{
	size_t n = s->node_count, buckets = 16;
	uint64_t *place_of = malloc(sizeof(*place_of) * (n + 1));
	bool *on_path = calloc(n + 1, sizeof(*on_path));
	struct rank_table ranks = { 0 };
	int ret = -ENOMEM;

	while (buckets < 2 * n)
		buckets *= 2;
	ranks.keys = malloc(sizeof(*ranks.keys) * buckets);
	ranks.counts = calloc(buckets, sizeof(*ranks.counts));
	ranks.mask = buckets - 1;
	it->places = malloc(sizeof(*it->places) * (n + 1));
	if (!place_of || !on_path || !ranks.keys || !ranks.counts || !it->places)
		goto out;
	for (uint32_t at = grb_bc_oldest_active_leaf(s); at != GPUROBUST_BC_NONE; at = s->nodes[at].parent)
		on_path[at] = true;
	/* Parents precede their children, so a parent's place is known. */
	for (uint32_t i = 0; i < n; i++) {
		const struct gpurobust_bc_node *node = &s->nodes[i];
		uint64_t parent = node->parent < i ? place_of[node->parent] : 0;
		uint64_t named = name_hash(node->name, parent);
		uint32_t rank = next_rank(&ranks, named);

		place_of[i] = XXH64(&rank, sizeof(rank), named);
		/* The overflow marker stands for scopes nobody saw. */
		if (node->state == GPUROBUST_BC_OVERFLOW)
			continue;
		it->places[it->place_count].hash = place_of[i];
		it->places[it->place_count++].what = place_class(node, on_path[i]);
	}
	qsort(it->places, it->place_count, sizeof(*it->places), cmp_place);
	ret = 0;
out:
	free(place_of);
	free(on_path);
	free(ranks.keys);
	free(ranks.counts);
	return ret;
}

static int collect_evidence(const struct gpurobust_bc_report *report, int guilty, struct item *it)
{
	size_t total = 0, n = 0;
	char buf[512];

	for (uint32_t i = 0; i < report->stream_count; i++)
		total += report->streams[i].node_count;
	it->evidence = malloc(sizeof(*it->evidence) * (total + 1));
	if (!it->evidence)
		return -ENOMEM;
	for (uint32_t i = 0; i < report->stream_count; i++) {
		const struct gpurobust_bc_stream_report *s = &report->streams[i];
		bool *keep;

		if ((int)i == guilty || !s->valid || !s->node_count)
			continue;
		keep = calloc(s->node_count + 1, sizeof(*keep));
		if (!keep)
			return -ENOMEM;
		grb_bc_unreal_keep(s, 0, keep);
		for (uint32_t k = 0; k < s->node_count; k++) {
			const struct gpurobust_bc_node *node = &s->nodes[k];
			size_t len;

			if (!keep[k])
				continue;
			if (node->state == GPUROBUST_BC_IN_PROGRESS && node->first_child != GPUROBUST_BC_NONE)
				grb_bc_unreal_keep(s, node->first_child, keep);
			len = (size_t)snprintf(buf, sizeof(buf), "%u|%u|%u|", s->queue, node->depth,
					       node->state);
			if (len < sizeof(buf))
				grb_bc_normalize_name(node->name, buf + len, sizeof(buf) - len);
			it->evidence[n++].hash = XXH64(buf, strlen(buf), 0);
		}
		free(keep);
	}
	qsort(it->evidence, n, sizeof(*it->evidence), cmp_evidence);
	it->evidence_count = 0;
	for (size_t k = 0; k < n; k++)
		if (!it->evidence_count ||
		    it->evidence[it->evidence_count - 1].hash != it->evidence[k].hash)
			it->evidence[it->evidence_count++] = it->evidence[k];
	return 0;
}

/*
 * Does a truncated report agree with a complete one? Each of its places must
 * exist in the complete tree and say the same thing there; it may know less
 * (a cut), never something else. Returns the share of its places that agree.
 */
static double agreement(const struct item *cut, const struct item *complete)
{
	size_t agree = 0, known = 0, j = 0;

	for (size_t i = 0; i < cut->place_count; i++) {
		const struct place *p = &cut->places[i];

		if (p->what == PLACE_UNKNOWN)
			continue;
		known++;
		while (j < complete->place_count && complete->places[j].hash < p->hash)
			j++;
		if (j < complete->place_count && complete->places[j].hash == p->hash &&
		    (complete->places[j].what == p->what ||
		     complete->places[j].what == PLACE_UNKNOWN))
			agree++;
	}
	return known ? (double)agree / (double)known : 1.0;
}

/* Jaccard similarity of the other queues' kept scopes. */
static double other_queues_similarity(const struct item *a, const struct item *b)
{
	size_t i = 0, j = 0, both = 0;

	while (i < a->evidence_count && j < b->evidence_count) {
		if (a->evidence[i].hash == b->evidence[j].hash) {
			both++;
			i++;
			j++;
		} else if (a->evidence[i].hash < b->evidence[j].hash) {
			i++;
		} else {
			j++;
		}
	}
	if (!(a->evidence_count + b->evidence_count))
		return 0.0;
	return (double)both / (double)(a->evidence_count + b->evidence_count - both);
}

/* Is `prefix` a whole-component prefix of `key`? */
static bool key_extends(const struct bc_text *key, const struct bc_text *prefix)
{
	return key->len >= prefix->len && !memcmp(key->data, prefix->data, prefix->len) &&
	       (key->len == prefix->len || key->data[prefix->len] == '/' ||
		prefix->data[prefix->len - 1] == ':');
}

static bool stream_truncated(const struct gpurobust_bc_report *report, int guilty)
{
	if (guilty < 0)
		return report->stream_count && report->streams[0].dropped;
	return report->streams[guilty].dropped || !report->streams[guilty].valid;
}

/*
 * A cluster agrees with a truncated report when its members, on average,
 * agree with at least this share of the report's places. On the generated
 * sets a report's own cause agrees on every place, and the closest other
 * cause on all but one of ~150 (0.993): one finished scope on the frontier
 * is what tells them apart, so the threshold is no separator, it only
 * decides who goes on to the counters. The room below 1 is for a scope that
 * finished in one run and was still draining in another; at exactly 1 the
 * bench gains 0.002 F1 without counters, at the price of dropping such runs.
 */
#define BC_AGREE_MIN 0.98
/* Among several agreeing clusters, the other queues decide only by this
 * much Jaccard similarity over the runner-up. */
#define BC_OTHER_QUEUES_MARGIN 0.25

/* Per candidate cluster, sums over its complete members. */
struct candidate {
	double agree, other;
	double finished, finished_squares;	/* out counters */
	size_t members, counted;
};

/*
 * Does the cut report's out counter fall within what the cluster's own
 * reports finished? Their mean, plus or minus twice their standard deviation
 * and half a scope: the run to run spread of one cause, measured on the data
 * rather than assumed. Where every frame has one shape the spread is 0 and
 * only the exact count matches.
 */
static bool counter_fits(const struct candidate *c, uint32_t finished)
{
	double mean = c->finished / (double)c->counted;
	double variance = c->finished_squares / (double)c->counted - mean * mean;
	double off = (double)finished - mean;
	double reach = 0.5;

	/* sqrt() without libm: Newton from above, a few steps suffice here. */
	if (variance > 0) {
		double sd = variance + 1;

		for (int i = 0; i < 32; i++)
			sd = (sd + variance / sd) / 2;
		reach += 2 * sd;
	}
	return off * off <= reach * reach;
}

/* Pass 2: the complete cluster a truncated item belongs to, or NONE. */
static uint32_t best_cluster(const struct item *items, size_t n, const uint32_t *cluster_of,
			     size_t cluster_count, const struct item *it)
{
	struct candidate *cand = calloc(cluster_count + 1, sizeof(*cand));
	uint32_t agreeing = 0, last_agreeing = GPUROBUST_BC_NONE;
	uint32_t fitting = 0, last_fitting = GPUROBUST_BC_NONE;
	uint32_t best_other = GPUROBUST_BC_NONE;
	double best_other_score = -1.0, second_other_score = -1.0;
	bool all_counted = it->counted;

	if (!cand)
		return GPUROBUST_BC_NONE;
	for (size_t j = 0; j < n; j++) {
		struct candidate *c = &cand[cluster_of[j]];

		if (items[j].truncated || !key_extends(&items[j].key, &it->key))
			continue;
		c->agree += agreement(it, &items[j]);
		c->other += other_queues_similarity(it, &items[j]);
		if (items[j].counted) {
			c->finished += items[j].finished;
			c->finished_squares += (double)items[j].finished * items[j].finished;
			c->counted++;
		}
		c->members++;
	}
	for (size_t k = 0; k < cluster_count; k++) {
		const struct candidate *c = &cand[k];
		double other;

		if (!c->members || c->agree / (double)c->members < BC_AGREE_MIN)
			continue;
		agreeing++;
		last_agreeing = (uint32_t)k;
		all_counted &= c->counted > 0;
		if (c->counted && counter_fits(c, it->finished)) {
			fitting++;
			last_fitting = (uint32_t)k;
		}
		other = c->other / (double)c->members;
		if (other > best_other_score) {
			second_other_score = best_other_score;
			best_other_score = other;
			best_other = (uint32_t)k;
		} else if (other > second_other_score) {
			second_other_score = other;
		}
	}
	free(cand);
	if (agreeing <= 1)
		return last_agreeing;
	if (all_counted && fitting == 1)
		return last_fitting;
	if (best_other_score - second_other_score >= BC_OTHER_QUEUES_MARGIN)
		return best_other;
	return GPUROBUST_BC_NONE;
}

static void free_items(struct item *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(items[i].key.data);
		free(items[i].places);
		free(items[i].evidence);
	}
	free(items);
}

static int group_by_path(const struct gpurobust_bc_report *const *reports, size_t n,
			 uint32_t *cluster_of, size_t *cluster_count)
{
	struct item *items = calloc(n + 1, sizeof(*items));
	int ret = 0;

	if (!items)
		return -ENOMEM;
	*cluster_count = 0;
	for (size_t i = 0; i < n && !ret; i++) {
		int guilty = grb_bc_guilty_stream(reports[i]);
		const char *leaf;

		cluster_of[i] = GPUROBUST_BC_NONE;
		items[i].truncated = stream_truncated(reports[i], guilty);
		if (guilty >= 0 && reports[i]->streams[guilty].valid) {
			items[i].counted = true;
			items[i].finished = reports[i]->streams[guilty].marker_out;
		}
		ret = grb_bc_path_key(reports[i], &items[i].key, &leaf);
		if (!ret && guilty >= 0)
			ret = collect_places(&reports[i]->streams[guilty], &items[i]);
		if (!ret)
			ret = collect_evidence(reports[i], guilty, &items[i]);
	}
	/* Complete reports: one cluster per key. */
	for (size_t i = 0; i < n && !ret; i++) {
		if (items[i].truncated)
			continue;
		for (size_t j = 0; j < i && cluster_of[i] == GPUROBUST_BC_NONE; j++)
			if (!items[j].truncated && items[j].key.len == items[i].key.len &&
			    !memcmp(items[j].key.data, items[i].key.data, items[i].key.len))
				cluster_of[i] = cluster_of[j];
		if (cluster_of[i] == GPUROBUST_BC_NONE)
			cluster_of[i] = (uint32_t)(*cluster_count)++;
	}
	/* Truncated ones: the cluster they agree with, or their own. */
	for (size_t i = 0; i < n && !ret; i++) {
		if (!items[i].truncated)
			continue;
		cluster_of[i] = best_cluster(items, n, cluster_of, *cluster_count, &items[i]);
		if (cluster_of[i] == GPUROBUST_BC_NONE)
			cluster_of[i] = (uint32_t)(*cluster_count)++;
	}
	free_items(items, n);
	return ret;
}

static int group_by_unreal(const struct gpurobust_bc_report *const *reports, size_t n,
			   uint32_t *cluster_of, size_t *cluster_count)
{
	uint64_t *hashes = malloc(sizeof(*hashes) * (n + 1));

	if (!hashes)
		return -ENOMEM;
	*cluster_count = 0;
	for (size_t i = 0; i < n; i++) {
		struct gpurobust_bc_signature sig;
		int ret = gpurobust_bc_unreal_signature(reports[i], &sig);

		if (ret) {
			free(hashes);
			return ret;
		}
		hashes[i] = sig.hash;
		cluster_of[i] = GPUROBUST_BC_NONE;
		for (size_t j = 0; j < i; j++) {
			if (hashes[j] == sig.hash) {
				cluster_of[i] = cluster_of[j];
				break;
			}
		}
		if (cluster_of[i] == GPUROBUST_BC_NONE)
			cluster_of[i] = (uint32_t)(*cluster_count)++;
	}
	free(hashes);
	return 0;
}

/* Renumbers clusters in order of first appearance. */
static int renumber(uint32_t *cluster_of, size_t n, size_t cluster_count)
{
	uint32_t *map = malloc(sizeof(*map) * (cluster_count + 1));
	uint32_t next = 0;

	if (!map)
		return -ENOMEM;
	memset(map, 0xff, sizeof(*map) * (cluster_count + 1));
	for (size_t i = 0; i < n; i++) {
		if (map[cluster_of[i]] == GPUROBUST_BC_NONE)
			map[cluster_of[i]] = next++;
		cluster_of[i] = map[cluster_of[i]];
	}
	free(map);
	return 0;
}

GPUROBUST_EXPORT int gpurobust_bc_group(const struct gpurobust_bc_report *const *reports,
					size_t n, enum gpurobust_bc_grouping method,
					uint32_t *cluster_of, size_t *cluster_count)
{
	int ret;

	if ((!reports && n) || (!cluster_of && n) || !cluster_count)
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!reports[i])
			return -EINVAL;
	if (method == GPUROBUST_BC_GROUP_UNREAL)
		ret = group_by_unreal(reports, n, cluster_of, cluster_count);
	else if (method == GPUROBUST_BC_GROUP_PATH)
		ret = group_by_path(reports, n, cluster_of, cluster_count);
	else
		return -EINVAL;
	return ret ? ret : renumber(cluster_of, n, *cluster_count);
}
