#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The fleet store under load, both backends side by side in one run:
# 16 senders insert COUNT crashes (default 200 000; tests/fleet/fleet-gen's
# Zipf-sized groups) into a SQLite file and into a throwaway PostgreSQL
# server, each sender its own connection, 500 crashes per transaction.
# Every crash must be stored exactly once and the groups must equal a
# single-threaded SQLite run's on the same input; that is checked, the
# rest is figures: inserts per second and the median of 5 runs of each
# triage question, printed with PostgreSQL's figure as a ratio of
# SQLite's. Wall-clock figures on a shared machine: compare the ratios.
#
# usage: run-load.sh FLEET_GEN WITH_POSTGRES [COUNT]
set -eu
gen=$1
with_postgres=$2
count=${3:-200000}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$gen" load "sqlite://$dir/reference.db" "$count" 1 > "$dir/reference"
"$gen" load "sqlite://$dir/load.db" "$count" 16 > "$dir/sqlite"
"$with_postgres" sh -c '"$1" load "$GPUROBUST_TEST_PG_URI" "$2" 16' sh "$gen" "$count" \
	> "$dir/postgresql"

value() { sed -n "s/^$1 //p" "$2"; }
status=0
for b in sqlite postgresql; do
	for key in crashes groups digest; do
		if [ "$(value "$key" "$dir/$b")" != "$(value "$key" "$dir/reference")" ]; then
			echo "FAIL: $b: $key $(value "$key" "$dir/$b"), one SQLite sender: $(value "$key" "$dir/reference")"
			status=1
		fi
	done
done
echo "fleet store, $count crashes, $(value groups "$dir/reference") groups, 16 senders"
echo "every crash stored once, the groups equal to one SQLite sender's: $([ $status = 0 ] && echo yes || echo NO)"
printf '%-34s %12s %12s %10s\n' "" sqlite postgresql "pg/sqlite"
row() {
	s=$(value "$1" "$dir/sqlite")
	p=$(value "$1" "$dir/postgresql")
	printf '%-34s %12s %12s %10s\n' "$2" "$s" "$p" "$(echo "$p $s" | awk '{ printf "%.2f", $1 / $2 }')"
}
row inserts_per_second "inserts per second"
for q in "top 20, all time" "top 20, one week" "new since kernel 7.2" "spread of the top group"; do
	row "triage_ms $q:" "triage ms: $q"
done
printf '%-34s %12s %12s\n' "(one sender, sqlite: inserts/s)" "$(value inserts_per_second "$dir/reference")" ""
exit $status
