// SPDX-License-Identifier: MIT
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
 *      only knows a prefix of its path. It joins the pass-1 cluster whose key
 *      extends that prefix and whose members look most like it: the mean
 *      Jaccard similarity of the scopes the baseline filter keeps (on every
 *      queue, normalised), counting the members' scopes only down to the
 *      truncated report's depth. When no cluster clearly wins it is not
 *      guessed: it clusters on its own (truncated) key with its like.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/export.h"
#include "core/breadcrumbs/internal.h"
#include "core/breadcrumbs/signature-internal.h"
#include "gpurobust/breadcrumbs-signature.h"

/* One scope kept by the baseline filter, normalised and hashed with its
 * queue, depth and state. */
struct evidence {
	uint64_t hash;
	uint32_t depth;
};

struct item {
	struct bc_text key;
	bool truncated;
	struct evidence *evidence;	/* sorted by hash, unique */
	size_t evidence_count;
	uint32_t max_depth;
};

static int cmp_evidence(const void *a, const void *b)
{
	uint64_t x = ((const struct evidence *)a)->hash, y = ((const struct evidence *)b)->hash;

	return x < y ? -1 : x > y;
}

static int collect_evidence(const struct gpurobust_bc_report *report, struct item *it)
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
		bool *keep = calloc(s->node_count + 1, sizeof(*keep));

		if (!keep)
			return -ENOMEM;
		if (s->node_count && s->valid)
			bc_unreal_keep(s, 0, keep);
		for (uint32_t k = 0; k < s->node_count; k++) {
			const struct gpurobust_bc_node *node = &s->nodes[k];
			size_t len;

			if (!keep[k])
				continue;
			if (node->state == GPUROBUST_BC_IN_PROGRESS && node->first_child != GPUROBUST_BC_NONE)
				bc_unreal_keep(s, node->first_child, keep);
			len = (size_t)snprintf(buf, sizeof(buf), "%u|%u|%u|", s->queue, node->depth,
					       node->state);
			if (len < sizeof(buf))
				bc_normalize_name(node->name, buf + len, sizeof(buf) - len);
			it->evidence[n].hash = XXH64(buf, strlen(buf), 0);
			it->evidence[n++].depth = node->depth;
			if (node->depth > it->max_depth)
				it->max_depth = node->depth;
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

/* Jaccard similarity of a truncated report's evidence and a complete
 * report's evidence down to the truncated report's depth: below it the
 * truncated report knows nothing, so those levels must not count. What is
 * left tells causes apart by the siblings that finished before the hang and
 * the work on other queues. */
static double similarity(const struct item *truncated, const struct item *complete)
{
	size_t i = 0, j = 0, both = 0, complete_count = 0;

	for (size_t k = 0; k < complete->evidence_count; k++)
		complete_count += complete->evidence[k].depth <= truncated->max_depth;
	while (i < truncated->evidence_count && j < complete->evidence_count) {
		if (complete->evidence[j].depth > truncated->max_depth) {
			j++;
		} else if (truncated->evidence[i].hash == complete->evidence[j].hash) {
			both++;
			i++;
			j++;
		} else if (truncated->evidence[i].hash < complete->evidence[j].hash) {
			i++;
		} else {
			j++;
		}
	}
	if (!(truncated->evidence_count + complete_count))
		return 1.0;
	return (double)both / (double)(truncated->evidence_count + complete_count - both);
}

/* Is `prefix` a whole-component prefix of `key`? */
static bool key_extends(const struct bc_text *key, const struct bc_text *prefix)
{
	return key->len >= prefix->len && !memcmp(key->data, prefix->data, prefix->len) &&
	       (key->len == prefix->len || key->data[prefix->len] == '/' ||
		prefix->data[prefix->len - 1] == ':');
}

static bool stream_truncated(const struct gpurobust_bc_report *report)
{
	int g = bc_guilty_stream(report);

	if (g < 0)
		return report->stream_count && report->streams[0].dropped;
	return report->streams[g].dropped || !report->streams[g].valid;
}

/*
 * A truncated report joins a cluster only when the evidence clearly prefers
 * it. When two clusters score within this margin the report could belong
 * to either, and guessing costs more than it gains: a wrong guess merges
 * two root causes, while keeping it apart only leaves one report unplaced.
 */
#define BC_JOIN_MARGIN 0.05

/* Pass 2: the complete cluster a truncated item clearly belongs to, or NONE. */
static uint32_t best_cluster(const struct item *items, size_t n, const uint32_t *cluster_of,
			     size_t cluster_count, const struct item *it)
{
	double *score = calloc(cluster_count + 1, sizeof(double));
	size_t *members = calloc(cluster_count + 1, sizeof(size_t));
	uint32_t best = GPUROBUST_BC_NONE;
	double best_score = -1.0, second_score = -1.0;

	if (!score || !members)
		goto out;
	for (size_t j = 0; j < n; j++) {
		if (items[j].truncated || !key_extends(&items[j].key, &it->key))
			continue;
		score[cluster_of[j]] += similarity(it, &items[j]);
		members[cluster_of[j]]++;
	}
	for (size_t c = 0; c < cluster_count; c++) {
		double mean;

		if (!members[c])
			continue;
		mean = score[c] / (double)members[c];
		if (mean > best_score) {
			second_score = best_score;
			best_score = mean;
			best = (uint32_t)c;
		} else if (mean > second_score) {
			second_score = mean;
		}
	}
	if (best_score - second_score < BC_JOIN_MARGIN)
		best = GPUROBUST_BC_NONE;
out:
	free(score);
	free(members);
	return best;
}

static uint32_t find_or_add(const struct item *items, const uint32_t *cluster_of, size_t upto,
			    const struct item *it, bool truncated, size_t *cluster_count)
{
	for (size_t j = 0; j < upto; j++)
		if (items[j].truncated == truncated && cluster_of[j] != GPUROBUST_BC_NONE &&
		    items[j].key.len == it->key.len && !memcmp(items[j].key.data, it->key.data, it->key.len))
			return cluster_of[j];
	return (uint32_t)(*cluster_count)++;
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
		const char *leaf;

		cluster_of[i] = GPUROBUST_BC_NONE;
		ret = bc_path_key(reports[i], &items[i].key, &leaf);
		if (!ret)
			ret = collect_evidence(reports[i], &items[i]);
		items[i].truncated = stream_truncated(reports[i]);
	}
	for (size_t i = 0; i < n && !ret; i++)
		if (!items[i].truncated)
			cluster_of[i] = find_or_add(items, cluster_of, i, &items[i], false, cluster_count);
	for (size_t i = 0; i < n && !ret; i++) {
		if (!items[i].truncated)
			continue;
		cluster_of[i] = best_cluster(items, n, cluster_of, *cluster_count, &items[i]);
		if (cluster_of[i] == GPUROBUST_BC_NONE)
			cluster_of[i] = find_or_add(items, cluster_of, i, &items[i], true, cluster_count);
	}
	for (size_t i = 0; i < n; i++) {
		free(items[i].key.data);
		free(items[i].evidence);
	}
	free(items);
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
