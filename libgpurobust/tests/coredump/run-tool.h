/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* Running the gpurobust command (GPUROBUST is set by meson) and reading its
 * JSON back with json-c's strict parser. */
#ifndef GPUROBUST_TESTS_COREDUMP_RUN_TOOL_H
#define GPUROBUST_TESTS_COREDUMP_RUN_TOOL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <json-c/json.h>

/* Run "gpurobust ARGS"; its standard output in *out, its exit status back. */
static inline int __attribute__((format(printf, 2, 3)))
run(char **out, const char *fmt, ...)
{
	char args[2048], cmd[2300], buf[4096];
	size_t len = 0;
	va_list ap;
	FILE *p;
	int status;

	va_start(ap, fmt);
	vsnprintf(args, sizeof(args), fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof(cmd), "'%s' %s 2>/dev/null", GPUROBUST, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	*out = NULL;
	for (size_t got; (got = fread(buf, 1, sizeof(buf), p));) {
		*out = realloc(*out, len + got + 1);
		assert_non_null(*out);
		memcpy(*out + len, buf, got);
		len += got;
	}
	if (!*out)
		*out = calloc(1, 1);
	else
		(*out)[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static inline json_object *parse_strict(const char *text)
{
	json_tokener *tok = json_tokener_new();
	json_object *o;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, text, (int)strlen(text) + 1);
	assert_int_equal(json_tokener_get_error(tok), json_tokener_success);
	json_tokener_free(tok);
	assert_non_null(o);
	return o;
}

/* The report's title line of User Capture @i of @n: "User Capture i of n
 * (B bytes[ at 0xVA]): STATUS"; asserts that STATUS starts with @status and
 * returns the line's bytes value. The va part is there for D3 v2 dumps
 * only, so the check holds for either layout. */
static inline size_t assert_capture_line(const char *out, size_t i, size_t n, const char *status)
{
	char head[64];
	const char *at, *close, *eol;
	size_t bytes;

	snprintf(head, sizeof(head), "User Capture %zu of %zu (", i, n);
	at = strstr(out, head);
	assert_non_null(at);
	eol = strchr(at, '\n');
	close = strstr(at, "): ");
	assert_true(close && (!eol || close < eol));
	assert_int_equal(strncmp(close + 3, status, strlen(status)), 0);
	assert_int_equal(sscanf(at + strlen(head), "%zu bytes", &bytes), 1);
	return bytes;
}

#endif
