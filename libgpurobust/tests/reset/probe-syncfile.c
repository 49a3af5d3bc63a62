// SPDX-License-Identifier: MIT
/*
 * probe-syncfile [SW_SYNC_PATH]: gpurobust_syncfile_probe() (contract row
 * L10) on real sync_files made by the kernel's sw_sync timeline. Prints TAP.
 *
 * Standalone on purpose: a kernel test copies it into a QEMU guest built with
 * CONFIG_SW_SYNC and debugfs, where it needs only libc and libdrm. Without
 * sw_sync it reports a TAP skip that says why.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sync_file.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

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

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : NULL;
	int timeline = -1, other_timeline, pending, done, other, merged;
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

	printf("1..5\n# sw_sync timeline: %s\n", path);
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
	close(merged);
	close(other);
	close(other_timeline);
	close(done);
	close(pending);
	close(timeline);
	return failures ? 1 : 0;
}
