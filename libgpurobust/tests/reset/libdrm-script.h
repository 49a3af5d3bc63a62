/* SPDX-License-Identifier: MIT */
#ifndef GPUROBUST_TESTS_RESET_LIBDRM_SCRIPT_H
#define GPUROBUST_TESTS_RESET_LIBDRM_SCRIPT_H

/*
 * libdrm as a test scripts it. libdrm-script.c defines the libdrm entry
 * points the amdgpu backend calls, so the linker binds the backend to them
 * instead of libdrm; each answer is queued with cmocka's will_return():
 *   drmGetVersion             driver name (const char *), NULL = -ENOTTY
 *   amdgpu_device_initialize  return value
 *   amdgpu_cs_ctx_create      return value
 *   amdgpu_cs_query_reset_state2  flags, then return value
 *   amdgpu_cs_query_reset_state   reset status
 *   amdgpu_cs_query_fence_status  expired, then return value
 *   amdgpu_cs_wait_fences     expect_value(count), status, return value
 *   drmSyncobjExportSyncFile  errno (0: a pipe fd, which is no sync_file)
 *   amdgpu_query_info         expect_value(info_id, size), the answer's bytes
 *                             (const void *), return value
 * drmGetVersion reports KMS 3.<script_kms_minor>, 3.59 unless a test sets it.
 */
#include <stdint.h>

#include <amdgpu.h>

#define FAKE_DEVICE ((amdgpu_device_handle)(uintptr_t)0x1000)
#define FAKE_CTX ((amdgpu_context_handle)(uintptr_t)0x2000)

extern int script_kms_minor;

#endif
