#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# What a debug label pair costs in the series' RADV: CPU instructions on the
# recording thread (callgrind, inclusive, of ../device-lost.c's
# measured_pairs()) and command-stream dwords (counted by ../stock/ib-replay.c
# from the submitted IBs), per pair, with breadcrumbs off, with
# RADV_DEBUG=breadcrumbs, and with RADV's own RADV_DEBUG=hang trace; each
# for empty label pairs and for pairs around a vkCmdFillBuffer. A benchmark,
# not a test: it prints figures and fails only when it cannot measure.
#
# Callgrind is the host's valgrind, run in the sid root from a copy (the
# root has none; a valgrind built against an older glibc runs on a newer
# one). The build is the one build-mesa-main.sh made (debugoptimized,
# asserts off, as Debian builds Mesa).
#
# RADV_DEBUG=hang cannot run past its first submission on the drm-shim: it
# waits for the GPU's trace, which the shim's GPU never writes, calls that
# a hang and aborts. Its figures are taken before: the recording, and the
# IB as it was submitted.
#
# usage: bench-labels.sh SID_ROOT MESA_BUILD [PAIRS]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: bench-labels.sh SID_ROOT MESA_BUILD [PAIRS]}
build=${2:?usage: bench-labels.sh SID_ROOT MESA_BUILD [PAIRS]}
pairs=${3:-1000}
[ -x /usr/bin/valgrind.bin ] || { echo "bench-labels.sh: needs Debian's valgrind on the host" >&2; exit 1; }
work=$(mktemp -d "$root/tmp/gpurobust-bench.XXXXXX")
# Valgrind reads /proc/self/maps: the root gets a /proc for the run.
mount -t proc proc "$root/proc"
trap 'umount "$root/proc"; rm -rf "$work"' EXIT
in_root=${work#"$root"}
"$here/../stock/build-harness.sh" "$root" "$work"
mkdir -p "$work/valgrind/bin" "$work/valgrind/lib"
# Debian's valgrind is a wrapper script around valgrind.bin.
cp /usr/bin/valgrind.bin "$work/valgrind/bin/valgrind"
cp -r /usr/libexec/valgrind/. "$work/valgrind/lib/"

# measure MODE BODY: prints "<instructions> <dwords>" for PAIRS pairs.
measure() {
	case $1 in
	off) debug= ;;
	breadcrumbs) debug=RADV_DEBUG=breadcrumbs ;;
	hang) debug=RADV_DEBUG=hang ;;
	esac
	rm -f "$work/ib.log" "$work/callgrind.out"
	# shellcheck disable=SC2086 # $debug is one word or none
	chroot "$root" env -i PATH=/usr/bin:/bin HOME="$in_root" GRB_KMS_MINOR=65 $debug \
		GRB_IB_LOG="$in_root/ib.log" VALGRIND_LIB="$in_root/valgrind/lib" \
		LD_LIBRARY_PATH="$build/src/amd/drm-shim:$build/src/amd/vulkan" \
		VK_ICD_FILENAMES="$build/src/amd/vulkan/radeon_devenv_icd.x86_64.json" \
		MESA_SHADER_CACHE_DISABLE=1 \
		LD_PRELOAD="$in_root/reset-interposer.so:$build/src/amd/drm-shim/libamdgpu_noop_drm_shim.so" \
		"$in_root/valgrind/bin/valgrind" --tool=callgrind --collect-atstart=no \
		--toggle-collect=measured_pairs --callgrind-out-file="$in_root/callgrind.out" \
		"$in_root/device-lost" bench "$pairs" "$2" > "$work/out" 2> "$work/err" || [ "$1" = hang ]
	instructions=$(sed -n 's/^totals: //p' "$work/callgrind.out")
	[ -n "$instructions" ] && grep -q '^ib gfx' "$work/ib.log" || { cat "$work/err" >&2; exit 1; }
	# Every IB of the one submission: the chunks and the IBs they call.
	dwords=$(awk '/^ib (gfx|compute|called) / { n += $(NF - 1) } END { print n + 0 }' "$work/ib.log")
	echo "$instructions $dwords"
}
echo "bench-labels: $pairs label pairs, build $build, callgrind $(valgrind --version)"
printf '%-12s %-6s %14s %14s %12s %12s\n' mode body instructions dwords "Ir/pair+" "dw/pair+"
for body in empty fill; do
	figures=$(measure off "$body") || exit 1
	set -- $figures
	base_ir=$1
	base_dw=$2
	for mode in off breadcrumbs hang; do
		if [ "$mode" = off ]; then
			ir=$base_ir
			dw=$base_dw
		else
			figures=$(measure "$mode" "$body") || exit 1
			set -- $figures
			ir=$1
			dw=$2
		fi
		printf '%-12s %-6s %14s %14s %12s %12s\n' "$mode" "$body" "$ir" "$dw" \
			"$(echo "scale=1; ($ir - $base_ir) / $pairs" | bc)" \
			"$(echo "scale=2; ($dw - $base_dw) / $pairs" | bc)"
	done
done
