#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Mesa's answers to kernel resets: Debian sid's RADV and radeonsi, as
# shipped, or those of a Mesa build in the root (MESA_BUILD, a path inside
# it, such as ../main/build-mesa-main.sh makes), on that Mesa's amdgpu
# drm-shim under reset-interposer.c, in every scenario of ./scenarios.
# Prints one line per scenario and API:
#   <scenario> vk: <submit 1> <wait 1> <submit 2> <wait 2>
#   <scenario> vk-fault: <what VK_EXT_device_fault says after a loss>, or
#                        "not lost"
#   <scenario> vk-poll: <submit 1> <poll 1> <submit 2> <poll 2>
#                       (vkGetFenceStatus instead of vkWaitForFences)
#   <scenario> gl-lose: <status 1> <status 2> <status 3> <status 4>
#   <scenario> gl-none: <status 1> <status 2> <status 3> <status 4>
# each followed by "abort" or "exit N" when the program did not return 0
# (device-lost.c; gl-reset-probe.c with LOSE_CONTEXT_ON_RESET and
# NO_RESET_NOTIFICATION), then the driver messages under "# ".
#
# usage: run-stock.sh SID_ROOT [MESA_BUILD]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: run-stock.sh SID_ROOT [MESA_BUILD]}
build=${2:-}
if [ -n "$build" ]; then
	[ -f "$root$build/build.ninja" ] || { echo "run-stock.sh: no Mesa build in $root$build" >&2; exit 1; }
	drivers="LD_LIBRARY_PATH=$build/src/amd/drm-shim:$build/src/amd/vulkan:$build/src/gallium/targets/dri:$build/src/egl:$build/src/gbm
		__EGL_VENDOR_LIBRARY_FILENAMES=$build/src/egl/devenv_glvnd_egl.json
		GBM_BACKENDS_PATH=$build/src/gbm/backends/dri
		VK_ICD_FILENAMES=$build/src/amd/vulkan/radeon_devenv_icd.x86_64.json"
	shim=$build/src/amd/drm-shim/libamdgpu_noop_drm_shim.so
else
	drivers=VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/radeon_icd.json
	shim=libamdgpu_noop_drm_shim.so
fi
work=$(mktemp -d "$root/tmp/gpurobust-stock.XXXXXX")
trap 'rm -rf "$work"' EXIT
in_root=${work#"$root"}
"$here/build-harness.sh" "$root" "$work"

# run SETTINGS PROGRAM ARGS...: one program on the shim, in the root. The
# kernel is Linux 7.2's amdgpu, KMS 3.64, unless the scenario says
# otherwise: the shims of different Mesa versions report different ones.
run() {
	settings=$1
	program=$2
	shift 2
	# shellcheck disable=SC2086 # the settings and drivers are words
	chroot "$root" env -i PATH=/usr/bin:/bin HOME=/tmp GRB_KMS_MINOR=64 $settings $drivers \
		LD_PRELOAD="$in_root/reset-interposer.so:$shim" \
		MESA_VK_ABORT_ON_DEVICE_LOSS=0 MESA_SHADER_CACHE_DISABLE=1 \
		"$in_root/$program" "$@" > "$work/out" 2> "$work/err" && rc=0 || rc=$?
}

# results: the values the program printed, and how it ended unless it
# returned 0 ("abort" for SIGABRT, which a driver calls on purpose).
results() {
	sed -n "s/^$1 [1-4]: //p" "$work/out" | tr '\n' ' '
	case $rc in
	0) ;;
	134) echo "abort" ;;
	*) echo "exit $rc" ;;
	esac
}

sed 's/#.*//' "$here/scenarios" | awk 'NF' | while read -r name settings; do
	run "$settings" device-lost
	echo "$name vk: $(results '\(submit\|wait\)' | sed 's/ $//')"
	fault=$(sed -n 's/^fault\( vendor\)*: //p' "$work/out" | tr '\n' ';' | sed 's/;$//')
	echo "$name vk-fault: ${fault:-not lost}"
	run "$settings" device-lost poll
	echo "$name vk-poll: $(results '\(submit\|poll\)' | sed 's/ $//')"
	grep -E 'radv|amdgpu|interposer' "$work/err" | grep -v 'amdgpu.ids' | sed "s/^/# $name vk: /" | head -n 3
	for strategy in lose none; do
		run "$settings" gl-reset-probe "$strategy"
		echo "$name gl-$strategy: $(results status | sed 's/ $//')"
		grep -E 'radeonsi|amdgpu|skip|interposer' "$work/out" "$work/err" | grep -v 'amdgpu.ids\|renderer' |
			sed "s/^[^:]*:/# $name gl-$strategy: /" | head -n 3
	done
done
