#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Every global symbol an archive defines carries the gpurobust_ (public) or
# grb_ (internal) prefix, so that a project vendoring the libraries cannot
# clash with their internals. Names starting with __ are the compiler's own
# (sanitizer instrumentation, for one) and are reserved for it, so they are
# left out. TAP: one test per archive.
# usage: check-prefix.sh ARCHIVE...
set -u
echo "1..$#"
n=0
status=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for archive in "$@"; do
	n=$((n + 1))
	if ! nm -g --defined-only "$archive" > "$tmp"; then
		echo "Bail out! nm -g --defined-only $archive failed"
		exit 1
	fi
	bad=$(awk 'NF == 3 && $2 ~ /[TDBRVW]/ { print $3 }' "$tmp" |
	      grep -v -E '^(gpurobust_|grb_|__)' | sort -u | tr '\n' ' ')
	if [ -n "$bad" ]; then
		echo "not ok $n - $(basename "$archive"): unprefixed globals: $bad"
		status=1
	else
		echo "ok $n - $(basename "$archive"): every global is gpurobust_* or grb_*"
	fi
done
exit $status
