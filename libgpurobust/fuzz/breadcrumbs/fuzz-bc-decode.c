// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * libFuzzer target for the snapshot decoder (B3): the input is the marker
 * bytes, as a devcoredump capture would hold them, decoded against fixed
 * metadata of three streams (nested scopes, a finished stream, and one whose
 * record lies beyond small captures and which overflowed). Every report that
 * decodes is also printed and signed, so a state combination the decoder lets
 * through cannot crash what reads it. Every input is decoded a second time
 * without metadata, which reads the pool's own mirror of it from the bytes
 * (seed-mirror: a 3-record pool with a 4-scope ring, one stream evicted
 * past its ring, one that overflowed).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpurobust/breadcrumbs-signature.h"
#include "gpurobust/breadcrumbs-json.h"
#include "gpurobust/breadcrumbs.h"

/* pool_id 0x1234 matches the seeds in corpus/. */
static const char meta_json[] =
	"{\"format\": \"gpurobust-breadcrumbs-meta\", \"version\": 1, \"pool_id\": 4660,"
	" \"record_count\": 8, \"names\": [\"Frame 12\", \"GBuffer\", \"Draw 3\", \"Cull\", \"Copy\"],"
	" \"streams\": ["
	"  {\"record\": 0, \"tag\": 1, \"queue\": \"gfx\", \"label\": \"main\", \"dropped\": 0,"
	"   \"overflow_parent\": -1, \"scopes\": [0, -1, 5, 1, 0, 4, 2, 1, 1, 2, 1, 2, 2, 1, 3, 1, 0, 0]},"
	"  {\"record\": 1, \"tag\": 2, \"queue\": \"compute\", \"label\": \"async\", \"dropped\": 0,"
	"   \"overflow_parent\": -1, \"scopes\": [3, -1, 1, 3, -1, 0]},"
	"  {\"record\": 5, \"tag\": 3, \"queue\": \"sdma\", \"label\": \"\", \"dropped\": 2,"
	"   \"overflow_parent\": 0, \"scopes\": [4, -1, 0, 4, 0, 1]}]}";

static struct gpurobust_bc_meta *meta;
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	if (gpurobust_bc_meta_from_json(meta_json, strlen(meta_json), &meta))
		abort();
	sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	return 0;
}

/* Kept cheap, so that long runs reach tens of millions of inputs: the other
 * report code gets arbitrary trees from fuzz-bc-json. */
static void exercise(const struct gpurobust_bc_report *report)
{
	struct gpurobust_bc_signature sig;

	gpurobust_bc_report_print(report, sink, 0);
	gpurobust_bc_report_print(report, sink, GPUROBUST_BC_TEXT_EXPAND);
	gpurobust_bc_path_signature(report, &sig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpurobust_bc_report *report;

	if (gpurobust_bc_decode(data, size, meta, &report) == 0) {
		exercise(report);
		gpurobust_bc_report_free(report);
	}
	/* The same bytes as a devcoredump of a dead process: the metadata
	 * comes from the mirror in them (seed-mirror). */
	if (gpurobust_bc_decode(data, size, NULL, &report) == 0) {
		exercise(report);
		gpurobust_bc_report_free(report);
	}
	return 0;
}
