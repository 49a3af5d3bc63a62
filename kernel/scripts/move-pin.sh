#!/bin/sh
# Move a series' base to another version of its Debian package, and rebase
# the series onto it.
#
# usage: kernel/scripts/move-pin.sh SERIES VERSION
#   SERIES   7.2 (base from Debian sid) or 6.12
#   VERSION  the Debian version of the base package to pin, e.g. 7.2.14-1
#
# Downloads the package (for 7.2 with prepare-base.sh's private sid apt
# state; nothing is installed), records its sha256, the tarball's sha256 and
# the kernel version in the series' BASE, makes the new base commit and
# records it, then rebases the series onto it: the series' patches are
# applied with `git am -3` onto the new base commit and written back with
# regenerate-series.sh. A patch that does not apply stops the script with the
# worktree left as git am left it, for a person to resolve; BASE keeps the new
# pin either way.
set -eu
[ $# -eq 2 ] || {
	echo "usage: $0 SERIES VERSION" >&2
	exit 1
}
GPUROBUST_SERIES=$1
export GPUROBUST_SERIES
version=$2
. "$(dirname "$0")/lib.sh"

old_version=$DEB_VERSION
[ "$version" != "$old_version" ] || die "$SERIES is pinned to $version already"

log "downloading $DEB_PACKAGE=$version"
dl=$(mktemp -d /tmp/move-pin.XXXXXX)
if [ -n "$DEB_SUITE" ]; then
	suite_apt update >/dev/null
	(cd "$dl" && suite_apt download "$DEB_PACKAGE=$version") >/dev/null
else
	(cd "$dl" && apt-get -q download "$DEB_PACKAGE=$version") >/dev/null
fi
deb=$(ls "$dl"/*.deb)
deb_sha=$(sha256sum "$deb" | cut -d ' ' -f 1)
tarball_name=$(dpkg-deb -c "$deb" | awk '{ print $NF }' |
	sed -n 's,^\./usr/src/\(linux-source-[^/]*\.tar\.xz\)$,\1,p')
[ -n "$tarball_name" ] || die "$deb holds no kernel tarball"
dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$tarball_name" > "$dl/$tarball_name"
tarball_sha=$(sha256sum "$dl/$tarball_name" | cut -d ' ' -f 1)
# Debian's upstream version is the kernel's; prepare-base.sh checks it
# against the tarball's Makefile.
kernel_version=${version%%-*}
if [ -n "$DEB_SUITE" ]; then
	mkdir -p "$CACHE_ROOT/debs"
	mv "$deb" "$CACHE_ROOT/debs/"
fi

log "pinning $DEB_PACKAGE $version (Linux $kernel_version) in $SDIR/BASE"
sed -i -e "s/^DEB_VERSION=.*/DEB_VERSION=$version/" \
	-e "s/^DEB_SHA256=.*/DEB_SHA256=$deb_sha/" \
	-e "s/^KERNEL_VERSION=.*/KERNEL_VERSION=$kernel_version/" \
	-e "s/^TARBALL_SHA256=.*/TARBALL_SHA256=$tarball_sha/" \
	-e "s/^BASE_COMMIT=.*/BASE_COMMIT=/" "$SDIR/BASE"
rm -rf "$dl"

# The new base commit: prepare-base.sh makes it and names it, as BASE has
# none yet; then it verifies the tree against the recorded id.
made=$("$KDIR/scripts/prepare-base.sh" 2>&1 | sed -n 's/.*made base commit \([0-9a-f]*\);.*/\1/p')
[ -n "$made" ] || die "prepare-base.sh made no base commit for $version"
sed -i "s/^BASE_COMMIT=.*/BASE_COMMIT=$made/" "$SDIR/BASE"
# shellcheck source=../7.2/BASE
. "$SDIR/BASE"
CACHE=$CACHE_ROOT/linux-$kernel_version
"$KDIR/scripts/prepare-base.sh" >/dev/null

log "applying the $SERIES series onto $BASE_COMMIT"
new_tree=$CACHE/trees/move-pin
lock_cache
reset_worktree "$new_tree"
unlock_cache
for patch in $(series_patches); do
	GIT_COMMITTER_NAME="gpurobust series" \
	GIT_COMMITTER_EMAIL="series@gpurobust.invalid" \
	GIT_COMMITTER_DATE="2025-11-14T00:00:00+0000" \
		git -C "$new_tree" am -q -3 "$SDIR/patches/$patch" ||
		die "$patch does not apply to $version: resolve it in $new_tree (git am --continue, then the rest of $SDIR/series), then run GPUROBUST_SERIES=$SERIES kernel/scripts/regenerate-series.sh $new_tree"
done
[ -z "$(series_patches)" ] || "$KDIR/scripts/regenerate-series.sh" "$new_tree"
log "moved the $SERIES pin from $old_version to $version; review and commit $SDIR"
