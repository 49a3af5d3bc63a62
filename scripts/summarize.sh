#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Sum the tier results written by `make check`.
# usage: summarize.sh RESULTS_DIR TIER...
# Every file RESULTS_DIR/<tier>[-<part>] holds one line "passed failed skipped";
# names with a dot (logs, JSON, per-test lists the tiers keep beside them) are
# not results. A result file that does not hold three counts is a failure.
# A tier that left no file at all counts as one failure: it died before it
# could report, and that must never read as green.
set -u
results=$1
shift
total_pass=0
total_fail=0
total_skip=0
for tier in "$@"; do
	found=0
	for f in "$results/$tier" "$results/$tier"-*; do
		[ -f "$f" ] || continue
		case "$(basename "$f")" in *.*) continue ;; esac
		found=1
		read -r p f_ s < "$f" || true
		if ! printf '%s %s %s\n' "$p" "$f_" "$s" | grep -Eq '^[0-9]+ [0-9]+ [0-9]+$'; then
			printf '  %-24s is not "passed failed skipped": counted as 1 failure\n' \
				"$(basename "$f")"
			total_fail=$((total_fail + 1))
			continue
		fi
		printf '  %-24s %s passed, %s failed, %s skipped\n' \
			"$(basename "$f")" "${p:-0}" "${f_:-0}" "${s:-0}"
		total_pass=$((total_pass + ${p:-0}))
		total_fail=$((total_fail + ${f_:-0}))
		total_skip=$((total_skip + ${s:-0}))
	done
	if [ "$found" = 0 ]; then
		printf '  %-24s left no result: counted as 1 failure\n' "$tier"
		total_fail=$((total_fail + 1))
	fi
done
# The last line is exactly "N passed, N failed", which CI reads; skips go
# on the line before it.
echo "$total_skip skipped"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
