# shellcheck shell=sh
# Shared settings for the kernel/ scripts. Source it; it defines:
#   KDIR       kernel/ in this checkout
#   SERIES     which series the script works on: GPUROBUST_SERIES, "6.12"
#              (the default) or "7.2"
#   SDIR       that series' directory: kernel/ for 6.12, kernel/7.2/ for 7.2;
#              it holds BASE, series, patches/, cover-letter.txt and kunit/
#   TIER       the name of its `make check` tier, and the prefix of its result
#              files: kernel (6.12) or kernel72 (7.2)
#   CACHE      /var/cache/gpurobust/linux-<version> (override with GPUROBUST_CACHE)
#   BASE_GIT   the git tree holding the base commit
#   CCACHE_DIR ccache's directory, shared by every tree and build dir
# and the BASE variables (DEB_VERSION, KERNEL_VERSION, TARBALL, BASE_COMMIT, ...).
# shellcheck disable=SC2034 # the variables are for the scripts sourcing this
KDIR=$(cd "$(dirname "$0")/.." && pwd)
SERIES=${GPUROBUST_SERIES:-6.12}
case "$SERIES" in
6.12)
	SDIR=$KDIR
	TIER=kernel
	;;
7.2)
	SDIR=$KDIR/7.2
	TIER=kernel72
	;;
*)
	echo "GPUROBUST_SERIES must be 6.12 or 7.2, not '$SERIES'" >&2
	exit 1
	;;
esac
DEB_SUITE=
# shellcheck source=../BASE
. "$SDIR/BASE"
CACHE_ROOT=${GPUROBUST_CACHE:-/var/cache/gpurobust}
CACHE=$CACHE_ROOT/linux-$KERNEL_VERSION
# A base fetched from another suite than the system's (DEB_SUITE, see
# prepare-base.sh) is never installed: its .deb and tarball stay in the cache.
if [ -n "$DEB_SUITE" ]; then
	DEB_FILE=$CACHE_ROOT/debs/${DEB_PACKAGE}_${DEB_VERSION}_all.deb
	TARBALL=$CACHE/$TARBALL_NAME
fi
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

# debian_mirror and suite_apt, shared with the Mesa scripts.
# shellcheck source=../../scripts/debian-apt.sh
. "$KDIR/../scripts/debian-apt.sh"

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

# claim_check_tree: hold the check lock (on fd 9) until the script exits,
# then reset CHECK_TREE to the base commit: for the scripts that rebuild
# the series in it from scratch.
claim_check_tree() {
	exec 9>"$CHECK_LOCK"
	flock 9
	lock_cache
	reset_worktree "$CHECK_TREE"
	unlock_cache
}

# has_amdgpu_tests TREE: whether TREE has the series' amdgpu KUnit tests (a
# series may not have them yet).
has_amdgpu_tests() {
	grep -q '^config DRM_AMDGPU_KUNIT_TEST$' "$1/drivers/gpu/drm/amd/amdgpu/Kconfig"
}

# The series, in order, as listed in kernel/series.
series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SDIR/series"
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

# The system python (kunit.py, and checkpatch's spdxcheck.py, which needs
# python3-ply) comes before any python a user put first in PATH.
PATH=/usr/bin:/bin:/usr/sbin:/sbin:$PATH
export PATH

# The tree check.sh and tests-on-base.sh build in, and the lock that keeps
# them from running at the same time: they share it and its build dirs, so
# switching between base, tests-only and full series rebuilds only the files
# that changed.
CHECK_TREE=$CACHE/trees/check
CHECK_LOCK=$CACHE/check.lock
KUNITCONFIG=$SDIR/kunit/drm_sched.kunitconfig
MAKE_CC="ccache gcc"

# config_key FILE...: a short hash of the files, the compiler and its
# version, naming the build dir that holds a build with that configuration.
config_key() {
	{
		cat "$@"
		echo "$MAKE_CC"
		gcc --version | head -n 1
	} | sha256sum | cut -c 1-12
}

# am_patch TREE PATCH: git am one patch onto TREE: PATCH names one of
# $SDIR/patches/, or is a path. A fixed committer keeps the applied commit
# ids the same on every machine.
am_patch() {
	case $2 in
	*/*) patch_file=$2 ;;
	*) patch_file=$SDIR/patches/$2 ;;
	esac
	GIT_COMMITTER_NAME="gpurobust series" \
	GIT_COMMITTER_EMAIL="series@gpurobust.invalid" \
	GIT_COMMITTER_DATE="2025-11-14T00:00:00+0000" \
		git -C "$1" am -q "$patch_file"
}
