#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# RADV_DEBUG=breadcrumbs of the series, on the drm-shim, with
# ../stock/ib-replay.c playing the GPU (TAP):
#  - no hang: the marker writes of RADV's own IBs, in order, against the
#    label tree of ../device-lost.c (record_labels()), each leaf's work
#    between its label's two writes; and none without the option;
#  - a hang after the 5th label start ("transparent"), on 7.2 with the
#    series (KMS 3.65): the wait is VK_ERROR_DEVICE_LOST,
#    VK_EXT_device_fault names the labels, and `gpurobust report` of the
#    devcoredump the kernel would publish names them too, from the dump
#    alone;
#  - the same hang on 7.2 without the series (KMS 3.64): the kernel refuses
#    AMDGPU_VM_DUMPABLE, RADV says so, the dump has no capture, and
#    VK_EXT_device_fault still names the labels.
#
# usage: run-breadcrumbs.sh SID_ROOT MESA_BUILD GPUROBUST
#   MESA_BUILD  the build's path inside the root (/build/mesa-gpurobust)
#   GPUROBUST   the gpurobust command, built from this checkout
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: run-breadcrumbs.sh SID_ROOT MESA_BUILD GPUROBUST}
build=${2:?usage: run-breadcrumbs.sh SID_ROOT MESA_BUILD GPUROBUST}
gpurobust=${3:?usage: run-breadcrumbs.sh SID_ROOT MESA_BUILD GPUROBUST}
work=$(mktemp -d "$root/tmp/gpurobust-bc.XXXXXX")
trap 'rm -rf "$work"' EXIT
in_root=${work#"$root"}
"$here/../stock/build-harness.sh" "$root" "$work" || exit 1

n=0
failed=0
check() {
	n=$((n + 1))
	if [ "$1" = "$2" ]; then
		echo "ok $n - $3"
	else
		failed=$((failed + 1))
		echo "not ok $n - $3"
		echo "# want: $2"
		echo "# got:  $1"
	fi
}

# run NAME SETTINGS: device-lost.c "labels" on the build, in the root.
run() {
	rm -f "$work/$1.log"
	# shellcheck disable=SC2086 # the settings are words
	chroot "$root" env -i PATH=/usr/bin:/bin HOME=/tmp $2 \
		GRB_IB_LOG="$in_root/$1.log" GRB_DUMP="$in_root/$1.devcoredump" \
		LD_LIBRARY_PATH="$build/src/amd/drm-shim:$build/src/amd/vulkan" \
		VK_ICD_FILENAMES="$build/src/amd/vulkan/radeon_devenv_icd.x86_64.json" \
		LD_PRELOAD="$in_root/reset-interposer.so:$build/src/amd/drm-shim/libamdgpu_noop_drm_shim.so" \
		MESA_VK_ABORT_ON_DEVICE_LOSS=0 MESA_SHADER_CACHE_DISABLE=1 \
		"$in_root/device-lost" labels > "$work/$1.out" 2> "$work/$1.err"
}

# The marker writes of a log as events: Z a counter zeroed, B<k> the value
# k to the "in" counter, E<k> to the "out" counter, W a leaf's work (one or
# more dispatches or CP DMAs: vkCmdFillBuffer); one line per submission.
events() {
	awk '
		/^ib gfx/ { if (line != "") print line; line = "" }
		/^write me / && $4 == 0 { line = line " Z"; next }
		/^write me / { line = line " B" $4; in_at[$3] = 1 }
		/^write eop / { line = line " E" $4; out_at[$3] = 1 }
		/^packet 0x(15|50)$/ && line != "" && line !~ / W$/ { line = line " W" }
		END {
			if (line != "") print line
			for (a in in_at) nin++
			for (a in out_at) { nout++; if (a in in_at) shared = 1 }
			printf "counters: in %d, out %d, shared %d\n", nin, nout, shared
		}
	' "$1" | sed 's/^ //'
}

# device-lost.c's tree: frame 1 { shadow pass {W} main pass { opaque {W}
# transparent {W} } post {W} }. Labels start with 1, 2, ... in the order
# they begin; ends count 1, 2, ... in the order they end.
tree="Z Z B1 B2 W E1 B3 B4 W E2 B5 W E3 E4 B6 W E5 E6"

run clean "GRB_KMS_MINOR=65 RADV_DEBUG=breadcrumbs"
check "$(grep -c 'the kernel puts them in the devcoredump' "$work/clean.err")" 1 \
	"7.2 with the series: RADV maps its breadcrumbs AMDGPU_VM_DUMPABLE"
check "$(events "$work/clean.log" | grep -v '^counters' | sort | uniq -c | sed 's/^ *//')" "2 $tree" \
	"both submissions write each label's in and out value around its work, in order"
check "$(events "$work/clean.log" | grep '^counters')" "counters: in 1, out 1, shared 0" \
	"every start goes to one counter, every end to another"
run off "GRB_KMS_MINOR=65"
check "$(grep -c '^write' "$work/off.log")" 0 "without RADV_DEBUG=breadcrumbs, no marker writes"

hang="GRB_HANG_AFTER=5 GRB_CS_ERRNO=-62 GRB_QUERY2=0x45 GRB_WAIT_ERRNO=-62 RADV_DEBUG=breadcrumbs"
run series "GRB_KMS_MINOR=65 $hang"
check "$(sed -n 's/^wait 1: //p' "$work/series.out")" VK_ERROR_DEVICE_LOST \
	"a hang in \"transparent\": the wait reports the loss"
check "$(sed -n 's/^fault vendor: frame/frame/p' "$work/series.out")" \
	"frame 1 > main pass > transparent (code 3, data 1)" \
	"VK_EXT_device_fault names the labels the GPU was in"
report=$("$gpurobust" report "$work/series.devcoredump" 2>&1)
check "$(printf '%s\n' "$report" | sed -n '/^What the GPU was doing/{n;s/^ *//;p}')" transparent \
	"gpurobust report of the devcoredump names the active label"
check "$(printf '%s\n' "$report" | grep -A1 '^MARKERS IN PROGRESS' | grep -c . ; printf '%s\n' "$report" | grep -x 'frame 1/main pass/transparent')" \
	"2
frame 1/main pass/transparent" "and its path, from the dump alone"
check "$(printf '%s\n' "$report" | grep -c '\[X\] "opaque"\|\[X\] "shadow pass"\|\[ \] "post"')" 3 \
	"labels before it finished, the one after it never started"
printf '%s\n' "$report" | sed 's/^/# /'

run bare "GRB_KMS_MINOR=64 $hang"
check "$(grep -c 'the kernel cannot dump them' "$work/bare.err")" 1 \
	"7.2 without the series refuses AMDGPU_VM_DUMPABLE; RADV says so"
check "$(grep -c 'User Capture' "$work/bare.devcoredump")" 0 "and its dump carries no capture"
check "$(sed -n 's/^fault vendor: frame/frame/p' "$work/bare.out")" \
	"frame 1 > main pass > transparent (code 3, data 1)" \
	"VK_EXT_device_fault names the labels all the same"
echo "1..$n"
[ "$failed" -eq 0 ]
