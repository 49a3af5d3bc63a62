#!/bin/sh
# Build the whole amdgpu KUnit kernel after every patch of the series: the
# full bisectability check, by hand. Not part of `make check`.
#
# usage: kernel/scripts/bisect-amdgpu.sh [LOGDIR]
#
# check.sh proves each patch builds on its own more cheaply: for each amdgpu
# patch it rebuilds only the objects the patch can break (x86-objs.sh,
# amdgpu_candidates). That can miss a link error (a call to a function a
# later patch defines) or a clash with a name in a file nobody rebuilt. This
# script misses neither: after each patch it makes vmlinux (every object that
# depends on a changed file, then the link) with the amdgpu tier's
# configuration, in the tree and build dir check.sh and kunit-amdgpu.sh use,
# under the same lock. A patch changing amdgpu_ctx.h or gpu_scheduler.h
# rebuilds some 300 objects, several minutes each on 2 cores. It ends with
# the whole series applied, as kunit-amdgpu.sh leaves the tree.
#
# Prints one line per patch, keeps the build logs in LOGDIR (default: a new
# directory under /tmp) and exits non-zero if any patch does not build.
set -eu
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/x86-objs.sh"

logdir=${1:-$(mktemp -d /tmp/bisect-amdgpu.XXXXXX)}
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
build=$(amdgpu_build_dir "$CHECK_TREE")

"$KDIR/scripts/prepare-base.sh" >/dev/null
claim_check_tree

log "bisect: every patch, then make vmlinux in $build (logs: $logdir)"
status=0
n=0
for patch in $(series_patches); do
	n=$((n + 1))
	am_patch "$CHECK_TREE" "$patch" || die "$patch does not apply"
	start=$(date +%s)
	if amdgpu_config "$CHECK_TREE" "$build" > "$logdir/$n.log" 2>&1 &&
		nice -n 5 make -C "$CHECK_TREE" ARCH=x86_64 O="$build" \
			CC="$MAKE_CC" -j2 vmlinux >> "$logdir/$n.log" 2>&1; then
		result=builds
	else
		result="DOES NOT BUILD"
		status=1
		grep -m 10 ': error:\|undefined reference' "$logdir/$n.log" || true
	fi
	rebuilt=$(grep -c '^  CC ' "$logdir/$n.log" || true)
	warnings=$(grep -c ': warning:' "$logdir/$n.log" || true)
	log "bisect: $patch: $result, $rebuilt objects compiled," \
		"$warnings warnings, $(($(date +%s) - start)) s"
done
[ "$status" -eq 0 ] || die "a patch does not build on its own (logs: $logdir)"
log "bisect: every patch builds vmlinux on its own"
