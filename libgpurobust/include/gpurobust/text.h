/* SPDX-License-Identifier: MIT */
/* Copyright © 2026 The gpurobust authors */
/**
 * DOC: untrusted text
 *
 * Process and thread names (set with PR_SET_NAME), breadcrumb scope names and
 * kernel log lines come from the process that hung, and the tools that print
 * them often run as root. Everything printed from them goes through
 * gpurobust_text_escape() first, so that it reaches a terminal inert and a
 * JSON reader as valid UTF-8.
 */
#ifndef GPUROBUST_TEXT_H
#define GPUROBUST_TEXT_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * gpurobust_text_escape() - make untrusted text inert for a terminal
 * @dst: where to write, NUL-terminated; may be NULL when @size is 0
 * @size: its size
 * @src: the text (process and scope names, log lines); NULL is ""
 *
 * Control bytes, DEL, C1 controls and bytes that are not UTF-8 become
 * "\\xNN" and a backslash "\\\\", as journalctl and less show them; the
 * output is valid UTF-8. Escapes and characters are never cut in two.
 *
 * Return: the length the whole escaped text needs, without the NUL.
 */
size_t gpurobust_text_escape(char *dst, size_t size, const char *src);

#ifdef __cplusplus
}
#endif

#endif
