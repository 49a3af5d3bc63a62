// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust triage [--store DIR|URI] [OPTIONS] [--json]
 *
 * With a directory (the default), the buckets of this machine's crash
 * store, most frequent first: signature, count, first and last seen, the
 * last process, and the title. With a store URI (sqlite://…,
 * postgresql://…), a fleet store's groups (triage-fleet.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include <gpurobust/collector.h>

#include "commands.h"
#include "crash-common.h"
#include "stored.h"
#include "triage.h"

static void when(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%" PRId64, t);
}

static int print_text(const struct gpurobust_bucket *b, size_t n, uint64_t events)
{
	printf("%zu bucket%s, %" PRIu64 " event%s\n", n, n == 1 ? "" : "s", events,
	       events == 1 ? "" : "s");
	if (n)
		printf("%-16s %6s  %-20s  %-20s  %s\n", "signature", "count", "first seen",
		       "last seen", "last process: title");
	for (size_t i = 0; i < n; i++) {
		char first[32], last[32], process[4 * sizeof(b[i].last_process) + 1];
		char title[4 * sizeof(b[i].title) + 1];

		when(b[i].first_seen, first, sizeof(first));
		when(b[i].last_seen, last, sizeof(last));
		/* stored names and titles came from the hung process: inert */
		gpurobust_text_escape(process, sizeof(process), b[i].last_process);
		gpurobust_text_escape(title, sizeof(title), b[i].title);
		printf("%-16s %6" PRIu64 "  %-20s  %-20s  %s (pid %d): %s\n", b[i].signature,
		       b[i].count, first, last, process, b[i].last_pid, title);
	}
	return ferror(stdout) ? -EIO : 0;
}

static int print_json(const struct gpurobust_bucket *b, size_t n)
{
	json_object *arr = json_object_new_array();
	int err = !arr;

	for (size_t i = 0; i < n && !err; i++) {
		json_object *o = json_object_new_object();
		char process[4 * sizeof(b[i].last_process) + 1], title[4 * sizeof(b[i].title) + 1];

		gpurobust_text_escape(process, sizeof(process), b[i].last_process);
		gpurobust_text_escape(title, sizeof(title), b[i].title);
		err = !o || json_object_array_add(arr, o);
		if (err) {
			json_object_put(o);
			break;
		}
		err |= json_object_object_add(o, "signature", json_object_new_string(b[i].signature));
		err |= json_object_object_add(o, "title", json_object_new_string(title));
		err |= json_object_object_add(o, "count", json_object_new_uint64(b[i].count));
		err |= json_object_object_add(o, "first_seen", json_object_new_int64(b[i].first_seen));
		err |= json_object_object_add(o, "last_seen", json_object_new_int64(b[i].last_seen));
		err |= json_object_object_add(o, "last_process",
					      json_object_new_string(process));
		err |= json_object_object_add(o, "last_pid", json_object_new_int(b[i].last_pid));
	}
	if (!err)
		puts(json_object_to_json_string_ext(arr, JSON_C_TO_STRING_PRETTY |
						    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(arr);
	return err ? -ENOMEM : 0;
}

static int usage(int c)
{
	fprintf(c == 'h' ? stdout : stderr,
		"usage: gpurobust triage [--store DIR] [--json]\n"
		"       gpurobust triage --store URI [--since T] [--until T] [--limit N]\n"
		"                        [--new-since-kernel V] [--new-since-driver V] [--json]\n"
		"       gpurobust triage --store URI --group SIGNATURE [--json]\n"
		"  --store DIR|URI       this machine's crash store (default %s), or a fleet\n"
		"                        store: sqlite://PATH or postgresql://...\n"
		"  --since T, --until T  crashes seen in [T, T'): @UNIX, YYYY-MM-DD [HH:MM[:SS]],\n"
		"                        today, yesterday, -N[s|min|h|d]\n"
		"  --limit N             the N largest groups\n"
		"  --new-since-kernel V  groups never seen on a kernel older than V\n"
		"  --new-since-driver V  groups never seen on a driver older than V\n"
		"  --group SIGNATURE     one group: first and last seen, spread over GPUs and\n"
		"                        versions\n",
		GPUROBUST_STORE_DIR);
	return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
}

static bool is_store_uri(const char *store)
{
	return strstr(store, "://") || !strncmp(store, "postgresql:", 11);
}

int cmd_triage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "since", required_argument, NULL, 'b' },
		{ "until", required_argument, NULL, 'e' },
		{ "limit", required_argument, NULL, 'n' },
		{ "new-since-kernel", required_argument, NULL, 'K' },
		{ "new-since-driver", required_argument, NULL, 'D' },
		{ "group", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_dir = GPUROBUST_STORE_DIR;
	struct gpurobust_bucket *buckets = NULL;
	struct triage_args a = { 0 };
	struct gpurobust_store *store;
	bool fleet_only = false, since_set = false, until_set = false;
	uint64_t events = 0;
	char *end;
	size_t n = 0;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': store_dir = optarg; break;
		case 'j': a.json = true; break;
		case 'b':
		case 'e':
			if (stored_parse_time(optarg, c == 'b' ? &a.query.since : &a.query.until)) {
				fprintf(stderr, "gpurobust triage: not a time: %s\n", optarg);
				return GPUROBUST_EXIT_USAGE;
			}
			*(c == 'b' ? &since_set : &until_set) = true;
			fleet_only = true;
			break;
		case 'n':
			errno = 0;
			a.query.limit = strtoul(optarg, &end, 10);
			if (errno || *end || !*optarg || *optarg == '-')
				return usage(c);
			fleet_only = true;
			break;
		case 'K': a.query.new_since_kernel = optarg; fleet_only = true; break;
		case 'D': a.query.new_since_driver = optarg; fleet_only = true; break;
		case 'g': a.group = optarg; fleet_only = true; break;
		case 'h':
		default:
			return usage(c);
		}
	}
	if (optind < argc)
		return usage(0);
	/* a window with one end: the other is open (0, 0 is all time) */
	if (since_set || until_set) {
		if (!since_set)
			a.query.since = INT64_MIN;
		if (!until_set)
			a.query.until = INT64_MAX;
		if (a.query.until <= a.query.since) {
			fprintf(stderr, "gpurobust triage: --until must come after --since\n");
			return GPUROBUST_EXIT_USAGE;
		}
	}
	if (is_store_uri(store_dir))
		return triage_fleet(store_dir, &a);
	if (fleet_only) {
		fprintf(stderr, "gpurobust triage: --since, --until, --limit, --new-since-* and "
			"--group ask a fleet store: --store sqlite://... or postgresql://...\n");
		return GPUROBUST_EXIT_USAGE;
	}
	r = gpurobust_store_open(store_dir, &store);
	if (r) {
		fprintf(stderr, "gpurobust triage: cannot open the store %s: %s\n", store_dir,
			strerror(-r));
		return GPUROBUST_EXIT_FAILURE;
	}
	r = gpurobust_store_buckets(store, &buckets, &n);
	if (!r)
		r = gpurobust_store_count(store, &events);
	if (!r)
		r = a.json ? print_json(buckets, n) : print_text(buckets, n, events);
	if (r)
		fprintf(stderr, "gpurobust triage: %s\n", strerror(-r));
	free(buckets);
	gpurobust_store_close(store);
	return r ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
