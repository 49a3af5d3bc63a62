// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* libFuzzer target: the devcoredump parser on arbitrary bytes, indexing and
 * then decoding every dword block it located. */
#include <stddef.h>
#include <stdint.h>

#include <gpurobust/coredump.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpurobust_coredump *dump;

	if (gpurobust_coredump_parse((const char *)data, size, &dump))
		return 0;
	gpurobust_coredump_decode(dump, (const char *)data, size);
	gpurobust_coredump_free(dump);
	return 0;
}
