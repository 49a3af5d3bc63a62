// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Snapshot decoder: marker bytes plus CPU-side metadata into a report. The
 * metadata is the process's (saved JSON, or the live pool) or, with meta
 * NULL, the mirror the pool keeps in the bytes themselves (mirror.c).
 *
 * The bytes may come from a GPU that hung while writing, from a capture cut
 * to the kernel's size cap, or from anywhere else. Every read is bounds
 * checked against len, and every counter is checked against what the CPU
 * recorded; a record that fails a check marks its stream invalid with a
 * reason instead of producing states nobody can trust.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"

static int mark_invalid(struct gpurobust_bc_report *report,
			struct gpurobust_bc_stream_report *sr, const char *reason)
{
	sr->valid = false;
	sr->invalid_reason = grb_bc_report_strdup(report, reason);
	if (!sr->invalid_reason)
		return -ENOMEM;
	for (uint32_t i = 0; i < sr->node_count; i++)
		if (sr->nodes[i].state != GPUROBUST_BC_OVERFLOW)
			sr->nodes[i].state = GPUROBUST_BC_INVALID;
	return 0;
}

/* Checks the counters against the recording; returns a reason or NULL. */
static const char *check_counters(const struct bc_meta_stream *ms, uint32_t in, uint32_t out,
				  char *buf, size_t size)
{
	uint32_t recorded = ms->evicted + ms->scope_count;
	uint32_t popped = 0, finished_last = GPUROBUST_BC_NONE;

	for (uint32_t i = 0; i < ms->scope_count; i++) {
		if (ms->scopes[i].pop_seq > popped)
			popped = ms->scopes[i].pop_seq;
		if (out && ms->scopes[i].pop_seq == out)
			finished_last = ms->evicted + i;
	}
	/* Scopes that fell out of a mirror's ring were popped when we cannot
	 * tell; at most one pop per push. */
	if (ms->evicted)
		popped = recorded;
	/* Dropped scopes still count on the GPU (pool.c), one push and at most
	 * one pop each. */
	if (in > (uint64_t)recorded + ms->dropped) {
		snprintf(buf, size, "in counter %u is beyond the %u scopes recorded and %u dropped",
			 in, recorded, ms->dropped);
		return buf;
	}
	if (out > (uint64_t)popped + ms->dropped) {
		snprintf(buf, size, "out counter %u is beyond the %u scopes closed and %u dropped",
			 out, popped, ms->dropped);
		return buf;
	}
	/* A scope cannot finish before it started. */
	if (finished_last != GPUROBUST_BC_NONE && finished_last + 1 > in) {
		snprintf(buf, size, "out counter %u finishes scope %u, which in counter %u never reached",
			 out, finished_last + 1, in);
		return buf;
	}
	return NULL;
}

/* The report outlives the metadata, so it keeps its own copy of each name
 * it uses, made once per name. */
static const char *report_name(struct gpurobust_bc_report *report,
			       const struct gpurobust_bc_meta *meta, const char **copies,
			       uint32_t name)
{
	if (name >= meta->name_count)
		return "?";
	if (!copies[name])
		copies[name] = grb_bc_report_strdup(report, meta->names[name]);
	return copies[name];
}

/* Scope index (or NONE, or EVICTED) to node index. */
static uint32_t node_of(uint32_t scope, uint32_t lead)
{
	if (scope == GPUROBUST_BC_NONE)
		return GPUROBUST_BC_NONE;
	if (scope == BC_PARENT_EVICTED)
		return 0;
	return scope + lead;
}

static int decode_stream(struct gpurobust_bc_report *report, struct gpurobust_bc_stream_report *sr,
			 const struct gpurobust_bc_meta *meta, const struct bc_meta_stream *ms,
			 const uint8_t *bytes, size_t len, uint32_t header_records,
			 const char **copies)
{
	/* A node for the scopes that fell out of a mirror's ring comes first,
	 * so that it precedes the scopes hung under it. */
	uint32_t lead = ms->evicted ? 1 : 0;
	uint32_t extra = lead + (ms->dropped ? 1 : 0);
	uint32_t in, out, tag;
	size_t offset;
	const char *reason;
	char buf[160];
	int ret;

	sr->tag = ms->tag;
	sr->queue = ms->queue;
	sr->dropped = ms->dropped;
	sr->valid = true;
	sr->label = grb_bc_report_strdup(report, ms->label ? ms->label : "");
	sr->nodes = calloc((size_t)ms->scope_count + extra, sizeof(*sr->nodes));
	if (!sr->label || !sr->nodes)
		return -ENOMEM;
	sr->node_count = ms->scope_count + extra;
	if (lead) {
		snprintf(buf, sizeof(buf), "%u earlier scopes not mirrored", ms->evicted);
		sr->nodes[0].name = grb_bc_report_strdup(report, buf);
		if (!sr->nodes[0].name)
			return -ENOMEM;
		sr->nodes[0].state = GPUROBUST_BC_OVERFLOW;
		sr->nodes[0].parent = GPUROBUST_BC_NONE;
	}
	for (uint32_t i = 0; i < ms->scope_count; i++) {
		const struct bc_scope *sc = &ms->scopes[i];

		sr->nodes[lead + i].name = report_name(report, meta, copies, sc->name);
		if (!sr->nodes[lead + i].name)
			return -ENOMEM;
		sr->nodes[lead + i].parent = node_of(sc->parent, lead);
	}
	if (ms->dropped) {
		struct gpurobust_bc_node *n = &sr->nodes[lead + ms->scope_count];

		snprintf(buf, sizeof(buf), "%u scopes dropped: stream overflow", ms->dropped);
		n->name = grb_bc_report_strdup(report, buf);
		if (!n->name)
			return -ENOMEM;
		n->state = GPUROBUST_BC_OVERFLOW;
		n->parent = node_of(ms->overflow_parent, lead);
	}
	ret = grb_bc_stream_link_tree(sr);
	if (ret)
		return ret;
	if (ms->broken)
		return mark_invalid(report, sr, ms->broken);

	offset = BC_HEADER_SIZE + (size_t)ms->record * BC_RECORD_SIZE;
	if (ms->record >= header_records || offset > len || len - offset < BC_RECORD_SIZE) {
		snprintf(buf, sizeof(buf), "record %u lies outside the %zu captured bytes",
			 ms->record, len);
		return mark_invalid(report, sr, buf);
	}
	tag = bc_read_le32(bytes + offset + BC_RECORD_TAG);
	in = bc_read_le32(bytes + offset + BC_RECORD_IN);
	out = bc_read_le32(bytes + offset + BC_RECORD_OUT);
	sr->marker_in = in;
	sr->marker_out = out;
	if (tag != ms->tag) {
		snprintf(buf, sizeof(buf), "record tag 0x%08x, expected 0x%08x", tag, ms->tag);
		return mark_invalid(report, sr, buf);
	}
	reason = check_counters(ms, in, out, buf, sizeof(buf));
	if (reason)
		return mark_invalid(report, sr, reason);
	for (uint32_t i = 0; i < ms->scope_count; i++) {
		uint32_t pop = ms->scopes[i].pop_seq;
		struct gpurobust_bc_node *n = &sr->nodes[lead + i];

		if (pop && pop <= out)
			n->state = GPUROBUST_BC_FINISHED;
		else if (ms->evicted + i + 1 <= in)
			n->state = GPUROBUST_BC_IN_PROGRESS;
		else
			n->state = GPUROBUST_BC_NOT_STARTED;
	}
	return 0;
}

GPUROBUST_EXPORT int gpurobust_bc_decode(const void *data, size_t len,
					 const struct gpurobust_bc_meta *meta,
					 struct gpurobust_bc_report **report_out)
{
	struct gpurobust_bc_meta *mirrored = NULL;
	const uint8_t *bytes = data;
	struct gpurobust_bc_report *report;
	const char **copies;
	uint32_t header_records;
	int ret = 0;

	if (!report_out)
		return -EINVAL;
	*report_out = NULL;
	if (!bytes && len)
		return -EINVAL;
	if (len < BC_HEADER_SIZE || bc_read_le32(bytes) != BC_MAGIC)
		return -EBADMSG;
	if ((bc_read_le32(bytes + 4) & 0xffff) != BC_VERSION)
		return -EPROTONOSUPPORT;
	if (bc_read_le32(bytes + 4) >> 16 != BC_RECORD_SIZE)
		return -EBADMSG;
	if (!meta) {
		ret = grb_bc_meta_from_mirror(bytes, len, &mirrored);
		if (ret)
			return ret;
		meta = mirrored;
	}
	if (bc_read_le32(bytes + 12) != meta->pool_id) {
		gpurobust_bc_meta_free(mirrored);
		return -ESTALE;
	}
	header_records = bc_read_le32(bytes + 8);

	report = grb_bc_report_alloc(meta->stream_count);
	copies = calloc(meta->name_count + 1, sizeof(*copies));
	if (!report || !copies) {
		gpurobust_bc_report_free(report);
		free(copies);
		gpurobust_bc_meta_free(mirrored);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < meta->stream_count && !ret; i++)
		ret = decode_stream(report, &report->streams[i], meta, &meta->streams[i],
				    bytes, len, header_records, copies);
	free(copies);
	gpurobust_bc_meta_free(mirrored);
	if (ret) {
		gpurobust_bc_report_free(report);
		return ret;
	}
	*report_out = report;
	return 0;
}
