// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The breadcrumb half of a report: the breadcrumb module's path signature
 * (the guilty stream's active scopes, numbers normalised) becomes the title
 * of what the GPU was doing and part of the bucket key.
 */
#include <errno.h>
#include <stdio.h>

#include <gpurobust/breadcrumbs-signature.h>
#include <gpurobust/report.h>

#include "common/export.h"
#include "crash/core/coredump/report-internal.h"

GPUROBUST_EXPORT
int gpurobust_report_attach_breadcrumbs(struct gpurobust_report *report,
					const struct gpurobust_bc_report *bc)
{
	struct gpurobust_bc_signature sig;
	int r;

	if (!report || !bc)
		return -EINVAL;
	r = gpurobust_bc_path_signature(bc, &sig);
	if (r)
		return r;
	report->breadcrumb_signature = sig.hash;
	snprintf(report->doing, sizeof(report->doing), "%.*s",
		 (int)sizeof(report->doing) - 1, sig.title);
	grb_report_sign(report);
	return 0;
}
