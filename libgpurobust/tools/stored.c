// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "crash-common.h"
#include "stored.h"

int stored_parse_time(const char *s, int64_t *out)
{
	static const struct { const char *unit; int64_t sec; } units[] = {
		{ "s", 1 }, { "min", 60 }, { "h", 3600 }, { "d", 86400 },
	};
	time_t now = time(NULL);
	struct tm tm = { 0 };
	const char *end;
	char *num_end;
	long long n;

	if (*s == '@' || *s == '-') {
		errno = 0;
		n = strtoll(s + 1, &num_end, 10);
		if (errno || num_end == s + 1 || n < 0)
			return -EINVAL;
		if (*s == '@')
			return *num_end ? -EINVAL : (*out = n, 0);
		/* no unit is seconds */
		for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(num_end, units[i].unit) || (!*num_end && units[i].sec == 1)) {
				if (n > INT64_MAX / units[i].sec)
					return -ERANGE;
				return *out = now - n * units[i].sec, 0;
			}
		return -EINVAL;
	}
	if (!strcmp(s, "today") || !strcmp(s, "yesterday")) {
		localtime_r(&now, &tm);
		tm.tm_hour = tm.tm_min = tm.tm_sec = 0;
		tm.tm_mday -= !strcmp(s, "yesterday");
	} else {
		end = strptime(s, "%Y-%m-%d", &tm);
		if (end && *end == ' ') {
			const char *t = strptime(end + 1, "%H:%M:%S", &tm);

			end = t ? t : strptime(end + 1, "%H:%M", &tm);
		}
		if (!end || *end)
			return -EINVAL;
	}
	tm.tm_isdst = -1;
	*out = mktime(&tm);
	return *out == -1 ? -EINVAL : 0;
}

int stored_parse_args(int argc, char **argv, const char *usage_line, struct stored_query *q)
{
	static const struct option opts[] = {
		{ "store", required_argument, NULL, 'S' },
		{ "since", required_argument, NULL, 'b' },
		{ "until", required_argument, NULL, 'e' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	*q = (struct stored_query){ .store_dir = GPUROBUST_STORE_DIR, .until = INT64_MAX };
	optind = 1;
	while ((c = getopt_long(argc, argv, "S:b:e:o:jh", opts, NULL)) != -1) {
		switch (c) {
		case 'S': q->store_dir = optarg; break;
		case 'o': q->output = optarg; break;
		case 'j': q->json = true; break;
		case 'b':
		case 'e':
			if (stored_parse_time(optarg, c == 'b' ? &q->since : &q->until)) {
				fprintf(stderr, "gpurobust: bad time '%s' (@UNIX, YYYY-MM-DD "
					"[HH:MM[:SS]], today, yesterday or -N[s|min|h|d])\n",
					optarg);
				return -1;
			}
			break;
		case 'h':
		default:
			fprintf(c == 'h' ? stdout : stderr,
				"usage: %s\n"
				"  MATCH        a PID, a process name, or a signature (16 hex digits)\n"
				"  --since T    crashes at or after T: @UNIX, YYYY-MM-DD [HH:MM[:SS]],\n"
				"               today, yesterday, or -N[s|min|h|d]\n"
				"  --until T    crashes before T\n"
				"  --store DIR  the crash store (default %s)\n"
				"  --json       JSON instead of text (list, info)\n"
				"  --output F   write the dump to F instead of standard output (dump)\n",
				usage_line, GPUROBUST_STORE_DIR);
			return c == 'h' ? 1 : -1;
		}
	}
	q->matches = argv + optind;
	q->n_matches = argc - optind;
	return 0;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* A number is a PID, unless it is 16 digits long: then, like any other
 * 16 hex digits, a signature. Anything else is a process name. */
static bool match_one(const char *m, const struct gpurobust_stored_crash *c)
{
	if (all_digits(m) && strlen(m) != 16)
		return c->pid == atoi(m);
	return !strcmp(m, c->process) || !strcmp(m, c->signature);
}

static bool matches(const struct stored_query *q, const struct gpurobust_stored_crash *c)
{
	if (c->seen < q->since || c->seen >= q->until)
		return false;
	for (int i = 0; i < q->n_matches; i++)
		if (!match_one(q->matches[i], c))
			return false;
	return true;
}

int stored_select(const struct stored_query *q, const char *prog,
		  struct gpurobust_stored_crash **out, size_t *n)
{
	size_t all, hidden = 0, kept = 0;
	int r = gpurobust_store_entries(q->store_dir, out, &all, &hidden);

	*n = 0;
	if (r == -ENOENT) {
		/* nothing collected yet on this machine */
		*out = NULL;
		r = 0;
		all = 0;
	}
	if (r) {
		fprintf(stderr, "%s: cannot read the store %s: %s\n", prog, q->store_dir,
			strerror(-r));
		return r;
	}
	for (size_t i = 0; i < all; i++)
		if (matches(q, &(*out)[i]))
			(*out)[kept++] = (*out)[i];
	*n = kept;
	if (hidden)
		fprintf(stderr, "%s: %zu crash%s of other users not shown\n", prog, hidden,
			hidden == 1 ? "" : "es");
	if (!kept)
		fprintf(stderr, "No GPU crashes found%s.\n", all ? " that match" :
			q->n_matches || hidden ? "" : " (none collected yet)");
	return 0;
}

int stored_crash_load(const char *store_dir, const struct gpurobust_stored_crash *c,
		      struct gpurobust_crash **out)
{
	char *dump = NULL, *log = NULL;
	size_t dump_len = 0, log_len = 0;
	int r = 0;

	*out = NULL;
	if (!c->dump_present && !*c->dmesg_file)
		return -ENOENT;
	if (c->dump_present)
		r = gpurobust_store_read_file(store_dir, c->dump_file, &dump, &dump_len);
	if (!r && *c->dmesg_file)
		r = gpurobust_store_read_file(store_dir, c->dmesg_file, &log, &log_len);
	if (!r)
		r = gpurobust_crash_analyze(dump, dump_len, log, log_len, NULL, out);
	free(dump);
	free(log);
	return r;
}

const char *stored_dump_state(const struct gpurobust_stored_crash *c)
{
	if (c->dump_present)
		return "present";
	return *c->dump_file || *c->not_kept ? "missing" : "none";
}

void stored_format_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!localtime_r(&tt, &tm) || !strftime(buf, size, "%a %Y-%m-%d %H:%M:%S %Z", &tm))
		snprintf(buf, size, "@%" PRId64, t);
}
