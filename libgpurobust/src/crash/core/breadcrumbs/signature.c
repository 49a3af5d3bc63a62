// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Crash signatures.
 *
 * The baseline follows the published Unreal Engine / REDengine method (B2):
 *   1. per stream, per level of the tree, keep the last finished scope, every
 *      active scope and the next not-started one; descend into active ones;
 *   2. replace every number with "x";
 *   3. hash the result (xxh64, seed 0) as the ticket key;
 *   4. title the ticket with the deepest active scope.
 * Its weakness is that everything on every queue goes into the hash: the
 * work that happened to run in parallel, how far the command processor had
 * run ahead, and where a stack was cut all change the key.
 *
 * Ours hashes only the path of the oldest unfinished work on the guilty
 * queue, with a normaliser that also folds hex numbers and hashes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "common/export.h"
#include "driver/core/breadcrumbs/internal.h"
#include "crash/core/breadcrumbs/signature-internal.h"
#include "gpurobust/breadcrumbs-signature.h"

/* A hex literal (0x1f), or a word of 6+ hex digits with a digit in it (a
 * shader or PSO hash): one "x" for the whole word. */
static size_t hex_word_length(const char *p)
{
	size_t n = 0;
	bool digit = false;

	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2])) {
		for (n = 2; isxdigit((unsigned char)p[n]); n++)
			;
		return n;
	}
	for (; isxdigit((unsigned char)p[n]); n++)
		digit |= isdigit((unsigned char)p[n]) != 0;
	return n >= 6 && digit && !isalnum((unsigned char)p[n]) ? n : 0;
}

/* Both normalisers: the baseline folds decimal runs only, ours (fold_hex)
 * also hex literals and hash-like words. */
static size_t normalize(const char *in, char *out, size_t size, bool fold_hex)
{
	size_t len = 0;
	bool word_start = true;

	for (const char *p = in; *p;) {
		size_t hex = fold_hex && word_start ? hex_word_length(p) : 0;
		char c = *p;

		if (hex) {
			p += hex;
			c = 'x';
		} else if (isdigit((unsigned char)c)) {
			while (isdigit((unsigned char)*p))
				p++;
			c = 'x';
		} else {
			p++;
		}
		word_start = !isalnum((unsigned char)c);
		if (len + 1 < size)
			out[len] = c;
		len++;
	}
	if (size)
		out[len < size ? len : size - 1] = '\0';
	return len;
}

GPUROBUST_EXPORT size_t gpurobust_bc_normalize_numbers(const char *in, char *out, size_t size)
{
	return normalize(in, out, size, false);
}

size_t grb_bc_normalize_name(const char *in, char *out, size_t size)
{
	return normalize(in, out, size, true);
}

/* ---- growable text ------------------------------------------------------ */

int grb_bc_text_append(struct bc_text *t, const char *s, size_t n)
{
	if (t->failed)
		return -ENOMEM;
	if (t->len + n + 1 > t->capacity) {
		size_t cap = t->capacity ? t->capacity : 256;
		char *data;

		while (cap < t->len + n + 1)
			cap *= 2;
		data = realloc(t->data, cap);
		if (!data) {
			t->failed = true;
			return -ENOMEM;
		}
		t->data = data;
		t->capacity = cap;
	}
	memcpy(t->data + t->len, s, n);
	t->len += n;
	t->data[t->len] = '\0';
	return 0;
}

static void text_puts(struct bc_text *t, const char *s)
{
	grb_bc_text_append(t, s, strlen(s));
}

/* ---- the baseline ------------------------------------------------------- */

static const char *unreal_state(enum gpurobust_bc_state state)
{
	switch (state) {
	case GPUROBUST_BC_NOT_STARTED:
		return "[Not Started]";
	case GPUROBUST_BC_IN_PROGRESS:
		return "[     Active]";
	case GPUROBUST_BC_FINISHED:
		return "[   Finished]";
	case GPUROBUST_BC_OVERFLOW:
		return "[   Overflow]";
	case GPUROBUST_BC_INVALID:
		return "[    Invalid]";
	}
	return "[    Unknown]";
}

static bool active_like(enum gpurobust_bc_state state)
{
	return state == GPUROBUST_BC_IN_PROGRESS || state == GPUROBUST_BC_OVERFLOW;
}

void grb_bc_unreal_keep(const struct gpurobust_bc_stream_report *s, uint32_t first, bool *keep)
{
	uint32_t last_finished = GPUROBUST_BC_NONE, last_kept = GPUROBUST_BC_NONE;

	for (uint32_t c = first; c != GPUROBUST_BC_NONE; c = s->nodes[c].next_sibling)
		if (s->nodes[c].state == GPUROBUST_BC_FINISHED)
			last_finished = c;
	for (uint32_t c = first; c != GPUROBUST_BC_NONE; c = s->nodes[c].next_sibling) {
		if (c == last_finished || active_like(s->nodes[c].state)) {
			keep[c] = true;
			last_kept = c;
		}
	}
	/* The next not-started scope after everything kept so far. */
	for (uint32_t c = last_kept == GPUROBUST_BC_NONE ? first : s->nodes[last_kept].next_sibling;
	     c != GPUROBUST_BC_NONE; c = s->nodes[c].next_sibling) {
		if (s->nodes[c].state == GPUROBUST_BC_NOT_STARTED) {
			keep[c] = true;
			break;
		}
	}
}

static int unreal_stream(struct bc_text *t, const struct gpurobust_bc_stream_report *s)
{
	bool *keep;
	char line[64];

	snprintf(line, sizeof(line), "Pipeline %s:\n", gpurobust_bc_queue_name(s->queue));
	text_puts(t, line);
	if (!s->valid) {
		text_puts(t, "[    Invalid]\n");
		return t->failed ? -ENOMEM : 0;
	}
	keep = calloc(s->node_count + 1, sizeof(*keep));
	if (!keep)
		return -ENOMEM;
	if (s->node_count)
		grb_bc_unreal_keep(s, 0, keep);
	/* Node order is pre-order apart from a trailing overflow node, and
	 * parents precede children: one forward pass decides every level. */
	for (uint32_t i = 0; i < s->node_count; i++) {
		const struct gpurobust_bc_node *n = &s->nodes[i];

		if (!keep[i])
			continue;
		if (n->state == GPUROBUST_BC_IN_PROGRESS && n->first_child != GPUROBUST_BC_NONE)
			grb_bc_unreal_keep(s, n->first_child, keep);
	}
	for (uint32_t i = 0; i < s->node_count; i++) {
		if (!keep[i])
			continue;
		text_puts(t, unreal_state(s->nodes[i].state));
		text_puts(t, "\t");
		for (uint32_t d = 0; d < s->nodes[i].depth && !t->failed; d++)
			text_puts(t, "  ");
		text_puts(t, s->nodes[i].name);
		text_puts(t, "\n");
	}
	free(keep);
	return t->failed ? -ENOMEM : 0;
}

GPUROBUST_EXPORT char *gpurobust_bc_unreal_dump(const struct gpurobust_bc_report *report)
{
	struct bc_text t = { 0 };

	if (!report)
		return NULL;
	text_puts(&t, "");
	for (uint32_t i = 0; i < report->stream_count; i++) {
		if (unreal_stream(&t, &report->streams[i])) {
			free(t.data);
			return NULL;
		}
	}
	return t.data;
}

static void copy_title(char *dst, const char *src)
{
	snprintf(dst, GPUROBUST_BC_TITLE_MAX, "%s", src);
}

GPUROBUST_EXPORT int gpurobust_bc_unreal_signature(const struct gpurobust_bc_report *report,
						   struct gpurobust_bc_signature *sig)
{
	const struct gpurobust_bc_node *deepest = NULL;
	char *dump, *normal;
	size_t len;

	if (!report || !sig)
		return -EINVAL;
	dump = gpurobust_bc_unreal_dump(report);
	if (!dump)
		return -ENOMEM;
	len = gpurobust_bc_normalize_numbers(dump, NULL, 0);
	normal = malloc(len + 1);
	if (!normal) {
		free(dump);
		return -ENOMEM;
	}
	gpurobust_bc_normalize_numbers(dump, normal, len + 1);
	sig->hash = XXH64(normal, len, 0);
	free(normal);
	free(dump);

	for (uint32_t i = 0; i < report->stream_count; i++) {
		const struct gpurobust_bc_stream_report *s = &report->streams[i];

		for (uint32_t n = 0; n < s->node_count; n++)
			if (s->nodes[n].state == GPUROBUST_BC_IN_PROGRESS &&
			    (!deepest || s->nodes[n].depth > deepest->depth))
				deepest = &s->nodes[n];
	}
	copy_title(sig->title, deepest ? deepest->name : "no active scope");
	return 0;
}

/* ---- ours ----------------------------------------------------------------- */

int grb_bc_path_key(const struct gpurobust_bc_report *report, struct bc_text *key,
		const char **leaf_name)
{
	int g = grb_bc_guilty_stream(report);
	const struct gpurobust_bc_stream_report *s;
	uint32_t leaf, depth;
	uint32_t *chain;
	char buf[512];

	*leaf_name = NULL;
	if (g < 0) {
		text_puts(key, "no active scope");
		return key->failed ? -ENOMEM : 0;
	}
	s = &report->streams[g];
	text_puts(key, gpurobust_bc_queue_name(s->queue));
	text_puts(key, ":");
	leaf = grb_bc_oldest_active_leaf(s);
	if (leaf == GPUROBUST_BC_NONE)
		return key->failed ? -ENOMEM : 0;
	depth = s->nodes[leaf].depth + 1;
	chain = malloc(sizeof(*chain) * depth);
	if (!chain)
		return -ENOMEM;
	for (uint32_t at = leaf, d = depth; at != GPUROBUST_BC_NONE; at = s->nodes[at].parent)
		chain[--d] = at;
	for (uint32_t d = 0; d < depth; d++) {
		grb_bc_normalize_name(s->nodes[chain[d]].name, buf, sizeof(buf));
		text_puts(key, "/");
		text_puts(key, buf);
	}
	free(chain);
	*leaf_name = s->nodes[leaf].name;
	return key->failed ? -ENOMEM : 0;
}

GPUROBUST_EXPORT int gpurobust_bc_path_signature(const struct gpurobust_bc_report *report,
						 struct gpurobust_bc_signature *sig)
{
	struct bc_text key = { 0 };
	const char *leaf;
	int ret;

	if (!report || !sig)
		return -EINVAL;
	ret = grb_bc_path_key(report, &key, &leaf);
	if (!ret) {
		sig->hash = XXH64(key.data, key.len, 0);
		copy_title(sig->title, leaf ? leaf : "no active scope");
	}
	free(key.data);
	return ret;
}
