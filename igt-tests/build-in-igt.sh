#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
#
# Apply the series to an IGT tree you already have, build its three tests
# (amd_reset_context, amd_reset_escalation, amd_reset_devcoredump) with IGT's
# own warning set, list their subtests and run them.
#
# usage: igt-tests/build-in-igt.sh [--base=REV] IGT_TREE [WORK_DIR]
#
# IGT_TREE is a git clone of igt-gpu-tools that has IGT_COMMIT (igt-tests/BASE).
# The script leaves that tree alone: it adds a detached worktree at IGT_COMMIT
# under WORK_DIR (default: a new directory in /tmp), applies the series there
# with `git am`, builds in WORK_DIR/build with meson and ninja, and prints
#   - the number of compiler warnings in the files the series adds or
#     changes (must be 0),
#   - the output of --list-subtests,
#   - the output and exit code of a run of every subtest (77: all skipped).
# --base=REV applies the series onto REV instead of IGT_COMMIT, for a tree
# whose IGT_COMMIT carries local fixups (REV must be IGT_COMMIT plus those),
# such as stand-ins for files a partial mirror lacks (see README.md).
# Running the binary needs root on a machine with an amdgpu GPU to do more
# than skip; it forces GPU hangs and resets there.
#
# This script is not part of `make check`, which has no IGT tree.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=igt-tests/BASE
. "$here/BASE"

base=$IGT_COMMIT
case "${1:-}" in
--base=*)
	base=${1#--base=}
	shift
	;;
esac
tree=${1:?usage: igt-tests/build-in-igt.sh [--base=REV] IGT_TREE [WORK_DIR]}
work=${2:-$(mktemp -d /tmp/amd-reset-contract.XXXXXX)}
src=$work/igt
build=$work/build

log() {
	echo "build-in-igt: $*"
}

git -C "$tree" cat-file -e "$IGT_COMMIT^{commit}" 2>/dev/null || {
	log "$tree does not have IGT_COMMIT $IGT_COMMIT (git fetch it first)" >&2
	exit 1
}
if [ "$base" != "$IGT_COMMIT" ] &&
   ! git -C "$tree" merge-base --is-ancestor "$IGT_COMMIT" "$base"; then
	log "--base=$base does not contain IGT_COMMIT $IGT_COMMIT" >&2
	exit 1
fi

log "worktree $src at $base"
git -C "$tree" worktree add -q --detach "$src" "$base" >/dev/null || {
	log "cannot check out $base in $tree (a clone that lacks some blobs cannot:" \
		"commit stand-ins for them on top of IGT_COMMIT and pass that as --base)" >&2
	exit 1
}
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/patches/series" |
	(cd "$here/patches" && tr '\n' '\0' | xargs -0 realpath -z | xargs -0 git -C "$src" am -q)
log "applied: $(git -C "$src" log --oneline "$base..HEAD" | wc -l) patches"

meson setup "$build" "$src" -Dlibdrm_drivers=amdgpu -Dtests=enabled -Drunner=disabled \
	-Doverlay=disabled -Dchamelium=disabled -Dman=disabled -Ddocs=disabled \
	-Dtestplan=disabled -Dxe_driver=disabled -Dvalgrind=disabled >"$work/meson.log" 2>&1 || {
	cat "$work/meson.log" >&2
	exit 1
}
tests="amd_reset_context amd_reset_escalation amd_reset_devcoredump"
# shellcheck disable=SC2046 # one target per word
ninja -C "$build" -j"${JOBS:-2}" $(for t in $tests; do echo "tests/amdgpu/$t"; done) \
	>"$work/ninja.log" 2>&1 || {
	cat "$work/ninja.log" >&2
	exit 1
}
# The files the series adds or changes
files=$(git -C "$src" diff --name-only "$base..HEAD" -- '*.c' '*.h' | sed 's|.*/||' |
	tr '\n' '|' | sed 's/|$//; s/\./\\./g')
warnings=$(grep -cE "($files):[0-9]+:[0-9]+: warning:" "$work/ninja.log" || true)
log "warnings in the files the series touches: $warnings (log: $work/ninja.log)"

for t in $tests; do
	binary=$build/tests/amdgpu/$t
	log "$binary --list-subtests"
	"$binary" --list-subtests
	log "$binary (every subtest)"
	rc=0
	"$binary" || rc=$?
	log "exit code $rc (0 passed, 77 skipped, 98 failed)"
done
[ "$warnings" -eq 0 ]
