/* SPDX-License-Identifier: MIT */
/**
 * DOC: amdgpu backend
 *
 * Thin wrappers over libdrm_amdgpu that fetch the evidence gpurobust/reset.h
 * classifies: which reset semantics the kernel has, a context's QUERY_STATE2
 * and QUERY_STATE answers, and fence errors from the amdgpu wait ioctls.
 * Every function returns 0 or -errno.
 */
#ifndef GPUROBUST_AMDGPU_H
#define GPUROBUST_AMDGPU_H

#include <amdgpu.h>
#include <stdbool.h>
#include <stdint.h>

#include "gpurobust/reset.h"
#include "gpurobust/vm-fault.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpurobust_amdgpu_device;

struct gpurobust_amdgpu_info {
	/* The amdgpu KMS interface version (drmGetVersion()), e.g. 3.59.0. */
	int version_major;
	int version_minor;
	int version_patchlevel;
	enum gpurobust_semantics semantics;
	/* QUERY_STATE2 flags of the fresh context the semantics probe used. */
	uint64_t fresh_ctx_query2_flags;
};

/**
 * gpurobust_amdgpu_open() - open an amdgpu DRM node and probe it
 * @path: a node, normally /dev/dri/renderD*
 * @out: the device
 *
 * Detects the driver and its interface version, then creates a fresh context
 * and reads its QUERY_STATE2 flags: AMDGPU_CTX_QUERY2_FLAGS_PER_CTX_RESET
 * (Documentation/uapi.md) means per-context semantics, its absence "legacy".
 *
 * A kernel with the series refuses new contexts to a file that caused too
 * many soft recoveries (K8, amdgpu.soft_recovery_ban): amdgpu_cs_ctx_create()
 * fails with -EPERM. That is not an open failure: the device opens with
 * per-context semantics (only the series bans) and
 * gpurobust_amdgpu_is_banned() says so.
 *
 * Return: 0; -ENODEV when the node is not driven by amdgpu; the -errno of
 * open(), drmGetVersion(), amdgpu_device_initialize(), amdgpu_cs_ctx_create()
 * (other than -EPERM) or amdgpu_cs_query_reset_state2() otherwise.
 */
int gpurobust_amdgpu_open(const char *path, struct gpurobust_amdgpu_device **out);

/**
 * gpurobust_amdgpu_open_fd() - the same for an open DRM file
 * @fd: the DRM file; it is duplicated, the caller keeps its own
 * @out: the device
 *
 * Return: as gpurobust_amdgpu_open(), without open().
 */
int gpurobust_amdgpu_open_fd(int fd, struct gpurobust_amdgpu_device **out);

/* Safe on NULL. */
void gpurobust_amdgpu_close(struct gpurobust_amdgpu_device *dev);

/* Return: 0 with *out filled, -EINVAL for NULL pointers. */
int gpurobust_amdgpu_get_info(const struct gpurobust_amdgpu_device *dev,
			      struct gpurobust_amdgpu_info *out);

/* The semantics to pass to gpurobust_ctx_create(); LEGACY for NULL. */
enum gpurobust_semantics
gpurobust_amdgpu_semantics(const struct gpurobust_amdgpu_device *dev);

/* True when the kernel refused this file a new context with -EPERM (K8):
 * every later amdgpu_cs_ctx_create() on it fails the same way, so a
 * driver reports the device lost for good instead of retrying. */
bool gpurobust_amdgpu_is_banned(const struct gpurobust_amdgpu_device *dev);

/**
 * gpurobust_amdgpu_query_gpuvm_fault() - the device's last VM fault
 * @dev: the device
 * @out: the AMDGPU_INFO_GPUVM_FAULT answer, for gpurobust_device_fault_fill()
 *
 * Return: 0; -EOPNOTSUPP when the kernel predates the query (KMS 3.55,
 * Linux 6.10); -ENODATA when it recorded no fault (address and status 0);
 * -EINVAL for NULL pointers; the -errno of amdgpu_query_info() otherwise.
 */
int gpurobust_amdgpu_query_gpuvm_fault(const struct gpurobust_amdgpu_device *dev,
				       struct gpurobust_gpuvm_fault *out);

/* The libdrm handle, for creating contexts; owned by @dev. */
amdgpu_device_handle gpurobust_amdgpu_handle(const struct gpurobust_amdgpu_device *dev);

/**
 * gpurobust_amdgpu_query_ctx() - ask the kernel about a context
 * @amdgpu_ctx: the libdrm context
 * @ctx: the gpurobust context that shadows it; both answers are folded in
 * @query2_flags: optional, the raw QUERY_STATE2 flags
 * @query1_status: optional, the raw QUERY_STATE (v1) reset_status
 *
 * Return: 0, or the -errno of amdgpu_cs_query_reset_state2() or
 * amdgpu_cs_query_reset_state().
 */
int gpurobust_amdgpu_query_ctx(amdgpu_context_handle amdgpu_ctx,
			       struct gpurobust_ctx *ctx,
			       uint64_t *query2_flags, uint32_t *query1_status);

/**
 * gpurobust_amdgpu_wait_fences() - wait through DRM_AMDGPU_WAIT_FENCES
 * @fences: the fences
 * @count: how many
 * @wait_all: all of them, or the first
 * @timeout_ns: relative timeout
 * @signaled: set when the wait completed before the timeout
 *
 * Unlike syncobj waits, the amdgpu wait ioctls return a signalled fence's
 * error: this is where -ENODATA, -ETIME and -ECANCELED surface.
 *
 * Return: 0, a fence error, or the ioctl's -errno. A timeout is not an
 * error: it returns 0 with *signaled false.
 */
int gpurobust_amdgpu_wait_fences(struct amdgpu_cs_fence *fences, uint32_t count,
				 int wait_all, uint64_t timeout_ns, int *signaled);

#ifdef __cplusplus
}
#endif

#endif
