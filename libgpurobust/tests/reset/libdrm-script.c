// SPDX-License-Identifier: MIT
/* The scripted libdrm described in libdrm-script.h. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xf86drm.h>

#include "libdrm-script.h"
#include "test-helpers.h"

int script_kms_minor = 59;

drmVersionPtr drmGetVersion(int fd)
{
	const char *driver = mock_ptr_type(const char *);
	drmVersionPtr v;

	if (!driver) {
		errno = ENOTTY;
		return NULL;
	}
	v = calloc(1, sizeof(*v));
	v->version_major = 3;
	v->version_minor = script_kms_minor;
	v->name = strdup(driver);
	v->name_len = (int)strlen(driver);
	return v;
}

void drmFreeVersion(drmVersionPtr v)
{
	free(v->name);
	free(v);
}

int amdgpu_device_initialize(int fd, uint32_t *major, uint32_t *minor,
			     amdgpu_device_handle *dev)
{
	*major = 3;
	*minor = 59;
	*dev = FAKE_DEVICE;
	return mock_type(int);
}

int amdgpu_device_deinitialize(amdgpu_device_handle dev)
{
	assert_ptr_equal(dev, FAKE_DEVICE);
	return 0;
}

int amdgpu_cs_ctx_create(amdgpu_device_handle dev, amdgpu_context_handle *ctx)
{
	assert_ptr_equal(dev, FAKE_DEVICE);
	*ctx = FAKE_CTX;
	return mock_type(int);
}

int amdgpu_query_info(amdgpu_device_handle dev, unsigned int info_id, unsigned int size,
		      void *value)
{
	const void *answer = mock_ptr_type(const void *);

	assert_ptr_equal(dev, FAKE_DEVICE);
	check_expected(info_id);
	check_expected(size);
	memcpy(value, answer, size);
	return mock_type(int);
}

int amdgpu_cs_ctx_free(amdgpu_context_handle ctx)
{
	assert_ptr_equal(ctx, FAKE_CTX);
	return 0;
}

int amdgpu_cs_query_reset_state2(amdgpu_context_handle ctx, uint64_t *flags)
{
	assert_ptr_equal(ctx, FAKE_CTX);
	*flags = mock_type(uint64_t);
	return mock_type(int);
}

int amdgpu_cs_query_reset_state(amdgpu_context_handle ctx, uint32_t *state, uint32_t *hangs)
{
	*state = mock_type(uint32_t);
	*hangs = 0;
	return 0;
}

int amdgpu_cs_query_fence_status(struct amdgpu_cs_fence *fence, uint64_t timeout_ns,
				 uint64_t flags, uint32_t *expired)
{
	*expired = mock_type(uint32_t);
	return mock_type(int);
}

int amdgpu_cs_wait_fences(struct amdgpu_cs_fence *fences, uint32_t count, bool wait_all,
			  uint64_t timeout_ns, uint32_t *status, uint32_t *first)
{
	check_expected(count);
	*status = mock_type(uint32_t);
	*first = 0;
	return mock_type(int);
}

/* libdrm returns drmIoctl()'s -1 and leaves the cause in errno. */
int drmSyncobjExportSyncFile(int fd, uint32_t handle, int *sync_file_fd)
{
	int fds[2];

	errno = mock_type(int);
	if (errno)
		return -1;
	/* A pipe is a file, but not a sync_file. */
	if (pipe(fds))
		return -1;
	close(fds[1]);
	*sync_file_fd = fds[0];
	return 0;
}
