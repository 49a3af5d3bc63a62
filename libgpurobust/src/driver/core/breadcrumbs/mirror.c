// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Reads the metadata mirror (B3) back from marker bytes, so that a
 * devcoredump decodes without anything the process saved. The bytes are
 * whatever the capture holds: every offset is checked against len, every
 * count against the room it claims, and a scope log that does not add up
 * marks its stream broken instead of being believed.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "driver/core/breadcrumbs/internal.h"

static int read_names(struct gpurobust_bc_meta *meta, const uint8_t *names, uint32_t used,
		      uint32_t count)
{
	uint32_t at = 0;

	/* Each name takes at least its NUL, so count is bounded by used. */
	if (count > used)
		return -EBADMSG;
	meta->names = calloc(count ? count : 1, sizeof(*meta->names));
	if (!meta->names)
		return -ENOMEM;
	for (; meta->name_count < count; meta->name_count++) {
		const uint8_t *end = memchr(names + at, 0, used - at);

		if (!end)
			return -EBADMSG;
		meta->names[meta->name_count] = strndup((const char *)names + at,
							(size_t)(end - names) - at);
		if (!meta->names[meta->name_count])
			return -ENOMEM;
		at = (uint32_t)(end - names) + 1;
	}
	return 0;
}

/* Parent push sequence to scope index: NONE for a root, EVICTED for one
 * that fell out of the ring; false when it is not an earlier scope. */
static bool map_parent(uint32_t parent_seq, uint32_t own_seq, uint32_t evicted, uint32_t *out)
{
	if (!parent_seq)
		*out = GPUROBUST_BC_NONE;
	else if (parent_seq >= own_seq)
		return false;
	else if (parent_seq <= evicted)
		*out = BC_PARENT_EVICTED;
	else
		*out = parent_seq - evicted - 1;
	return true;
}

static int read_stream(struct bc_meta_stream *ms, const uint8_t *slice, uint32_t slots,
		       const struct gpurobust_bc_meta *meta)
{
	uint32_t count = bc_read_le32(slice + BC_SLICE_COUNT);
	uint32_t kept = count < slots ? count : slots;
	uint32_t queue = bc_read_le32(slice + BC_SLICE_QUEUE);
	uint32_t label = bc_read_le32(slice + BC_SLICE_LABEL);

	ms->tag = bc_read_le32(slice + BC_SLICE_TAG);
	ms->queue = queue <= GPUROBUST_BC_QUEUE_SDMA ? (enum gpurobust_bc_queue)queue :
		    GPUROBUST_BC_QUEUE_GFX;
	ms->label = strdup(label < meta->name_count ? meta->names[label] : "?");
	ms->overflow_parent = GPUROBUST_BC_NONE;
	ms->scopes = calloc(kept ? kept : 1, sizeof(*ms->scopes));
	if (!ms->label || !ms->scopes)
		return -ENOMEM;
	if (queue > GPUROBUST_BC_QUEUE_SDMA) {
		ms->broken = "mirrored queue is unknown";
		return 0;
	}
	if (bc_read_le32(slice + BC_SLICE_WRITE_ERROR)) {
		ms->broken = BC_WRITE_FAILED_REASON;
		return 0;
	}
	ms->evicted = count - kept;
	ms->dropped = bc_read_le32(slice + BC_SLICE_DROPPED);
	if (ms->dropped &&
	    !map_parent(bc_read_le32(slice + BC_SLICE_OVERFLOW_PARENT), count + 1, ms->evicted,
			&ms->overflow_parent)) {
		ms->broken = "mirrored overflow parent is not a recorded scope";
		ms->dropped = 0;
		return 0;
	}
	for (uint32_t i = 0; i < kept; i++) {
		uint32_t seq = ms->evicted + i + 1;
		const uint8_t *slot = slice + BC_SLICE_HEADER_SIZE +
				      (size_t)((seq - 1) & (slots - 1)) * BC_SLOT_SIZE;
		struct bc_scope *sc = &ms->scopes[i];

		sc->name = bc_read_le32(slot + BC_SLOT_NAME);
		sc->pop_seq = bc_read_le32(slot + BC_SLOT_POP);
		if (bc_read_le32(slot + BC_SLOT_PUSH) != seq ||
		    !map_parent(bc_read_le32(slot + BC_SLOT_PARENT), seq, ms->evicted, &sc->parent) ||
		    sc->pop_seq > (uint64_t)count + ms->dropped) {
			ms->broken = "mirrored scope log is inconsistent";
			ms->evicted = 0;
			ms->dropped = 0;
			ms->overflow_parent = GPUROBUST_BC_NONE;
			return 0;
		}
	}
	ms->scope_count = kept;
	return 0;
}

int grb_bc_meta_from_mirror(const uint8_t *bytes, size_t len, struct gpurobust_bc_meta **meta_out)
{
	uint32_t records = bc_read_le32(bytes + 8);
	uint32_t slots, name_bytes, used;
	struct gpurobust_bc_meta *meta;
	const uint8_t *h;
	size_t at, slice_bytes, in_capture;
	int ret;

	*meta_out = NULL;
	/* Header checked by the caller; records beyond len mean no mirror. */
	if (records > (len - BC_HEADER_SIZE) / BC_RECORD_SIZE)
		return -ENODATA;
	at = BC_HEADER_SIZE + (size_t)records * BC_RECORD_SIZE;
	if (len - at < BC_MIRROR_HEADER_SIZE || bc_read_le32(bytes + at) != BC_MIRROR_MAGIC)
		return -ENODATA;
	h = bytes + at;
	slots = bc_read_le32(h + 4);
	name_bytes = bc_read_le32(h + 8);
	used = bc_read_le32(h + 16);
	if (!slots || slots > BC_MIRROR_MAX_SLOTS || (slots & (slots - 1)) ||
	    name_bytes > len - at - BC_MIRROR_HEADER_SIZE || used > name_bytes)
		return -EBADMSG;

	meta = calloc(1, sizeof(*meta));
	if (!meta)
		return -ENOMEM;
	meta->pool_id = bc_read_le32(bytes + 12);
	meta->record_count = records;
	ret = read_names(meta, h + BC_MIRROR_HEADER_SIZE, used, bc_read_le32(h + 12));
	if (ret)
		goto fail;

	/* Slices cut off by the capture size are not seen: their streams are
	 * missing from the report, as they would be without a mirror. */
	at += BC_MIRROR_HEADER_SIZE + name_bytes;
	slice_bytes = BC_SLICE_HEADER_SIZE + (size_t)slots * BC_SLOT_SIZE;
	in_capture = (len - at) / slice_bytes;
	if (in_capture > records)
		in_capture = records;
	meta->streams = calloc(in_capture ? in_capture : 1, sizeof(*meta->streams));
	if (!meta->streams) {
		ret = -ENOMEM;
		goto fail;
	}
	for (uint32_t r = 0; r < in_capture; r++) {
		const uint8_t *slice = bytes + at + r * slice_bytes;
		struct bc_meta_stream *ms = &meta->streams[meta->stream_count];

		if (!bc_read_le32(slice + BC_SLICE_TAG))
			continue;
		meta->stream_count++;
		ms->record = r;
		ret = read_stream(ms, slice, slots, meta);
		if (ret)
			goto fail;
	}
	*meta_out = meta;
	return 0;
fail:
	gpurobust_bc_meta_free(meta);
	return ret;
}
