// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * libFuzzer target: the whole crash pipeline on arbitrary bytes, read as a
 * dump up to the first NUL and as a kernel log after it, then printed both
 * ways so that every field of the parsed structures is walked, and every
 * string goes through the escaping the output applies.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/crash.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nul = memchr(data, 0, size);
	size_t dump_len = nul ? (size_t)(nul - text) : size;
	struct gpurobust_crash *crash;
	static FILE *sink;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (gpurobust_crash_analyze(text, dump_len, nul ? nul + 1 : NULL,
				    nul ? size - dump_len - 1 : 0, NULL, &crash))
		return 0;
	free(gpurobust_crash_to_json(crash));
	gpurobust_crash_print(crash, sink);
	gpurobust_crash_free(crash);
	return 0;
}
