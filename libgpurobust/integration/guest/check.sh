#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# The `make check` tier "guest": the crash collector end to end, with real
# parts. A QEMU guest boots the 7.2 series' kernel with systemd as PID 1
# and systemd-udevd, on a Debian 12 root made with mmdebstrap (cached) into
# which the pkg tier's .debs are installed with dpkg. In the guest
# (guest-e2e.sh), the KUnit case amdgpu_kselftest_host hosts the series'
# fake amdgpu device, an application run as an ordinary user (hang-app.c)
# submits to it and the fake hardware hangs the IB; from there on it is the
# driver's job timeout that publishes the devcoredump, udev's rule that
# starts gpurobust-collect@devcdN.service, and the packages' collector
# that stores it, logs it and frees it. A dump copied in from a fixture
# would prove none of that, so none is.
#
# The kernel is the series applied by kernel/scripts/apply-series.sh to a
# worktree of its own, built by kunit.py from the 7.2 series'
# amdgpu.kunitconfig (KASAN, lockdep) and this directory's
# systemd.kunitconfig (what systemd needs, which the series does not), in a
# build directory kept in the kernel cache; TCG, as for the kernel tier.
#
# Writes RESULTS_DIR/guest ("passed failed skipped", one per TAP line of the
# guest, and one failure more for a missing plan, a wrong count, or a
# kernel splat), and keeps the console in RESULTS_DIR/guest.console.log and
# the guest's TAP in RESULTS_DIR/guest.tap. The TAP has a serial port of its
# own (ttyS1): on the console, printk lines can land in the middle of it.
#
# usage: check.sh RESULTS_DIR (after the pkg tier wrote RESULTS_DIR/pkg.debs)
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
results=${1:?usage: check.sh RESULTS_DIR}
CACHE_ROOT=${GPUROBUST_CACHE:-/var/cache/gpurobust}
mkdir -p "$results" "$CACHE_ROOT"
results=$(cd "$results" && pwd)
log=$results/guest.log
: > "$log"
fail() {
	echo "guest: $1 (see $log)"
	echo "0 1 0" > "$results/guest"
	exit 1
}
if [ "$(id -u)" != 0 ]; then
	echo "guest: skipped: needs root (chroot, ext4 image with owners)"
	echo "0 0 1" > "$results/guest"
	exit 0
fi
ls "$results"/pkg.debs/gpurobust-collect_*.deb > /dev/null 2>&1 ||
	fail "no packages in $results/pkg.debs: run the pkg tier first (make pkg-check)"
# shellcheck source=../debian/roots.sh
. "$top/libgpurobust/integration/debian/roots.sh"

# ---- the kernel ------------------------------------------------------------
. "$top/kernel/7.2/BASE"
kcache=$CACHE_ROOT/linux-$KERNEL_VERSION
tree=$kcache/trees/guest
kunit=$top/kernel/7.2/kunit
# Applied again only when the series changed: re-applying rewrites every
# file it touches, and kbuild then rebuilds all that includes them.
series_key=$(cat "$top/kernel/7.2/BASE" "$top/kernel/7.2/series" "$top"/kernel/7.2/patches/*.patch |
	sha256sum | cut -c1-16)
if [ "$(cat "$tree/.gpurobust-series" 2>/dev/null)" != "$series_key" ] ||
	[ -n "$(git -C "$tree" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
	echo "guest: applying the 7.2 series to $tree"
	GPUROBUST_SERIES=7.2 "$top/kernel/scripts/apply-series.sh" "$tree" >> "$log" 2>&1 ||
		fail "the series does not apply"
	echo "$series_key" > "$tree/.gpurobust-series"
fi
key=$(cat "$kunit/amdgpu.kunitconfig" "$here/systemd.kunitconfig" | sha256sum | cut -c1-12)
build=$kcache/build/guest-$key
echo "guest: building the kernel in $build"
(cd "$tree" && CCACHE_BASEDIR=$CACHE_ROOT CCACHE_NOHASHDIR=1 \
	python3 tools/testing/kunit/kunit.py build --arch=x86_64 \
	--kunitconfig="$kunit/amdgpu.kunitconfig" --kunitconfig="$here/systemd.kunitconfig" \
	--build_dir="$build" --jobs=2 --make_options "CC=ccache gcc") >> "$log" 2>&1 ||
	fail "the guest kernel does not build"

# ---- the application, against the series' uAPI -------------------------------
work=$(mktemp -d /var/tmp/gpurobust-guest.XXXXXX)
trap 'rm -rf "$work"' EXIT
# and the packages' libgpurobust-dev: the guest root is Debian 12 as this
# machine is, so what links here runs there against libgpurobust-driver0
make -C "$tree" O="$work/headers" -s headers >> "$log" 2>&1 || fail "make headers"
for deb in libgpurobust-dev libgpurobust-driver0; do
	dpkg-deb -x "$results"/pkg.debs/${deb}_*.deb "$work/dev" || fail "dpkg-deb -x $deb"
done
libdir=$work/dev/usr/lib/x86_64-linux-gnu
gcc -O2 -Wall -Wextra -Werror -isystem "$work/headers/usr/include" \
	-isystem "$work/dev/usr/include" -o "$work/hang-app" "$here/hang-app.c" \
	-L"$libdir" -Wl,-rpath-link,"$libdir" -lgpurobust-driver >> "$log" 2>&1 ||
	fail "hang-app does not build"

# ---- the root ----------------------------------------------------------------------
# systemd, udev, and what the packages need, so that dpkg installs them
# without the network
base=$(make_root guest minbase "systemd,systemd-sysv,udev,libjson-c5,libsqlite3-0,libxxhash0,libzstd1,libpq5,libdrm2,libdrm-amdgpu1") ||
	fail "the guest root (mmdebstrap)"
root=$work/root
cp -a "$base" "$root"
cp "$results"/pkg.debs/libgpurobust-driver0_*.deb "$results"/pkg.debs/libgpurobust-crash0_*.deb \
	"$results"/pkg.debs/gpurobust-collect_*.deb "$root/tmp/"
in_root "$root" sh -c 'dpkg -i /tmp/*.deb && rm /tmp/*.deb' >> "$log" 2>&1 ||
	fail "dpkg -i of the packages in the guest root"
in_root "$root" useradd -m -u 1000 -G render player >> "$log" 2>&1 || fail "useradd player"
install -m 0755 "$work/hang-app" "$root/usr/local/bin/hang-app"
install -m 0755 "$here/guest-e2e.sh" "$root/usr/local/sbin/gpurobust-e2e"
cat > "$root/etc/systemd/system/gpurobust-e2e.service" <<'UNIT'
[Unit]
Description=gpurobust collector end to end (libgpurobust/integration/guest)
After=systemd-udevd.service systemd-udev-trigger.service systemd-journald.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/gpurobust-e2e
StandardOutput=tty
StandardError=tty
TTYPath=/dev/ttyS1
# a pipe to "grep -q" closing early is no error worth a line of TAP
IgnoreSIGPIPE=no

[Install]
WantedBy=multi-user.target
UNIT
mkdir -p "$root/etc/systemd/system/multi-user.target.wants"
ln -sf /etc/systemd/system/gpurobust-e2e.service \
	"$root/etc/systemd/system/multi-user.target.wants/gpurobust-e2e.service"
# no login prompts on the console the TAP goes to
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
ln -sf /dev/null "$root/etc/systemd/system/getty@tty1.service"
echo guest > "$root/etc/hostname"
rm -f "$root/.gpurobust-complete"
truncate -s 2G "$work/root.img"
mke2fs -q -t ext4 -d "$root" "$work/root.img" >> "$log" 2>&1 || fail "mke2fs -d"

# ---- boot -------------------------------------------------------------------------------
console=$results/guest.console.log
tapfile=$results/guest.tap
rm -f "$tapfile"
echo "guest: booting $build/arch/x86/boot/bzImage (TCG)"
# SeaBIOS, not the kernel tier's qboot: without ACPI the kernel routes PCI
# interrupts from the BIOS's MP table, and qboot's gives virtio-blk none.
timeout 1200 qemu-system-x86_64 -m 2048 -smp 2 -nodefaults -nographic \
	-serial stdio -serial file:"$tapfile" \
	-no-reboot -kernel "$build/arch/x86/boot/bzImage" \
	-drive file="$work/root.img",format=raw,if=virtio \
	-append "console=ttyS0 root=/dev/vda rw panic=-1 reboot=t loglevel=5 systemd.show_status=0 kunit.enable=1 kunit.filter_glob=amdgpu_kselftest_host amdgpu.kselftest_host=1" \
	> "$console" 2>&1 < /dev/null

tap=$(tr -d '\r' < "$tapfile" 2>/dev/null | sed -n '/^guest: start/,/^guest: exit/p' |
	grep -aE '^(ok|not ok|1\.\.|#)')
printf '%s\n' "$tap" | sed 's/^/guest: /'
passed=$(printf '%s\n' "$tap" | grep '^ok [0-9]' | grep -vc '# SKIP')
skipped=$(printf '%s\n' "$tap" | grep '^ok [0-9]' | grep -c '# SKIP')
failed=$(printf '%s\n' "$tap" | grep -c '^not ok [0-9]')
plan=$(printf '%s\n' "$tap" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | head -n 1)
problems=
[ -n "$plan" ] && [ $((passed + skipped + failed)) -eq "$plan" ] ||
	problems="$((passed + skipped + failed)) tests of a plan of ${plan:-none} ran"
splats=$(grep -aE 'BUG: |WARNING: |Kernel panic|Oops|KASAN|UBSAN|possible circular locking' "$console" |
	grep -v 'KernelAddressSanitizer initialized')
[ -z "$splats" ] || problems="${problems:+$problems; }kernel log: $splats"
if [ -n "$problems" ]; then
	failed=$((failed + 1))
	echo "guest: $problems"
	tr -d '\r' < "$console" | tail -n 40 | sed 's/^/guest: console: /'
	tr -d '\r' < "$tapfile" 2>/dev/null | tail -n 40 | sed 's/^/guest: tap: /'
fi
echo "$passed $failed $skipped" > "$results/guest"
echo "guest: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
