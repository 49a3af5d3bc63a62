// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust triage --store URI: what a triage team asks a fleet store
 * (gpurobust/fleet.h). Top groups in a time window, groups new since a
 * kernel or driver version, and one group's spread over GPUs and
 * versions with its first and last seen; as a table or JSON.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include <gpurobust/fleet.h>
#include <gpurobust/text.h>

#include "commands.h"
#include "triage.h"

static void iso_time(int64_t t, char *buf, size_t size)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(buf, size, "%" PRId64, t);
}

/* Text from the fleet came from machines' hung processes: it is printed
 * inert (gpurobust_text_escape()). */
static void print_groups(const struct gpurobust_fleet_group *g, size_t n)
{
	printf("%-16s %8s %8s  %-20s  %-20s  %s\n", "GROUP", "CRASHES", "MACHINES",
	       "FIRST SEEN", "LAST SEEN", "TITLE");
	for (size_t i = 0; i < n; i++) {
		char first[32], last[32], title[4 * sizeof(g->title) + 1];
		char signature[4 * sizeof(g->signature) + 1];

		iso_time(g[i].first_seen, first, sizeof(first));
		iso_time(g[i].last_seen, last, sizeof(last));
		gpurobust_text_escape(title, sizeof(title), g[i].title);
		gpurobust_text_escape(signature, sizeof(signature), g[i].signature);
		printf("%-16s %8" PRIu64 " %8" PRIu64 "  %-20s  %-20s  %s\n", signature,
		       g[i].count, g[i].machines, first, last, title);
	}
}

static json_object *group_json(const struct gpurobust_fleet_group *g)
{
	json_object *o = json_object_new_object();
	char title[4 * sizeof(g->title) + 1], signature[4 * sizeof(g->signature) + 1];

	if (!o)
		return NULL;
	gpurobust_text_escape(title, sizeof(title), g->title);
	gpurobust_text_escape(signature, sizeof(signature), g->signature);
	json_object_object_add(o, "group", json_object_new_string(signature));
	json_object_object_add(o, "title", json_object_new_string(title));
	json_object_object_add(o, "crashes", json_object_new_uint64(g->count));
	json_object_object_add(o, "machines", json_object_new_uint64(g->machines));
	json_object_object_add(o, "first_seen", json_object_new_int64(g->first_seen));
	json_object_object_add(o, "last_seen", json_object_new_int64(g->last_seen));
	return o;
}

static void print_spread(const struct gpurobust_fleet_group *g,
			 const struct gpurobust_fleet_spread *s, size_t n)
{
	char first[32], last[32];

	print_groups(g, 1);
	printf("\n%-10s %-12s %-24s %-16s %8s  %-20s  %s\n", "PCI ID", "FAMILY", "KERNEL",
	       "DRIVER", "CRASHES", "FIRST SEEN", "LAST SEEN");
	for (size_t i = 0; i < n; i++) {
		char pci[4 * sizeof(s->pci_id) + 1], family[4 * sizeof(s->family) + 1];
		char kernel[4 * sizeof(s->kernel) + 1], driver[4 * sizeof(s->driver) + 1];

		iso_time(s[i].first_seen, first, sizeof(first));
		iso_time(s[i].last_seen, last, sizeof(last));
		gpurobust_text_escape(pci, sizeof(pci), s[i].pci_id);
		gpurobust_text_escape(family, sizeof(family), s[i].family);
		gpurobust_text_escape(kernel, sizeof(kernel), s[i].kernel);
		gpurobust_text_escape(driver, sizeof(driver), s[i].driver);
		printf("%-10s %-12s %-24s %-16s %8" PRIu64 "  %-20s  %s\n", pci, family, kernel,
		       driver, s[i].count, first, last);
	}
}

static json_object *spread_json(const struct gpurobust_fleet_group *g,
				const struct gpurobust_fleet_spread *s, size_t n)
{
	json_object *o = group_json(g), *rows = json_object_new_array();

	for (size_t i = 0; o && rows && i < n; i++) {
		json_object *row = json_object_new_object();
		char text[4 * sizeof(s->kernel) + 1];

		if (!row || json_object_array_add(rows, row))
			break;
#define ADD_TEXT(name, field) \
		gpurobust_text_escape(text, sizeof(text), s[i].field); \
		json_object_object_add(row, name, json_object_new_string(text));
		ADD_TEXT("pci_id", pci_id)
		ADD_TEXT("family", family)
		ADD_TEXT("kernel", kernel)
		ADD_TEXT("driver", driver)
#undef ADD_TEXT
		json_object_object_add(row, "crashes", json_object_new_uint64(s[i].count));
		json_object_object_add(row, "first_seen", json_object_new_int64(s[i].first_seen));
		json_object_object_add(row, "last_seen", json_object_new_int64(s[i].last_seen));
	}
	if (o)
		json_object_object_add(o, "spread", rows);
	else
		json_object_put(rows);
	return o;
}

static int put_json(json_object *o)
{
	if (!o)
		return -ENOMEM;
	puts(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	return 0;
}

int triage_fleet(const char *uri, const struct triage_args *a)
{
	struct gpurobust_fleet_group *groups = NULL, group;
	struct gpurobust_fleet_spread *spread = NULL;
	struct gpurobust_fleet *fleet;
	char shown[512];
	size_t n = 0;
	int r;

	r = gpurobust_fleet_open(uri, &fleet);
	if (r) {
		fprintf(stderr, "gpurobust triage: %s: %s\n",
			gpurobust_fleet_uri_redact(uri, shown, sizeof(shown)),
			gpurobust_fleet_error(NULL));
		return GPUROBUST_EXIT_FAILURE;
	}
	if (a->group) {
		r = gpurobust_fleet_group_spread(fleet, a->group, &group, &spread, &n);
		if (!r && !group.count) {
			fprintf(stderr, "gpurobust triage: no crashes of group %s\n", a->group);
			free(spread);
			gpurobust_fleet_close(fleet);
			return GPUROBUST_EXIT_NOTHING;
		}
		if (!r && a->json)
			r = put_json(spread_json(&group, spread, n));
		else if (!r)
			print_spread(&group, spread, n);
	} else {
		r = gpurobust_fleet_top(fleet, &a->query, &groups, &n);
		if (!r && a->json) {
			json_object *arr = json_object_new_array();

			for (size_t i = 0; arr && i < n; i++)
				json_object_array_add(arr, group_json(&groups[i]));
			r = put_json(arr);
		} else if (!r) {
			print_groups(groups, n);
		}
	}
	if (r)
		fprintf(stderr, "gpurobust triage: %s\n",
			gpurobust_fleet_error(fleet)[0] ? gpurobust_fleet_error(fleet) :
							  strerror(-r));
	if (!r && ferror(stdout))
		r = -EIO;
	free(groups);
	free(spread);
	gpurobust_fleet_close(fleet);
	return r ? GPUROBUST_EXIT_FAILURE : GPUROBUST_EXIT_OK;
}
