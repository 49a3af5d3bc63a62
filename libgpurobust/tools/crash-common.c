// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gpurobust/breadcrumbs-json.h>
#include <gpurobust/breadcrumbs.h>

#include "crash/backend/sysfs/read-all.h"
#include "crash-common.h"

static void free_captures(struct crash_evidence *ev)
{
	for (size_t i = 0; ev->captures && i < ev->dump->n_captures; i++)
		gpurobust_bc_report_free(ev->captures[i].bc);
	free(ev->captures);
	ev->captures = NULL;
}

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

const char *crash_capture_status(int status)
{
	switch (status) {
	case 0: return "breadcrumbs";
	/* our header, but no mirrored names: only --meta can decode it */
	case -ENODATA: return "no breadcrumbs in the dump (pool without mirror_scopes; use --meta)";
	case -EBADMSG: return "no breadcrumbs (not a breadcrumb buffer, or a damaged one)";
	case -EPROTONOSUPPORT: return "breadcrumbs of an unknown version";
	case -ESTALE: return "breadcrumbs of another pool than --meta describes";
	}
	return strerror(-status);
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

/* Decode every User Capture section: from the dump alone (the capture is
 * self-describing when the pool mirrors its scopes), or with the metadata
 * the process saved. The first capture that decodes titles and signs the
 * report. Captures that hold no breadcrumbs are results, not errors;
 * metadata that decodes none of them is an error. */
int crash_evidence_decode_captures(struct crash_evidence *ev, const char *meta_path,
				   const char *prog)
{
	const struct gpurobust_coredump *dump = ev->dump;
	struct gpurobust_bc_meta *meta = NULL;
	bool attached = false;
	int r = 0;

	free_captures(ev);
	if (!dump || !dump->n_captures) {
		if (!meta_path)
			return 0;
		fprintf(stderr, "%s: the dump has no User Capture section to decode\n", prog);
		return -ENOENT;
	}
	if (meta_path && (r = read_meta(meta_path, prog, &meta)))
		return r;
	ev->captures = calloc(dump->n_captures, sizeof(*ev->captures));
	if (!ev->captures) {
		gpurobust_bc_meta_free(meta);
		return -ENOMEM;
	}
	for (size_t i = 0; i < dump->n_captures && !r; i++) {
		const struct gpurobust_cd_capture *c = &dump->captures[i];
		struct crash_capture *res = &ev->captures[i];

		res->status = gpurobust_bc_decode(c->data, c->len, meta, &res->bc);
		if (res->status == -ENOMEM) {
			r = -ENOMEM;
		} else if (!res->status && !attached) {
			r = gpurobust_report_attach_breadcrumbs(ev->report, res->bc);
			attached = true;
		}
	}
	gpurobust_bc_meta_free(meta);
	if (r == -ENOMEM)
		fprintf(stderr, "%s: decoding the captures: %s\n", prog, strerror(-r));
	if (!r && meta_path && !attached) {
		fprintf(stderr, "%s: no capture decodes with %s (%s)\n", prog, meta_path,
			crash_capture_status(ev->captures[0].status));
		r = -EBADMSG;
	}
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
	/* breadcrumbs the dump carries itself join the signature, so that the
	 * store buckets what `gpurobust report` prints */
	if (!r)
		r = crash_evidence_decode_captures(ev, NULL, "gpurobust");
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
	free_captures(ev);
	gpurobust_report_free(ev->report);
	gpurobust_dmesg_free(ev->log);
	gpurobust_coredump_free(ev->dump);
	free(ev->dump_text);
	free(ev->log_text);
	memset(ev, 0, sizeof(*ev));
}
