// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * libFuzzer target: a report built from arbitrary bytes, read as a dump up
 * to the first NUL and as a kernel log after it, then printed both ways so
 * that every field of the parsed structures is walked.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/report.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *nul = memchr(data, 0, size);
	size_t dump_len = nul ? (size_t)(nul - text) : size;
	struct gpurobust_coredump *dump = NULL;
	struct gpurobust_dmesg *log = NULL;
	struct gpurobust_report *report;
	static FILE *sink;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (gpurobust_coredump_parse(text, dump_len, &dump))
		return 0;
	if (nul && gpurobust_dmesg_parse(nul + 1, size - dump_len - 1, &log))
		log = NULL;
	if (!gpurobust_report_build(dump, log, &report)) {
		free(gpurobust_report_to_json(report, dump));
		gpurobust_report_print(report, dump, sink);
		gpurobust_report_free(report);
	}
	gpurobust_dmesg_free(log);
	gpurobust_coredump_free(dump);
	return 0;
}
