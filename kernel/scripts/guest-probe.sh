#!/bin/sh
# libgpurobust's fence error probe (contract L10) on a real kernel, in QEMU.
#
# usage: kernel/scripts/guest-probe.sh BUILD RESULTS
#
# BUILD is the amdgpu KUnit kernel's build dir (kunit-amdgpu.sh; check.sh
# passes it). Its bzImage boots, with KUnit off, a small initramfs: an /init
# (guest-init.c) that runs libgpurobust/tests/reset/probe-syncfile, built
# here from this checkout with meson (guest-lib.sh boots it). The probe makes real sync_files with
# sw_sync, including fences that a closed timeline completed with -ENOENT,
# and checks what gpurobust_syncfile_probe() and gpurobust_syncobj_probe()
# read from them. The syncobj check needs a DRM device with syncobjs; the
# guest has none (no GPU, and the kernel has no virtual DRM driver), so that
# check reports a TAP skip, counted as skipped.
#
# Writes RESULTS/kernel-guest-l10 ("passed failed skipped", one per TAP test
# line, plus one failure for a missing plan, a wrong test count, a non-zero
# exit status or a kernel splat) and keeps the console log and the build
# logs in RESULTS/kernel-logs/guest-l10/. Exits non-zero on any failure.
set -eu
. "$(dirname "$0")/lib.sh"
# shellcheck source=guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"

[ $# -eq 2 ] || die "usage: $0 BUILD RESULTS"
build=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
work=$results/$TIER-logs/guest-l10
top=$(cd "$KDIR/.." && pwd)
rm -rf "$work"
mkdir -p "$work"
echo "0 1 0" > "$results/$TIER-guest-l10"

grep -qx "CONFIG_SW_SYNC=y" "$build/.config" ||
	die "$build/.config lacks CONFIG_SW_SYNC=y (kernel/kunit/amdgpu.kunitconfig has it)"
command -v meson >/dev/null || die "meson is missing (Debian package meson)"

log "guest L10: building probe-syncfile from $top/libgpurobust"
if ! { meson setup "$work/lib" "$top/libgpurobust" -Dtests=enabled &&
	meson compile -C "$work/lib" tests/reset/probe-syncfile; } > "$work/meson.log" 2>&1; then
	tail -n 30 "$work/meson.log"
	die "probe-syncfile does not build"
fi
guest_run "$build" "$work" "$work/lib/tests/reset/probe-syncfile"
cat "$work/program.tap"
# The kernel has sw_sync and debugfs, so a skipped plan is a failure.
guest_report "$work" "$results" guest-l10
