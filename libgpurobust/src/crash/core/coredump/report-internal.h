/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
#ifndef GPUROBUST_CORE_COREDUMP_REPORT_INTERNAL_H
#define GPUROBUST_CORE_COREDUMP_REPORT_INTERNAL_H

#include <gpurobust/report.h>

/* Title and signature from the report's facts (report.c). */
void grb_report_sign(struct gpurobust_report *r);
/* The Vulkan and GL outcome through the library core (report-map.c). */
void grb_report_map(struct gpurobust_report *r);

#endif
