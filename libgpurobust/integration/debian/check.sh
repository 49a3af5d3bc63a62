#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The `make check` tier "pkg": libgpurobust/debian/ as a distribution builds
# and installs it, on Debian 12 (bookworm) roots made with mmdebstrap from
# the mirror the system's apt uses, and cached under $GPUROBUST_CACHE
# (default /var/cache/gpurobust) by the checksum of what they hold.
#
#  1. dpkg-buildpackage -b builds the four binary packages in a build root
#     with only the Build-Depends (and lintian) installed;
#  2. lintian finds no error in them;
#  3. on a minimal bookworm, apt installs them with their dependencies;
#  4. `gpurobust list` works with nothing collected and says so, as root
#     and as nobody;
#  5. the rule, the units and collect.conf are where udev and systemd look,
#     and the fleet sender's timer is enabled;
#  6. an upgrade to a newer build keeps a collect.conf the admin edited;
#  7. purge, then autoremove, leaves the root as it was before the install
#     (the crash store the collector made included), as piuparts checks.
#
# Leaves the packages in RESULTS_DIR/pkg.debs/ for the guest tier.
#
# usage: check.sh RESULTS_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
src=$top/libgpurobust
results=${1:?usage: check.sh RESULTS_DIR}
CACHE_ROOT=${GPUROBUST_CACHE:-/var/cache/gpurobust}
mkdir -p "$results" "$CACHE_ROOT"
log=$CACHE_ROOT/pkg-check.log
: > "$log"

n=0 passed=0 failed=0 skipped=0
ok() { n=$((n + 1)); passed=$((passed + 1)); echo "pkg: ok $n - $1"; }
not_ok() {
	n=$((n + 1)); failed=$((failed + 1)); echo "pkg: not ok $n - $1"
	shift
	for l in "$@"; do printf '%s\n' "$l" | sed 's/^/pkg: #   /'; done
}
finish() {
	while [ $n -lt 7 ]; do n=$((n + 1)); skipped=$((skipped + 1)); echo "pkg: ok $n # SKIP $1"; done
	echo "$passed $failed $skipped" > "$results/pkg"
	exit 0
}
die() { not_ok "$1" "see $log"; finish "after: $1"; }

if [ "$(id -u)" != 0 ]; then
	finish "needs root (chroots)"
fi
# shellcheck source=roots.sh
. "$here/roots.sh"

# The Build-Depends, first alternatives, without versions; debhelper-compat
# is debhelper's.
build_deps=$(sed -n '/^Build-Depends:/,/^[A-Z][A-Za-z-]*:/{/^Build-Depends:/s/^Build-Depends://;/^[A-Z][A-Za-z-]*:/d;p}' \
	"$src/debian/control" | tr ',' '\n' | sed 's/|.*//; s/([^)]*)//; s/<[^>]*>//; s/[[:space:]]//g' |
	sed '/^$/d; s/^debhelper-compat$/debhelper/' | sort -u | tr '\n' ',')
broot=$(make_root build buildd "${build_deps}lintian") || die "the build root (mmdebstrap)"
iroot_base=$(make_root install minbase "") || die "the install root (mmdebstrap)"

# ---- 1. build, twice: the version in debian/changelog and a newer one ------
work=$broot/build
rm -rf "$work"
version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$src/debian/changelog")
build() { # DIR VERSION
	mkdir -p "$work/$1"
	tar -C "$top" --exclude=.git -cf - libgpurobust | tar -C "$work/$1" -xf -
	if [ "$2" != "$version" ]; then
		{
			printf 'libgpurobust (%s) unstable; urgency=medium\n\n' "$2"
			printf '  * A rebuild for the upgrade check.\n\n'
			printf ' -- gpurobust <kernel@gpurobust.invalid>  %s\n\n' "$(date -R)"
			cat "$work/$1/libgpurobust/debian/changelog"
		} > "$work/$1/changelog" && mv "$work/$1/changelog" "$work/$1/libgpurobust/debian/changelog"
	fi
	in_root "$broot" sh -c "cd /build/$1/libgpurobust && dpkg-buildpackage -us -uc -b" \
		> "$work/$1.log" 2>&1
}
if build new "$version" && build newer "$version+upgrade1"; then
	debs=$(cd "$work/new" && ls ./*.deb 2>/dev/null | tr '\n' ' ')
	ok "dpkg-buildpackage -b: $(echo "$debs" | wc -w) packages ($(echo "$debs" | sed 's|\./||g; s/_[^ ]*//g'))"
	# for the guest tier, which installs them in its root
	rm -rf "$results/pkg.debs" && mkdir -p "$results/pkg.debs" && cp "$work"/new/*.deb "$results/pkg.debs/"
else
	not_ok "dpkg-buildpackage -b" "$(tail -n 15 "$work"/*.log)"
	finish "the packages did not build"
fi

# ---- 2. lintian ----------------------------------------------------------------
lint=$(in_root "$broot" sh -c 'cd /build/new && lintian --fail-on error --no-tag-display-limit \
	--display-info *.changes' 2>&1)
lint_rc=$?
errors=$(printf '%s\n' "$lint" | grep -c '^E: ')
if [ "$lint_rc" = 0 ] && [ "$errors" = 0 ]; then
	ok "lintian: no errors ($(printf '%s\n' "$lint" | grep -c '^W: ') warnings)"
	printf '%s\n' "$lint" | grep '^[WI]: ' | sed 's/^/pkg: #   /'
else
	not_ok "lintian: exit $lint_rc, $errors errors" "$lint"
fi

# ---- 3. install on a minimal bookworm ---------------------------------------------
iroot=$(mktemp -d /var/tmp/gpurobust-pkg.XXXXXX)
trap 'rm -rf "$iroot"' EXIT
cp -a "$iroot_base/." "$iroot/"
mkdir -p "$iroot/tmp/new" "$iroot/tmp/newer"
cp "$work"/new/*.deb "$iroot/tmp/new/"
cp "$work"/newer/*.deb "$iroot/tmp/newer/"
# what is there before, to compare after the purge
snapshot() {
	(cd "$iroot" && find . -xdev \( -path ./proc -o -path ./dev -o -path ./sys -o -path ./run \
		-o -path ./tmp -o -path ./var/lib/apt -o -path ./var/lib/dpkg -o -path ./var/cache \
		-o -path ./var/log -o -path ./etc/ld.so.cache -o -path ./.gpurobust-complete \
		-o -path './etc/*-' \) -prune \
		-o -print | sort)
}
in_root "$iroot" apt-get -q update >> "$log" 2>&1
before=$(snapshot)
# as piuparts installs: without Recommends, which autoremove would keep
apt_install="DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends"
if in_root "$iroot" sh -c "$apt_install /tmp/new/*.deb" \
	>> "$log" 2>&1; then
	ok "apt installs the packages and their dependencies on a minimal bookworm"
else
	not_ok "apt install" "$(tail -n 10 "$log")"
	finish "not installed"
fi

# ---- 4. list with nothing collected -------------------------------------------------
out=$(in_root "$iroot" gpurobust list 2>&1); rc=$?
out_user=$(in_root "$iroot" setpriv --reuid=nobody --regid=nogroup --clear-groups gpurobust list 2>&1)
rc_user=$?
if [ $rc = 0 ] && [ $rc_user = 0 ] && [ "$out" = "No GPU crashes found (none collected yet)." ] &&
	[ "$out_user" = "$out" ]; then
	ok "gpurobust list on a fresh install: '$out', as root and as nobody"
else
	not_ok "gpurobust list on a fresh install" "root: exit $rc: $out" "nobody: exit $rc_user: $out_user"
fi

# ---- 5. where udev and systemd look ---------------------------------------------------
files=$(in_root "$iroot" dpkg -L gpurobust-collect)
rule=$(printf '%s\n' "$files" | grep '/udev/rules.d/71-gpurobust-collect.rules$')
unit=$(printf '%s\n' "$files" | grep '/systemd/system/gpurobust-collect@.service$')
sender=$(printf '%s\n' "$files" | grep '/systemd/system/gpurobust-send.service$')
timer=$(printf '%s\n' "$files" | grep '/systemd/system/gpurobust-send.timer$')
if [ -n "$rule" ] && [ -n "$unit" ] && printf '%s\n' "$files" | grep -qx /etc/gpurobust/collect.conf &&
	grep -q 'RUN+="/usr/bin/gpurobust wedged --journal"' "$iroot$rule" &&
	grep -qx 'ExecStart=/usr/bin/gpurobust collect %I' "$iroot$unit" &&
	[ -n "$timer" ] && grep -qx 'ExecStart=/usr/bin/gpurobust send --wait 60' "$iroot$sender" &&
	[ -L "$iroot/etc/systemd/system/timers.target.wants/gpurobust-send.timer" ]; then
	ok "the rule ($rule), the units ($unit, gpurobust-send.service, its timer enabled) and /etc/gpurobust/collect.conf, naming /usr/bin/gpurobust"
else
	not_ok "the installed rule, units and config" "$files" \
		"$(ls -l "$iroot/etc/systemd/system/timers.target.wants" 2>&1)"
fi

# ---- 6. upgrade, with an edited conffile -------------------------------------------------
echo "MaxUse=2G" >> "$iroot/etc/gpurobust/collect.conf"
if in_root "$iroot" sh -c "$apt_install /tmp/newer/*.deb" \
	>> "$log" 2>&1 &&
	[ "$(in_root "$iroot" dpkg-query -W -f '${Version}' gpurobust-collect)" = "$version+upgrade1" ] &&
	grep -qx "MaxUse=2G" "$iroot/etc/gpurobust/collect.conf" &&
	in_root "$iroot" gpurobust collect --show-config | grep -qx "MaxUse=2147483648"; then
	ok "upgrade to $version+upgrade1 keeps the edited collect.conf (MaxUse=2G in effect)"
else
	not_ok "upgrade" "$(tail -n 10 "$log")"
fi

# ---- 7. purge leaves nothing ------------------------------------------------------------
# a crash store, as the collector leaves one
in_root "$iroot" env DEVPATH=/devices/pci0000:00/0000:03:00.0/drm/card0 WEDGED=none PID=1 \
	TASK=init gpurobust wedged >> "$log" 2>&1
# every package the two installs brought, the debug symbols included
pkgs=$(cd "$iroot/tmp/new" && ls ./*.deb | sed 's|^\./||; s/_.*//' | tr '\n' ' ')
if [ ! -d "$iroot/var/lib/gpurobust/crashes/wedged" ]; then
	not_ok "a crash store for the purge to remove" "$(tail -n 3 "$log")"
elif in_root "$iroot" sh -c "DEBIAN_FRONTEND=noninteractive apt-get purge -y -q $pkgs &&
	DEBIAN_FRONTEND=noninteractive apt-get autoremove --purge -y -q" >> "$log" 2>&1; then
	printf '%s\n' "$before" > "$iroot.before"
	left=$(snapshot | diff "$iroot.before" - | sed -n 's/^> /left behind: /p; s/^< /removed: /p')
	rm -f "$iroot.before"
	if [ -z "$left" ]; then
		ok "purge and autoremove leave the root as before the install"
	else
		not_ok "purge did not restore the root" "$left"
	fi
else
	not_ok "purge" "$(tail -n 10 "$log")"
fi
finish "not reached"
