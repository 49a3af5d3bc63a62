#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The `make check` tier "mesa": makes (or reuses) the sid root with Debian's
# stock Mesa, then stock/check.sh (stock Mesa's behaviour matrix) and
# main/check-series.sh (what can be checked of the Mesa series without a
# Mesa tree). A sid that has moved on from the pinned Mesa is one skip for
# each, said plainly, never a pass.
#
# usage: check.sh RESULTS_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
results=${1:?usage: check.sh RESULTS_DIR}
mkdir -p "$results"

root=$("$here/stock/sid-root.sh")
case $? in
0) ;;
77)
	echo "mesa: skipped: the pinned Mesa is gone from sid (above)"
	echo "0 0 1" > "$results/mesa-stock"
	echo "0 0 1" > "$results/mesa-series"
	exit 0
	;;
*)
	echo "mesa: no sid root"
	echo "0 1 0" > "$results/mesa-stock"
	exit 1
	;;
esac
status=0
"$here/stock/check.sh" "$root" "$results" || status=1
"$here/main/check-series.sh" "$root" "$results" || status=1
exit $status
