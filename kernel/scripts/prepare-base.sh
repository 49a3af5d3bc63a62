#!/bin/sh
# Prepare the base tree the series applies to, in the cache outside the repo.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/prepare-base.sh
#
# Gets Debian's linux-source package at the version pinned in the series'
# BASE, checks the tarball's checksum and the Makefile version, extracts it to
# $CACHE/base and turns it into a git tree with one commit. Author, committer
# and date are fixed, so the commit id is the same on every machine; it must
# equal BASE_COMMIT in BASE.
#
# A base from the system's own suite (6.12 on Debian 12) is installed with
# apt-get, as root. A base from another suite (BASE sets DEB_SUITE: 7.2 comes
# from sid) is never installed: apt-get downloads its .deb with a private
# source list and state directory, so the system's apt sources stay as they
# are and nothing from that suite lands on the system. The .deb is checked
# against DEB_SHA256 and kept in $CACHE_ROOT/debs. When the suite no longer
# has the pinned version and no copy is cached, the script says which version
# the suite has now and how to move the pin, and exits 77 (skip): a moved
# archive is never a pass.
# Idempotent: a prepared, verified tree is left alone. Prints the tree's path.
set -eu
. "$(dirname "$0")/lib.sh"

# fetch_package: the pinned .deb from DEB_SUITE into $DEB_FILE, checked.
fetch_package() {
	if [ -f "$DEB_FILE" ] &&
		echo "$DEB_SHA256  $DEB_FILE" | sha256sum -c --quiet - 2>/dev/null; then
		return 0
	fi
	log "downloading $DEB_PACKAGE=$DEB_VERSION from Debian $DEB_SUITE (private apt state)"
	suite_apt update > "$CACHE_ROOT/apt-$DEB_SUITE.log" 2>&1 ||
		die "apt-get update for $DEB_SUITE failed: $(tail -n 3 "$CACHE_ROOT/apt-$DEB_SUITE.log")"
	now=$(APT=apt-cache suite_apt policy "$DEB_PACKAGE" 2>/dev/null |
		awk '$1 == "Candidate:" { print $2 }')
	mkdir -p "$(dirname "$DEB_FILE")"
	if ! (cd "$(dirname "$DEB_FILE")" &&
		suite_apt download "$DEB_PACKAGE=$DEB_VERSION") \
		>> "$CACHE_ROOT/apt-$DEB_SUITE.log" 2>&1; then
		echo "SKIP: Debian $DEB_SUITE no longer has $DEB_PACKAGE $DEB_VERSION (it has ${now:-no $DEB_PACKAGE} now), and $DEB_FILE is not cached." >&2
		echo "SKIP: to move the pin: kernel/scripts/move-pin.sh $SERIES ${now:-VERSION}" >&2
		exit 77
	fi
	echo "$DEB_SHA256  $DEB_FILE" | sha256sum -c --quiet - ||
		die "$DEB_FILE does not match DEB_SHA256 in $SDIR/BASE"
}

# unpack_tarball: the kernel tarball out of the cached .deb, into $TARBALL.
unpack_tarball() {
	if [ -f "$TARBALL" ] &&
		echo "$TARBALL_SHA256  $TARBALL" | sha256sum -c --quiet - 2>/dev/null; then
		return 0
	fi
	mkdir -p "$CACHE"
	dpkg-deb --fsys-tarfile "$DEB_FILE" |
		tar -xO "./usr/src/$TARBALL_NAME" > "$TARBALL.tmp" ||
		die "$DEB_FILE has no usr/src/$TARBALL_NAME"
	mv "$TARBALL.tmp" "$TARBALL"
}

check_package() {
	if [ -n "$DEB_SUITE" ]; then
		fetch_package
		unpack_tarball
		return 0
	fi
	have=$(dpkg-query -W -f '${Version}' "$DEB_PACKAGE" 2>/dev/null || true)
	[ "$have" = "$DEB_VERSION" ] && return 0
	[ "$(id -u)" -eq 0 ] ||
		die "$DEB_PACKAGE $DEB_VERSION is not installed (found '${have:-none}'); run as root"
	log "installing $DEB_PACKAGE=$DEB_VERSION"
	# A newer version may be installed already (Debian's security archive
	# moves on); the base is this one.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		--allow-downgrades "$DEB_PACKAGE=$DEB_VERSION" >/dev/null ||
		die "could not install $DEB_PACKAGE=$DEB_VERSION (is it still in the archive? apt-cache madison $DEB_PACKAGE)"
}

# check_makefile_version FILE: the top Makefile must say KERNEL_VERSION.
check_makefile_version() {
	found=$(awk -F' = ' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } END { print v "." p "." s }' "$1")
	[ "$found" = "$KERNEL_VERSION" ] ||
		die "$1 says version $found, $SDIR/BASE pins $KERNEL_VERSION"
}

verify_base_git() {
	[ -n "$BASE_COMMIT" ] || return 1
	git -C "$BASE_GIT" cat-file -e "$BASE_COMMIT^{commit}" 2>/dev/null || return 1
	git -C "$BASE_GIT" show "$BASE_COMMIT:Makefile" > "$CACHE/Makefile.check"
	check_makefile_version "$CACHE/Makefile.check"
	rm -f "$CACHE/Makefile.check"
}

make_base_git() {
	log "checking $TARBALL"
	echo "$TARBALL_SHA256  $TARBALL" | sha256sum -c --quiet - ||
		die "$TARBALL does not match the checksum in $SDIR/BASE"
	tmp=$CACHE/base.tmp
	rm -rf "$tmp" "$BASE_GIT"
	mkdir -p "$tmp"
	log "extracting $TARBALL to $BASE_GIT"
	tar -xJf "$TARBALL" -C "$tmp" --strip-components=1
	check_makefile_version "$tmp/Makefile"
	log "making the base commit"
	git -C "$tmp" init -q
	git -C "$tmp" config core.autocrlf false
	git -C "$tmp" config gc.auto 0
	git -C "$tmp" add -A -f
	GIT_AUTHOR_NAME="gpurobust base" GIT_AUTHOR_EMAIL="base@gpurobust.invalid" \
	GIT_COMMITTER_NAME="gpurobust base" GIT_COMMITTER_EMAIL="base@gpurobust.invalid" \
	GIT_AUTHOR_DATE="2025-11-14T00:00:00+0000" \
	GIT_COMMITTER_DATE="2025-11-14T00:00:00+0000" \
		git -C "$tmp" commit -q --no-verify --no-gpg-sign \
		-m "Linux $KERNEL_VERSION from Debian $DEB_PACKAGE $DEB_VERSION"
	git -C "$tmp" tag -f base >/dev/null
	mv "$tmp" "$BASE_GIT"
	made=$(git -C "$BASE_GIT" rev-parse HEAD)
	if [ -z "$BASE_COMMIT" ]; then
		die "made base commit $made; record it as BASE_COMMIT in $SDIR/BASE"
	fi
	[ "$made" = "$BASE_COMMIT" ] ||
		die "made base commit $made, $SDIR/BASE pins $BASE_COMMIT"
}

prepare() {
	check_package
	if verify_base_git; then
		return 0
	fi
	make_base_git
	verify_base_git || die "base tree $BASE_GIT failed verification"
}

# Only one prepare at a time: the other waits and then finds the tree ready.
lock_cache
prepare
unlock_cache
log "base $KERNEL_VERSION ($DEB_PACKAGE $DEB_VERSION) at $BASE_GIT, commit $BASE_COMMIT"
echo "$BASE_GIT"
