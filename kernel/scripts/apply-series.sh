#!/bin/sh
# Apply the series to a fresh tree made from the base commit.
#
# usage: kernel/scripts/apply-series.sh TREE [COUNT]
#
# TREE becomes a git worktree of the base tree (made or reset to the base
# commit, so anything in it is thrown away), then `git am` applies the first
# COUNT patches of kernel/series (all of them without COUNT). Build in TREE
# only with O=<dir elsewhere>. Prints TREE.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 TREE [COUNT]"
tree=$1
count=${2:-}
case "$tree" in
/*) ;;
*) tree=$(pwd)/$tree ;;
esac

"$KDIR/scripts/prepare-base.sh" >/dev/null
lock_cache
reset_worktree "$tree"
unlock_cache

n=0
for patch in $(series_patches); do
	[ -n "$count" ] && [ "$n" -ge "$count" ] && break
	n=$((n + 1))
	[ -f "$KDIR/patches/$patch" ] || die "kernel/series names $patch, not in kernel/patches/"
	# A fixed committer keeps the applied commit ids the same on every machine.
	GIT_COMMITTER_NAME="gpurobust series" GIT_COMMITTER_EMAIL="series@gpurobust.invalid" \
	GIT_COMMITTER_DATE="2025-11-14T00:00:00+0000" \
		git -C "$tree" am -q "$KDIR/patches/$patch" ||
		die "$patch does not apply to $KERNEL_VERSION"
done
log "applied $n patch(es) to $tree"
echo "$tree"
