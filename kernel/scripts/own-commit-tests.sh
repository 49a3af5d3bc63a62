#!/bin/sh
# Boot the series' KUnit kernel at each patch that adds or changes tests,
# with the series applied up to that patch: every such patch passes its own
# tests at its own commit. By hand; not part of `make check`, since each of
# those patches follows one that changes a header most of amdgpu includes,
# so every boot rebuilds most of the driver.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/own-commit-tests.sh [OUTDIR [N...]]
#
# With patch numbers N, only those patches are booted (each still with the
# series up to it).
# Works in a worktree of its own ($CACHE/trees/own-commit) and its own build
# dir (kunit-amdgpu.sh keys it by the tree), so it can run beside check.sh.
# Prints one line per booted patch with the counts of kunit-amdgpu.sh (the
# amdgpu part, which holds kernel-log-clean and the KASAN and lockdep
# banners, and the drm/sched part) and keeps its results in OUTDIR/N (default:
# a new directory under /tmp). Exits non-zero if any boot fails a test.
set -eu
. "$(dirname "$0")/lib.sh"

out=${1:-$(mktemp -d /tmp/own-commit-tests.XXXXXX)}
[ $# -eq 0 ] || shift
only=" $* "
mkdir -p "$out"
out=$(cd "$out" && pwd)
tree=$CACHE/trees/own-commit

"$KDIR/scripts/prepare-base.sh" >/dev/null
lock_cache
reset_worktree "$tree"
unlock_cache

status=0
n=0
for patch in $(series_patches); do
	n=$((n + 1))
	am_patch "$tree" "$patch"
	grep -q '^+++ b/.*/tests/' "$SDIR/patches/$patch" || continue
	[ "$only" = "  " ] || [ "${only#* "$n" }" != "$only" ] || continue
	log "patch $n ($patch): booting the tests at its commit"
	result=PASS
	if ! has_amdgpu_tests "$tree"; then
		# Before the amdgpu tests exist (the drm/sched patches), kunit.py
		# rejects amdgpu.kunitconfig: run the drm/sched suites under UML.
		(cd "$tree" && python3 tools/testing/kunit/kunit.py run --arch=um \
			--kunitconfig="$KUNITCONFIG" --build_dir="$CACHE/build/own-commit-um" \
			--jobs=2 --filter 'speed>slow' --filter_action skip \
			--make_options "CC=$MAKE_CC") > "$out/$n.log" 2>&1 || result=FAIL
		[ "$result" = PASS ] || status=1
		echo "$result patch $n: drm/sched under UML: $(grep -m1 'Testing complete' "$out/$n.log" || echo 'no result')"
		continue
	fi
	"$KDIR/scripts/kunit-amdgpu.sh" "$tree" "$out/$n" > "$out/$n.log" 2>&1 || result=FAIL
	[ "$result" = PASS ] || status=1
	amdgpu="no result"
	sched="no result"
	[ ! -f "$out/$n/$TIER-amdgpu" ] || amdgpu=$(cat "$out/$n/$TIER-amdgpu")
	[ ! -f "$out/$n/$TIER-kunit-sched" ] || sched=$(cat "$out/$n/$TIER-kunit-sched")
	echo "$result patch $n: amdgpu $amdgpu, drm/sched $sched (passed failed skipped)"
done
exit $status
