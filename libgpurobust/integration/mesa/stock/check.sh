#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Stock Mesa's behaviour matrix: runs run-stock.sh in the sid root ROOT
# (sid-root.sh) and compares every line with stock-26.2.6.expected; one
# test per line.
#
# usage: check.sh ROOT RESULTS_DIR
# Writes RESULTS_DIR/mesa-stock: "passed failed skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: check.sh ROOT RESULTS_DIR}
results=${2:?usage: check.sh ROOT RESULTS_DIR}
expected=$here/stock-26.2.6.expected
out=$results/mesa-stock.log
mkdir -p "$results"

"$here/run-stock.sh" "$root" > "$out" 2>&1
passed=0
failed=0
want=$(grep -v '^#' "$expected")
got=$(grep -v '^#' "$out")
# Every expected line must be there, and nothing else.
while IFS= read -r line; do
	if printf '%s\n' "$got" | grep -qxF "$line"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		key=${line%%: *}
		echo "mesa-stock: not ok: $line"
		echo "mesa-stock:    got: $(printf '%s\n' "$got" | grep -F "$key:" || echo nothing)"
	fi
done <<END
$want
END
# A scenario without a recorded answer is a failure too.
keys=$(printf '%s\n' "$want" | sed 's/: .*//')
unrecorded=$(printf '%s\n' "$got" | sed 's/: .*//' | grep -vxF "$keys" || true)
if [ -n "$unrecorded" ]; then
	echo "mesa-stock: no recorded answer in $expected for: $(printf "%s " "$unrecorded" | tr "\n" " ")"
	failed=$((failed + $(printf '%s\n' "$unrecorded" | wc -l)))
fi
echo "mesa-stock: stock Mesa 26.2.6 on drm-shim: $passed of $((passed + failed)) answers as recorded"
echo "$passed $failed 0" > "$results/mesa-stock"
[ "$failed" -eq 0 ]
