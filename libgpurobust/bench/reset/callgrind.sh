#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Instructions per operation of the reset hot paths, counted by callgrind.
# usage: callgrind.sh PATH_TO_BENCH_RESET [N]
# Each operation runs N and 2N times; (Ir(2N) - Ir(N)) / N is its cost with
# process start-up and library loading cancelled out. Not a pass/fail test.
set -eu
bench=$1
n=${2:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$tmp/out" "$bench" "$1" "$2" \
		> /dev/null 2>&1
	sed -n 's/^summary: \([0-9]*\).*/\1/p' "$tmp/out"
}

for op in classify gl-status; do
	once=$(instructions "$op" "$n")
	twice=$(instructions "$op" $((n * 2)))
	echo "$op: $(( (twice - once) / n )) instructions per operation" \
		"(callgrind Ir, N=$n: $once, 2N: $twice)"
done
