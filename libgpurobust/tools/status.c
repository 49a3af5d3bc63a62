// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * gpurobust status: every DRM render node, its driver and interface version,
 * and for amdgpu the detected reset semantics and a fresh context's
 * QUERY_STATE2 view.
 */
#include <errno.h>
#include <getopt.h>
#include <glob.h>
#include <json-c/json.h>
#include <libudev.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "driver/backend/amdgpu/device.h"
#include "commands.h"
#include "common/amdgpu-uapi.h"

#define MAX_NODES 64

/* With --json, stdout carries the JSON document and nothing else. */
static bool text_output = true;

__attribute__((format(printf, 1, 2)))
static void say(const char *fmt, ...)
{
	va_list ap;

	if (!text_output)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

struct node_list {
	char *paths[MAX_NODES];
	size_t count;
};

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_node(struct node_list *list, const char *path)
{
	for (size_t i = 0; i < list->count; i++)
		if (!strcmp(list->paths[i], path))
			return;
	if (list->count < MAX_NODES)
		list->paths[list->count++] = strdup(path);
}

/* Render nodes as udev knows them, plus any /dev/dri node udev does not
 * know: a container may get /dev/dri without the matching sysfs view. */
static int list_render_nodes(struct node_list *list)
{
	struct udev *udev = udev_new();
	struct udev_enumerate *en;
	struct udev_list_entry *entry;
	glob_t nodes;

	if (!udev) {
		fprintf(stderr, "gpurobust status: udev_new failed: %s\n", strerror(errno));
		return -ENOMEM;
	}
	en = udev_enumerate_new(udev);
	if (!en || udev_enumerate_add_match_subsystem(en, "drm") ||
	    udev_enumerate_add_match_sysname(en, "renderD*") ||
	    udev_enumerate_scan_devices(en)) {
		fprintf(stderr, "gpurobust status: udev_enumerate_scan_devices for subsystem drm failed\n");
		udev_enumerate_unref(en);
		udev_unref(udev);
		return -EIO;
	}
	udev_list_entry_foreach(entry, udev_enumerate_get_list_entry(en)) {
		struct udev_device *d = udev_device_new_from_syspath(udev,
					udev_list_entry_get_name(entry));
		const char *node = d ? udev_device_get_devnode(d) : NULL;

		if (node)
			add_node(list, node);
		udev_device_unref(d);
	}
	udev_enumerate_unref(en);
	udev_unref(udev);

	if (glob("/dev/dri/renderD*", 0, NULL, &nodes) == 0) {
		for (size_t i = 0; i < nodes.gl_pathc; i++)
			add_node(list, nodes.gl_pathv[i]);
		globfree(&nodes);
	}
	qsort(list->paths, list->count, sizeof(list->paths[0]), compare_paths);
	return 0;
}

static void format_query2(uint64_t flags, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const struct grb_query2_flag_name *f = grb_query2_flag_names; f->name; f++)
		if ((flags & f->flag) && used < size)
			used += (size_t)snprintf(buf + used, size - used, "%s%s",
						 used ? "|" : "", f->name);
	if (!used)
		snprintf(buf, size, "none");
}

static json_object *query2_json(uint64_t flags)
{
	json_object *q = json_object_new_object();

	json_object_object_add(q, "flags", json_object_new_uint64(flags));
	for (const struct grb_query2_flag_name *f = grb_query2_flag_names; f->name; f++)
		json_object_object_add(q, f->name, json_object_new_boolean(!!(flags & f->flag)));
	return q;
}

/* One node. Returns 1 for amdgpu, 0 for another driver, -errno on failure. */
static int report_node(const char *path, json_object *devices)
{
	struct gpurobust_amdgpu_device *dev = NULL;
	struct amdgpu_open_report report;
	struct gpurobust_amdgpu_info info;
	json_object *j = json_object_new_object();
	char version[48], flags[160];
	int r;

	json_object_object_add(j, "path", json_object_new_string(path));
	json_object_array_add(devices, j);

	r = grb_amdgpu_open_reporting(path, -1, &dev, &report);
	snprintf(version, sizeof(version), "%d.%d.%d", report.version_major,
		 report.version_minor, report.version_patchlevel);
	if (report.driver[0]) {
		json_object_object_add(j, "driver", json_object_new_string(report.driver));
		json_object_object_add(j, "interface_version", json_object_new_string(version));
	}
	if (r == -ENODEV && !report.failed_call) {
		say("%s: driver %s %s, not amdgpu: no reset semantics to report\n",
		    path, report.driver, version);
		return 0;
	}
	if (r) {
		json_object *err = json_object_new_object();

		fprintf(stderr, "gpurobust status: %s: %s failed: %s\n", path,
			report.failed_call ? report.failed_call : "probe", strerror(-r));
		json_object_object_add(err, "call", json_object_new_string(
			report.failed_call ? report.failed_call : "probe"));
		json_object_object_add(err, "errno", json_object_new_int(-r));
		json_object_object_add(err, "message", json_object_new_string(strerror(-r)));
		json_object_object_add(j, "error", err);
		return r;
	}
	gpurobust_amdgpu_get_info(dev, &info);
	gpurobust_amdgpu_close(dev);
	format_query2(info.fresh_ctx_query2_flags, flags, sizeof(flags));
	say("%s: driver amdgpu %s, reset semantics %s\n"
	    "  fresh context QUERY_STATE2: 0x%llx (%s)\n",
	    path, version, gpurobust_semantics_name(info.semantics),
	    (unsigned long long)info.fresh_ctx_query2_flags, flags);
	json_object_object_add(j, "semantics",
			       json_object_new_string(gpurobust_semantics_name(info.semantics)));
	json_object_object_add(j, "fresh_ctx_query2", query2_json(info.fresh_ctx_query2_flags));
	return 1;
}

static void usage(FILE *out)
{
	fprintf(out, "usage: gpurobust status [--device PATH] [--json]\n");
}

int cmd_status(int argc, char **argv)
{
	static const struct option options[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct node_list nodes = { 0 };
	json_object *root, *devices;
	bool json = false;
	int amdgpu_count = 0, failures = 0, rc, opt;
	const char *device = NULL;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:jh", options, NULL)) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
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
	if (optind != argc) {
		usage(stderr);
		return GPUROBUST_EXIT_USAGE;
	}

	if (device) {
		nodes.paths[nodes.count++] = strdup(device);
	} else if (list_render_nodes(&nodes)) {
		return GPUROBUST_EXIT_FAILURE;
	}

	text_output = !json;
	root = json_object_new_object();
	devices = json_object_new_array();
	json_object_object_add(root, "devices", devices);
	for (size_t i = 0; i < nodes.count; i++) {
		int r = report_node(nodes.paths[i], devices);

		if (r < 0)
			failures++;
		else
			amdgpu_count += r;
		free(nodes.paths[i]);
	}
	json_object_object_add(root, "amdgpu_devices", json_object_new_int(amdgpu_count));

	if (failures) {
		rc = GPUROBUST_EXIT_FAILURE;
	} else if (!amdgpu_count) {
		char message[160];

		rc = GPUROBUST_EXIT_NO_DEVICE;
		if (device)
			snprintf(message, sizeof(message),
				 "no amdgpu device: %s is not driven by amdgpu", device);
		else
			snprintf(message, sizeof(message),
				 "no amdgpu device found (%zu DRM render node%s on this machine)",
				 nodes.count, nodes.count == 1 ? "" : "s");
		say("%s\n", message);
		json_object_object_add(root, "message", json_object_new_string(message));
	} else {
		rc = GPUROBUST_EXIT_OK;
	}
	json_object_object_add(root, "exit_code", json_object_new_int(rc));
	if (json)
		printf("%s\n", json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
	json_object_put(root);
	return rc;
}
