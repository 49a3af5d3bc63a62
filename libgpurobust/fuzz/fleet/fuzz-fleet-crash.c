// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* libFuzzer target: an outbox file's JSON read as a fleet crash (what a
 * sender reads from disk); one that reads must write back to itself. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/fleet.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct gpurobust_fleet_crash crash, again;
	char *json;

	if (gpurobust_fleet_crash_from_json((const char *)data, size, &crash))
		return 0;
	json = gpurobust_fleet_crash_to_json(&crash);
	if (!json)
		return 0;
	if (gpurobust_fleet_crash_from_json(json, strlen(json), &again) ||
	    memcmp(&crash, &again, sizeof(crash)))
		abort();
	free(json);
	return 0;
}
