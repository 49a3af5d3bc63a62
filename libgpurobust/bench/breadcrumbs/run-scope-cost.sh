#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# usage: run-scope-cost.sh BENCH_BINARY
# Instructions per scope (push + pop) under callgrind, then
# the memory and packet figures. Two runs of different length cancel the
# fixed cost of entering record_scopes() twice.
set -eu
bench=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# ir N [mirror]
ir() {
	valgrind --tool=callgrind --toggle-collect=record_scopes \
		--callgrind-out-file="$out/cg.$1${2:-}" "$bench" "$1" ${2:-} \
		> "$out/stdout.$1${2:-}" 2>"$out/log.$1${2:-}"
	sed -n 's/^summary: //p' "$out/cg.$1${2:-}"
}
small=100000
large=900000
# Each run records its N scopes twice (warm-up, then steady state).
per_scope() {
	ir_small=$(ir $small ${1:-})
	ir_large=$(ir $large ${1:-})
	awk -v a="$ir_small" -v b="$ir_large" -v d=$((2 * (large - small))) \
		'BEGIN { printf "%.2f", (b - a) / d }'
}
echo "callgrind instructions per scope (push+pop): $(per_scope)"
echo "the same with the metadata mirror (B3, 64 slots): $(per_scope mirror)"
cat "$out/stdout.$large"
