// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The collector's I/O on a fake sysfs tree and a fake kernel log: finding
 * the devcoredumps of one DRM device, reading and clearing them, the uevents
 * the watcher keeps, and the log context it saves.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include <gpurobust/collector.h>

#include "crash/backend/sysfs/kmsg.h"
#include "crash/backend/sysfs/watch.h"

struct tree {
	char root[64];
};

static void mkdirs(const char *root, const char *rel)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static void link_at(const char *root, const char *target, const char *rel)
{
	char t[512], l[512];

	snprintf(t, sizeof(t), "%s/%s", root, target);
	snprintf(l, sizeof(l), "%s/%s", root, rel);
	assert_int_equal(symlink(t, l), 0);
}

static void write_at(const char *root, const char *rel, const char *text)
{
	char p[512];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

#define AMD "devices/pci0000:00/0000:03:00.0"
#define OTHER "devices/pci0000:00/0000:04:00.0"

/* card0 is amdgpu with devcd1 and devcd3; card1 is another driver with devcd2. */
static int tree_setup(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));

	strcpy(t->root, "/tmp/gpurobust-sysfs-XXXXXX");
	assert_non_null(mkdtemp(t->root));
	mkdirs(t->root, "bus/pci/drivers/amdgpu");
	mkdirs(t->root, "bus/pci/drivers/i915");
	mkdirs(t->root, AMD "/drm/card0");
	mkdirs(t->root, OTHER "/drm/card1");
	mkdirs(t->root, "class/drm");
	mkdirs(t->root, "class/devcoredump");
	link_at(t->root, "bus/pci/drivers/amdgpu", AMD "/driver");
	link_at(t->root, "bus/pci/drivers/i915", OTHER "/driver");
	link_at(t->root, AMD, AMD "/drm/card0/device");
	link_at(t->root, OTHER, OTHER "/drm/card1/device");
	link_at(t->root, AMD "/drm/card0", "class/drm/card0");
	link_at(t->root, OTHER "/drm/card1", "class/drm/card1");
	for (int i = 1; i <= 3; i++) {
		char rel[128], cls[128], fail[160];

		snprintf(rel, sizeof(rel), "devices/virtual/devcoredump/devcd%d", i);
		snprintf(cls, sizeof(cls), "class/devcoredump/devcd%d", i);
		snprintf(fail, sizeof(fail), "%s/failing_device", rel);
		mkdirs(t->root, rel);
		link_at(t->root, rel, cls);
		link_at(t->root, i == 2 ? OTHER : AMD, fail);
		snprintf(fail, sizeof(fail), "%s/data", rel);
		write_at(t->root, fail, i == 2 ? "i915 dump\n" : "**** AMDGPU Device Coredump ****\n");
	}
	*state = t;
	return 0;
}

static int tree_teardown(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", t->root);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

static void test_devcd_list_for_one_drm_device(void **state)
{
	struct tree *t = *state;
	struct gpurobust_devcd *list;
	char path[512];
	size_t n;

	assert_int_equal(gpurobust_devcd_list(t->root, NULL, &list, &n), 0);
	assert_int_equal(n, 3);
	free(list);
	assert_int_equal(gpurobust_devcd_list(t->root, "/dev/dri/card0", &list, &n), 0);
	assert_int_equal(n, 2);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(list[i].driver, "amdgpu");
		assert_non_null(strstr(list[i].failing_device, "0000:03:00.0"));
	}
	free(list);
	assert_int_equal(gpurobust_devcd_list(t->root, "card1", &list, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(list[0].driver, "i915");
	free(list);
	/* card0's device unbound (as WEDGED=rebind asks): its dumps are still
	 * amdgpu's by their header, card1's stay another driver's */
	snprintf(path, sizeof(path), "%s/" AMD "/driver", t->root);
	assert_int_equal(unlink(path), 0);
	snprintf(path, sizeof(path), "%s/" OTHER "/driver", t->root);
	assert_int_equal(unlink(path), 0);
	assert_int_equal(gpurobust_devcd_list(t->root, NULL, &list, &n), 0);
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(list[i].driver,
				    strstr(list[i].path, "devcd2") ? "" : "amdgpu");
	free(list);
	assert_int_equal(gpurobust_devcd_list(t->root, "card9", &list, &n), -ENOENT);
	/* no devcoredump class at all: no dumps, not an error */
	assert_int_equal(gpurobust_devcd_list("/nonexistent", NULL, &list, &n), 0);
	assert_int_equal(n, 0);
}

static void test_devcd_read_and_clear(void **state)
{
	struct tree *t = *state;
	struct gpurobust_devcd *list;
	char *data;
	size_t n, len;

	assert_int_equal(gpurobust_devcd_list(t->root, "card0", &list, &n), 0);
	assert_true(n > 0);
	assert_int_equal(gpurobust_devcd_read(list[0].path, &data, &len), 0);
	assert_string_equal(data, "**** AMDGPU Device Coredump ****\n");
	assert_int_equal(len, strlen(data));
	free(data);
	/* the kernel frees a dump on any write; here the write lands in the file */
	assert_int_equal(gpurobust_devcd_clear(list[0].path), 0);
	assert_int_equal(gpurobust_devcd_read(list[0].path, &data, &len), 0);
	assert_int_equal(data[0], '1');
	free(data);
	assert_int_equal(gpurobust_devcd_read("/nonexistent", &data, &len), -ENOENT);
	free(list);
}

/* The watcher keeps devcoredump "add" and DRM "change" with WEDGED=. */
static void test_watch_classifies_uevents(void **state)
{
	struct gpurobust_watch_event ev;
	struct uevent_fields add = {
		.action = "add", .subsystem = "devcoredump",
		.syspath = "/sys/devices/virtual/devcoredump/devcd1",
	};
	struct uevent_fields wedged = {
		.action = "change", .subsystem = "drm", .syspath = "/sys/devices/x/drm/card0",
		.wedged = "none", .pid = "12755", .task = "glretrace",
	};
	struct uevent_fields hotplug = {
		.action = "change", .subsystem = "drm", .syspath = "/sys/devices/x/drm/card0",
	};
	struct uevent_fields remove = add;

	(void)state;
	remove.action = "remove";
	assert_true(grb_watch_classify(&add, &ev));
	assert_int_equal(ev.kind, GPUROBUST_WATCH_DEVCOREDUMP);
	assert_string_equal(ev.syspath, add.syspath);
	assert_true(grb_watch_classify(&wedged, &ev));
	assert_int_equal(ev.kind, GPUROBUST_WATCH_RESET);
	assert_string_equal(ev.wedged, "none");
	assert_int_equal(ev.pid, 12755);
	assert_string_equal(ev.task, "glretrace");
	assert_false(grb_watch_classify(&hotplug, &ev));
	assert_false(grb_watch_classify(&remove, &ev));
}

/* /dev/kmsg records become dmesg lines; unrelated ones are dropped. */
static void test_kmsg_context(void **state)
{
	char path[] = "/tmp/gpurobust-kmsg-XXXXXX", *text;
	size_t len;
	int fd = mkstemp(path);
	static const char records[] =
		"6,100,87853679,-;amdgpu 0000:45:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=9261, emitted seq=9264\n"
		" SUBSYSTEM=pci\n"
		" DEVICE=+pci:0000:45:00.0\n"
		"6,101,87853700,-;usb 1-1: new device\n"
		"3,102,90096238,-;amdgpu 0000:45:00.0: amdgpu: GPU reset begin!\n";

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, records, sizeof(records) - 1), (ssize_t)sizeof(records) - 1);
	close(fd);
	assert_int_equal(grb_kmsg_hang_context(path, &text, &len), 0);
	assert_string_equal(text,
		"[   87.853679] amdgpu 0000:45:00.0: amdgpu: ring gfx_0.0.0 timeout, signaled seq=9261, emitted seq=9264\n"
		"[   90.096238] amdgpu 0000:45:00.0: amdgpu: GPU reset begin!\n");
	free(text);
	unlink(path);
	assert_int_equal(grb_kmsg_hang_context("/nonexistent", &text, &len), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_devcd_list_for_one_drm_device, tree_setup,
						tree_teardown),
		cmocka_unit_test_setup_teardown(test_devcd_read_and_clear, tree_setup,
						tree_teardown),
		cmocka_unit_test(test_watch_classifies_uevents),
		cmocka_unit_test(test_kmsg_context),
	};

	return cmocka_run_group_tests_name("collector", tests, NULL, NULL);
}
