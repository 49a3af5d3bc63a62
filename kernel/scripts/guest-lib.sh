# shellcheck shell=sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
#
# Running one TAP program in a QEMU guest on the amdgpu KUnit kernel, for
# guest-probe.sh and guest-kselftest.sh. Source it after lib.sh. It defines:
#   guest_run BUILD WORK PROGRAM [FILE...]
#       boot BUILD's bzImage with an initramfs of guest-init.c as /init,
#       PROGRAM and the shared libraries it loads, and each FILE as
#       /<its name>; /init runs PROGRAM. GUEST_CMDLINE is the rest of the
#       kernel's command line (when unset, "kunit.enable=0": no KUnit test
#       runs at boot). Leaves WORK/console.log and, with the kernel's messages taken
#       out, PROGRAM's TAP in WORK/program.tap.
#   guest_report WORK RESULTS PART
#       count WORK/program.tap (one per test line) into RESULTS/$TIER-PART
#       ("passed failed skipped"), with one failure more for what makes the
#       run fail besides failed tests: no plan, or 1..0 (the program skipped
#       whole), a wrong test count, a non-zero exit status, a kernel splat;
#       logs it, and returns non-zero on any failure.

# guest_run BUILD WORK PROGRAM [FILE...]
guest_run() {
	gr_build=$1
	gr_work=$2
	gr_program=$3
	shift 3
	gr_bzimage=$gr_build/arch/x86/boot/bzImage
	gr_cpio=$gr_build/usr/gen_init_cpio
	[ -f "$gr_bzimage" ] || die "$gr_bzimage is missing: run kunit-amdgpu.sh first"
	for option in BLK_DEV_INITRD DEVTMPFS BINFMT_ELF DEBUG_FS; do
		grep -qx "CONFIG_$option=y" "$gr_build/.config" ||
			die "$gr_build/.config lacks CONFIG_$option=y (kernel/kunit/amdgpu.kunitconfig has it)"
	done
	[ -x "$gr_cpio" ] || die "$gr_cpio is missing (CONFIG_BLK_DEV_INITRD builds it)"
	# /init is static: it runs before any library is in place.
	gcc -static -Os -Wall -Werror -o "$gr_work/init" "$KDIR/scripts/guest-init.c"

	# The initramfs: /init, the program and the shared libraries it loads,
	# at the paths the host has them (ldd lists the loader and each one).
	gr_libs=$(ldd "$gr_program" 2>/dev/null |
		sed -n 's,.*[[:space:]]\(/[^ ]*\) (0x.*,\1,p')
	{
		echo "dir /dev 0755 0 0"
		echo "nod /dev/console 0600 0 0 c 5 1"
		echo "dir /proc 0755 0 0"
		echo "dir /sys 0755 0 0"
		for lib in $gr_libs; do
			dir=$(dirname "$lib")
			while [ "$dir" != / ]; do
				echo "dir $dir 0755 0 0"
				dir=$(dirname "$dir")
			done
		done | sort -u
		echo "file /init $gr_work/init 0755 0 0"
		echo "file /program $gr_program 0755 0 0"
		for file in "$@"; do
			echo "file /$(basename "$file") $file 0755 0 0"
		done
		for lib in $gr_libs; do
			echo "file $lib $(readlink -f "$lib") 0755 0 0"
		done
	} > "$gr_work/initramfs.list"
	"$gr_cpio" "$gr_work/initramfs.list" > "$gr_work/initramfs.cpio"

	# TCG, as for the KUnit run: on this machine's nested KVM the kernel hangs.
	gr_cmdline=${GUEST_CMDLINE:-kunit.enable=0}
	log "guest: booting $gr_bzimage with $gr_cmdline to run $(basename "$gr_program")"
	timeout 600 qemu-system-x86_64 -m 1024 -smp 1 -nodefaults -nographic \
		-serial stdio -no-reboot -bios qboot.rom \
		-kernel "$gr_bzimage" -initrd "$gr_work/initramfs.cpio" \
		-append "console=ttyS0 $gr_cmdline rdinit=/init panic=-1" \
		> "$gr_work/console.log" 2>&1 < /dev/null || true

	# The TAP, between the markers /init prints, without the kernel messages
	# the console interleaves.
	tr -d '\r' < "$gr_work/console.log" | sed -n '/^guest: start/,/^guest: /p' |
		grep -aE '^(ok|not ok|1\.\.|#|Bail out)' > "$gr_work/program.tap" || true
}

# guest_report WORK RESULTS PART
guest_report() {
	passed=$(grep '^ok [0-9]' "$1/program.tap" | grep -vc '# SKIP' || true)
	skipped=$(grep '^ok [0-9]' "$1/program.tap" | grep -c '# SKIP' || true)
	failed=$(grep -c '^not ok [0-9]' "$1/program.tap" || true)
	gt_plan=$(sed -n 's/^1\.\.\([0-9]*\).*/\1/p' "$1/program.tap" | head -n 1)
	gt_exit=$(grep -a '^guest: ' "$1/console.log" | tr -d '\r' | tail -n 1)

	problems=
	if [ -z "$gt_plan" ] || [ "$gt_plan" -eq 0 ]; then
		problems="no test plan, or the whole program skipped"
	elif [ $((passed + skipped + failed)) -ne "$gt_plan" ]; then
		problems="$((passed + skipped + failed)) tests of a plan of $gt_plan ran"
	fi
	if [ "$gt_exit" != "guest: exit 0" ] && [ "$failed" -eq 0 ]; then
		problems="${problems:+$problems; }the program: ${gt_exit:-never finished}"
	fi
	gt_splats=$(grep -aE 'BUG: |WARNING: |Kernel panic|Oops|KASAN|UBSAN' "$1/console.log" || true)
	if [ -n "$gt_splats" ]; then
		problems="${problems:+$problems; }kernel log: $gt_splats"
	fi
	if [ -n "$problems" ]; then
		failed=$((failed + 1))
		tail -n 40 "$1/console.log"
		log "$3: $problems"
	fi
	echo "$passed $failed $skipped" > "$2/$TIER-$3"
	log "$TIER-$3: $passed passed, $failed failed, $skipped skipped"
	[ "$failed" -eq 0 ]
}
