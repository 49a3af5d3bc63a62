// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Devcoredumps in sysfs. Each dump is a device /sys/class/devcoredump/devcdN
 * with a "failing_device" link to the device that produced it and a "data"
 * file; reading data returns the dump, writing anything to it frees the dump
 * (drivers/base/devcoredump.c).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gpurobust/collector.h>

#include "crash/backend/sysfs/read-all.h"
#include "common/export.h"

/* A dump bigger than this is not an amdgpu text dump (7.1 caps its own at
 * 256 MiB): refuse rather than exhaust memory. */
#define DEVCD_MAX_SIZE	(1u << 30)

/* realpath() of @dir/@name into @out; false when it does not resolve. */
static bool resolve(const char *dir, const char *name, char *out, size_t size)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path) ||
	    !realpath(path, real) || strlen(real) >= size)
		return false;
	strcpy(out, real);
	return true;
}

/* The resolved /sys device of a DRM node name or path. */
static int drm_device_path(const char *sysfs, const char *drm_device, char *out, size_t size)
{
	char dir[PATH_MAX];
	const char *name;

	if (drm_device[0] == '/' && !strncmp(drm_device, "/dev/", 5)) {
		name = strrchr(drm_device, '/') + 1;
	} else if (drm_device[0] == '/') {
		return resolve(drm_device, ".", out, size) ? 0 : -ENOENT;
	} else {
		name = drm_device;
	}
	if (snprintf(dir, sizeof(dir), "%s/class/drm/%s", sysfs, name) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	return resolve(dir, "device", out, size) ? 0 : -ENOENT;
}

/* Whether the dump's data starts as amdgpu's do. Its device's driver says
 * so first; this is for a device without one: unbound after a hang (a
 * WEDGED=rebind recovery unbinds it) or a test's fake device. Reading the
 * start of a dump does not free it. */
static bool has_amdgpu_header(const char *devdir)
{
	static const char header[] = "**** AMDGPU Device Coredump ****";
	char path[PATH_MAX], buf[sizeof(header) - 1];
	ssize_t got = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/data", devdir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	got = read(fd, buf, sizeof(buf));
	close(fd);
	return got == (ssize_t)sizeof(buf) && !memcmp(buf, header, sizeof(buf));
}

GPUROBUST_EXPORT
int gpurobust_devcd_list(const char *sysfs, const char *drm_device,
			 struct gpurobust_devcd **out, size_t *n)
{
	char class_dir[PATH_MAX], want[PATH_MAX] = "";
	struct gpurobust_devcd *list = NULL;
	size_t count = 0, cap = 0;
	struct dirent *de;
	DIR *dir;
	int r;

	if (!sysfs || !out || !n)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	if (drm_device && (r = drm_device_path(sysfs, drm_device, want, sizeof(want))))
		return r;
	snprintf(class_dir, sizeof(class_dir), "%s/class/devcoredump", sysfs);
	dir = opendir(class_dir);
	if (!dir)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(dir))) {
		struct gpurobust_devcd dc = { 0 };
		char devdir[PATH_MAX], driver[PATH_MAX];

		if (strncmp(de->d_name, "devcd", 5))
			continue;
		if (!resolve(class_dir, de->d_name, devdir, sizeof(devdir)) ||
		    strlen(devdir) >= sizeof(dc.path) ||
		    !resolve(devdir, "failing_device", dc.failing_device,
			     sizeof(dc.failing_device)))
			continue;	/* went away meanwhile */
		if (want[0] && strcmp(want, dc.failing_device))
			continue;
		strcpy(dc.path, devdir);
		if (resolve(dc.failing_device, "driver", driver, sizeof(driver)))
			snprintf(dc.driver, sizeof(dc.driver), "%s", strrchr(driver, '/') + 1);
		if (strcmp(dc.driver, "amdgpu") && has_amdgpu_header(devdir))
			snprintf(dc.driver, sizeof(dc.driver), "amdgpu");
		if (count == cap) {
			struct gpurobust_devcd *nl;

			cap = cap ? cap * 2 : 4;
			nl = realloc(list, cap * sizeof(*nl));
			if (!nl) {
				free(list);
				closedir(dir);
				return -ENOMEM;
			}
			list = nl;
		}
		list[count++] = dc;
	}
	closedir(dir);
	*out = list;
	*n = count;
	return 0;
}

GPUROBUST_EXPORT
int gpurobust_devcd_read(const char *devcd, char **data, size_t *len)
{
	char path[PATH_MAX];
	int fd, r;

	if (!devcd || !data || !len)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/data", devcd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* sysfs reports no useful size: read until EOF */
	r = grb_read_all_fd(fd, DEVCD_MAX_SIZE, data, len);
	close(fd);
	return r;
}

GPUROBUST_EXPORT
int gpurobust_devcd_clear(const char *devcd)
{
	char path[PATH_MAX];
	int fd, r = 0;

	if (!devcd)
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/data", devcd);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) < 0)
		r = -errno;
	close(fd);
	return r;
}
