// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gpurobust/breadcrumbs-json.h>

#include "crash/backend/sysfs/kmsg.h"
#include "crash/backend/sysfs/read-all.h"
#include "crash-common.h"

int crash_read_file(const char *path, char **text, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	int r;

	if (fd < 0)
		return -errno;
	/* a devcoredump is capped at 1 GiB in the library too */
	r = grb_read_all_fd(fd, 1u << 30, text, len);
	if (fd != STDIN_FILENO)
		close(fd);
	return r;
}

static int read_meta(const char *path, const char *prog, struct gpurobust_bc_meta **meta)
{
	size_t len;
	char *json;
	int r = crash_read_file(path, &json, &len);

	if (r) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(-r));
		return r;
	}
	r = gpurobust_bc_meta_from_json(json, len, meta);
	free(json);
	if (r)
		fprintf(stderr, "%s: %s: not breadcrumb metadata (%s)\n", prog, path,
			strerror(-r));
	return r;
}

static int read_evidence(const char *path, const char *prog, char **text, size_t *len)
{
	int r;

	*text = NULL;
	*len = 0;
	if (!path)
		return 0;
	r = crash_read_file(path, text, len);
	if (r)
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(-r));
	return r;
}

int crash_load(const char *dump_path, const char *log_path, const char *meta_path,
	       const char *prog, struct gpurobust_crash **out)
{
	struct gpurobust_bc_meta *meta = NULL;
	char *dump = NULL, *log = NULL;
	size_t dump_len, log_len;
	int r;

	*out = NULL;
	if ((r = read_evidence(dump_path, prog, &dump, &dump_len)) ||
	    (r = read_evidence(log_path, prog, &log, &log_len)) ||
	    (meta_path && (r = read_meta(meta_path, prog, &meta))))
		goto out;
	r = gpurobust_crash_analyze(dump, dump_len, log, log_len, meta, out);
	if (r == -ENODATA)
		fprintf(stderr, "%s: nothing to report: %s%s%s holds no amdgpu devcoredump "
			"section and no amdgpu hang or fault line\n", prog,
			dump_path ? dump_path : "", dump_path && log_path ? " and " : "",
			log_path ? log_path : "");
	else if (r)
		fprintf(stderr, "%s: cannot build the report: %s\n", prog, strerror(-r));
	if (!r && (*out)->meta_status) {
		r = (*out)->meta_status;
		if (r == -ENOENT)
			fprintf(stderr, "%s: the dump has no User Capture section to decode\n", prog);
		else
			fprintf(stderr, "%s: no capture decodes with %s (%s)\n", prog, meta_path,
				gpurobust_crash_capture_status((*out)->captures[0].status));
		gpurobust_crash_free(*out);
		*out = NULL;
	}
out:
	gpurobust_bc_meta_free(meta);
	free(dump);
	free(log);
	return r;
}

int crash_store_open(const char *dir, const char *prog, struct gpurobust_store **out)
{
	char parent[PATH_MAX], *slash;
	int r;

	/* the store's parent, owner-only too, for the default location */
	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	if (slash && slash != parent) {
		*slash = '\0';
		mkdir(parent, 0700);
	}
	r = gpurobust_store_open(dir, out);
	if (r)
		fprintf(stderr, "%s: cannot open the store %s: %s\n", prog, dir,
			r == -EPERM ? "it must be accessible to its owner only" : strerror(-r));
	return r;
}

int crash_collect(struct gpurobust_store *store, const char *kmsg, bool clear,
		  const char *devcd, const char *prog)
{
	struct gpurobust_crash *crash = NULL;
	struct gpurobust_store_event se;
	char *dump = NULL, *log = NULL, title[4 * sizeof(crash->report->title) + 1];
	size_t dump_len = 0, log_len = 0;
	int64_t id = 0;
	int r;

	if (devcd && (r = gpurobust_devcd_read(devcd, &dump, &dump_len))) {
		fprintf(stderr, "%s: %s: %s\n", prog, devcd, strerror(-r));
		return r;
	}
	r = grb_kmsg_hang_context(kmsg, &log, &log_len);
	if (r)
		fprintf(stderr, "%s: no kernel log context (%s): %s\n", prog, kmsg,
			strerror(-r));
	if (!dump && !log) {
		fprintf(stderr, "%s: a reset without a dump or a kernel log is not stored\n",
			prog);
		return -ENODATA;
	}
	r = gpurobust_crash_analyze(dump, dump_len, log, log_len, NULL, &crash);
	if (!r) {
		se = (struct gpurobust_store_event){
			.report = crash->report, .dump = dump, .dump_len = dump_len,
			.dmesg = log, .dmesg_len = log_len, .seen = time(NULL),
		};
		r = gpurobust_store_record(store, &se, &id);
	}
	if (r == -ENODATA) {
		fprintf(stderr, "%s: %s: nothing amdgpu to report, not stored\n", prog,
			devcd ? devcd : "the reset");
	} else if (r) {
		fprintf(stderr, "%s: cannot store %s: %s\n", prog, devcd ? devcd : "the reset",
			strerror(-r));
	} else {
		gpurobust_text_escape(title, sizeof(title), crash->report->title);
		printf("stored event %lld in bucket %016llx: %s\n", (long long)id,
		       (unsigned long long)crash->report->signature, title);
		fflush(stdout);
		if (devcd && clear && (r = gpurobust_devcd_clear(devcd)))
			fprintf(stderr, "%s: cannot clear %s: %s\n", prog, devcd, strerror(-r));
	}
	gpurobust_crash_free(crash);
	free(dump);
	free(log);
	return r;
}
