#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Make (once) the Debian sid root that runs stock Mesa, and print its path.
#
# usage: sid-root.sh [run|build|igt]
#
# "run" (the default) holds the packages sid-packages pins, at their
# versions, with the checksums there checked against sid's Packages index
# first, and a compiler and headers for the probes; "build" adds
# sid-build-packages, what building Mesa main takes; "igt" adds
# igt-tests/sid-build-packages, what building the IGT series with sid's
# libdrm takes. It is made with
# mmdebstrap into $GPUROBUST_CACHE (default /var/cache/gpurobust)/
# sid-mesa-<checksum of the lists>, and reused while they are unchanged. The system's apt
# sources are not touched. Exits 77, saying why on stderr, when sid no
# longer has a pinned version.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
CACHE_ROOT=${GPUROBUST_CACHE:-/var/cache/gpurobust}
# shellcheck disable=SC2034 # debian-apt.sh's suite
DEB_SUITE=sid
die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}
# shellcheck source=../../../../scripts/debian-apt.sh
. "$top/scripts/debian-apt.sh"

case ${1:-run} in
run) lists=$here/sid-packages ;;
build) lists="$here/sid-packages $here/sid-build-packages" ;;
igt) lists="$here/sid-packages $top/igt-tests/sid-build-packages" ;;
*) die "usage: sid-root.sh [run|build|igt]" ;;
esac
# shellcheck disable=SC2086 # the lists are words
pins=$(cat $lists)
root=$CACHE_ROOT/sid-mesa-$(echo "$pins" | sha256sum | cut -c1-12)
if [ -f "$root/.gpurobust-complete" ]; then
	echo "$root"
	exit 0
fi

mkdir -p "$CACHE_ROOT"
suite_apt update > "$CACHE_ROOT/apt-sid.log" 2>&1 ||
	die "apt-get update for sid failed: $(tail -n 3 "$CACHE_ROOT/apt-sid.log")"
includes=""
pinned=$(echo "$pins" | sed 's/#.*//' | awk 'NF == 3')
for pkg in $(echo "$pins" | sed 's/#.*//' | awk 'NF == 1'); do
	includes="$includes,$pkg"
done
echo "$pinned" | while read -r pkg version sha256; do
	got=$(APT=apt-cache suite_apt show "$pkg=$version" 2>/dev/null |
		awk '$1 == "SHA256:" { print $2; exit }')
	if [ -z "$got" ]; then
		now=$(APT=apt-cache suite_apt policy "$pkg" 2>/dev/null |
			awk '$1 == "Candidate:" { print $2 }')
		echo "SKIP: Debian sid has moved on: no $pkg $version (it has ${now:-none} now); pin it anew in $here" >&2
		exit 77
	fi
	[ "$got" = "$sha256" ] ||
		die "$pkg $version in sid has SHA256 $got, not $sha256 as pinned in $here"
done || exit $?
for entry in $(echo "$pinned" | awk '{ print $1 "=" $2 }'); do
	includes="$includes,$entry"
done

rm -rf "$root.tmp"
echo "sid-root: making $root (mmdebstrap)" >&2
# The archive served here may be a snapshot whose Release is past its
# Valid-Until; apt's signature check still applies.
mmdebstrap --quiet --variant=apt --aptopt='Acquire::Check-Valid-Until "false"' \
	--include="${includes#,}" sid "$root.tmp" \
	"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) sid main" \
	> "$CACHE_ROOT/sid-mesa.log" 2>&1 ||
	die "mmdebstrap failed: $(tail -n 3 "$CACHE_ROOT/sid-mesa.log")"
echo "$pinned" | while read -r pkg version sha256; do
	got=$(chroot "$root.tmp" dpkg-query -W -f '${Version}' "$pkg")
	[ "$got" = "$version" ] || die "the root has $pkg $got, not $version"
done
touch "$root.tmp/.gpurobust-complete"
rm -rf "$root"
mv "$root.tmp" "$root"
echo "$root"
