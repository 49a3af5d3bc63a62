// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * What every API mapping shares: which classes mean lost (L9), and the
 * stable names of classes and semantics. The Vulkan results are in
 * vulkan.c, the GL reset status in gl.c.
 */
#include "common/export.h"
#include "driver/core/reset/context.h"

GPUROBUST_EXPORT int gpurobust_reset_is_lost(enum gpurobust_reset_class reset_class)
{
	switch (reset_class) {
	case GPUROBUST_RESET_UNKNOWN:
	case GPUROBUST_RESET_INNOCENT:
	case GPUROBUST_RESET_GUILTY_SOFT:
	case GPUROBUST_RESET_GUILTY_HARD:
		return 1;
	case GPUROBUST_RESET_NONE:
		break;
	}
	return 0;
}

GPUROBUST_EXPORT const char *gpurobust_reset_class_name(enum gpurobust_reset_class reset_class)
{
	switch (reset_class) {
	case GPUROBUST_RESET_NONE:
		return "none";
	case GPUROBUST_RESET_UNKNOWN:
		return "unknown";
	case GPUROBUST_RESET_INNOCENT:
		return "innocent";
	case GPUROBUST_RESET_GUILTY_SOFT:
		return "guilty_soft";
	case GPUROBUST_RESET_GUILTY_HARD:
		return "guilty_hard";
	}
	return "invalid";
}

GPUROBUST_EXPORT const char *gpurobust_semantics_name(enum gpurobust_semantics semantics)
{
	switch (semantics) {
	case GPUROBUST_SEMANTICS_LEGACY:
		return "legacy";
	case GPUROBUST_SEMANTICS_PER_CTX:
		return "per_ctx";
	}
	return "invalid";
}
