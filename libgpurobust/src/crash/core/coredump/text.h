/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/* Line and number scanning shared by the devcoredump and dmesg parsers.
 * Users define _GNU_SOURCE before any include, for memmem().
 * Everything works on (pointer, length) spans, never on NUL-terminated
 * strings, so that input straight from sysfs or a fuzzer is safe. */
#ifndef GPUROBUST_CORE_COREDUMP_TEXT_H
#define GPUROBUST_CORE_COREDUMP_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct span {
	const char *p;
	size_t n;
};

struct line_reader {
	const char *pos, *end;
	size_t lineno;
	/* Set when the last line returned had no '\n': the input was cut. */
	bool unterminated;
};

static inline void line_reader_init(struct line_reader *r, const char *text,
				    size_t len)
{
	r->pos = text;
	r->end = text + len;
	r->lineno = 0;
	r->unterminated = false;
}

/* The next line without its '\n' (and without a trailing '\r'). */
static inline bool line_next(struct line_reader *r, struct span *line)
{
	const char *nl;

	if (r->pos >= r->end)
		return false;
	nl = memchr(r->pos, '\n', (size_t)(r->end - r->pos));
	line->p = r->pos;
	if (nl) {
		line->n = (size_t)(nl - r->pos);
		r->pos = nl + 1;
	} else {
		line->n = (size_t)(r->end - r->pos);
		r->pos = r->end;
		r->unterminated = true;
	}
	if (line->n && line->p[line->n - 1] == '\r')
		line->n--;
	r->lineno++;
	return true;
}

/* Move @r past the next @n lines at once, without looking at them, and
 * return the bytes skipped in @skipped. Returns how many lines it passed:
 * fewer than @n at the end of the input (line-skip.c). */
size_t grb_line_skip(struct line_reader *r, size_t n, struct span *skipped);

static inline bool span_eq(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}

static inline bool span_starts(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n >= n && !memcmp(s.p, lit, n);
}

/* Drop @n bytes from the front. */
static inline struct span span_skip(struct span s, size_t n)
{
	if (n > s.n)
		n = s.n;
	s.p += n;
	s.n -= n;
	return s;
}

static inline struct span span_trim(struct span s)
{
	while (s.n && (s.p[0] == ' ' || s.p[0] == '\t'))
		s = span_skip(s, 1);
	while (s.n && (s.p[s.n - 1] == ' ' || s.p[s.n - 1] == '\t'))
		s.n--;
	return s;
}

/* Where @lit occurs in @s, or NULL. memmem() is linear in the input, which
 * matters for the long lines a fuzzer or a corrupt log produces. */
static inline const char *span_find(struct span s, const char *lit)
{
	return memmem(s.p, s.n, lit, strlen(lit));
}

/* Where @lit last occurs in @s, or NULL. */
static inline const char *span_find_last(struct span s, const char *lit)
{
	const char *last = NULL, *at;

	while ((at = span_find(s, lit))) {
		last = at;
		s = span_skip(s, (size_t)(at - s.p) + 1);
	}
	return last;
}

/* The rest of @s after the first occurrence of @lit; false when absent. */
static inline bool span_after(struct span s, const char *lit, struct span *rest)
{
	const char *at = span_find(s, lit);

	if (!at)
		return false;
	*rest = span_skip(s, (size_t)(at - s.p) + strlen(lit));
	return true;
}

static inline int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Parse a hex number with an optional 0x prefix from the front of @s. It
 * must have 1 to 16 digits. Moves @s past it. */
static inline bool take_hex(struct span *s, uint64_t *out)
{
	struct span t = *s;
	uint64_t v = 0;
	size_t digits = 0;
	int d;

	if (t.n >= 2 && t.p[0] == '0' && (t.p[1] | 0x20) == 'x')
		t = span_skip(t, 2);
	while (t.n && (d = hex_digit(t.p[0])) >= 0) {
		if (++digits > 16)
			return false;
		v = v << 4 | (uint64_t)d;
		t = span_skip(t, 1);
	}
	if (!digits)
		return false;
	*out = v;
	*s = t;
	return true;
}

/* Parse an optionally negative decimal from the front of @s. */
static inline bool take_dec(struct span *s, int64_t *out)
{
	struct span t = *s;
	bool neg = false;
	uint64_t v = 0;
	size_t digits = 0;

	if (t.n && (t.p[0] == '-' || t.p[0] == '+')) {
		neg = t.p[0] == '-';
		t = span_skip(t, 1);
	}
	while (t.n && t.p[0] >= '0' && t.p[0] <= '9') {
		if (++digits > 19)
			return false;
		v = v * 10 + (uint64_t)(t.p[0] - '0');
		t = span_skip(t, 1);
	}
	if (!digits)
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	*s = t;
	return true;
}

static inline bool take_lit(struct span *s, const char *lit)
{
	if (!span_starts(*s, lit))
		return false;
	*s = span_skip(*s, strlen(lit));
	return true;
}

static inline void skip_blanks(struct span *s)
{
	while (s->n && (s->p[0] == ' ' || s->p[0] == '\t'))
		*s = span_skip(*s, 1);
}

/* Copy the next word (up to a blank or @stop) into @dst, NUL-terminated and
 * cut to @size - 1 bytes. */
static inline bool take_word(struct span *s, char stop, char *dst, size_t size)
{
	size_t n = 0;

	while (n < s->n && s->p[n] != ' ' && s->p[n] != '\t' && s->p[n] != stop)
		n++;
	if (!n)
		return false;
	if (size) {
		size_t c = n < size - 1 ? n : size - 1;

		memcpy(dst, s->p, c);
		dst[c] = '\0';
	}
	*s = span_skip(*s, n);
	return true;
}

/* Copy a whole span into a fixed buffer, NUL-terminated and cut. */
static inline void span_copy(struct span s, char *dst, size_t size)
{
	size_t c = s.n < size - 1 ? s.n : size - 1;

	memcpy(dst, s.p, c);
	dst[c] = '\0';
}

#endif
