#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Devcoredump parse throughput on a 10 MiB generated dump, as a ratio to
# `grep -c ''` on the same file in the same run (goal: >= 0.5).
# Primary figure: callgrind instruction counts (deterministic); wall-clock
# best of 5 is printed beside it for reference, never asserted.
# usage: run-throughput.sh BENCH_DEVCOREDUMP [MIB]
set -eu
bench=$1
mib=${2:-10}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
dump=$dir/dump.txt
"$bench" gen "$dump" "$mib"
bytes=$(wc -c < "$dump")

# instructions of COMMAND... (the program's own, without valgrind's)
instructions() {
	valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$@" > /dev/null 2>&1
	sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$dir/cg.out"
}

# best wall-clock seconds of 5 runs of COMMAND...
best_seconds() {
	best=""
	for _ in 1 2 3 4 5; do
		t0=$(date +%s%N)
		"$@" > /dev/null
		t1=$(date +%s%N)
		t=$((t1 - t0))
		[ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
	done
	echo "$best"
}

parse_ir=$(instructions "$bench" parse "$dump")
grep_ir=$(instructions grep -c '' "$dump")
parse_ns=$(best_seconds "$bench" parse "$dump")
grep_ns=$(best_seconds grep -c '' "$dump")

python3 - "$bytes" "$parse_ir" "$grep_ir" "$parse_ns" "$grep_ns" <<'PY'
import sys
b, pir, gir, pns, gns = map(int, sys.argv[1:])
print(f"dump: {b} bytes ({b / 2**20:.1f} MiB), generated 6.12 format")
print(f"callgrind: parse {pir} Ir ({pir / b:.2f}/byte), grep -c '' {gir} Ir ({gir / b:.2f}/byte)")
print(f"throughput ratio parse/grep by instructions: {gir / pir:.2f} (goal >= 0.5)")
print(f"wall clock best of 5: parse {pns / 1e6:.1f} ms ({b / pns * 1e3:.0f} MB/s), "
      f"grep {gns / 1e6:.1f} ms ({b / gns * 1e3:.0f} MB/s), ratio {gns / pns:.2f}")
PY
