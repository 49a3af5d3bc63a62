// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * A driver outside the tree, in the C and C++ subset both languages share
 * (no designated initializers, no implicit void * conversions), so that the
 * same file builds as C99 and as C++17: it sees only the installed driver
 * headers and what `pkg-config gpurobust-driver` says.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <gpurobust/breadcrumbs-pm4.h>
#include <gpurobust/breadcrumbs.h>
#include <gpurobust/reset-gl.h>
#include <gpurobust/reset-vulkan.h>
#include <gpurobust/reset.h>

#define GL_INNOCENT_CONTEXT_RESET_VALUE 0x8254u

int main(void)
{
	struct gpurobust_ctx *ctx;
	struct gpurobust_reset_status status;
	struct gpurobust_bc_pool_config config;
	struct gpurobust_bc_pool *pool;
	uint32_t dw[GPUROBUST_BC_MAX_WRITE_DWORDS];
	struct gpurobust_bc_target target;

	if (gpurobust_ctx_create(GPUROBUST_SEMANTICS_PER_CTX, GPUROBUST_CTX_ROBUST, &ctx))
		return 1;
	gpurobust_ctx_note_errno(ctx, -ECANCELED);
	if (gpurobust_ctx_vk_result(ctx) != VK_ERROR_DEVICE_LOST)
		return 2;
	if (gpurobust_ctx_gl_reset_status(ctx) != GL_INNOCENT_CONTEXT_RESET_VALUE)
		return 3;
	if (gpurobust_ctx_get_status(ctx, &status))
		return 4;
	gpurobust_ctx_destroy(ctx);

	memset(&config, 0, sizeof(config));
	if (gpurobust_bc_pool_create(&config, &pool))
		return 5;
	gpurobust_bc_pool_destroy(pool);
	target.level = GPUROBUST_BC_GFX10;
	target.eop_bug_va = 0;
	if (gpurobust_bc_encode_write(&target, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT,
				      0x1000, 1, dw) != gpurobust_bc_write_dwords(
					      &target, GPUROBUST_BC_QUEUE_GFX, GPUROBUST_BC_WRITE_OUT))
		return 6;
	printf("classified -ECANCELED as %s\n", gpurobust_reset_class_name(status.reset_class));
	return 0;
}
