// SPDX-License-Identifier: MIT
// Copyright © 2026 The gpurobust authors
/*
 * Making untrusted text inert before it reaches a terminal or a JSON reader.
 *
 * Process and thread names (set with PR_SET_NAME), breadcrumb scope names
 * and log lines all come from the process that hung, and the commands that
 * print them run as root. Like journalctl and less, every byte a terminal
 * could act on is written as an escape instead: C0 controls and DEL, the C1
 * controls (U+0080 to U+009F, whose CSI U+009B starts an escape sequence on
 * its own), and bytes that are not valid UTF-8. A backslash is doubled so
 * that an escape in the output always means an escaped byte. The result is
 * valid UTF-8, so JSON built from it is too.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <gpurobust/text.h>

#include "common/export.h"

/* Length of the valid UTF-8 sequence at @s (at most @n bytes), or 0. Over-long
 * forms, surrogates and code points above U+10FFFF are invalid. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned int cp, min;
	size_t len;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		len = 2;
		cp = s[0] & 0x1f;
		min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		len = 3;
		cp = s[0] & 0x0f;
		min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		len = 4;
		cp = s[0] & 0x07;
		min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

GPUROBUST_EXPORT
size_t gpurobust_text_escape(char *dst, size_t size, const char *src)
{
	const unsigned char *s = (const unsigned char *)(src ? src : "");
	size_t n = strlen((const char *)s), o = 0, need = 0;
	bool room = size > 0;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_len(s + i, n - i);
		char piece[8];
		size_t plen;

		/* U+0080..U+009F are encoded as C2 80..C2 9F */
		if (!len || s[i] < 0x20 || s[i] == 0x7f || (len == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0)) {
			plen = (size_t)snprintf(piece, sizeof(piece), "\\x%02x", s[i]);
			len = 1;
		} else if (s[i] == '\\') {
			memcpy(piece, "\\\\", 2);
			plen = 2;
		} else {
			memcpy(piece, s + i, len);
			plen = len;
		}
		/* never cut an escape or a character in two */
		if (room && o + plen < size) {
			memcpy(dst + o, piece, plen);
			o += plen;
		} else {
			room = false;
		}
		need += plen;
		i += len;
	}
	if (size)
		dst[o] = '\0';
	return need;
}
