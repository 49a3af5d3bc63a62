#!/bin/sh
# Prepare the base tree the series applies to, in the cache outside the repo.
#
# usage: kernel/scripts/prepare-base.sh
#
# Installs Debian's linux-source package at the version pinned in kernel/BASE
# (when run as root and it is missing), checks the tarball's checksum and the
# Makefile version, extracts it to $CACHE/base and turns it into a git tree with
# one commit. Author, committer and date are fixed, so the commit id is the same
# on every machine; it must equal BASE_COMMIT in kernel/BASE.
# Idempotent: a prepared, verified tree is left alone. Prints the tree's path.
set -eu
. "$(dirname "$0")/lib.sh"

check_package() {
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
		die "$1 says version $found, kernel/BASE pins $KERNEL_VERSION"
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
		die "$TARBALL does not match the checksum in kernel/BASE"
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
		die "made base commit $made; record it as BASE_COMMIT in kernel/BASE"
	fi
	[ "$made" = "$BASE_COMMIT" ] ||
		die "made base commit $made, kernel/BASE pins $BASE_COMMIT"
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
