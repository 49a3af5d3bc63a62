// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* libFuzzer target: the kernel log parser on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include <gpurobust/coredump.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpurobust_dmesg *log;

	if (!gpurobust_dmesg_parse((const char *)data, size, &log))
		gpurobust_dmesg_free(log);
	return 0;
}
