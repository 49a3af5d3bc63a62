// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * probe-syncfile [SW_SYNC_PATH]: gpurobust_syncfile_probe() and
 * gpurobust_syncobj_probe() (contract row L10) on real sync_files made by the
 * kernel's sw_sync timeline. Closing a timeline completes its unsignalled
 * fences with -ENOENT, which gives real fences that failed. Prints TAP.
 *
 * Standalone on purpose: kernel/scripts/guest-probe.sh copies it into a QEMU
 * guest built with CONFIG_SW_SYNC and debugfs, where it needs only libc and
 * libdrm. Without sw_sync it reports a TAP skip that says why; the syncobj
 * check also needs a DRM device with syncobj support, and is skipped without.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <xf86drm.h>

#include "gpurobust/syncfile.h"

/* sw_sync's interface lives in drivers/dma-buf/sw_sync.c, not in a uAPI
 * header; these match it. */
struct sw_sync_create_fence_data {
	__u32 value;
	char name[32];
	__s32 fence;
};

#define SW_SYNC_IOC_MAGIC 'W'
#define SW_SYNC_IOC_CREATE_FENCE _IOWR(SW_SYNC_IOC_MAGIC, 0, struct sw_sync_create_fence_data)
#define SW_SYNC_IOC_INC _IOW(SW_SYNC_IOC_MAGIC, 1, __u32)

static const char *const sw_sync_paths[] = {
	"/sys/kernel/debug/sync/sw_sync",
	"/dev/sw_sync",
};

static int test_number;
static int failures;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++test_number, name);
	if (!ok)
		failures++;
}

static int create_fence(int timeline, unsigned int value)
{
	struct sw_sync_create_fence_data data = { .value = value };

	snprintf(data.name, sizeof(data.name), "gpurobust-%u", value);
	return ioctl(timeline, SW_SYNC_IOC_CREATE_FENCE, &data) ? -1 : data.fence;
}

static int merge(int a, int b)
{
	struct sync_merge_data data = { .fd2 = b };

	snprintf(data.name, sizeof(data.name), "gpurobust-merged");
	return ioctl(a, SYNC_IOC_MERGE, &data) ? -1 : data.fence;
}

static int probe_matches(int fd, int error, unsigned int count, unsigned int active)
{
	struct gpurobust_fence_probe p;
	int r = gpurobust_syncfile_probe(fd, &p);

	if (r) {
		printf("# gpurobust_syncfile_probe(%d) = %d (%s)\n", fd, r, strerror(-r));
		return 0;
	}
	printf("# fences %u active %u error %d\n", p.fence_count, p.active_count, p.error);
	return p.error == error && p.fence_count == count && p.active_count == active;
}

/* The first DRM device in /dev/dri that has syncobjs, or -1. */
static int open_syncobj_device(void)
{
	DIR *dir = opendir("/dev/dri");
	struct dirent *entry;
	int fd = -1;

	while (dir && fd < 0 && (entry = readdir(dir))) {
		char path[300];
		uint64_t has_syncobj = 0;

		if (entry->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/dev/dri/%s", entry->d_name);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd >= 0 && (drmGetCap(fd, DRM_CAP_SYNCOBJ, &has_syncobj) || !has_syncobj)) {
			close(fd);
			fd = -1;
		}
	}
	if (dir)
		closedir(dir);
	return fd;
}

/* The syncobj half of L10: a syncobj holding a failed fence. Waiting on the
 * syncobj would succeed; the probe must still see the fence's error. */
static void check_syncobj(int failed_sync_file, int error)
{
	struct gpurobust_fence_probe p = { 0 };
	uint32_t syncobj;
	int drm = open_syncobj_device();
	int r;

	if (drm < 0) {
		printf("ok %d - L10 syncobj probe sees the error of the fence it holds"
		       " # SKIP no DRM device with syncobj support in /dev/dri\n",
		       ++test_number);
		return;
	}
	if (drmSyncobjCreate(drm, 0, &syncobj)) {
		printf("# drmSyncobjCreate: %s\n", strerror(errno));
		check(0, "L10 syncobj probe sees the error of the fence it holds");
		close(drm);
		return;
	}
	r = drmSyncobjImportSyncFile(drm, syncobj, failed_sync_file);
	if (r)
		printf("# drmSyncobjImportSyncFile: %s\n", strerror(errno));
	else
		r = gpurobust_syncobj_probe(drm, syncobj, &p);
	printf("# syncobj probe %d: fences %u active %u error %d\n", r, p.fence_count,
	       p.active_count, p.error);
	check(!r && p.error == error && p.active_count == 0,
	      "L10 syncobj probe sees the error of the fence it holds");
	drmSyncobjDestroy(drm, syncobj);
	close(drm);
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : NULL;
	int timeline = -1, other_timeline, closed_timeline, pending, done, other, merged;
	int failed, merged_failed;
	__u32 one = 1;

	for (size_t i = 0; !path && i < sizeof(sw_sync_paths) / sizeof(sw_sync_paths[0]); i++)
		if (access(sw_sync_paths[i], R_OK | W_OK) == 0)
			path = sw_sync_paths[i];
	if (path)
		timeline = open(path, O_RDWR | O_CLOEXEC);
	if (timeline < 0) {
		printf("1..0 # SKIP no sw_sync timeline to make sync_files with "
		       "(needs CONFIG_SW_SYNC and debugfs at /sys/kernel/debug; %s)\n",
		       path ? strerror(errno) : "not found");
		return 0;
	}

	printf("1..8\n# sw_sync timeline: %s\n", path);
	pending = create_fence(timeline, 2);
	done = create_fence(timeline, 1);
	if (pending < 0 || done < 0) {
		printf("Bail out! SW_SYNC_IOC_CREATE_FENCE on %s failed: %s\n", path,
		       strerror(errno));
		return 1;
	}
	check(probe_matches(pending, 0, 1, 1), "L10 unsignalled fence is active, no error");
	if (ioctl(timeline, SW_SYNC_IOC_INC, &one)) {
		printf("Bail out! SW_SYNC_IOC_INC on %s failed: %s\n", path, strerror(errno));
		return 1;
	}
	check(probe_matches(done, 0, 1, 0), "L10 signalled fence carries no error");
	/* A merge keeps one fence per timeline, so the second fence comes
	 * from a second timeline (every open of sw_sync makes one). */
	other_timeline = open(path, O_RDWR | O_CLOEXEC);
	other = other_timeline < 0 ? -1 : create_fence(other_timeline, 1);
	merged = other < 0 ? -1 : merge(pending, other);
	check(merged >= 0 && probe_matches(merged, 0, 2, 2),
	      "L10 merged sync_file lists the fence of every timeline");
	if (ioctl(other_timeline, SW_SYNC_IOC_INC, &one) == 0)
		check(probe_matches(merged, 0, 2, 1),
		      "L10 the probe sees one of two fences signal");
	else
		check(0, "SW_SYNC_IOC_INC on the second timeline");
	check(gpurobust_syncfile_probe(timeline, &(struct gpurobust_fence_probe){ 0 }) == -ENOTTY,
	      "L10 a sw_sync timeline is not a sync_file");

	/* sw_sync signals the fences of a timeline closed before they were
	 * reached with -ENOENT: a fence that completed with an error. The
	 * merge comes first because a merge drops fences already signalled
	 * (dma_fence_unwrap_merge), errors included. */
	closed_timeline = open(path, O_RDWR | O_CLOEXEC);
	failed = closed_timeline < 0 ? -1 : create_fence(closed_timeline, 1);
	merged_failed = failed < 0 ? -1 : merge(pending, failed);
	if (closed_timeline >= 0)
		close(closed_timeline);
	check(failed >= 0 && probe_matches(failed, -ENOENT, 1, 0),
	      "L10 a fence its closed timeline completed carries -ENOENT");
	check(merged_failed >= 0 && probe_matches(merged_failed, -ENOENT, 2, 1),
	      "L10 a merged sync_file reports its failed fence while another is active");
	if (failed >= 0)
		check_syncobj(failed, -ENOENT);
	else
		check(0, "L10 syncobj probe sees the error of the fence it holds");
	close(merged_failed);
	close(failed);
	close(merged);
	close(other);
	close(other_timeline);
	close(done);
	close(pending);
	close(timeline);
	return failures ? 1 : 0;
}
