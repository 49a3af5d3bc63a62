#!/bin/sh
# Show that the series' tests catch the bugs it fixes.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/tests-on-base.sh [OUTDIR]
#
# Applies only the test patches (kernel/series entries whose subject says
# "KUnit tests") to the bare base, with the one patch they need that changes
# no behaviour (it lets a job know the context that submitted it, which the
# fake device's submissions use as the CS ioctl does), and runs both KUnit
# tiers on that tree:
#  - the drm/sched tests under UML (kunit_uml in lib.sh);
#  - the amdgpu tests in QEMU x86_64 (kernel/scripts/kunit-amdgpu.sh).
# Test patches whose subject does not say "KUnit tests" (such as the one
# testing the full reset bookkeeping) call functions the fixes add, so they
# cannot build on the base and are not applied.
#
# Every test named in a must_fail list must FAIL on the base: it shows a bug
# the series fixes. Every other test must PASS: it guards behaviour the base
# already has, and kernel-log-clean shows the base has no splat either.
# Prints PASS or FAIL per test, with the first failed expectation of each
# failure, and exits 0 only when every test behaves as listed. Logs go to
# OUTDIR (default: a new directory under /tmp).
set -eu
. "$(dirname "$0")/lib.sh"

out=${1:-$(mktemp -d /tmp/tests-on-base.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The tests the base must fail (must_fail_uml, must_fail_amdgpu: the
# behavioural ones, and only those) and the one patch without behavioural
# change they build on (test_prereq) are the series' own.
must_fail_uml=
must_fail_amdgpu=
test_prereq=
# shellcheck source=../tests-on-base.conf
. "$SDIR/tests-on-base.conf"

"$KDIR/scripts/prepare-base.sh" >/dev/null
claim_check_tree

for patch in $(series_patches); do
	# An empty test_prereq (a series whose tests need no other patch)
	# must not match every subject.
	grep -q -e '^Subject: .*KUnit tests' -e "^Subject: .*${test_prereq:-^\$}" \
		"$SDIR/patches/$patch" || continue
	log "applying only $patch"
	am_patch "$CHECK_TREE" "$patch"
done

ok=1

# judge TIER TESTS KERNEL_LOG MUST_FAIL: print each test of TESTS (lines of
# kunit-results.py: "RESULT suite.test") with what its first failed
# expectation saw, and clear ok when a test does not behave as MUST_FAIL says.
judge() {
	log "$1 tier on the bare base with only the tests:"
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
		# The UML suite prefixes its test names with drm_sched_test_.
		if [ -n "$4" ] && echo "$test" | grep -Eq "(^|_)($4)\$"; then
			[ "$result" = FAIL ] || { log "expected to FAIL on the base: $name"; ok=0; }
		elif [ "$result" = SKIP ]; then
			# Skipped with its reason (upstream's slow tests, by the
			# KUnit filter): neither a pass nor a failure.
			:
		else
			[ "$result" = PASS ] || { log "expected to PASS on the base: $name"; ok=0; }
		fi
	done < "$2"
	# A must-fail test that did not run at all is a failure too.
	for test in $(echo "$4" | tr '|' ' '); do
		grep -Eq "[ ._]$test\$" "$2" ||
			{ log "$1: $test did not run"; ok=0; }
	done
}

# --- drm/sched, UML ------------------------------------------------------------
mkdir -p "$out/uml"
kunit_uml "$CHECK_TREE" "$out/uml" > "$out/uml/results.txt" ||
	die "the UML KUnit kernel does not build with only the test patches"
judge UML "$out/uml/results.txt" "$out/uml/kunit.log" "$must_fail_uml"
# The K2 test reports the failing round in a line of its own.
grep -E '^round [0-9]+:|^later job' "$out/uml/kunit.log" | head -n 5 | sed 's/^/    /'

# --- amdgpu, QEMU x86_64 ---------------------------------------------------------
# Only when the series has amdgpu KUnit tests (the 7.2 series does not yet).
if has_amdgpu_tests "$CHECK_TREE"; then
	# kunit-amdgpu.sh exits non-zero when a test fails, as most must here.
	mkdir -p "$out/amdgpu"
	"$KDIR/scripts/kunit-amdgpu.sh" "$CHECK_TREE" "$out/amdgpu" > "$out/amdgpu/run.log" 2>&1 || true
	if [ ! -s "$out/amdgpu/$TIER-amdgpu.tests" ]; then
		tail -n 30 "$out/amdgpu/run.log"
		die "the amdgpu KUnit kernel did not build or boot with only the test patches (logs: $out/amdgpu)"
	fi
	judge amdgpu "$out/amdgpu/$TIER-amdgpu.tests" "$out/amdgpu/$TIER-amdgpu-kernel.log" \
		"$must_fail_amdgpu"

	if [ -d "$SDIR/fixtures" ]; then
		# The reference of D4: what the bare base's printer wrote for the hang of
		# D4_old_text_unchanged is the committed base fixture. To regenerate it:
		#   kernel/scripts/extract-coredump-fixture.sh --name old-text \
		#	OUTDIR/amdgpu/kernel-amdgpu-kernel.log \
		#	kernel/fixtures/base-6.12.117-full-reset.devcoredump
		if "$KDIR/scripts/extract-coredump-fixture.sh" --name old-text --check \
			"$out/amdgpu/$TIER-amdgpu-kernel.log" \
			"$SDIR/fixtures/base-6.12.117-full-reset.devcoredump" \
			> "$out/amdgpu/base-fixture.log" 2>&1; then
			echo "PASS coredump-base-fixture"
		else
			echo "FAIL coredump-base-fixture"
			sed 's/^/    /' "$out/amdgpu/base-fixture.log" | head -n 20
			ok=0
		fi
	fi
else
	log "amdgpu: the $SERIES series has no amdgpu KUnit tests: nothing to run"
fi

[ "$ok" -eq 1 ] || die "the tests do not show the base's bugs as expected (logs: $out)"
log "as expected: the behavioural tests fail on the bare base, the guards pass (logs: $out)"
