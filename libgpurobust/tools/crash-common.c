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
#include "crash-journal.h"
#include "fleet-queue.h"

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

void crash_store_parent(const char *dir)
{
	char parent[PATH_MAX], *slash;

	snprintf(parent, sizeof(parent), "%s", dir);
	slash = strrchr(parent, '/');
	/* 0755 whatever the umask: the unit's is 0077 */
	if (slash && slash != parent) {
		*slash = '\0';
		if (!mkdir(parent, 0755))
			chmod(parent, 0755);
	}
}

int crash_store_open(const char *dir, const char *prog, struct gpurobust_store **out)
{
	int r;

	crash_store_parent(dir);
	r = gpurobust_store_open(dir, out);
	if (r)
		fprintf(stderr, "%s: cannot open the store %s: %s\n", prog, dir,
			r == -EPERM ? "others may write to it" : strerror(-r));
	return r;
}

bool crash_process_owner(const char *proc, int32_t pid, const char *comm, uint32_t *uid,
			  uint32_t *gid)
{
	char path[PATH_MAX], *status, *line, *save = NULL;
	bool name_ok = false, have_uid = false, have_gid = false;
	size_t len;

	if (pid <= 0 || !*comm)
		return false;
	snprintf(path, sizeof(path), "%s/%d/status", proc, pid);
	if (crash_read_file(path, &status, &len))
		return false;
	for (line = strtok_r(status, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "Name:\t", 6))
			name_ok = !strcmp(line + 6, comm);
		else if (sscanf(line, "Uid:\t%u", uid) == 1)
			have_uid = true;
		else if (sscanf(line, "Gid:\t%u", gid) == 1)
			have_gid = true;
	}
	free(status);
	return name_ok && have_uid && have_gid;
}

/* The PCI address of the device a devcoredump came from (the basename its
 * failing_device link resolves to), or NULL. */
static const char *failing_device(const char *devcd, char *buf, size_t size)
{
	char target[PATH_MAX];
	const char *base;

	if (!crash_failing_device_path(devcd, target))
		return NULL;
	base = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
	return snprintf(buf, size, "%s", base) < (int)size ? buf : NULL;
}

const char *crash_failing_device_path(const char *devcd, char path[PATH_MAX])
{
	char link[PATH_MAX];

	snprintf(link, sizeof(link), "%s/failing_device", devcd);
	return realpath(link, path);
}

/* A dump the parsers cannot read is still an amdgpu crash: it is kept as
 * it came, in one bucket of its own, for a later version to read again. */
static void unreadable_report(struct gpurobust_report *r, int err)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->title, sizeof(r->title), "unreadable amdgpu devcoredump (%s)",
		 strerror(-err));
	snprintf(r->signature_key, sizeof(r->signature_key), "unreadable devcoredump");
}

static void print_stored(const struct gpurobust_stored_crash *c)
{
	char title[4 * sizeof(c->title) + 1];

	gpurobust_text_escape(title, sizeof(title), c->title);
	printf("stored event %lld in bucket %s: %s\n", (long long)c->id, c->signature, title);
	if (*c->not_kept)
		printf("  without its files: %s\n", c->not_kept);
	fflush(stdout);
}

int crash_collect(struct gpurobust_store *store, const struct crash_collect_opts *o,
		  const char *devcd, const char *prog)
{
	struct gpurobust_crash *crash = NULL;
	struct gpurobust_report unreadable, *report;
	struct gpurobust_stored_crash stored;
	struct gpurobust_store_event se;
	char *dump = NULL, *log = NULL, device[64];
	size_t dump_len = 0, log_len = 0;
	int r;

	if (devcd && (r = gpurobust_devcd_read(devcd, &dump, &dump_len))) {
		if (r == -ENOENT || r == -ENODEV) {
			fprintf(stderr, "%s: %s vanished before it was read (freed by another "
				"reader, or its 5 minutes passed): nothing stored\n", prog, devcd);
			return -ENODATA;
		}
		fprintf(stderr, "%s: %s: %s\n", prog, devcd, strerror(-r));
		return r;
	}
	r = grb_kmsg_hang_context(o->kmsg, &log, &log_len);
	if (r)
		fprintf(stderr, "%s: no kernel log context (%s): %s\n", prog, o->kmsg,
			strerror(-r));
	if (!dump && !log) {
		fprintf(stderr, "%s: a reset without a dump or a kernel log is not stored\n",
			prog);
		return -ENODATA;
	}
	r = gpurobust_crash_analyze(dump, dump_len, log, log_len, NULL, &crash);
	if (r && dump && r != -ENOMEM && r != -ENODATA) {
		/* an amdgpu dump (the caller checked its driver) that the
		 * parsers reject: keep it rather than lose it in 5 minutes.
		 * One with nothing amdgpu in it at all is not stored: it would
		 * share a bucket with every stray file (it stays in sysfs). */
		fprintf(stderr, "%s: %s does not parse (%s): stored as it is\n", prog,
			devcd, strerror(-r));
		unreadable_report(&unreadable, r);
		report = &unreadable;
	} else if (r == -ENODATA) {
		fprintf(stderr, "%s: %s: nothing amdgpu to report, not stored\n", prog,
			devcd ? devcd : "the reset");
		goto out;
	} else if (r) {
		fprintf(stderr, "%s: cannot build the report: %s\n", prog, strerror(-r));
		goto out;
	} else {
		report = crash->report;
		if (report->n_diags || report->truncated)
			fprintf(stderr, "%s: %s is damaged (%zu problem%s%s): stored as read\n",
				prog, devcd ? devcd : "the dump", report->n_diags,
				report->n_diags == 1 ? "" : "s", report->truncated ? ", cut short" : "");
	}
	se = (struct gpurobust_store_event){
		.report = report, .dump = dump, .dump_len = dump_len,
		.dmesg = log, .dmesg_len = log_len, .seen = time(NULL),
	};
	se.owner_known = crash_process_owner(o->proc, report->pid, report->process, &se.uid,
				       &se.gid);
	se.device = devcd ? failing_device(devcd, device, sizeof(device)) : NULL;
	r = gpurobust_store_record(store, &se, &stored);
	if (r) {
		/* the dump stays in sysfs for another try */
		fprintf(stderr, "%s: cannot store %s: %s\n", prog, devcd ? devcd : "the reset",
			strerror(-r));
		goto out;
	}
	print_stored(&stored);
	if (*stored.not_kept)
		fprintf(stderr, "%s: event %lld stored without its files: %s\n", prog,
			(long long)stored.id, stored.not_kept);
	if (o->journal && (r = crash_journal_log(report, &stored, o->store_dir, devcd)))
		fprintf(stderr, "%s: no journal entry for event %lld: %s\n", prog,
			(long long)stored.id, strerror(-r));
	/* stored here already: a full outbox loses the fleet a copy, not the crash */
	if (o->fleet_outbox && (r = crash_fleet_queue(o->fleet_outbox, report, &stored, devcd)))
		fprintf(stderr, "%s: event %lld not queued for the fleet store in %s: %s\n", prog,
			(long long)stored.id, o->fleet_outbox, strerror(-r));
	r = 0;
	if (devcd && o->clear && (r = gpurobust_devcd_clear(devcd)))
		fprintf(stderr, "%s: cannot clear %s: %s\n", prog, devcd, strerror(-r));
out:
	gpurobust_crash_free(crash);
	free(dump);
	free(log);
	return r;
}
