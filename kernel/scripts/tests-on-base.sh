#!/bin/sh
# Show that the series' tests catch the bugs it fixes.
#
# usage: kernel/scripts/tests-on-base.sh [OUTDIR]
#
# Applies only the test patches (kernel/series entries whose subject says
# "KUnit tests") to the bare base, builds and runs the drm/sched KUnit tier
# under UML, and prints every test's result. The behavioural tests must FAIL
# there: the K2 pipelined, K3 and K4 tests. The others (K1 bystander, K9,
# freed entity) must pass, as they guard behaviour the base already has, and
# so must kernel-log-clean: the base has no splat either.
# Exits 0 when exactly that happens. Logs go to OUTDIR (default: a new
# directory under /tmp).
set -eu
. "$(dirname "$0")/lib.sh"

out=${1:-$(mktemp -d /tmp/tests-on-base.XXXXXX)}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The tests the base must fail, and only those.
must_fail='K2_error_survives_pipelined_jobs|K3_guilty_etime_survives_stop_start|K3_guilty_later_jobs_get_etime|K4_full_reset_keeps_guilty_etime'

"$KDIR/scripts/prepare-base.sh" >/dev/null
exec 9>"$CHECK_LOCK"
flock 9
lock_cache
reset_worktree "$CHECK_TREE"
unlock_cache

for patch in $(series_patches); do
	grep -q '^Subject: .*KUnit tests' "$KDIR/patches/$patch" || continue
	log "applying only $patch"
	am_patch "$CHECK_TREE" "$patch"
done

kunit_uml "$CHECK_TREE" "$out" > "$out/results.txt" ||
	die "the KUnit kernel does not build with only the test patches"
cat "$out/results.txt"
# What each failed expectation saw instead.
grep -E '^ +Expected|^ {8}[^ ].* == |^round [0-9]+:|^later job' "$out/kunit.log" |
	sed 's/^ */  /' | head -n 40

ok=1
grep -E '^(PASS|FAIL|SKIP|ERROR) ' "$out/results.txt" > "$out/tests.txt"
while read -r result name; do
	if echo "$name" | grep -Eq "_($must_fail)$"; then
		[ "$result" = FAIL ] || { log "expected to fail on the base: $name"; ok=0; }
	else
		[ "$result" = PASS ] || { log "expected to pass on the base: $name"; ok=0; }
	fi
done < "$out/tests.txt"
[ "$ok" -eq 1 ] || die "the tests do not show the base's bugs as expected (logs: $out)"
log "as expected: the behavioural tests fail on the bare base (logs: $out)"
