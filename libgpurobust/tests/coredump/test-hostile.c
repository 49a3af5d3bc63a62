// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Untrusted text stays inert (issue 16): process and thread names, scope
 * names and log lines come from the process that hung, and the commands
 * that print them run as root. The hostile names here are the ones a
 * process can set itself (PR_SET_NAME takes any 15 bytes; a capture buffer
 * any scope name): a terminal clear (ESC [2J), an OSC 2 window title, a C1
 * CSI, bytes that are not UTF-8. The logs and dumps around them are the
 * corpus's real formats with only the names replaced, and say so.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <json-c/json.h>

#include <gpurobust/breadcrumbs-json.h>
#include <gpurobust/breadcrumbs.h>
#include <gpurobust/crash.h>

static const char clear_screen[] = "\x1b[2J";
static const char osc_title[] = "\x1b]2;owned\x07";

/* No byte a terminal acts on: C0 but for newline, DEL, C1 (C2 80..9F). */
static void assert_inert(const char *text)
{
	for (const unsigned char *c = (const unsigned char *)text; *c; c++) {
		if (*c == '\n')
			continue;
		if (*c < 0x20 || *c == 0x7f)
			fail_msg("control byte 0x%02x at offset %td", *c, (const char *)c - text);
		if (c[0] == 0xc2 && c[1] >= 0x80 && c[1] < 0xa0)
			fail_msg("C1 control at offset %td", (const char *)c - text);
	}
}

static char *print_crash(const struct gpurobust_crash *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(gpurobust_crash_print(c, f), 0);
	fclose(f);
	return buf;
}

static void test_escape_rules(void **state)
{
	char out[64];

	(void)state;
	assert_int_equal(gpurobust_text_escape(out, sizeof(out), clear_screen), 7);
	assert_string_equal(out, "\\x1b[2J");
	gpurobust_text_escape(out, sizeof(out), osc_title);
	assert_string_equal(out, "\\x1b]2;owned\\x07");
	/* C1 CSI (U+009B) starts a sequence on its own; DEL; a backslash */
	gpurobust_text_escape(out, sizeof(out), "a\xc2\x9b" "2Jb\x7f\\");
	assert_string_equal(out, "a\\xc2\\x9b2Jb\\x7f\\\\");
	/* not UTF-8: a lone continuation, an over-long NUL, a surrogate, a cut
	 * sequence; real UTF-8 passes */
	gpurobust_text_escape(out, sizeof(out), "\x80|\xc0\x80|\xed\xa0\x80|\xe2\x82|\xc3\xa9");
	assert_string_equal(out, "\\x80|\\xc0\\x80|\\xed\\xa0\\x80|\\xe2\\x82|\xc3\xa9");
	/* a short buffer never cuts an escape in two */
	assert_int_equal(gpurobust_text_escape(out, 6, "ab\x1b"), 6);
	assert_string_equal(out, "ab");
	assert_int_equal(gpurobust_text_escape(NULL, 0, "x"), 1);
}

/* The 6.12 log format (rocm-legacy-6127 in the corpus) with hostile names. */
static void test_hostile_log_names(void **state)
{
	char log[1024];
	struct gpurobust_crash *c;
	char *text, *json;
	json_object *o, *hangs;

	(void)state;
	snprintf(log, sizeof(log),
		 "[   34.965321] amdgpu 0000:03:00.0: amdgpu: ring comp_1.1.0 timeout, signaled seq=7, emitted seq=9\n"
		 "[   34.965331] amdgpu 0000:03:00.0: amdgpu:  Process %s pid 4087 thread %s pid 4213\n"
		 "[   34.965338] amdgpu 0000:03:00.0: amdgpu: Starting comp_1.1.0 ring reset\n"
		 "[   34.965512] amdgpu 0000:03:00.0: amdgpu: Ring comp_1.1.0 reset succeeded\n"
		 "[   34.966247] amdgpu 0000:03:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:32 vmid:0 pasid:0)\n"
		 "[   34.966250] amdgpu 0000:03:00.0: amdgpu:  Process %s\xff\xfe pid 4087 thread x pid 4213\n",
		 clear_screen, osc_title, osc_title);
	assert_int_equal(gpurobust_crash_analyze(NULL, 0, log, strlen(log), NULL, &c), 0);
	/* the parser keeps the bytes; only output escapes them */
	assert_string_equal(c->log->hangs[0].process, clear_screen);
	text = print_crash(c);
	assert_inert(text);
	assert_non_null(strstr(text, "\\x1b[2J"));
	json = gpurobust_crash_to_json(c);
	assert_non_null(json);
	assert_inert(json);
	o = json_tokener_parse(json);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "hangs", &hangs));
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_array_get_idx(hangs, 0), "thread")),
			    "\\x1b]2;owned\\x07");
	json_object_put(o);
	free(json);
	free(text);
	gpurobust_crash_free(c);
}

/* Names longer than the fields are cut, inside a UTF-8 character if it
 * falls so; the output stays valid UTF-8. */
static void test_long_names_are_capped(void **state)
{
	char log[1024], name[200] = "";
	struct gpurobust_crash *c;
	char *json;
	json_object *o;

	(void)state;
	for (int i = 0; i < 40; i++)
		strcat(name, "\xc3\xa9");	/* 80 bytes of "é" */
	snprintf(log, sizeof(log),
		 "amdgpu 0000:2d:00.0: ring gfx_0.0.0 timeout, signaled seq=1, emitted seq=3\n"
		 "amdgpu 0000:2d:00.0: Process x%s pid 41460 thread %s pid 41460\n", name, name);
	assert_int_equal(gpurobust_crash_analyze(NULL, 0, log, strlen(log), NULL, &c), 0);
	assert_int_equal(strlen(c->log->hangs[0].process), GPUROBUST_NAME_MAX - 1);
	json = gpurobust_crash_to_json(c);
	o = json_tokener_parse(json);
	assert_non_null(o);
	assert_non_null(strstr(json, "\\\\xc3"));	/* the cut character, escaped */
	json_object_put(o);
	free(json);
	gpurobust_crash_free(c);
}

/* The early printer's header (early-khatri-2024-03) with a hostile
 * process name, and a log line that is itself an escape sequence. */
static void test_hostile_dump_and_log_lines(void **state)
{
	char dump[1024], log[256];
	struct gpurobust_crash *c;
	char *text;

	(void)state;
	snprintf(dump, sizeof(dump),
		 "**** AMDGPU Device Coredump ****\n"
		 "version: 1\n"
		 "kernel: 6.7.0%s\n"
		 "module: amdgpu\n"
		 "process_name: %s PID: 1720\n"
		 "\n"
		 "Ring timed out details\n"
		 "IP Type: 0 Ring Name: gfx%s\n", osc_title, clear_screen, clear_screen);
	snprintf(log, sizeof(log), "%s amdgpu 0000:03:00.0: amdgpu: GPU reset begin!\n%s\n",
		 osc_title, clear_screen);
	assert_int_equal(gpurobust_crash_analyze(dump, strlen(dump), log, strlen(log), NULL, &c), 0);
	text = print_crash(c);
	assert_inert(text);
	free(text);
	text = gpurobust_crash_to_json(c);
	assert_inert(text);
	free(text);
	gpurobust_crash_free(c);
}

/* Breadcrumb scope names and labels are the application's strings: the
 * tree printer, its JSON and the report title built from the path. */
static void test_hostile_scope_names(void **state)
{
	static const char json[] =
		"{\"format\":\"gpurobust-breadcrumbs-report\",\"version\":1,\"guilty_stream\":0,"
		"\"streams\":[{\"tag\":1,\"queue\":\"gfx\",\"label\":\"\\u001b]2;t\\u0007\","
		"\"valid\":true,\"invalid_reason\":null,\"marker_in\":2,\"marker_out\":0,"
		"\"dropped\":0,\"execution_marker_tree\":[{\"name\":\"frame\\u001b[2J\","
		"\"execution_status\":\"in_progress\",\"children\":[{\"name\":\"\\u009b2J draw\","
		"\"execution_status\":\"in_progress\"}]}]}]}";
	struct gpurobust_bc_report *bc;
	struct gpurobust_report *r;
	struct gpurobust_dmesg *l;
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(gpurobust_bc_report_from_json(json, sizeof(json) - 1, &bc), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(gpurobust_bc_report_print(bc, f, 0), 0);
	fclose(f);
	assert_inert(buf);
	assert_non_null(strstr(buf, "frame\\x1b[2J"));
	free(buf);
	out = gpurobust_bc_report_to_json(bc);
	assert_inert(out);
	free(out);
	assert_int_equal(gpurobust_dmesg_parse("amdgpu 0000:03:00.0: ring gfx_0.0.0 timeout, "
					       "signaled seq=1, emitted seq=2\n", 71, &l), 0);
	assert_int_equal(gpurobust_report_build(NULL, l, &r), 0);
	assert_int_equal(gpurobust_report_attach_breadcrumbs(r, bc), 0);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(gpurobust_report_print(r, NULL, f), 0);
	fclose(f);
	assert_inert(buf);
	free(buf);
	out = gpurobust_report_to_json(r, NULL);
	assert_inert(out);
	free(out);
	gpurobust_report_free(r);
	gpurobust_dmesg_free(l);
	gpurobust_bc_report_free(bc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape_rules),
		cmocka_unit_test(test_hostile_log_names),
		cmocka_unit_test(test_long_names_are_capped),
		cmocka_unit_test(test_hostile_dump_and_log_lines),
		cmocka_unit_test(test_hostile_scope_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
