#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# A library's exported dynamic symbols must equal its symbols list, so that
# every change to the ABI is a reviewed edit of that file. TAP.
# usage: check-symbols.sh LIBRARY SYMBOLS_FILE [ABSENT_PREFIX...]
# Listed symbols that start with an ABSENT_PREFIX are those of a part the
# build left out (e.g. -Damdgpu=disabled): they must then not be exported.
set -u
lib=$1
list=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..2"
if ! nm -D --defined-only "$lib" > "$tmp/nm"; then
	echo "Bail out! nm -D --defined-only $lib failed"
	exit 1
fi
# Drop the version node (type A) and the @@GPUROBUST_0 suffixes.
awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' "$tmp/nm" | sort -u > "$tmp/exported"
sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$list" | sort -u > "$tmp/listed"
for prefix in "$@"; do
	grep -v "^$prefix" "$tmp/listed" > "$tmp/kept"
	mv "$tmp/kept" "$tmp/listed"
done
name=$(basename "$list")

# report N DESCRIPTION SYMBOLS: one TAP line, the offending symbols below it.
report() {
	if [ -z "$3" ]; then
		echo "ok $1 - $2"
	else
		echo "not ok $1 - $2"
		echo "$3" | sed 's/^/# /'
	fi
}

missing=$(comm -23 "$tmp/exported" "$tmp/listed")
absent=$(comm -13 "$tmp/exported" "$tmp/listed")
report 1 "every exported symbol is listed in $name" "$missing"
report 2 "every listed symbol is exported" "$absent"
[ -z "$missing" ] && [ -z "$absent" ]
