// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * libudev watcher for the two uevents a hang produces: "add" of a
 * devcoredump device (every kernel with CONFIG_DEV_COREDUMP) and "change" of
 * the DRM device with WEDGED= (drm_dev_wedged_event(), Linux 6.14+; amdgpu
 * sends WEDGED=none after a successful ring reset, with PID= and TASK= of the
 * guilty task since 6.17).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libudev.h>

#include "crash/backend/sysfs/watch.h"
#include "common/export.h"

struct gpurobust_watcher {
	struct udev *udev;
	struct udev_monitor *mon;
};

bool grb_watch_classify(const struct uevent_fields *u, struct gpurobust_watch_event *ev)
{
	if (!u->action || !u->subsystem || !u->syspath)
		return false;
	memset(ev, 0, sizeof(*ev));
	if (!strcmp(u->subsystem, "devcoredump") && !strcmp(u->action, "add")) {
		ev->kind = GPUROBUST_WATCH_DEVCOREDUMP;
	} else if (!strcmp(u->subsystem, "drm") && !strcmp(u->action, "change") && u->wedged) {
		ev->kind = GPUROBUST_WATCH_RESET;
		snprintf(ev->wedged, sizeof(ev->wedged), "%s", u->wedged);
		if (u->pid)
			ev->pid = (int32_t)strtol(u->pid, NULL, 10);
		if (u->task)
			snprintf(ev->task, sizeof(ev->task), "%s", u->task);
	} else {
		return false;
	}
	snprintf(ev->syspath, sizeof(ev->syspath), "%s", u->syspath);
	return true;
}

GPUROBUST_EXPORT
int gpurobust_watcher_open(struct gpurobust_watcher **out)
{
	struct gpurobust_watcher *w;
	int r = -ENOMEM;

	if (!out)
		return -EINVAL;
	*out = NULL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->udev = udev_new();
	if (!w->udev)
		goto fail;
	/* "udev" events: after udevd processed them, so sysfs is complete */
	w->mon = udev_monitor_new_from_netlink(w->udev, "udev");
	if (!w->mon) {
		r = errno ? -errno : -ENOMEM;
		goto fail;
	}
	if ((r = udev_monitor_filter_add_match_subsystem_devtype(w->mon, "devcoredump", NULL)) ||
	    (r = udev_monitor_filter_add_match_subsystem_devtype(w->mon, "drm", NULL)) ||
	    (r = udev_monitor_enable_receiving(w->mon)))
		goto fail;
	*out = w;
	return 0;
fail:
	gpurobust_watcher_close(w);
	return r < 0 ? r : -EIO;
}

GPUROBUST_EXPORT
void gpurobust_watcher_close(struct gpurobust_watcher *w)
{
	if (!w)
		return;
	udev_monitor_unref(w->mon);
	udev_unref(w->udev);
	free(w);
}

GPUROBUST_EXPORT
int gpurobust_watcher_fd(const struct gpurobust_watcher *w)
{
	return w ? udev_monitor_get_fd(w->mon) : -EINVAL;
}

GPUROBUST_EXPORT
int gpurobust_watcher_next(struct gpurobust_watcher *w, struct gpurobust_watch_event *ev)
{
	struct udev_device *dev;

	if (!w || !ev)
		return -EINVAL;
	/* the monitor socket is non-blocking: NULL when drained */
	while ((dev = udev_monitor_receive_device(w->mon))) {
		struct uevent_fields u = {
			.action = udev_device_get_action(dev),
			.subsystem = udev_device_get_subsystem(dev),
			.syspath = udev_device_get_syspath(dev),
			.wedged = udev_device_get_property_value(dev, "WEDGED"),
			.pid = udev_device_get_property_value(dev, "PID"),
			.task = udev_device_get_property_value(dev, "TASK"),
		};
		bool wanted = grb_watch_classify(&u, ev);

		udev_device_unref(dev);
		if (wanted)
			return 0;
	}
	return -EAGAIN;
}
