# shellcheck shell=sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Debian 12 roots for the package and guest checks. Source it with top
# (the repository), CACHE_ROOT and log (a log file) set. It defines:
#   make_root NAME VARIANT PACKAGES
#       a bookworm root made by mmdebstrap (VARIANT, with PACKAGES, comma
#       separated) from the mirror the system's apt uses, cached as
#       $CACHE_ROOT/bookworm-NAME-<checksum of VARIANT and PACKAGES> and
#       remade when they change; prints its path.
#   in_root ROOT CMD...
#       run CMD in ROOT with /proc and /dev, in a private mount namespace
#       that takes the mounts with it when it ends.
# shellcheck disable=SC2034 # debian-apt.sh's suite
DEB_SUITE=bookworm
# shellcheck source=../../../scripts/debian-apt.sh
. "$top/scripts/debian-apt.sh"

make_root() {
	mr_key=$(printf '%s %s\n' "$2" "$3" | sha256sum | cut -c1-12)
	mr_root=$CACHE_ROOT/bookworm-$1-$mr_key
	if [ ! -e "$mr_root/.gpurobust-complete" ]; then
		rm -rf "$mr_root" "$mr_root.tmp"
		echo "making $mr_root (mmdebstrap)" >&2
		mmdebstrap --quiet --variant="$2" ${3:+--include="$3"} \
			--aptopt='Acquire::Check-Valid-Until "false"' bookworm "$mr_root.tmp" \
			"deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) bookworm main" \
			>> "$log" 2>&1 || return 1
		touch "$mr_root.tmp/.gpurobust-complete"
		mv "$mr_root.tmp" "$mr_root"
	fi
	echo "$mr_root"
}

in_root() {
	ir_root=$1
	shift
	unshare -m --propagation private sh -c '
		root=$1; shift
		mount -t proc proc "$root/proc" && mount --rbind /dev "$root/dev" &&
		exec chroot "$root" "$@"' sh "$ir_root" "$@"
}
