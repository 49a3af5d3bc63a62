// SPDX-License-Identifier: MIT
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/sysfs/read-all.h"
#include "crash-common.h"

int crash_read_file(const char *path, char **text, size_t *len)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	int r;

	if (fd < 0)
		return -errno;
	/* a devcoredump is capped at 1 GiB in the library too */
	r = read_all_fd(fd, 1u << 30, text, len);
	if (fd != STDIN_FILENO)
		close(fd);
	return r;
}

int crash_evidence_build(struct crash_evidence *ev)
{
	int r = 0;

	if (ev->dump_text)
		r = gpurobust_coredump_parse(ev->dump_text, ev->dump_len, &ev->dump);
	if (!r && ev->log_text)
		r = gpurobust_dmesg_parse(ev->log_text, ev->log_len, &ev->log);
	if (!r)
		r = gpurobust_report_build(ev->dump, ev->log, &ev->report);
	return r;
}

int crash_evidence_load(struct crash_evidence *ev, const char *dump_path,
			const char *log_path, const char *prog)
{
	int r = 0;

	if (dump_path && (r = crash_read_file(dump_path, &ev->dump_text, &ev->dump_len))) {
		fprintf(stderr, "%s: %s: %s\n", prog, dump_path, strerror(-r));
		return r;
	}
	if (log_path && (r = crash_read_file(log_path, &ev->log_text, &ev->log_len))) {
		fprintf(stderr, "%s: %s: %s\n", prog, log_path, strerror(-r));
		return r;
	}
	r = crash_evidence_build(ev);
	if (r)
		fprintf(stderr, "%s: cannot build the report: %s\n", prog, strerror(-r));
	return r;
}

void crash_evidence_free(struct crash_evidence *ev)
{
	gpurobust_report_free(ev->report);
	gpurobust_dmesg_free(ev->log);
	gpurobust_coredump_free(ev->dump);
	free(ev->dump_text);
	free(ev->log_text);
	memset(ev, 0, sizeof(*ev));
}
