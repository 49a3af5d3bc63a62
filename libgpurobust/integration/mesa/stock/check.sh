#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The `make check` tier "mesa": stock Mesa's behaviour matrix. Makes (or
# reuses) the sid root, runs run-stock.sh in it, and compares every line
# with stock-26.2.6.expected; one test per line.
#
# usage: check.sh RESULTS_DIR
# Writes RESULTS_DIR/mesa-stock: "passed failed skipped". A sid that has
# moved on from the pinned Mesa is one skip, said plainly, never a pass.
set -u
here=$(cd "$(dirname "$0")" && pwd)
results=${1:?usage: check.sh RESULTS_DIR}
expected=$here/stock-26.2.6.expected
out=$results/mesa-stock.log
mkdir -p "$results"

root=$("$here/sid-root.sh")
case $? in
0) ;;
77)
	echo "mesa-stock: skipped: the pinned Mesa is gone from sid (above)"
	echo "0 0 1" > "$results/mesa-stock"
	exit 0
	;;
*)
	echo "mesa-stock: no sid root"
	echo "0 1 0" > "$results/mesa-stock"
	exit 1
	;;
esac
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
