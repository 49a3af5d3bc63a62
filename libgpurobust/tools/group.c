// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust group [--method path|unreal] [--json] DIR
 *
 * Clusters the breadcrumb reports (*.json, as gpurobust_bc_report_to_json()
 * writes them) in DIR into root causes and prints the clusters, largest
 * first. "path" is our grouping, "unreal" the published baseline.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "driver/core/breadcrumbs/internal.h"
#include "gpurobust/breadcrumbs-signature.h"
#include "gpurobust/breadcrumbs-json.h"
#include "gpurobust/breadcrumbs.h"

struct loaded {
	char **names;
	struct gpurobust_bc_report **reports;
	size_t count, capacity;
	size_t skipped;
};

static char *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *data = NULL;
	long size;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		data = malloc((size_t)size + 1);
		if (data && fread(data, 1, (size_t)size, f) != (size_t)size) {
			free(data);
			data = NULL;
		}
		if (data) {
			data[size] = '\0';
			*len = (size_t)size;
		}
	}
	fclose(f);
	return data;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_json_name(const char *name)
{
	size_t len = strlen(name);

	return len > 5 && !strcmp(name + len - 5, ".json");
}

static int add_report(struct loaded *l, char *name, struct gpurobust_bc_report *report)
{
	if (l->count == l->capacity) {
		size_t cap = l->capacity ? l->capacity * 2 : 64;
		char **names = realloc(l->names, cap * sizeof(*names));
		struct gpurobust_bc_report **reports;

		if (!names)
			return -ENOMEM;
		l->names = names;
		reports = realloc(l->reports, cap * sizeof(*reports));
		if (!reports)
			return -ENOMEM;
		l->reports = reports;
		l->capacity = cap;
	}
	l->names[l->count] = name;
	l->reports[l->count++] = report;
	return 0;
}

/* Loads every readable report of DIR in name order; others are named on
 * stderr and skipped, so one bad file does not hide the rest. */
static int load_dir(const char *dir, struct loaded *l)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int ret = 0;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!is_json_name(e->d_name))
			continue;
		if (n == cap) {
			char **more = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof(*names));

			if (!more) {
				ret = -ENOMEM;
				break;
			}
			names = more;
		}
		names[n] = strdup(e->d_name);
		if (!names[n]) {
			ret = -ENOMEM;
			break;
		}
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof(*names), cmp_names);
	for (size_t i = 0; i < n; i++) {
		struct gpurobust_bc_report *report = NULL;
		char path[4096];
		size_t len = 0;
		char *text;
		int err;

		if (ret) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		text = read_file(path, &len);
		err = text ? gpurobust_bc_report_from_json(text, len, &report) : -errno;
		free(text);
		if (err) {
			fprintf(stderr, "gpurobust group: skipping %s: %s\n", path,
				err == -EINVAL ? "not a breadcrumb report" : strerror(-err));
			l->skipped++;
			free(names[i]);
			continue;
		}
		ret = add_report(l, names[i], report);
		if (ret) {
			gpurobust_bc_report_free(report);
			free(names[i]);
		}
	}
	free(names);
	return ret;
}

struct cluster {
	uint32_t id;
	size_t size;
	size_t representative;	/* the member with the deepest active path */
	uint32_t depth;
};

/* How deep the oldest active path of the report's guilty stream goes: a
 * complete report titles its cluster better than a truncated one. */
static uint32_t active_depth(const struct gpurobust_bc_report *r)
{
	int g = grb_bc_guilty_stream(r);
	uint32_t leaf;

	if (g < 0)
		return 0;
	leaf = grb_bc_oldest_active_leaf(&r->streams[g]);
	return leaf == GPUROBUST_BC_NONE ? 0 : r->streams[g].nodes[leaf].depth + 1;
}

static int cmp_clusters(const void *a, const void *b)
{
	const struct cluster *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? 1 : -1;
	return x->id < y->id ? -1 : x->id > y->id;
}

static void title_of(const struct gpurobust_bc_report *r, enum gpurobust_bc_grouping method,
		     struct gpurobust_bc_signature *sig)
{
	int ret = method == GPUROBUST_BC_GROUP_UNREAL ? gpurobust_bc_unreal_signature(r, sig) :
							gpurobust_bc_path_signature(r, sig);

	if (ret) {
		sig->hash = 0;
		snprintf(sig->title, sizeof(sig->title), "(no signature: %s)", strerror(-ret));
	}
}

static void print_text(const struct loaded *l, const uint32_t *cluster_of,
		       const struct cluster *clusters, size_t n, enum gpurobust_bc_grouping method)
{
	printf("%zu reports, %zu clusters (%s grouping)\n", l->count, n,
	       method == GPUROBUST_BC_GROUP_UNREAL ? "unreal" : "path");
	for (size_t c = 0; c < n; c++) {
		struct gpurobust_bc_signature sig;

		title_of(l->reports[clusters[c].representative], method, &sig);
		printf("\ncluster %zu: %zu report%s, signature %016llx\n  title: %s\n", c + 1,
		       clusters[c].size, clusters[c].size == 1 ? "" : "s",
		       (unsigned long long)sig.hash, sig.title);
		for (size_t i = 0; i < l->count; i++)
			if (cluster_of[i] == clusters[c].id)
				printf("  %s\n", l->names[i]);
	}
}

static int print_json(const struct loaded *l, const uint32_t *cluster_of,
		      const struct cluster *clusters, size_t n, enum gpurobust_bc_grouping method)
{
	json_object *root = json_object_new_object(), *list = json_object_new_array();

	if (!root || !list) {
		json_object_put(root);
		json_object_put(list);
		return -ENOMEM;
	}
	json_object_object_add(root, "method", json_object_new_string(
		method == GPUROBUST_BC_GROUP_UNREAL ? "unreal" : "path"));
	json_object_object_add(root, "clusters", list);
	for (size_t c = 0; c < n; c++) {
		json_object *o = json_object_new_object(), *members = json_object_new_array();
		struct gpurobust_bc_signature sig;
		char hash[20];

		title_of(l->reports[clusters[c].representative], method, &sig);
		snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)sig.hash);
		json_object_object_add(o, "signature", json_object_new_string(hash));
		json_object_object_add(o, "title", json_object_new_string(sig.title));
		for (size_t i = 0; i < l->count; i++)
			if (cluster_of[i] == clusters[c].id)
				json_object_array_add(members, json_object_new_string(l->names[i]));
		json_object_object_add(o, "reports", members);
		json_object_array_add(list, o);
	}
	puts(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED));
	json_object_put(root);
	return 0;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: gpurobust group [--method path|unreal] [--json] DIR\n"
		     "Clusters the breadcrumb reports (*.json) in DIR into root causes.\n");
}

int cmd_group(int argc, char **argv)
{
	static const struct option options[] = {
		{ "method", required_argument, NULL, 'm' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	enum gpurobust_bc_grouping method = GPUROBUST_BC_GROUP_PATH;
	struct loaded l = { 0 };
	struct cluster *clusters = NULL;
	uint32_t *cluster_of = NULL;
	size_t n = 0;
	bool json = false;
	int opt, ret, exit_code = GPUROBUST_EXIT_FAILURE;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "m:jh", options, NULL)) != -1) {
		switch (opt) {
		case 'm':
			if (!strcmp(optarg, "path")) {
				method = GPUROBUST_BC_GROUP_PATH;
			} else if (!strcmp(optarg, "unreal")) {
				method = GPUROBUST_BC_GROUP_UNREAL;
			} else {
				fprintf(stderr, "gpurobust group: unknown method '%s'\n", optarg);
				usage(stderr);
				return GPUROBUST_EXIT_USAGE;
			}
			break;
		case 'j':
			json = true;
			break;
		case 'h':
			usage(stdout);
			return GPUROBUST_EXIT_OK;
		default:
			usage(stderr);
			return GPUROBUST_EXIT_USAGE;
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		return GPUROBUST_EXIT_USAGE;
	}
	ret = load_dir(argv[optind], &l);
	if (ret) {
		fprintf(stderr, "gpurobust group: %s: %s\n", argv[optind], strerror(-ret));
		goto out;
	}
	cluster_of = calloc(l.count + 1, sizeof(*cluster_of));
	if (!cluster_of)
		goto out;
	ret = gpurobust_bc_group((const struct gpurobust_bc_report *const *)l.reports, l.count,
				 method, cluster_of, &n);
	if (ret) {
		fprintf(stderr, "gpurobust group: grouping failed: %s\n", strerror(-ret));
		goto out;
	}
	clusters = calloc(n + 1, sizeof(*clusters));
	if (!clusters)
		goto out;
	for (size_t c = 0; c < n; c++)
		clusters[c].id = (uint32_t)c;
	for (size_t i = 0; i < l.count; i++) {
		struct cluster *c = &clusters[cluster_of[i]];
		uint32_t depth = active_depth(l.reports[i]);

		if (!c->size++ || depth > c->depth) {
			c->representative = i;
			c->depth = depth;
		}
	}
	qsort(clusters, n, sizeof(*clusters), cmp_clusters);
	if (json) {
		if (print_json(&l, cluster_of, clusters, n, method))
			goto out;
	} else {
		print_text(&l, cluster_of, clusters, n, method);
	}
	if (l.skipped)
		fprintf(stderr, "gpurobust group: %zu file%s skipped\n", l.skipped,
			l.skipped == 1 ? "" : "s");
	exit_code = GPUROBUST_EXIT_OK;
out:
	for (size_t i = 0; i < l.count; i++) {
		gpurobust_bc_report_free(l.reports[i]);
		free(l.names[i]);
	}
	free(l.reports);
	free(l.names);
	free(cluster_of);
	free(clusters);
	return exit_code;
}
