#!/bin/sh
# Show that the series' tests catch the bugs it fixes.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/tests-on-base.sh [--v2-forward-port] [OUTDIR]
#
# Applies only the test patches (kernel/series entries whose subject says
# "KUnit tests") to the bare base, with the one patch they need that changes
# no behaviour (test_prereq in the series' tests-on-base.conf, which says
# why they need it), and runs the series'
# KUnit kernel on that tree (kernel/scripts/kunit-amdgpu.sh): the drm/sched
# and the amdgpu tests, in QEMU x86_64.
# Test patches whose subject does not say "KUnit tests" (such as the one
# testing the full reset bookkeeping) call functions the fixes add, so they
# cannot build on the base and are not applied.
#
# With must_fail_kselftest set, the series' kselftest, built against the
# whole series' uAPI, then runs on that kernel (guest-kselftest.sh), on the
# fake device the test patches' amdgpu_kselftest_host case registers.
#
# Every test named in a must_fail list must FAIL on the base: it shows a bug
# the series fixes. Every other test must PASS: it guards behaviour the base
# already has, and kernel-log-clean shows the base has no splat either.
# Prints PASS or FAIL per test, with the first failed expectation of each
# failure, and exits 0 only when every test behaves as listed. Logs go to
# OUTDIR (default: a new directory under /tmp).
#
# With --v2-forward-port, the tree is instead the whole series with the
# patches of $SDIR/v2-forward-port/ on top: v2's behaviour for the points
# of the reviews the series answers (the README there: on 7.2 the four
# points of v2's review, on 6.12 the PASID reuse of issue 23).
# The tests of must_fail_v2_forward_port must FAIL on it, every other test
# must PASS: the tests see each point, and nothing else differs.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/x86-objs.sh"

mode=tests-only
if [ "${1:-}" = --v2-forward-port ]; then
	mode=v2-forward-port
	shift
	[ -d "$SDIR/v2-forward-port" ] ||
		die "the $SERIES series has no v2-forward-port/ patches"
fi

out=${1:-$(mktemp -d /tmp/tests-on-base.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The tests the base must fail (must_fail_sched, must_fail_amdgpu: the
# behavioural ones, and only those) and the one patch without behavioural
# change they build on (test_prereq) are the series' own.
must_fail_sched=
must_fail_amdgpu=
must_fail_v2_forward_port=
must_fail_kselftest=
test_prereq=
# shellcheck source=../tests-on-base.conf
. "$SDIR/tests-on-base.conf"

"$KDIR/scripts/prepare-base.sh" >/dev/null
claim_check_tree

if [ "$mode" = v2-forward-port ]; then
	for patch in $(series_patches) "$SDIR"/v2-forward-port/*.patch; do
		am_patch "$CHECK_TREE" "$patch"
	done
	log "applied the series and $SDIR/v2-forward-port/*.patch"
	must_fail_sched=
	must_fail_amdgpu=$must_fail_v2_forward_port
else
	for patch in $(series_patches); do
		# An empty test_prereq (a series whose tests need no other
		# patch) must not match every subject.
		grep -q -e '^Subject: .*KUnit tests' -e "^Subject: .*${test_prereq:-^\$}" \
			"$SDIR/patches/$patch" || continue
		log "applying only $patch"
		am_patch "$CHECK_TREE" "$patch"
	done
fi

ok=1

# judge TIER TESTS KERNEL_LOG MUST_FAIL: print each test of TESTS (lines of
# kunit-results.py: "RESULT suite.test") with what its first failed
# expectation saw, and clear ok when a test does not behave as MUST_FAIL says.
judge() {
	log "$1 tests on the $mode tree:"
	while read -r result name; do
		case $result in PASS | FAIL | SKIP | ERROR) ;; *) continue ;; esac
		# kunit-amdgpu.sh compares the devcoredump fixtures with what
		# D4_fixture and D4_old_text_unchanged printed; D4_fixture needs
		# the series, and the base's own dump is the reference the
		# prefix check reads, checked below instead.
		case $name in coredump-fixture | coredump-d4-base-prefix) continue ;; esac
		test=${name##*.}
		echo "$result $name"
		if [ "$result" != PASS ]; then
			# The test's first failed expectation: its "# TEST:" line and
			# the indented lines below it (or a round's own message).
			awk -v t="$test" '
				grab && (/^ *(not )?ok [0-9]/ || /^ *# /) { exit }
				index($0, "# " t ": ") { grab = 1 }
				grab { sub(/^    /, ""); print "    " $0; if (++n == 6) exit }' "$3"
		fi
		if [ -n "$4" ] && echo "$test" | grep -Eq "^($4)\$"; then
			[ "$result" = FAIL ] || { log "expected to FAIL on the $mode tree: $name"; ok=0; }
		elif [ "$result" = SKIP ]; then
			# Skipped with its reason (upstream's slow tests, by the
			# KUnit filter): neither a pass nor a failure.
			:
		else
			[ "$result" = PASS ] || { log "expected to PASS on the $mode tree: $name"; ok=0; }
		fi
	done < "$2"
	# A must-fail test that did not run at all is a failure too.
	for test in $(echo "$4" | tr '|' ' '); do
		grep -Eq "[ ._]$test\$" "$2" ||
			{ log "$1: $test did not run"; ok=0; }
	done
}

# --- drm/sched and amdgpu, QEMU x86_64 ------------------------------------------
has_amdgpu_tests "$CHECK_TREE" ||
	die "the $SERIES series has no amdgpu KUnit tests, whose kernel runs every test"
# kunit-amdgpu.sh exits non-zero when a test fails, as most must here.
mkdir -p "$out/amdgpu"
"$KDIR/scripts/kunit-amdgpu.sh" "$CHECK_TREE" "$out/amdgpu" > "$out/amdgpu/run.log" 2>&1 || true
if [ ! -s "$out/amdgpu/$TIER-amdgpu.tests" ]; then
	tail -n 30 "$out/amdgpu/run.log"
	die "the KUnit kernel did not build or boot on the $mode tree (logs: $out/amdgpu)"
fi
judge KUnit "$out/amdgpu/$TIER-amdgpu.tests" "$out/amdgpu/$TIER-amdgpu-kernel.log" \
	"$(echo "$must_fail_sched|$must_fail_amdgpu" | sed 's/^|//;s/|$//')"
# The K2 test reports the failing round in a line of its own.
grep -E '^round [0-9]+:|^later job' "$out/amdgpu/$TIER-amdgpu-kernel.log" | head -n 5 |
	sed 's/^/    /'

# --- the kselftest, in QEMU on the same kernel ----------------------------------
# The series' kselftest, built against the series' uAPI as its users build
# it, runs on the base's kernel with the test patches: their
# amdgpu_kselftest_host case gives it a fake device to open.
if [ "$mode" = tests-only ] && [ -n "$must_fail_kselftest" ]; then
	series_tree=$CACHE/trees/kselftest-series
	lock_cache
	reset_worktree "$series_tree"
	unlock_cache
	for patch in $(series_patches); do
		am_patch "$series_tree" "$patch"
	done
	mkdir -p "$out/kselftest"
	"$KDIR/scripts/guest-kselftest.sh" "$series_tree" \
		"$(amdgpu_build_dir "$CHECK_TREE")" "$out/kselftest" \
		> "$out/kselftest/run.log" 2>&1 || true
	if [ ! -s "$out/kselftest/$TIER-kselftest.tests" ]; then
		tail -n 30 "$out/kselftest/run.log"
		die "the kselftest did not run on the $mode tree (logs: $out/kselftest)"
	fi
	judge kselftest "$out/kselftest/$TIER-kselftest.tests" \
		"$out/kselftest/$TIER-logs/kselftest/console.log" "$must_fail_kselftest"
fi

if [ "$mode" = tests-only ] && [ -d "$SDIR/fixtures" ]; then
	# The reference of D4: what the bare base's printer wrote for the hang of
	# D4_old_text_unchanged is the committed base fixture. To regenerate it:
	#   kernel/scripts/extract-coredump-fixture.sh --name old-text \
	#	OUTDIR/amdgpu/$TIER-amdgpu-kernel.log \
	#	$SDIR/fixtures/base-$KERNEL_VERSION-full-reset.devcoredump
	if "$KDIR/scripts/extract-coredump-fixture.sh" --name old-text --check \
		"$out/amdgpu/$TIER-amdgpu-kernel.log" \
		"$SDIR/fixtures/base-$KERNEL_VERSION-full-reset.devcoredump" \
		> "$out/amdgpu/base-fixture.log" 2>&1; then
		echo "PASS coredump-base-fixture"
	else
		echo "FAIL coredump-base-fixture"
		sed 's/^/    /' "$out/amdgpu/base-fixture.log" | head -n 20
		ok=0
	fi
fi

if [ "$mode" = v2-forward-port ]; then
	[ "$ok" -eq 1 ] || die "the tests do not show v2's behaviour as expected (logs: $out)"
	log "as expected: the tests of the review points fail with $SDIR/v2-forward-port/, the others pass (logs: $out)"
else
	[ "$ok" -eq 1 ] || die "the tests do not show the base's bugs as expected (logs: $out)"
	log "as expected: the behavioural tests fail on the bare base, the guards pass (logs: $out)"
fi
