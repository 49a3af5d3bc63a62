// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust info [--since T] [--until T] [--json] [MATCH...]
 *
 * A stored crash in full, as coredumpctl info shows a core dump: the
 * entry's fields, then the report read again from the stored dump and log.
 * Without a MATCH, the latest crash; with one, every crash it selects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/text.h>

#include "commands.h"
#include "stored.h"

static void field(const char *name, const char *value)
{
	char safe[4 * 256 + 1];

	if (!*value)
		return;
	/* stored text came from the hung process: inert */
	gpurobust_text_escape(safe, sizeof(safe), value);
	printf("%14s: %s\n", name, safe);
}

static int show(const struct stored_query *q, const struct gpurobust_stored_crash *c)
{
	struct gpurobust_crash *crash;
	char buf[128], storage[512];
	int r;

	snprintf(buf, sizeof(buf), "%d (%s)", c->pid, c->process);
	field("PID", buf);
	if (c->owner_known) {
		printf("%14s: %u\n%14s: %u\n", "UID", c->uid, "GID", c->gid);
	}
	stored_format_time(c->seen, buf, sizeof(buf));
	field("Timestamp", buf);
	snprintf(buf, sizeof(buf), "%s, %s", c->recovery, c->outcome);
	field("Recovery", buf);
	field("Device", c->device);
	field("Signature", c->signature);
	field("Title", c->title);
	field("Breadcrumbs", c->doing);
	if (*c->wedged) {
		snprintf(buf, sizeof(buf), "%s (PID %d, %s)", c->wedged, c->wedged_pid,
			 c->wedged_task);
		field("Wedged", buf);
	}
	if (c->dump_present)
		snprintf(storage, sizeof(storage), "%s/dumps/%s (present)", q->store_dir,
			 c->dump_file);
	else
		snprintf(storage, sizeof(storage), "none (%s)",
			 *c->not_kept ? c->not_kept : "removed");
	field("Storage", storage);
	snprintf(buf, sizeof(buf), "%llu", (unsigned long long)c->dump_size);
	field("Dump size", buf);
	r = stored_crash_load(q->store_dir, c, &crash);
	if (r == -ENOENT) {
		printf("%14s: no dump or log kept to read it from\n", "Report");
		return 0;
	}
	if (r) {
		fprintf(stderr, "gpurobust info: cannot read %s: %s\n", c->name, strerror(-r));
		return r;
	}
	printf("%14s:\n", "Report");
	r = gpurobust_crash_print(crash, stdout);
	gpurobust_crash_free(crash);
	return r;
}

static int show_json(const struct stored_query *q, const struct gpurobust_stored_crash *c)
{
	struct gpurobust_crash *crash;
	char *json;
	int r = stored_crash_load(q->store_dir, c, &crash);

	if (r) {
		fprintf(stderr, "gpurobust info: cannot read %s: %s\n", c->name,
			r == -ENOENT ? "no dump or log kept" : strerror(-r));
		return r;
	}
	json = gpurobust_crash_to_json(crash);
	gpurobust_crash_free(crash);
	if (!json)
		return -ENOMEM;
	puts(json);
	free(json);
	return 0;
}

int cmd_info(int argc, char **argv)
{
	struct gpurobust_stored_crash *list;
	struct stored_query q;
	size_t n, first;
	int r = stored_parse_args(argc, argv, "gpurobust info [OPTIONS] [MATCH...]", &q);
	int failed = 0;

	if (r)
		return r > 0 ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
	if (stored_select(&q, "gpurobust info", &list, &n))
		return GPUROBUST_EXIT_FAILURE;
	first = q.n_matches || !n ? 0 : n - 1;
	for (size_t i = first; i < n; i++) {
		if (i > first && !q.json)
			putchar('\n');
		failed |= (q.json ? show_json(&q, &list[i]) : show(&q, &list[i])) != 0;
	}
	free(list);
	if (!n || failed || fflush(stdout) || ferror(stdout))
		return GPUROBUST_EXIT_FAILURE;
	return GPUROBUST_EXIT_OK;
}
