// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust triage [--store DIR] [--json]
 *
 * The buckets of the crash store, most frequent first: signature, count,
 * first and last seen, the last process, and the title.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include <gpurobust/collector.h>

#include "commands.h"
#include "crash-common.h"

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

int cmd_triage(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *store_dir = GPUROBUST_STORE_DIR;
	struct gpurobust_bucket *buckets = NULL;
	struct gpurobust_store *store;
	uint64_t events = 0;
	bool json = false;
	size_t n = 0;
	int c, r;

	optind = 1;
	while ((c = getopt_long(argc, argv, "S:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': store_dir = optarg; break;
		case 'j': json = true; break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: gpurobust triage [--store DIR] [--json]\n");
			return c == 'h' ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
		}
	}
	if (optind < argc)
		return GPUROBUST_EXIT_USAGE;
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
		r = json ? print_json(buckets, n) : print_text(buckets, n, events);
	if (r)
		fprintf(stderr, "gpurobust triage: %s\n", strerror(-r));
	free(buckets);
	gpurobust_store_close(store);
	return r ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
