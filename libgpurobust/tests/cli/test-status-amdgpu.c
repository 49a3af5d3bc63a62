// SPDX-License-Identifier: MIT
/*
 * 'gpurobust status' on an amdgpu node, without one: the command's own code
 * (tools/status.c) runs against the scripted libdrm of tests/reset, and its
 * output is read back: text, and JSON through json-c's parser.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../reset/libdrm-script.h"
#include "../reset/test-helpers.h"
#include "common/amdgpu-uapi.h"
#include "commands.h"

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

static void script_amdgpu(uint64_t fresh_flags)
{
	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, 0);
	will_return(amdgpu_cs_query_reset_state2, fresh_flags);
	will_return(amdgpu_cs_query_reset_state2, 0);
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

	script_amdgpu(AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET);
	c = run_status("--device", "/dev/null", "--json");
	assert_int_equal(c->rc, GPUROBUST_EXIT_OK);
	doc = json_tokener_parse(c->out);
	assert_non_null(doc);
	assert_int_equal(json_object_get_int(field(doc, "amdgpu_devices")), 1);
	assert_int_equal(json_object_get_int(field(doc, "exit_code")), 0);
	dev = json_object_array_get_idx(field(doc, "devices"), 0);
	assert_string_equal(json_object_get_string(field(dev, "path")), "/dev/null");
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

	/* Upstream: a fresh context already sees an earlier device reset. */
	script_amdgpu(AMDGPU_CTX_QUERY2_FLAGS_RESET);
	c = run_status("--device", "/dev/null", NULL);
	assert_int_equal(c->rc, GPUROBUST_EXIT_OK);
	assert_non_null(strstr(c->out, "/dev/null: driver amdgpu 3.59.0, reset semantics legacy\n"));
	assert_non_null(strstr(c->out, "  fresh context QUERY_STATE2: 0x1 (RESET)\n"));
	assert_string_equal(c->err, "");
	free(c);
}

static void test_status_other_driver_is_no_amdgpu_device(void **state)
{
	struct captured *c;

	will_return(drmGetVersion, "i915");
	c = run_status("--device", "/dev/null", NULL);
	assert_int_equal(c->rc, GPUROBUST_EXIT_NO_DEVICE);
	assert_non_null(strstr(c->out, "/dev/null: driver i915 3.59.0, not amdgpu"));
	assert_non_null(strstr(c->out, "no amdgpu device: /dev/null is not driven by amdgpu"));
	free(c);
}

static void test_status_error_names_the_device_and_the_call(void **state)
{
	struct captured *c;
	json_object *doc, *err;

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, -EACCES);
	c = run_status("--device", "/dev/null", NULL);
	assert_int_equal(c->rc, GPUROBUST_EXIT_FAILURE);
	assert_string_equal(c->err, "gpurobust status: /dev/null: amdgpu_cs_ctx_create failed: "
			    "Permission denied\n");
	free(c);

	will_return(drmGetVersion, "amdgpu");
	will_return(amdgpu_device_initialize, 0);
	will_return(amdgpu_cs_ctx_create, 0);
	will_return(amdgpu_cs_query_reset_state2, 0);
	will_return(amdgpu_cs_query_reset_state2, -EINVAL);
	c = run_status("--json", "--device", "/dev/null");
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
		cmocka_unit_test(test_L6_status_json_reports_per_ctx_semantics),
		cmocka_unit_test(test_L7_status_text_reports_legacy_semantics),
		cmocka_unit_test(test_status_other_driver_is_no_amdgpu_device),
		cmocka_unit_test(test_status_error_names_the_device_and_the_call),
	};

	return cmocka_run_group_tests_name("cli-status-amdgpu", tests, NULL, NULL);
}
