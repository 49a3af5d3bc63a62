// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust list [--since T] [--until T] [--json] [MATCH...]
 *
 * The stored GPU crashes the caller may read, oldest first, one per line,
 * in coredumpctl list's shape. Root sees all; a user sees the crashes of
 * their own processes.
 */
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>

#include <gpurobust/text.h>

#include "commands.h"
#include "stored.h"

static void print_text(const struct gpurobust_stored_crash *list, size_t n)
{
	printf("%-28s %7s %5s %5s %-13s %-7s %-16s %-15s %s\n", "TIME", "PID", "UID", "GID",
	       "RECOVERY", "DUMP", "SIGNATURE", "COMM", "TITLE");
	for (size_t i = 0; i < n; i++) {
		const struct gpurobust_stored_crash *c = &list[i];
		char when[64], uid[12] = "-", gid[12] = "-";
		char comm[4 * sizeof(c->process) + 1], title[4 * sizeof(c->title) + 1];

		stored_format_time(c->seen, when, sizeof(when));
		if (c->owner_known) {
			snprintf(uid, sizeof(uid), "%u", c->uid);
			snprintf(gid, sizeof(gid), "%u", c->gid);
		}
		/* names and titles came from the hung process: inert */
		gpurobust_text_escape(comm, sizeof(comm), c->process);
		gpurobust_text_escape(title, sizeof(title), c->title);
		printf("%-28s %7d %5s %5s %-13s %-7s %-16s %-15s %s\n", when, c->pid, uid, gid,
		       c->recovery, stored_dump_state(c), c->signature, comm, title);
	}
}

static json_object *crash_json(const struct gpurobust_stored_crash *c)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "id", json_object_new_int64(c->id));
	json_object_object_add(o, "time", json_object_new_int64(c->seen));
	json_object_object_add(o, "pid", json_object_new_int(c->pid));
	json_object_object_add(o, "uid", c->owner_known ? json_object_new_int64(c->uid) : NULL);
	json_object_object_add(o, "gid", c->owner_known ? json_object_new_int64(c->gid) : NULL);
	json_object_object_add(o, "comm", json_object_new_string(c->process));
	json_object_object_add(o, "recovery", json_object_new_string(c->recovery));
	json_object_object_add(o, "outcome", json_object_new_string(c->outcome));
	json_object_object_add(o, "signature", json_object_new_string(c->signature));
	json_object_object_add(o, "title", json_object_new_string(c->title));
	json_object_object_add(o, "device", json_object_new_string(c->device));
	json_object_object_add(o, "breadcrumbs", json_object_new_string(c->doing));
	json_object_object_add(o, "dump", json_object_new_string(stored_dump_state(c)));
	json_object_object_add(o, "dump_size", json_object_new_int64((int64_t)c->dump_size));
	json_object_object_add(o, "not_kept", json_object_new_string(c->not_kept));
	json_object_object_add(o, "entry", json_object_new_string(c->name));
	if (*c->wedged) {
		json_object *w = json_object_new_object();

		json_object_object_add(w, "method", json_object_new_string(c->wedged));
		json_object_object_add(w, "pid", json_object_new_int(c->wedged_pid));
		json_object_object_add(w, "task", json_object_new_string(c->wedged_task));
		json_object_object_add(o, "wedged", w);
	} else {
		json_object_object_add(o, "wedged", NULL);
	}
	return o;
}

int cmd_list(int argc, char **argv)
{
	struct gpurobust_stored_crash *list;
	struct stored_query q;
	size_t n;
	int r = stored_parse_args(argc, argv, "gpurobust list [OPTIONS] [MATCH...]", &q);

	if (r)
		return r > 0 ? GPUROBUST_EXIT_OK : GPUROBUST_EXIT_USAGE;
	if (stored_select(&q, "gpurobust list", &list, &n))
		return GPUROBUST_EXIT_FAILURE;
	if (q.json) {
		json_object *a = json_object_new_array();

		for (size_t i = 0; i < n; i++)
			json_object_array_add(a, crash_json(&list[i]));
		puts(json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY));
		json_object_put(a);
	} else if (n) {
		print_text(list, n);
	}
	free(list);
	return fflush(stdout) || ferror(stdout) ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
