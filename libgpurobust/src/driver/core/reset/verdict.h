/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_RESET_VERDICT_H
#define GPUROBUST_CORE_RESET_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "gpurobust/reset.h"

/* What one piece of evidence says, before it meets the context's history. */
struct reset_verdict {
	struct gpurobust_reset_status status;
	/* Queries say "guilty" without saying how the context was recovered;
	 * only an errno (-ENODATA, -ETIME) names the kind. */
	bool guilt_kind_known;
	/* QUERY_STATE2 reports RESET_IN_PROGRESS as it is now, so it replaces
	 * the flag; other evidence says nothing about it. */
	bool sets_in_progress;
};

int grb_reset_verdict_from_evidence(const struct gpurobust_evidence *evidence,
				enum gpurobust_semantics semantics,
				struct reset_verdict *out);

/* The errno among @errs (each 0 or -errno) that classifies highest, 0 if
 * none is a reset. Used to pick one error from a multi-fence sync_file. */
int grb_reset_most_telling_errno(const int *errs, size_t count,
			     enum gpurobust_semantics semantics);

#endif
