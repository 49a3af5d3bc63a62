/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* Reading the files under tests/coredump/fixtures (FIXTURE_DIR is set by
 * meson). */
#ifndef GPUROBUST_TESTS_COREDUMP_FIXTURE_H
#define GPUROBUST_TESTS_COREDUMP_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>

/* A whole file, NUL-terminated; NULL when it cannot be read. */
static inline char *fixture_read_path(const char *path, size_t *len)
{
	FILE *f;
	char *buf;
	long n;

	f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

static inline char *fixture_read(const char *name, size_t *len)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", FIXTURE_DIR, name);
	return fixture_read_path(path, len);
}

#endif
