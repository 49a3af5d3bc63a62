# Shared settings for the kernel/ scripts. Source it; it defines:
#   KDIR       kernel/ in this checkout
#   CACHE      /var/cache/gpurobust/linux-<version> (override with GPUROBUST_CACHE)
#   BASE_GIT   the git tree holding the base commit
#   CCACHE_DIR ccache's directory, shared by every tree and build dir
# and the BASE variables (DEB_VERSION, KERNEL_VERSION, TARBALL, BASE_COMMIT, ...).
KDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=../BASE
. "$KDIR/BASE"
CACHE_ROOT=${GPUROBUST_CACHE:-/var/cache/gpurobust}
CACHE=$CACHE_ROOT/linux-$KERNEL_VERSION
BASE_GIT=$CACHE/base
CCACHE_DIR=${CCACHE_DIR:-$CACHE_ROOT/ccache}
export CCACHE_DIR

log() {
	printf '[%s] %s\n' "$(date -u +%H:%M:%S)" "$*"
}

die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}

# Hold the cache lock (on fd 8) while changing the base git tree or its list
# of worktrees, so scripts running at the same time never race on them.
lock_cache() {
	mkdir -p "$CACHE"
	exec 8>"$CACHE/.lock"
	flock 8
}

unlock_cache() {
	flock -u 8
}

# The series, in order, as listed in kernel/series.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$KDIR/series"
}

# Make (or reset) the worktree $1 at the base commit, detached, with nothing
# else in it. Build output lives elsewhere (O=), so nothing of value is lost.
reset_worktree() {
	if [ -e "$1/.git" ]; then
		git -C "$1" am --abort >/dev/null 2>&1 || true
		git -C "$1" checkout -q -f --detach "$BASE_COMMIT"
		git -C "$1" clean -q -f -d -x
	else
		rm -rf "$1"
		git -C "$BASE_GIT" worktree prune
		git -C "$BASE_GIT" worktree add -q -f --detach "$1" "$BASE_COMMIT"
	fi
}
