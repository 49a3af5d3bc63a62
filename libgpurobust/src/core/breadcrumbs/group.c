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
 *      Jaccard similarity of the scopes the baseline filter keeps (the
 *      secondary evidence, normalised). With no such cluster it clusters on
 *      its own key.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/export.h"
#include "core/breadcrumbs/internal.h"
#include "core/breadcrumbs/signature-internal.h"
#include "gpurobust/breadcrumbs-signature.h"

struct item {
	struct bc_text key;
	bool truncated;
	uint64_t *evidence;	/* sorted, unique */
	size_t evidence_count;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int collect_evidence(const struct gpurobust_bc_report *report, struct item *it)
{
	size_t total = 0, n = 0;
	char buf[512];

	for (uint32_t i = 0; i < report->stream_count; i++)
		total += report->streams[i].node_count;
	it->evidence = malloc(sizeof(uint64_t) * (total + 1));
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
			it->evidence[n++] = XXH64(buf, strlen(buf), 0);
		}
		free(keep);
	}
	qsort(it->evidence, n, sizeof(uint64_t), cmp_u64);
	it->evidence_count = 0;
	for (size_t k = 0; k < n; k++)
		if (!it->evidence_count || it->evidence[it->evidence_count - 1] != it->evidence[k])
			it->evidence[it->evidence_count++] = it->evidence[k];
	return 0;
}

static double jaccard(const struct item *a, const struct item *b)
{
	size_t i = 0, j = 0, both = 0;

	while (i < a->evidence_count && j < b->evidence_count) {
		if (a->evidence[i] == b->evidence[j]) {
			both++;
			i++;
			j++;
		} else if (a->evidence[i] < b->evidence[j]) {
			i++;
		} else {
			j++;
		}
	}
	if (!(a->evidence_count + b->evidence_count))
		return 1.0;
	return (double)both / (double)(a->evidence_count + b->evidence_count - both);
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

/* Pass 2: the best complete cluster for a truncated item, or NONE. */
static uint32_t best_cluster(const struct item *items, size_t n, const uint32_t *cluster_of,
			     size_t cluster_count, const struct item *it)
{
	double *score = calloc(cluster_count + 1, sizeof(double));
	size_t *members = calloc(cluster_count + 1, sizeof(size_t));
	uint32_t best = GPUROBUST_BC_NONE;
	double best_score = -1.0;

	if (!score || !members)
		goto out;
	for (size_t j = 0; j < n; j++) {
		if (items[j].truncated || !key_extends(&items[j].key, &it->key))
			continue;
		score[cluster_of[j]] += jaccard(it, &items[j]);
		members[cluster_of[j]]++;
	}
	for (size_t c = 0; c < cluster_count; c++) {
		double mean;

		if (!members[c])
			continue;
		mean = score[c] / (double)members[c];
		/* Ties go to the bigger cluster: the likelier root cause. */
		if (mean > best_score ||
		    (mean == best_score && members[c] > members[best])) {
			best_score = mean;
			best = (uint32_t)c;
		}
	}
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
