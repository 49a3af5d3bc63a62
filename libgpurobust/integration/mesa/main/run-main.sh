#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Run the scenarios of ../stock on the Mesa build build-mesa-main.sh made,
# and compare every answer with main-series.expected (TAP); then the
# breadcrumb checks (run-breadcrumbs.sh), with the gpurobust command built
# from this checkout.
#
# usage: run-main.sh [NAME]   (the build's name, default mesa-gpurobust)
set -u
here=$(cd "$(dirname "$0")" && pwd)
name=${1:-mesa-gpurobust}
root=$("$here/../stock/sid-root.sh" build) || exit 1
out=$(mktemp)
lib_build=$(mktemp -d)
trap 'rm -rf "$out" "$lib_build"' EXIT
"$here/../stock/run-stock.sh" "$root" "/build/$name" > "$out" 2>&1 || {
	cat "$out"
	exit 1
}
want=$(grep -v '^#' "$here/main-series.expected")
got=$(grep -v '^#' "$out")
n=0
failed=0
echo "1..$(printf '%s\n' "$want" | wc -l)"
while IFS= read -r line; do
	n=$((n + 1))
	if printf '%s\n' "$got" | grep -qxF "$line"; then
		echo "ok $n - $line"
	else
		failed=$((failed + 1))
		echo "not ok $n - $line"
		echo "# got: $(printf '%s\n' "$got" | grep -F "${line%%: *}:" || echo nothing)"
	fi
done <<END
$want
END
grep '^#' "$out" | grep -v interposer
meson setup -Dtests=disabled "$lib_build" "$here/../../.." > "$lib_build.log" 2>&1 &&
	ninja -C "$lib_build" tools/gpurobust >> "$lib_build.log" 2>&1 ||
	{ cat "$lib_build.log"; rm -f "$lib_build.log"; exit 1; }
rm -f "$lib_build.log"
"$here/run-breadcrumbs.sh" "$root" "/build/$name" "$lib_build/tools/gpurobust" || failed=$((failed + 1))
[ "$failed" -eq 0 ]
