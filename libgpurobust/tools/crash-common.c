// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gpurobust/breadcrumbs-json.h>

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
