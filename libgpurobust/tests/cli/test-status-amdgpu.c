// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * 'gpurobust status' on an amdgpu node, without one: the command's own code
 * (tools/status.c) runs over the real libdrm against the fake amdgpu kernel
 * of tests/fake-kernel (LD_PRELOAD), and its output is read back: text, and
 * JSON through json-c's parser.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../reset/test-helpers.h"
#include "common/amdgpu-uapi.h"
#include "commands.h"
#include "fake-amdgpu.h"

struct captured {
	int rc;
	char out[8192];
	char err[8192];
};

static void read_back(FILE *f, char *buf, size_t size)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, size - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/* Run `gpurobust status ARGS` with stdout and stderr captured. */
static struct captured *run_status(const char *arg1, const char *arg2, const char *arg3)
{
	char *argv[] = { "status", (char *)arg1, (char *)arg2, (char *)arg3, NULL };
	int argc = 1 + !!arg1 + !!arg2 + !!arg3;
	struct captured *c = calloc(1, sizeof(*c));
	FILE *out = tmpfile(), *err = tmpfile();
	int saved_out = dup(STDOUT_FILENO), saved_err = dup(STDERR_FILENO);

	assert_non_null(out);
	assert_non_null(err);
	fflush(stdout);
	fflush(stderr);
	dup2(fileno(out), STDOUT_FILENO);
	dup2(fileno(err), STDERR_FILENO);
	c->rc = cmd_status(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved_out, STDOUT_FILENO);
	dup2(saved_err, STDERR_FILENO);
	close(saved_out);
	close(saved_err);
	read_back(out, c->out, sizeof(c->out));
	read_back(err, c->err, sizeof(c->err));
	return c;
}

static int fresh_kernel(void **state)
{
	fake_amdgpu_reset();
	return 0;
}

static int no_violation(void **state)
{
	assert_null(fake_amdgpu_violation());
	return 0;
}

/* "NODE: " + @text, as the command prints a line about the fake node. */
static const char *about_node(const char *text)
{
	static char line[512];

	snprintf(line, sizeof(line), "%s: %s", fake_amdgpu_node(), text);
	return line;
}

static json_object *field(json_object *obj, const char *key)
{
	json_object *value = NULL;

	assert_true(json_object_object_get_ex(obj, key, &value));
	return value;
}

static void test_L6_status_json_reports_per_ctx_semantics(void **state)
{
	struct captured *c;
	json_object *doc, *dev;

	fake_amdgpu_set_per_ctx(true);
	c = run_status("--device", fake_amdgpu_node(), "--json");
	assert_int_equal(c->rc, GPUROBUST_EXIT_OK);
	doc = json_tokener_parse(c->out);
	assert_non_null(doc);
	assert_int_equal(json_object_get_int(field(doc, "amdgpu_devices")), 1);
	assert_int_equal(json_object_get_int(field(doc, "exit_code")), 0);
	dev = json_object_array_get_idx(field(doc, "devices"), 0);
	assert_string_equal(json_object_get_string(field(dev, "path")), fake_amdgpu_node());
	assert_string_equal(json_object_get_string(field(dev, "driver")), "amdgpu");
	assert_string_equal(json_object_get_string(field(dev, "interface_version")), "3.59.0");
	assert_string_equal(json_object_get_string(field(dev, "semantics")), "per_ctx");
	assert_true(json_object_get_boolean(field(field(dev, "fresh_ctx_query2"), "PER_CTX_RESET")));
	assert_false(json_object_get_boolean(field(field(dev, "fresh_ctx_query2"), "RESET")));
	json_object_put(doc);
	free(c);
}

static void test_L7_status_text_reports_legacy_semantics(void **state)
{
	struct captured *c;

	fake_amdgpu_set_kms_minor(54);
	c = run_status("--device", fake_amdgpu_node(), NULL);
	assert_int_equal(c->rc, GPUROBUST_EXIT_OK);
	assert_non_null(strstr(c->out, about_node("driver amdgpu 3.54.0, reset semantics legacy\n")));
	assert_non_null(strstr(c->out, "  fresh context QUERY_STATE2: 0x0 (none)\n"));
	assert_string_equal(c->err, "");
	free(c);
}

static void test_status_other_driver_is_no_amdgpu_device(void **state)
{
	struct captured *c;

	fake_amdgpu_set_driver("i915");
	c = run_status("--device", fake_amdgpu_node(), NULL);
	assert_int_equal(c->rc, GPUROBUST_EXIT_NO_DEVICE);
	assert_non_null(strstr(c->out, about_node("driver i915 3.59.0, not amdgpu")));
	assert_non_null(strstr(c->out, "is not driven by amdgpu"));
	free(c);
}

static void test_status_error_names_the_device_and_the_call(void **state)
{
	struct captured *c;
	json_object *doc, *err;
	char expected[512];

	fake_amdgpu_fail_next(FAKE_CTX_ALLOC, -EACCES);
	c = run_status("--device", fake_amdgpu_node(), NULL);
	assert_int_equal(c->rc, GPUROBUST_EXIT_FAILURE);
	snprintf(expected, sizeof(expected), "gpurobust status: %s: amdgpu_cs_ctx_create failed: "
		 "Permission denied\n", fake_amdgpu_node());
	assert_string_equal(c->err, expected);
	free(c);

	fake_amdgpu_fail_next(FAKE_CTX_QUERY_STATE2, -EINVAL);
	c = run_status("--json", "--device", fake_amdgpu_node());
	assert_int_equal(c->rc, GPUROBUST_EXIT_FAILURE);
	doc = json_tokener_parse(c->out);
	assert_non_null(doc);
	err = field(json_object_array_get_idx(field(doc, "devices"), 0), "error");
	assert_string_equal(json_object_get_string(field(err, "call")),
			    "amdgpu_cs_query_reset_state2");
	assert_int_equal(json_object_get_int(field(err, "errno")), EINVAL);
	json_object_put(doc);
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define FAKE_KERNEL_TEST(t) cmocka_unit_test_setup_teardown(t, fresh_kernel, no_violation)
		FAKE_KERNEL_TEST(test_L6_status_json_reports_per_ctx_semantics),
		FAKE_KERNEL_TEST(test_L7_status_text_reports_legacy_semantics),
		FAKE_KERNEL_TEST(test_status_other_driver_is_no_amdgpu_device),
		FAKE_KERNEL_TEST(test_status_error_names_the_device_and_the_call),
#undef FAKE_KERNEL_TEST
	};

	return cmocka_run_group_tests_name("cli-status-amdgpu", tests, NULL, NULL);
}
