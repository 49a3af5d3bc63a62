/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: Vulkan results of a reset classification (L9, L10)
 *
 * What a Vulkan driver returns for a gpurobust_ctx (gpurobust/reset.h). Needs
 * the Vulkan headers (vulkan/vulkan_core.h, any 1.1 or later), and nothing of
 * Vulkan is linked.
 */
#ifndef GPUROBUST_RESET_VULKAN_H
#define GPUROBUST_RESET_VULKAN_H

#include <vulkan/vulkan_core.h>

#include "reset.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * gpurobust_ctx_vk_result() - the VkResult a Vulkan entry point returns (L9)
 * @ctx: the context
 *
 * Return: VK_ERROR_DEVICE_LOST once the context is lost, for ever after;
 * VK_SUCCESS otherwise. A NULL context (the driver could not create one)
 * vouches for nothing either way: VK_SUCCESS, as GL answers GL_NO_ERROR, so
 * that the driver's own error path, which still sees every ioctl's errno,
 * decides.
 */
VkResult gpurobust_ctx_vk_result(const struct gpurobust_ctx *ctx);

/**
 * gpurobust_ctx_vk_wait_result() - finish a wait that must not fail (L9, L10)
 * @ctx: the context
 * @wait_err: an amdgpu wait ioctl's result (gpurobust_amdgpu_wait_fences()),
 *            or the fence error probed after a syncobj wait
 *            (gpurobust_syncobj_probe()). Never DRM_IOCTL_SYNCOBJ_WAIT's own
 *            result: its -ETIME means "timed out", not "guilty".
 * @out: VK_SUCCESS or VK_ERROR_DEVICE_LOST, nothing else
 *
 * Return: 0 when *out is set; @wait_err itself when it is not about a reset
 * (L8: -EAGAIN, -ERESTARTSYS ... the caller retries or handles it); -EINVAL
 * for NULL pointers.
 */
int gpurobust_ctx_vk_wait_result(struct gpurobust_ctx *ctx, int wait_err,
				 VkResult *out);

#ifdef __cplusplus
}
#endif

#endif
