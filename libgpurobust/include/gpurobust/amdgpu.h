/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
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
	/* What gpurobust_amdgpu_probe() found; LEGACY before it ran. */
	enum gpurobust_semantics semantics;
	bool semantics_probed;
	/* QUERY_STATE2 flags of the fresh context the semantics probe used. */
	uint64_t fresh_ctx_query2_flags;
};

/**
 * gpurobust_amdgpu_wrap() - use a driver's libdrm device as it is
 * @handle: the driver's amdgpu_device_handle; it stays the driver's and
 *          must outlive the wrapper
 * @drm_major: the interface version amdgpu_device_initialize() returned
 * @drm_minor: likewise, e.g. 59 for KMS 3.59
 * @out: the device
 *
 * For drivers: no file is duplicated, libdrm is not initialized again, no
 * context is created and no system call is made. The semantics are learnt
 * from the driver's own contexts (gpurobust_amdgpu_ctx_create()), so
 * gpurobust_amdgpu_semantics() says LEGACY until gpurobust_amdgpu_probe().
 *
 * Return: 0, -EINVAL for a NULL pointer, -ENOMEM.
 */
int gpurobust_amdgpu_wrap(amdgpu_device_handle handle, uint32_t drm_major,
			  uint32_t drm_minor, struct gpurobust_amdgpu_device **out);

/**
 * gpurobust_amdgpu_open_fd() - use a driver's open DRM file
 * @fd: the DRM file; borrowed: not duplicated, not closed, and it must stay
 *      open while the device lives
 * @out: the device
 *
 * Reads the driver name and interface version (DRM_IOCTL_VERSION) and takes
 * a libdrm reference on the file: on a file the caller already initialized,
 * libdrm returns the caller's own device, so nothing is set up twice. No
 * context is created; see gpurobust_amdgpu_wrap() for the semantics.
 *
 * Return: 0; -EINVAL for a negative @fd; -ENODEV when the file is not
 * driven by amdgpu; the -errno of drmGetVersion() (-ENOTTY for a file that
 * is not DRM) or amdgpu_device_initialize() otherwise.
 */
int gpurobust_amdgpu_open_fd(int fd, struct gpurobust_amdgpu_device **out);

/**
 * gpurobust_amdgpu_open() - open an amdgpu DRM node and probe it (tools)
 * @path: a node, normally /dev/dri/renderD*
 * @out: the device
 *
 * gpurobust_amdgpu_open_fd() on a file of its own, then
 * gpurobust_amdgpu_probe().
 *
 * Return: as gpurobust_amdgpu_open_fd() and gpurobust_amdgpu_probe(), or the
 * -errno of open().
 */
int gpurobust_amdgpu_open(const char *path, struct gpurobust_amdgpu_device **out);

/**
 * gpurobust_amdgpu_probe() - learn the device's semantics with a context of
 * its own (tools)
 * @dev: the device
 *
 * Creates a fresh context and reads its QUERY_STATE2 flags:
 * GPUROBUST_QUERY2_PER_CTX_RESET (Documentation/uapi.md) means per-context
 * semantics, its absence "legacy". A kernel with the series refuses new
 * contexts to a file that caused too many soft recoveries (K8,
 * amdgpu.soft_recovery_ban): amdgpu_cs_ctx_create() fails with -EPERM. That
 * is not a failure: the device has per-context semantics (only the series
 * bans) and gpurobust_amdgpu_is_banned() says so. A driver does not need
 * this: its contexts answer the same question.
 *
 * Return: 0, -EINVAL for NULL, or the -errno of amdgpu_cs_ctx_create()
 * (other than -EPERM) or amdgpu_cs_query_reset_state2().
 */
int gpurobust_amdgpu_probe(struct gpurobust_amdgpu_device *dev);

/* Safe on NULL. Drops what the device took: the libdrm reference of
 * gpurobust_amdgpu_open_fd(), and the file of gpurobust_amdgpu_open(). */
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
 * gpurobust_amdgpu_ctx_create() - shadow a driver's new amdgpu context
 * @amdgpu_ctx: the context the driver just created
 * @flags: GPUROBUST_CTX_* flags, as for gpurobust_ctx_create()
 * @out: the gpurobust context, with the semantics @amdgpu_ctx's kernel has
 *
 * Issues exactly one QUERY_STATE2 on @amdgpu_ctx and reads the semantics
 * from it (gpurobust_semantics_from_query2()). Nothing else in this library
 * touches the kernel on a driver's behalf: the submit path only hands
 * errnos to gpurobust_ctx_note_errno(), which is pure.
 *
 * Return: 0; -EINVAL for NULL pointers or unknown @flags; -ENOMEM; the
 * -errno of amdgpu_cs_query_reset_state2().
 */
int gpurobust_amdgpu_ctx_create(amdgpu_context_handle amdgpu_ctx, uint32_t flags,
				struct gpurobust_ctx **out);

/**
 * gpurobust_amdgpu_query_ctx() - ask the kernel about a context now
 * @amdgpu_ctx: the libdrm context
 * @ctx: the gpurobust context that shadows it; the answer is folded in
 * @query2_flags: optional, the raw QUERY_STATE2 flags
 *
 * One QUERY_STATE2, for the moments an API asks (glGetGraphicsResetStatus(),
 * a wait that must report a reset): never needed on the submit path.
 *
 * Return: 0, -EINVAL for NULL pointers, or the -errno of
 * amdgpu_cs_query_reset_state2().
 */
int gpurobust_amdgpu_query_ctx(amdgpu_context_handle amdgpu_ctx,
			       struct gpurobust_ctx *ctx, uint64_t *query2_flags);

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
