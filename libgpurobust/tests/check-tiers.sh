#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The libgpurobust tiers of `make check`.
# usage: check-tiers.sh BUILD_DIR RESULTS_DIR
#
# Writes one line "passed failed skipped" per tier into RESULTS_DIR:
#   lib-unit     every test except suite 'install', gcc, debugoptimized; a
#                test need not remember to join a suite to be run
#   lib-asan     the same tests built with ASan+UBSan, any report is fatal
#   lib-tsan     the concurrency tests (suite 'concurrency') under TSan
#   lib-install  meson install --destdir, then an outside program built
#                with pkg-config alone; the driver library configured,
#                installed and linked with no other package (suite 'install')
#   lib-fuzz     every libFuzzer target under the clang build's fuzz/ dir,
#                sharing FUZZ_BUDGET seconds (default 120; at least 10 each,
#                at most 20), or FUZZ_SECONDS each when that is set
# Cases are counted from meson's logs: testlog.json for each test's result,
# testlog.junit.xml for the TAP subtests inside it. A step that fails still
# writes its result, counted as a failure. Exits non-zero if any tier failed.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$top/libgpurobust
build=$1
results=$2
fuzz_budget=${FUZZ_BUDGET:-120}
mkdir -p "$build" "$results"
status=0

log() {
	echo "check-tiers: $*"
}

# write TIER PASSED FAILED SKIPPED
write() {
	echo "$2 $3 $4" > "$results/$1"
	log "$1: $2 passed, $3 failed, $4 skipped"
	[ "$3" -eq 0 ] || status=1
}

# count BUILD_DIR: "passed failed skipped" over the last `meson test` run.
count() {
	python3 - "$1/meson-logs" <<'PY'
import json, os, sys
import xml.etree.ElementTree as et

logs = sys.argv[1]
# meson names the logs testlog[-WRAPPER].json; run_tier cleared old ones.
base = [f for f in os.listdir(logs) if f.startswith("testlog") and f.endswith(".json")][0][:-5]
subtests = {}
junit = os.path.join(logs, base + ".junit.xml")
if os.path.exists(junit):
    for suite in et.parse(junit).getroot():
        cases = [c for c in suite if c.tag == "testcase"]
        if suite.get("name", "").startswith("libgpurobust.") and cases:
            subtests[suite.get("name")[len("libgpurobust."):]] = cases

passed = failed = skipped = 0
with open(os.path.join(logs, base + ".json")) as f:
    for line in f:
        test = json.loads(line)
        result = test["result"]
        cases = subtests.get(test["name"])
        if cases and len(cases) > 0 and test["name"] in subtests:
            p = sum(1 for c in cases if not len(c))
            s = sum(1 for c in cases if c.find("skipped") is not None)
            fl = len(cases) - p - s
            # A binary that died after its last case still failed.
            if result not in ("OK", "SKIP", "EXPECTEDFAIL") and fl == 0:
                fl = 1
            passed, failed, skipped = passed + p, failed + fl, skipped + s
        elif result in ("OK", "EXPECTEDFAIL"):
            passed += 1
        elif result == "SKIP":
            skipped += 1
        else:
            failed += 1
print(passed, failed, skipped)
PY
}

# setup DIR MESON_OPTIONS...: configure once, reconfigure when it exists.
setup() {
	dir=$1
	shift
	if [ -f "$dir/build.ninja" ]; then
		meson configure "$dir" "$@" > "$dir.setup.log" 2>&1
	else
		rm -rf "$dir"
		meson setup "$dir" "$src" "$@" > "$dir.setup.log" 2>&1
	fi || { sed 's/^/  /' "$dir.setup.log" | tail -n 30; return 1; }
}

compile() {
	meson compile -C "$1" -j 2 > "$1.compile.log" 2>&1 ||
		{ sed 's/^/  /' "$1.compile.log" | tail -n 40; return 1; }
}

# tier TIER DIR MESON_TEST_ARGS...: run the tests and record their count.
run_tier() {
	tier=$1 dir=$2
	shift 2
	rm -f "$dir"/meson-logs/testlog*
	MESON_TESTTHREADS=2 meson test -C "$dir" --no-rebuild --print-errorlogs \
		"$@" > "$dir.$tier.log" 2>&1 ||
		sed -n 's/^ *[0-9]*\/[0-9]* \(.*\(FAIL\|ERROR\|TIMEOUT\).*\)/  \1/p' "$dir.$tier.log" | sort -u
	if counts=$(count "$dir" 2> "$dir.$tier.count.log"); then
		# shellcheck disable=SC2086 # three numbers
		write "$tier" $counts
	else
		write "$tier" 0 1 0
	fi
}

# --- lib-unit and lib-install: the build `make lib` uses ---
unit=$build/lib
log "lib-unit: building $unit"
if setup "$unit" -Dbuildtype=debugoptimized -Dtests=enabled -Dbench=true && compile "$unit"; then
	run_tier lib-unit "$unit" --no-suite install
	run_tier lib-install "$unit" --suite install
else
	write lib-unit 0 1 0
	write lib-install 0 1 0
fi

# --- lib-asan: every unit test with ASan+UBSan; the first report fails ---
asan=$build/lib-asan
log "lib-asan: building $asan"
if setup "$asan" -Dbuildtype=debug -Dtests=enabled -Db_sanitize=address,undefined \
	-Db_lundef=false -Dc_args=-fno-sanitize-recover=all && compile "$asan"; then
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run_tier lib-asan "$asan" --no-suite install
else
	write lib-asan 0 1 0
fi

# --- lib-tsan: the concurrency tests under ThreadSanitizer ---
tsan=$build/lib-tsan
log "lib-tsan: building $tsan"
if setup "$tsan" -Dbuildtype=debug -Dtests=enabled -Db_sanitize=thread -Db_lundef=false &&
	compile "$tsan"; then
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
		run_tier lib-tsan "$tsan" --suite concurrency
else
	write lib-tsan 0 1 0
fi

# --- lib-fuzz: clang, libFuzzer, ASan+UBSan ---
# Every object gets coverage hooks (fuzzer-no-link), so the fuzzers see into
# the library code they drive, not only into their own entry points.
fuzz=$build/lib-fuzz
log "lib-fuzz: building $fuzz"
if CC=clang setup "$fuzz" -Dbuildtype=debug -Dtests=disabled -Dfuzz=true -Dwerror=false \
	-Db_sanitize=address,undefined -Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link \
	-Dc_link_args=[] &&
	compile "$fuzz"; then
	passed=0 failed=0
	targets=$(find "$fuzz/fuzz" -type f -perm -u+x 2>/dev/null | sort)
	count=$(echo "$targets" | grep -c . || true)
	# The tier's time stays bounded however many targets the parts add.
	if [ -n "${FUZZ_SECONDS:-}" ]; then
		fuzz_seconds=$FUZZ_SECONDS
	else
		fuzz_seconds=$(( fuzz_budget / (count ? count : 1) ))
		[ "$fuzz_seconds" -gt 20 ] && fuzz_seconds=20
		[ "$fuzz_seconds" -lt 10 ] && fuzz_seconds=10
	fi
	for target in $targets; do
		name=$(basename "$target")
		rel=$(dirname "${target#"$fuzz"/}")
		corpus=$(mktemp -d)
		# Seeds, when the target ships any, are read; new inputs go to $corpus.
		seeds=""
		for dir in "$src/$rel/corpus/$name" "$src/$rel/corpus-$name" "$src/$rel/corpus"; do
			[ -d "$dir" ] && { seeds=$dir; break; }
		done
		# shellcheck disable=SC2086 # no seeds means no argument
		if UBSAN_OPTIONS=halt_on_error=1 \
			"$target" -max_total_time="$fuzz_seconds" -rss_limit_mb=2048 \
			"$corpus" $seeds > "$fuzz.$name.log" 2>&1; then
			passed=$((passed + 1))
			log "lib-fuzz: $name ok ($fuzz_seconds s)"
		else
			failed=$((failed + 1))
			log "lib-fuzz: $name FAILED, see $fuzz.$name.log"
			tail -n 20 "$fuzz.$name.log" | sed 's/^/  /'
		fi
		rm -rf "$corpus"
	done
	write lib-fuzz "$passed" "$failed" 0
else
	write lib-fuzz 0 1 0
fi

exit $status
