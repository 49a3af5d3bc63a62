// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The report, watch and triage subcommands end to end. Their JSON is read
 * back by json-c's strict parser, so that what a collector ingests is valid
 * JSON with the documented fields.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "dumpgen.h"
#include "fixture.h"
#include "run-tool.h"

static const char *field(json_object *o, const char *a, const char *b)
{
	json_object *v;

	assert_true(json_object_object_get_ex(o, a, &v));
	if (b)
		assert_true(json_object_object_get_ex(v, b, &v));
	return json_object_get_string(v);
}

/* A real dump and a real log: the JSON parses and carries both. */
static void test_report_json_is_valid(void **state)
{
	json_object *o;
	char *out;

	(void)state;
	assert_int_equal(run(&out, "report '%s/early-khatri-2024-03.devcoredump' --json "
			     "--dmesg '%s/dmesg-cosmic-epoch-3764.txt'", FIXTURE_DIR, FIXTURE_DIR), 0);
	o = parse_strict(out);
	assert_string_equal(field(o, "what_happened", "process"), "soft_recovery_p");
	assert_string_equal(field(o, "what_happened", "recovery"), "full_reset");
	assert_non_null(strstr(field(o, "application_saw", "guilty"), "GL_GUILTY_CONTEXT_RESET"));
	assert_string_equal(field(o, "source", "printer"), "early");
	json_object_put(o);
	free(out);
}

/* D1 generated: a series dump from standard input; the innocent contexts
 * are in the JSON. */
static void test_D1_report_json_series_from_stdin(void **state)
{
	char path[] = "/tmp/gpurobust-cli-XXXXXX", *out;
	uint8_t capture[4] = { 0 };
	struct textbuf b = { 0 };
	json_object *o, *inn;
	int fd = mkstemp(path);

	(void)state;
	gen_header_612(&b, "6.12.117-gpurobust", "glretrace", 12755, "gfx_0.0.0");
	gen_series(&b, capture, sizeof(capture));
	assert_int_equal(write(fd, b.p, b.len), (ssize_t)b.len);
	close(fd);
	assert_int_equal(run(&out, "report - --json < '%s'", path), 0);
	o = parse_strict(out);
	assert_true(json_object_object_get_ex(json_object_object_get(o, "what_happened"),
					      "innocent_contexts", &inn));
	assert_int_equal(json_object_array_length(inn), 2);
	assert_string_equal(field(o, "source", "printer"), "series");
	json_object_put(o);
	free(out);
	free(b.p);
	unlink(path);
}

static void test_report_bad_input(void **state)
{
	char *out;

	(void)state;
	assert_int_equal(run(&out, "report /nonexistent/dump"), 1);
	free(out);
	assert_int_equal(run(&out, "report"), 2);
	free(out);
	assert_int_equal(run(&out, "report a b"), 2);
	free(out);
	/* nothing amdgpu: exit status 4 and no report, as a dump or as a log
	 * (issue 16: every stray file used to get one shared signature) */
	assert_int_equal(run(&out, "report /etc/hostname"), 4);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(run(&out, "report --json --dmesg /etc/hostname"), 4);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(run(&out, "report - < /dev/null"), 4);
	free(out);
	/* a kernel log given as the dump is read as the log */
	assert_int_equal(run(&out, "report '%s/dmesg-rocm-amdgpu-202.txt'", FIXTURE_DIR), 0);
	assert_non_null(strstr(out, "glretrace hung on gfx_0.0.0"));
	free(out);
}

/* A fake sysfs under @root: one amdgpu device (card0) and @dumps devcdN
 * directories failing on it, without their data. */
static void fake_sysfs(const char *root, int dumps)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; d=devices/pci0000:00/0000:03:00.0;"
		 "mkdir -p bus/pci/drivers/amdgpu $d/drm/card0 class/devcoredump class/drm;"
		 "ln -s \"$PWD/bus/pci/drivers/amdgpu\" $d/driver;"
		 "ln -s \"$PWD/$d\" $d/drm/card0/device; ln -s \"$PWD/$d/drm/card0\" class/drm/card0;"
		 "for i in $(seq %d); do mkdir -p devices/virtual/devcoredump/devcd$i;"
		 " ln -s \"$PWD/devices/virtual/devcoredump/devcd$i\" class/devcoredump/devcd$i;"
		 " ln -s \"$PWD/$d\" devices/virtual/devcoredump/devcd$i/failing_device; done",
		 root, dumps);
	assert_int_equal(system(cmd), 0);
}

/* watch --once on a fake sysfs with two amdgpu dumps, then triage --json
 * and report --latest for one DRM node. */
static void test_watch_once_then_triage_json(void **state)
{
	char root[] = "/tmp/gpurobust-watch-XXXXXX", cmd[1024], *out;
	json_object *o;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_sysfs(root, 2);
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s';"
		 "cp '%s/early-khatri-2024-03.devcoredump' devices/virtual/devcoredump/devcd1/data;"
		 "cp '%s/gen612-vkd3d-proton-3073.devcoredump' devices/virtual/devcoredump/devcd2/data;"
		 "printf '6,1,29725011,-;amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\\n' > kmsg",
		 root, FIXTURE_DIR, FIXTURE_DIR);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run(&out, "watch --once --sysfs '%s' --kmsg '%s/kmsg' --store '%s/store'",
			     root, root, root), 0);
	assert_non_null(strstr(out, "stored event 1"));
	assert_non_null(strstr(out, "stored event 2"));
	free(out);
	/* --latest --device: the newest dump of that DRM node, devcd2 */
	assert_int_equal(run(&out, "report --latest --device card0 --sysfs '%s' --json", root), 0);
	o = parse_strict(out);
	assert_string_equal(field(o, "what_happened", "process"), "ForzaHorizon5.e");
	json_object_put(o);
	free(out);
	assert_int_equal(run(&out, "report --latest --device card7 --sysfs '%s'", root), 1);
	free(out);
	assert_int_equal(run(&out, "triage --json --store '%s/store'", root), 0);
	o = parse_strict(out);
	assert_int_equal(json_object_array_length(o), 2);
	assert_int_equal(json_object_get_int(json_object_object_get(
				 json_object_array_get_idx(o, 0), "count")), 1);
	json_object_put(o);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* An amdgpu devcoredump whose data holds nothing amdgpu, and a kernel log
 * without amdgpu lines: watch stores nothing (issue 16). */
static void test_watch_stores_nothing_for_stray_input(void **state)
{
	char root[] = "/tmp/gpurobust-watch-XXXXXX", cmd[1024], *out;
	json_object *o;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_sysfs(root, 1);
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s';"
		 "echo 'hello world' > devices/virtual/devcoredump/devcd1/data;"
		 "printf '6,1,29725011,-;usb 1-1: new high-speed USB device\\n' > kmsg", root);
	assert_int_equal(system(cmd), 0);
	run(&out, "watch --once --sysfs '%s' --kmsg '%s/kmsg' --store '%s/store'", root, root, root);
	assert_null(strstr(out, "stored event"));
	free(out);
	assert_int_equal(run(&out, "triage --json --store '%s/store'", root), 0);
	o = parse_strict(out);
	assert_int_equal(json_object_array_length(o), 0);
	json_object_put(o);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* collect DEVCD, as gpurobust-collect@.service runs it: stores that one
 * dump and frees it (a write to its data file), leaves the other; a name
 * that is gone, or --keep, leave sysfs alone; no name is a usage error. */
static void test_collect_one_dump(void **state)
{
	char root[] = "/tmp/gpurobust-collect-XXXXXX", cmd[1024], path[600], *out;
	json_object *o;
	size_t len = 0;
	char *data;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_sysfs(root, 2);
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s';"
		 "cp '%s/early-khatri-2024-03.devcoredump' devices/virtual/devcoredump/devcd1/data;"
		 "cp '%s/gen612-vkd3d-proton-3073.devcoredump' devices/virtual/devcoredump/devcd2/data;"
		 ": > kmsg", root, FIXTURE_DIR, FIXTURE_DIR);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run(&out, "collect --sysfs '%s' --kmsg '%s/kmsg' --store '%s/store' devcd2",
			     root, root, root), 0);
	assert_non_null(strstr(out, "stored event 1"));
	free(out);
	/* freed: the kernel frees a dump on any write to its data file, which
	 * in the fake tree shows as the "1" written over its first byte */
	snprintf(path, sizeof(path), "%s/devices/virtual/devcoredump/devcd2/data", root);
	data = fixture_read_path(path, &len);
	assert_non_null(data);
	assert_int_equal(data[0], '1');
	free(data);
	/* the other dump is untouched */
	snprintf(path, sizeof(path), "%s/devices/virtual/devcoredump/devcd1/data", root);
	data = fixture_read_path(path, &len);
	assert_int_equal(data[0], '*');
	free(data);
	/* --keep stores and leaves it */
	assert_int_equal(run(&out, "collect --keep --sysfs '%s' --kmsg '%s/kmsg' --store '%s/store' "
			     "'%s/class/devcoredump/devcd1'", root, root, root, root), 0);
	assert_non_null(strstr(out, "stored event 2"));
	free(out);
	data = fixture_read_path(path, &len);
	assert_int_equal(data[0], '*');
	free(data);
	/* gone: not a failure, nothing stored */
	assert_int_equal(run(&out, "collect --sysfs '%s' --kmsg '%s/kmsg' --store '%s/store' devcd9",
			     root, root, root), 0);
	assert_non_null(strstr(out, "no such devcoredump"));
	free(out);
	assert_int_equal(run(&out, "collect --sysfs '%s' --store '%s/store'", root, root), 2);
	free(out);
	assert_int_equal(run(&out, "triage --json --store '%s/store'", root), 0);
	o = parse_strict(out);
	assert_int_equal(json_object_array_length(o), 2);
	json_object_put(o);
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

/* FleetStore= in collect.conf: collect also queues the crash, with its
 * GPU from the failing device's sysfs directory, and `gpurobust send`
 * (store and outbox from collect.conf) sends it to the fleet store, where
 * triage finds it; the outbox is empty after. */
static void test_collect_queues_for_the_fleet(void **state)
{
	char root[] = "/tmp/gpurobust-fleet-XXXXXX", cmd[2048], *out;
	json_object *o, *g;

	(void)state;
	assert_non_null(mkdtemp(root));
	fake_sysfs(root, 1);
	snprintf(cmd, sizeof(cmd),
		 "set -e; cd '%s'; d=devices/pci0000:00/0000:03:00.0;"
		 "printf '0x1002\\n' > $d/vendor; printf '0x744c\\n' > $d/device;"
		 "printf '113-D7020100-102\\n' > $d/vbios_version;"
		 "cp '%s/gen612-vkd3d-proton-3073.devcoredump' devices/virtual/devcoredump/devcd1/data;"
		 ": > kmsg; mkdir etc;"
		 "printf '[Collect]\\nFleetStore=sqlite://%s/fleet.db\\nFleetOutbox=%s/outbox\\n'"
		 " > etc/collect.conf", root, FIXTURE_DIR, root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run(&out, "collect --config-dir '%s/etc' --sysfs '%s' --kmsg '%s/kmsg' "
			     "--store '%s/store' devcd1", root, root, root, root), 0);
	free(out);
	snprintf(cmd, sizeof(cmd), "test $(ls '%s/outbox' | grep -c '^[0-9a-f]*\\.json$') = 1 &&"
		 " grep -q '\"pci_id\":\"1002:744c\"' '%s'/outbox/*.json &&"
		 " grep -q '\"vbios\":\"113-D7020100-102\"' '%s'/outbox/*.json",
		 root, root, root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run(&out, "send --config-dir '%s/etc'", root), 0);
	assert_non_null(strstr(out, "sent 1 crash to sqlite://"));
	free(out);
	snprintf(cmd, sizeof(cmd), "test -z \"$(ls -A '%s/outbox')\"", root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(run(&out, "triage --json --store 'sqlite://%s/fleet.db'", root), 0);
	o = parse_strict(out);
	assert_int_equal(json_object_array_length(o), 1);
	g = json_object_array_get_idx(o, 0);
	assert_int_equal(json_object_get_int(json_object_object_get(g, "crashes")), 1);
	assert_int_equal(json_object_get_int(json_object_object_get(g, "machines")), 1);
	json_object_put(o);
	free(out);
	/* again: nothing queued, nothing sent, nothing lost */
	assert_int_equal(run(&out, "send --config-dir '%s/etc'", root), 0);
	assert_non_null(strstr(out, "sent 0 crashes"));
	free(out);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report_json_is_valid),
		cmocka_unit_test(test_D1_report_json_series_from_stdin),
		cmocka_unit_test(test_report_bad_input),
		cmocka_unit_test(test_watch_once_then_triage_json),
		cmocka_unit_test(test_collect_one_dump),
		cmocka_unit_test(test_collect_queues_for_the_fleet),
		cmocka_unit_test(test_watch_stores_nothing_for_stray_input),
	};

	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
