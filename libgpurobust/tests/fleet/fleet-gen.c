// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Fleet crashes as a fleet sends them, for the fault tests and the load
 * benchmark (bench/fleet). Crash i of seed S is always the same crash:
 * its group drawn from a Zipf law over 3000 groups (s = 1.1: a few groups
 * hold most crashes, most groups a handful, as crash reporters see it),
 * on one of 5000 machines, each with its GPU and its kernel and Mesa
 * versions, over 30 days.
 *
 *   fleet-gen outbox DIR FIRST COUNT     add crashes FIRST.. to an outbox
 *   fleet-gen load URI COUNT SENDERS     send crashes 0..COUNT-1 from
 *                                        SENDERS threads, in batches of
 *                                        500; print the figures
 *   fleet-gen digest URI                 the store's crash count, and a
 *                                        hash of its groups and their counts
 *
 * Exits 1 with a message when a call fails.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xxhash.h>

#include <gpurobust/fleet.h>

#define GROUPS		3000
#define MACHINES	5000
#define BATCH		500
#define SEED		0x6770755f666c6565ull
#define START		1796083200	/* 2026-12-01 */

static double zipf_cdf[GROUPS];

static void zipf_init(void)
{
	double sum = 0, run = 0;

	for (int g = 0; g < GROUPS; g++)
		sum += 1.0 / pow(g + 1, 1.1);
	for (int g = 0; g < GROUPS; g++) {
		run += 1.0 / pow(g + 1, 1.1) / sum;
		zipf_cdf[g] = run;
	}
}

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static int zipf_group(uint64_t r)
{
	double u = (double)(r >> 11) / (double)(1ull << 53);
	int lo = 0, hi = GROUPS - 1;

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (zipf_cdf[mid] < u)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void make_crash(uint64_t i, struct gpurobust_fleet_crash *c)
{
	static const char *const pci[] = { "1002:744c", "1002:73bf", "1002:73df", "1002:7480",
					   "1002:15bf", "1002:1681", "1002:164e", "1002:7550" };
	static const char *const family[] = { "GFX11", "GFX10_3", "GFX10_3", "GFX11",
					      "GFX11", "GFX10_3", "GFX10_3", "GFX12" };
	static const char *const kernels[] = { "6.12.48", "6.12.57", "6.17.9", "7.1.4", "7.2.13" };
	static const char *const drivers[] = { "25.0.7", "25.2.8", "26.1.3", "26.2.6" };
	uint64_t r = mix(SEED ^ i), machine = mix(r) % MACHINES;
	int g = zipf_group(r), gpu = (int)(mix(machine) % 8);
	/* newer kernels and drivers later in the month, machine by machine */
	int64_t seen = START + (int64_t)(mix(r + 1) % (30 * 86400));
	int age = (int)((seen - START) / (7 * 86400));

	memset(c, 0, sizeof(*c));
	snprintf(c->signature, sizeof(c->signature), "%016" PRIx64, mix(SEED + (uint64_t)g));
	snprintf(c->title, sizeof(c->title), "game%d hung on gfx_0.0.0 in pass %d", g % 97,
		 g % 13);
	snprintf(c->machine_id, sizeof(c->machine_id), "%016" PRIx64 "%016" PRIx64,
		 mix(machine), mix(machine + MACHINES));
	snprintf(c->pci_id, sizeof(c->pci_id), "%s", pci[gpu]);
	snprintf(c->family, sizeof(c->family), "%s", family[gpu]);
	snprintf(c->vbios, sizeof(c->vbios), "113-D%03d", gpu * 7);
	snprintf(c->kernel, sizeof(c->kernel), "%s",
		 kernels[(machine % 3 + (uint64_t)age) % 5]);
	snprintf(c->series, sizeof(c->series), "%s", machine % 2 ? "v3" : "");
	snprintf(c->driver, sizeof(c->driver), "%s", drivers[(machine % 2 + (uint64_t)age) % 4]);
	snprintf(c->application, sizeof(c->application), "game%d", g % 97);
	c->seen = seen;
	snprintf(c->recovery, sizeof(c->recovery), "%s", r % 10 ? "ring_reset" : "full_reset");
	snprintf(c->outcome, sizeof(c->outcome), "recovered");
	snprintf(c->breadcrumbs, sizeof(c->breadcrumbs), "Pass %d/Draw %d", g % 13, g % 7);
	gpurobust_fleet_crash_id(c);
}

static int die(const char *what, int r, const char *why)
{
	fprintf(stderr, "fleet-gen: %s: %s%s%s\n", what, strerror(-r), why && *why ? ": " : "",
		why ? why : "");
	return 1;
}

static int cmd_outbox(const char *dir, uint64_t first, uint64_t count)
{
	struct gpurobust_fleet_crash c;

	for (uint64_t i = first; i < first + count; i++) {
		int r;

		make_crash(i, &c);
		r = gpurobust_fleet_outbox_add(dir, &c);
		if (r) {
			fprintf(stderr, "fleet-gen: crash %" PRIu64 " into %s: %s\n", i, dir,
				strerror(-r));
			return 1;
		}
	}
	return 0;
}

struct sender {
	const char *uri;
	uint64_t count;
	unsigned int index, senders;
	int r;
	char error[512];
};

/* Crashes index, index + senders, …, in batches. */
static void *send_share(void *arg)
{
	struct sender *s = arg;
	struct gpurobust_fleet_crash *batch = calloc(BATCH, sizeof(*batch));
	struct gpurobust_fleet *fleet = NULL;
	size_t n = 0;

	s->r = batch ? gpurobust_fleet_open(s->uri, &fleet) : -ENOMEM;
	if (s->r)
		snprintf(s->error, sizeof(s->error), "%s", gpurobust_fleet_error(NULL));
	for (uint64_t i = s->index; !s->r && i < s->count; i += s->senders) {
		make_crash(i, &batch[n++]);
		if (n == BATCH || i + s->senders >= s->count) {
			s->r = gpurobust_fleet_send(fleet, batch, n, NULL);
			n = 0;
		}
	}
	if (s->r && fleet)
		snprintf(s->error, sizeof(s->error), "%s", gpurobust_fleet_error(fleet));
	gpurobust_fleet_close(fleet);
	free(batch);
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int digest(struct gpurobust_fleet *fleet, uint64_t *count, uint64_t *hash, size_t *groups)
{
	struct gpurobust_fleet_query all = { 0 };
	struct gpurobust_fleet_group *g;
	XXH64_hash_t h = 0;
	int r = gpurobust_fleet_count(fleet, count);

	if (!r)
		r = gpurobust_fleet_top(fleet, &all, &g, groups);
	if (r)
		return r;
	for (size_t i = 0; i < *groups; i++) {
		char line[64];

		snprintf(line, sizeof(line), "%s %" PRIu64 " %" PRIu64, g[i].signature, g[i].count,
			 g[i].machines);
		h = XXH64(line, strlen(line), h);
	}
	free(g);
	*hash = h;
	return 0;
}

/* Median seconds of 5 runs of one triage question. */
static double triage_seconds(struct gpurobust_fleet *fleet, int question, const char *group)
{
	const struct gpurobust_fleet_query queries[] = {
		{ .limit = 20 },
		{ .since = START + 7 * 86400, .until = START + 14 * 86400, .limit = 20 },
		{ .new_since_kernel = "7.2", .limit = 20 },
	};
	double t[5];

	for (int run = 0; run < 5; run++) {
		struct gpurobust_fleet_group *g = NULL, one;
		struct gpurobust_fleet_spread *s = NULL;
		double t0 = now();
		size_t n;

		if (question < 3)
			gpurobust_fleet_top(fleet, &queries[question], &g, &n);
		else
			gpurobust_fleet_group_spread(fleet, group, &one, &s, &n);
		t[run] = now() - t0;
		free(g);
		free(s);
	}
	for (int i = 1; i < 5; i++)
		for (int j = i; j > 0 && t[j] < t[j - 1]; j--) {
			double x = t[j];

			t[j] = t[j - 1];
			t[j - 1] = x;
		}
	return t[2];
}

static int cmd_load(const char *uri, uint64_t count, unsigned int senders)
{
	static const char *const questions[] = { "top 20, all time", "top 20, one week",
						 "new since kernel 7.2", "spread of the top group" };
	struct gpurobust_fleet_query top1 = { .limit = 1 };
	struct sender *s = calloc(senders, sizeof(*s));
	pthread_t *threads = calloc(senders, sizeof(*threads));
	struct gpurobust_fleet_group *g;
	struct gpurobust_fleet *fleet;
	uint64_t stored, hash;
	size_t groups, n;
	double t0, seconds;
	int r;

	if (!s || !threads)
		return die("load", -ENOMEM, NULL);
	t0 = now();
	for (unsigned int i = 0; i < senders; i++) {
		s[i] = (struct sender){ .uri = uri, .count = count, .index = i, .senders = senders };
		if (pthread_create(&threads[i], NULL, send_share, &s[i]))
			return die("pthread_create", -errno, NULL);
	}
	for (unsigned int i = 0; i < senders; i++) {
		pthread_join(threads[i], NULL);
		if (s[i].r)
			return die("a sender", s[i].r, s[i].error);
	}
	seconds = now() - t0;
	r = gpurobust_fleet_open(uri, &fleet);
	if (r)
		return die("open", r, gpurobust_fleet_error(NULL));
	r = digest(fleet, &stored, &hash, &groups);
	if (!r)
		r = gpurobust_fleet_top(fleet, &top1, &g, &n);
	if (r)
		return die("triage", r, gpurobust_fleet_error(fleet));
	printf("crashes %" PRIu64 "\ngroups %zu\ndigest %016" PRIx64 "\n", stored, groups, hash);
	printf("senders %u\ninsert_seconds %.3f\ninserts_per_second %.0f\n", senders, seconds,
	       (double)count / seconds);
	for (int q = 0; q < 4; q++)
		printf("triage_ms %s: %.2f\n", questions[q],
		       1e3 * triage_seconds(fleet, q, n ? g[0].signature : ""));
	free(g);
	gpurobust_fleet_close(fleet);
	free(s);
	free(threads);
	return 0;
}

static int cmd_digest(const char *uri)
{
	struct gpurobust_fleet *fleet;
	uint64_t stored, hash;
	size_t groups;
	int r = gpurobust_fleet_open(uri, &fleet);

	if (r)
		return die("open", r, gpurobust_fleet_error(NULL));
	r = digest(fleet, &stored, &hash, &groups);
	if (r)
		return die("digest", r, gpurobust_fleet_error(fleet));
	printf("crashes %" PRIu64 "\ngroups %zu\ndigest %016" PRIx64 "\n", stored, groups, hash);
	gpurobust_fleet_close(fleet);
	return 0;
}

int main(int argc, char **argv)
{
	zipf_init();
	if (argc == 5 && !strcmp(argv[1], "outbox"))
		return cmd_outbox(argv[2], strtoull(argv[3], NULL, 10), strtoull(argv[4], NULL, 10));
	if (argc == 5 && !strcmp(argv[1], "load"))
		return cmd_load(argv[2], strtoull(argv[3], NULL, 10),
				(unsigned int)strtoul(argv[4], NULL, 10));
	if (argc == 3 && !strcmp(argv[1], "digest"))
		return cmd_digest(argv[2]);
	fprintf(stderr, "usage: fleet-gen outbox DIR FIRST COUNT | load URI COUNT SENDERS |"
		" digest URI\n");
	return 2;
}
