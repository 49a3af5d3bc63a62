#!/bin/sh
# libgpurobust's fence error probe (contract L10) on a real kernel, in QEMU.
#
# usage: kernel/scripts/guest-probe.sh BUILD RESULTS
#
# BUILD is the amdgpu KUnit kernel's build dir (kunit-amdgpu.sh; check.sh
# passes it). Its bzImage boots, with KUnit off, a small initramfs: an /init
# (guest-init.c) that runs libgpurobust/tests/reset/probe-syncfile, built
# here from this checkout with meson. The probe makes real sync_files with
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

[ $# -eq 2 ] || die "usage: $0 BUILD RESULTS"
build=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
work=$results/$TIER-logs/guest-l10
top=$(cd "$KDIR/.." && pwd)
rm -rf "$work"
mkdir -p "$work"
echo "0 1 0" > "$results/$TIER-guest-l10"

bzimage=$build/arch/x86/boot/bzImage
gen_init_cpio=$build/usr/gen_init_cpio
[ -f "$bzimage" ] || die "$bzimage is missing: run kunit-amdgpu.sh first"
for option in BLK_DEV_INITRD DEVTMPFS BINFMT_ELF DEBUG_FS SW_SYNC; do
	grep -qx "CONFIG_$option=y" "$build/.config" ||
		die "$build/.config lacks CONFIG_$option=y (kernel/kunit/amdgpu.kunitconfig has it)"
done
[ -x "$gen_init_cpio" ] || die "$gen_init_cpio is missing (CONFIG_BLK_DEV_INITRD builds it)"
command -v meson >/dev/null || die "meson is missing (Debian package meson)"

log "guest L10: building probe-syncfile from $top/libgpurobust"
if ! { meson setup "$work/lib" "$top/libgpurobust" -Dtests=enabled &&
	meson compile -C "$work/lib" tests/reset/probe-syncfile; } > "$work/meson.log" 2>&1; then
	tail -n 30 "$work/meson.log"
	die "probe-syncfile does not build"
fi
probe=$work/lib/tests/reset/probe-syncfile
# The guest's /init is static: it runs before any library is in place.
gcc -static -Os -Wall -Werror -o "$work/init" "$KDIR/scripts/guest-init.c"

# The initramfs: /init, the probe and the shared libraries it loads, at the
# paths the host has them (ldd lists the loader and each library).
libs=$(ldd "$probe" | sed -n 's,.*[[:space:]]\(/[^ ]*\) (0x.*,\1,p')
{
	echo "dir /dev 0755 0 0"
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "dir /proc 0755 0 0"
	echo "dir /sys 0755 0 0"
	for lib in $libs; do
		dir=$(dirname "$lib")
		while [ "$dir" != / ]; do
			echo "dir $dir 0755 0 0"
			dir=$(dirname "$dir")
		done
	done | sort -u
	echo "file /init $work/init 0755 0 0"
	echo "file /probe-syncfile $probe 0755 0 0"
	for lib in $libs; do
		echo "file $lib $(readlink -f "$lib") 0755 0 0"
	done
} > "$work/initramfs.list"
"$gen_init_cpio" "$work/initramfs.list" > "$work/initramfs.cpio"

# TCG, as for the KUnit run: on this machine's nested KVM the kernel hangs.
log "guest L10: booting $bzimage with kunit.enable=0"
timeout 600 qemu-system-x86_64 -m 1024 -smp 1 -nodefaults -nographic \
	-serial stdio -no-reboot -bios qboot.rom \
	-kernel "$bzimage" -initrd "$work/initramfs.cpio" \
	-append "console=ttyS0 kunit.enable=0 rdinit=/init panic=-1" \
	> "$work/console.log" 2>&1 < /dev/null || true

# The probe's TAP, between the markers /init prints, without the kernel
# messages the console interleaves.
tr -d '\r' < "$work/console.log" | sed -n '/^guest-probe: start/,/^guest-probe: /p' |
	grep -aE '^(ok|not ok|1\.\.|#|Bail out)' > "$work/probe.tap" || true
cat "$work/probe.tap"
passed=$(grep '^ok [0-9]' "$work/probe.tap" | grep -vc '# SKIP' || true)
skipped=$(grep '^ok [0-9]' "$work/probe.tap" | grep -c '# SKIP' || true)
failed=$(grep -c '^not ok [0-9]' "$work/probe.tap" || true)
plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$work/probe.tap" | head -n 1)
exit_line=$(grep -a '^guest-probe: ' "$work/console.log" | tr -d '\r' | tail -n 1)

problems=
if [ -z "$plan" ] || [ "$plan" -eq 0 ]; then
	# The kernel has sw_sync and debugfs, so a skipped plan is a failure.
	problems="no test plan, or the whole probe skipped"
elif [ $((passed + skipped + failed)) -ne "$plan" ]; then
	problems="$((passed + skipped + failed)) tests of a plan of $plan ran"
fi
if [ "$exit_line" != "guest-probe: exit 0" ] && [ "$failed" -eq 0 ]; then
	problems="${problems:+$problems; }probe-syncfile: ${exit_line:-never finished}"
fi
splats=$(grep -aE 'BUG: |WARNING: |Kernel panic|Oops|KASAN|UBSAN' "$work/console.log" || true)
if [ -n "$splats" ]; then
	problems="${problems:+$problems; }kernel log: $splats"
fi
if [ -n "$problems" ]; then
	failed=$((failed + 1))
	tail -n 40 "$work/console.log"
	log "guest L10: $problems"
fi
echo "$passed $failed $skipped" > "$results/$TIER-guest-l10"
log "$TIER-guest-l10: $passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
