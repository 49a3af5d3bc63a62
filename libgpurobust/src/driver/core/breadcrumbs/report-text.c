// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * The text report, in the style of Radeon GPU Detective's execution marker
 * tree: [X] finished, [>] in progress, [ ] not started, plus [!] invalid and
 * [+] overflow, user strings in quotes, and only the in-progress scopes
 * expanded unless asked otherwise. Then RGD's "markers in progress" list.
 *
 * Trees can be a million scopes deep, so every walk here is iterative.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <gpurobust/text.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"

static const char *state_box(enum gpurobust_bc_state state)
{
	switch (state) {
	case GPUROBUST_BC_NOT_STARTED:
		return "[ ]";
	case GPUROBUST_BC_IN_PROGRESS:
		return "[>]";
	case GPUROBUST_BC_FINISHED:
		return "[X]";
	case GPUROBUST_BC_OVERFLOW:
		return "[+]";
	case GPUROBUST_BC_INVALID:
		return "[!]";
	}
	return "[?]";
}

static bool show_children(const struct gpurobust_bc_node *n, unsigned int flags)
{
	return (flags & GPUROBUST_BC_TEXT_EXPAND) || n->state == GPUROBUST_BC_IN_PROGRESS ||
	       n->state == GPUROBUST_BC_INVALID;
}

/* Pre-order successor of `at`, skipping hidden subtrees. */
static uint32_t next_shown(const struct gpurobust_bc_stream_report *s, uint32_t at,
			   unsigned int flags)
{
	const struct gpurobust_bc_node *n = &s->nodes[at];

	if (n->first_child != GPUROBUST_BC_NONE && show_children(n, flags))
		return n->first_child;
	while (at != GPUROBUST_BC_NONE) {
		if (s->nodes[at].next_sibling != GPUROBUST_BC_NONE)
			return s->nodes[at].next_sibling;
		at = s->nodes[at].parent;
	}
	return GPUROBUST_BC_NONE;
}

static void print_header(FILE *out, const char *title)
{
	size_t len = strlen(title);

	fprintf(out, "%s\n", title);
	for (size_t i = 0; i < len; i++)
		fputc('=', out);
	fputc('\n', out);
}

static int print_tree(const struct gpurobust_bc_stream_report *s, FILE *out, unsigned int flags)
{
	/* more[d]: the ancestor at depth d has a later sibling, so draw a bar. */
	bool *more = calloc(s->node_count + 1, sizeof(*more));
	char name[4 * 256 + 1];

	if (!more)
		return -ENOMEM;
	for (uint32_t at = s->node_count ? 0 : GPUROBUST_BC_NONE; at != GPUROBUST_BC_NONE;
	     at = next_shown(s, at, flags)) {
		const struct gpurobust_bc_node *n = &s->nodes[at];
		bool last = n->next_sibling == GPUROBUST_BC_NONE;

		more[n->depth] = !last;
		if (n->depth) {
			fputc(' ', out);
			for (uint32_t d = 1; d < n->depth; d++)
				fputs(more[d] ? "\u2502  " : "   ", out);
			fputs(last ? "\u2514\u2500" : "\u251c\u2500", out);
		}
		/* Scope names are the application's strings: quote them, as RGD
		 * quotes user markers, and escape what a terminal would act on
		 * (the commands run as root). Overflow nodes are ours: bare. */
		gpurobust_text_escape(name, sizeof(name), n->name);
		if (n->state == GPUROBUST_BC_OVERFLOW)
			fprintf(out, "%s %s\n", state_box(n->state), name);
		else
			fprintf(out, "%s \"%s\"\n", state_box(n->state), name);
	}
	free(more);
	return 0;
}

/* Writes the path of `leaf` as "a/b/c" into buf (truncated to size). */
static void path_of(const struct gpurobust_bc_stream_report *s, uint32_t leaf, char *buf,
		    size_t size)
{
	size_t pos = size - 1;

	/* Filled from the end, leaf first; a path longer than the buffer keeps
	 * its deepest part. */
	buf[pos] = '\0';
	for (uint32_t at = leaf; at != GPUROBUST_BC_NONE; at = s->nodes[at].parent) {
		size_t len = strlen(s->nodes[at].name);

		if (len + (at != leaf) > pos)
			break;
		if (at != leaf)
			buf[--pos] = '/';
		pos -= len;
		memcpy(buf + pos, s->nodes[at].name, len);
	}
	memmove(buf, buf + pos, size - pos);
}

/* An application's path, made inert for the terminal. */
static void print_path(FILE *out, const char *path, unsigned int repeats)
{
	char text[4 * 1024 + 1];

	gpurobust_text_escape(text, sizeof(text), path);
	if (repeats > 1)
		fprintf(out, "%s [%u repeating occurrences]\n", text, repeats);
	else
		fprintf(out, "%s\n", text);
}

static void print_in_progress(const struct gpurobust_bc_stream_report *s, FILE *out)
{
	char path[1024], previous[1024] = "";
	unsigned int repeats = 0;

	for (uint32_t i = 0; i < s->node_count; i++) {
		const struct gpurobust_bc_node *n = &s->nodes[i];
		bool leaf = true;

		if (n->state != GPUROBUST_BC_IN_PROGRESS)
			continue;
		for (uint32_t c = n->first_child; c != GPUROBUST_BC_NONE; c = s->nodes[c].next_sibling)
			if (s->nodes[c].state == GPUROBUST_BC_IN_PROGRESS)
				leaf = false;
		if (!leaf)
			continue;
		path_of(s, i, path, sizeof(path));
		if (repeats && !strcmp(path, previous)) {
			repeats++;
			continue;
		}
		if (repeats)
			print_path(out, previous, repeats);
		memcpy(previous, path, sizeof(path));
		repeats = 1;
	}
	if (repeats)
		print_path(out, previous, repeats);
}

GPUROBUST_EXPORT int gpurobust_bc_report_print(const struct gpurobust_bc_report *report,
					       FILE *out, unsigned int flags)
{
	char title[320], label[4 * 200 + 1];

	if (!report || !out)
		return -EINVAL;
	print_header(out, "EXECUTION MARKER TREE");
	fputc('\n', out);
	for (uint32_t i = 0; i < report->stream_count; i++) {
		const struct gpurobust_bc_stream_report *s = &report->streams[i];
		int ret;

		gpurobust_text_escape(label, sizeof(label), s->label);
		snprintf(title, sizeof(title), "Stream ID: 0x%x (Queue type: %s)%s%.200s%s%s",
			 s->tag, gpurobust_bc_queue_name(s->queue), *s->label ? " \"" : "",
			 label, *s->label ? "\"" : "",
			 (int32_t)i == report->guilty_stream ? " <-- guilty" : "");
		print_header(out, title);
		fprintf(out, "Markers: in %u, out %u%s\n", s->marker_in, s->marker_out,
			s->valid ? "" : " (not trusted)");
		if (!s->valid)
			fprintf(out, "INVALID: %s\n", s->invalid_reason);
		ret = print_tree(s, out, flags);
		if (ret)
			return ret;
		fputc('\n', out);
	}
	print_header(out, "MARKERS IN PROGRESS");
	for (uint32_t i = 0; i < report->stream_count; i++) {
		snprintf(title, sizeof(title), "Stream ID: 0x%x", report->streams[i].tag);
		fprintf(out, "%s\n", title);
		print_in_progress(&report->streams[i], out);
	}
	return ferror(out) ? -EIO : 0;
}
