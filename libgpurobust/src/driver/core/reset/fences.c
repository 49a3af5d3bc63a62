// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* What a sync_file's fence records say about resets (L10). */
#include "driver/core/reset/fences.h"
#include "driver/core/reset/verdict.h"

void grb_sync_fences_summarize(const struct sync_fence_info *fences, size_t count,
			   struct gpurobust_fence_probe *out)
{
	int best = 0;

	*out = (struct gpurobust_fence_probe){ .fence_count = (uint32_t)count };
	for (size_t i = 0; i < count; i++) {
		int status = fences[i].status;

		if (status == 0)
			out->active_count++;
		if (status < 0) {
			int pair[2] = { best, status };

			/* Ranked as the series ranks them; only -ECANCELED's rank
			 * differs on upstream kernels, and it stays below guilt. */
			best = grb_reset_most_telling_errno(pair, 2, GPUROBUST_SEMANTICS_PER_CTX);
		}
	}
	out->error = best;
}
