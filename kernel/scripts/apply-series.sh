#!/bin/sh
# Apply the series to a fresh tree made from the base commit.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/apply-series.sh TREE [COUNT]
#
# TREE becomes a git worktree of the base tree (made or reset to the base
# commit, so anything in it is thrown away), then `git am` applies the first
# COUNT patches of the series ($SDIR/series) (all of them without COUNT). Build in TREE
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
	[ -f "$SDIR/patches/$patch" ] || die "$SDIR/series names $patch, not in $SDIR/patches/"
	am_patch "$tree" "$patch" || die "$patch does not apply to $KERNEL_VERSION"
done
log "applied $n patch(es) to $tree"
echo "$tree"
