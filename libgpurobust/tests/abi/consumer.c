// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/* A program outside the tree: it sees only the installed headers and what
 * `pkg-config gpurobust-driver` says. */
#include <errno.h>
#include <stdio.h>

#include <gpurobust/amdgpu.h>
#include <gpurobust/reset-vulkan.h>
#include <gpurobust/reset.h>
#include <gpurobust/syncfile.h>

int main(void)
{
	struct gpurobust_ctx *ctx;
	struct gpurobust_fence_probe probe;
	struct gpurobust_reset_status status;

	if (gpurobust_ctx_create(GPUROBUST_SEMANTICS_LEGACY, GPUROBUST_CTX_ROBUST, &ctx))
		return 1;
	gpurobust_ctx_note_errno(ctx, -ETIME);
	if (gpurobust_ctx_vk_result(ctx) != VK_ERROR_DEVICE_LOST)
		return 2;
	if (gpurobust_syncfile_probe(-1, &probe) != -EINVAL)
		return 3;
	if (gpurobust_ctx_get_status(ctx, &status))
		return 4;
	printf("classified -ETIME as %s\n", gpurobust_reset_class_name(status.reset_class));
	gpurobust_ctx_destroy(ctx);
	return gpurobust_amdgpu_semantics(NULL) == GPUROBUST_SEMANTICS_LEGACY ? 0 : 5;
}
