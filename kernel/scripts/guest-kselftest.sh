#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
#
# The series' kselftest of the amdgpu uAPI, in QEMU, on the series' kernel.
#
# usage: kernel/scripts/guest-kselftest.sh TREE BUILD RESULTS
#
# TREE is the kernel tree with the series, BUILD the build dir of the amdgpu
# KUnit kernel to boot (kunit-amdgpu.sh; check.sh passes both, for the same
# tree; tests-on-base.sh boots the bare base's). The kselftest of
# tools/testing/selftests/drivers/gpu/amdgpu/ is built from TREE with its
# own Makefile against TREE's uAPI headers (make headers), statically, as a
# program built for the series' uAPI is, and
# guest-lib.sh boots BUILD's bzImage with guest-kselftest-run.c as the
# program /init runs: it has the KUnit case amdgpu_kselftest_host register
# a fake amdgpu device with a render node (drivers/gpu/drm/amd/amdgpu/tests/
# amdgpu_kselftest_host.c), runs the kselftest against it, and has the case
# end. The fake replaces the hardware only: the ioctls, the recoveries and
# the errnos are the driver's. On real hardware the same binary runs every
# case but the recovery ones, which need the fake's hang injection and skip.
#
# Writes RESULTS/$TIER-kselftest ("passed failed skipped", one per TAP test
# line, plus one failure for a missing plan, a wrong test count, a non-zero
# exit status or a kernel splat), or "0 0 1" when TREE has no such
# kselftest, and RESULTS/$TIER-kselftest.tests (one "PASS|FAIL|SKIP
# kselftest.<test>" line per test, the dots of its name made underscores),
# and keeps the logs in RESULTS/$TIER-logs/kselftest/. Exits non-zero on any
# failure.
set -eu
. "$(dirname "$0")/lib.sh"
# shellcheck source=guest-lib.sh
. "$(dirname "$0")/guest-lib.sh"

[ $# -eq 3 ] || die "usage: $0 TREE BUILD RESULTS"
tree=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
mkdir -p "$3"
results=$(cd "$3" && pwd)
work=$results/$TIER-logs/kselftest
selftest=tools/testing/selftests/drivers/gpu/amdgpu
rm -rf "$work"
mkdir -p "$work"

if [ ! -f "$tree/$selftest/Makefile" ]; then
	echo "0 0 1" > "$results/$TIER-kselftest"
	log "$TIER-kselftest: skipped: the $SERIES series has no $selftest"
	exit 0
fi
echo "0 1 0" > "$results/$TIER-kselftest"

log "kselftest: building $tree/$selftest against its uAPI headers"
mkdir -p "$work/bin" "$work/headers"
if ! { make -C "$tree" O="$work/headers" -s headers &&
	make -C "$tree/$selftest" -s OUTPUT="$work/bin" \
		KHDR_INCLUDES="-isystem $work/headers/usr/include" LDFLAGS=-static; } \
	> "$work/build.log" 2>&1; then
	tail -n 30 "$work/build.log"
	die "the kselftest does not build"
fi
if grep -q 'warning:' "$work/build.log"; then
	cat "$work/build.log"
	die "the kselftest builds with warnings"
fi

gcc -static -Os -Wall -Werror -o "$work/run" "$KDIR/scripts/guest-kselftest-run.c"
# The boot-time executor runs only the host case, which registers its
# device and returns, and makes its debugfs run file, which
# guest-kselftest-run.c writes; amdgpu.kselftest_host=1 lets that run host
# the device. loglevel=5 keeps KUnit's KTAP (KERN_INFO) off the console,
# where it would mix with the kselftest's TAP; warnings and worse reach it.
GUEST_CMDLINE="kunit.enable=1 kunit.filter_glob=amdgpu_kselftest_host amdgpu.kselftest_host=1 loglevel=5" \
	guest_run "$build" "$work" "$work/run" "$work/bin/amdgpu_reset_uapi"
cat "$work/program.tap"
sed -n -e 's/^ok [0-9]* \([^ ]*\) # SKIP.*/SKIP \1/p' -e 's/^ok [0-9]* \([^ ]*\).*/PASS \1/p' \
	-e 's/^not ok [0-9]* \([^ ]*\).*/FAIL \1/p' "$work/program.tap" |
	awk '{ gsub(/\./, "_", $2); print $1, "kselftest." $2 }' > "$results/$TIER-kselftest.tests"
guest_report "$work" "$results" kselftest
