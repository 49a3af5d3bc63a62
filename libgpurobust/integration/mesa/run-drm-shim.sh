#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# RADV of a build-mesa.sh build on Mesa's amdgpu drm-shim, with the series'
# scripted CS errnos and QUERY_STATE2 answers: device-lost.c meets a guilty,
# an innocent and a bystander context on a kernel without per-context reset
# state (the shim reports KMS 3.49 and no PER_CTX_RESET), and a bystander on
# one with it. TAP; each line says what the scenario expects.
# usage: run-drm-shim.sh MESA_BUILD_DIR
set -u
here=$(cd "$(dirname "$0")" && pwd)
mesa=$(cd "${1:?usage: run-drm-shim.sh MESA_BUILD_DIR}" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shim=$mesa/src/amd/drm-shim/libamdgpu_noop_drm_shim.so
icd=$(find "$mesa/src/amd/vulkan" -maxdepth 1 -name 'radeon_devenv_icd.*.json' | head -n 1)
if [ ! -f "$shim" ] || [ -z "$icd" ]; then
	echo "Bail out! no drm-shim or RADV ICD in $mesa"
	exit 1
fi
${CC:-cc} -std=c11 -Wall -Wextra -Werror -o "$tmp/device-lost" "$here/device-lost.c" -lvulkan ||
	{ echo "Bail out! device-lost.c does not build"; exit 1; }

n=0
failed=0
# scenario NAME EXPECTED MESSAGE ENV...: EXPECTED is the four results,
# space-separated; MESSAGE a line RADV must print, or "" for none at all.
scenario() {
	name=$1 expected=$2 message=$3
	shift 3
	n=$((n + 1))
	env VK_ICD_FILENAMES="$icd" LD_PRELOAD="$shim" MESA_VK_ABORT_ON_DEVICE_LOSS=0 "$@" \
		"$tmp/device-lost" > "$tmp/out" 2> "$tmp/err"
	got=$(sed -n 's/^\(submit\|wait\) [12]: //p' "$tmp/out" | tr '\n' ' ' | sed 's/ $//')
	said=yes
	if [ -n "$message" ]; then
		grep -qF "$message" "$tmp/err" || said=no
	elif grep -q 'radv/amdgpu' "$tmp/err"; then
		said=no
	fi
	if [ "$got" = "$expected" ] && [ "$said" = yes ]; then
		echo "ok $n - $name: $got"
	else
		echo "not ok $n - $name: got '$got', expected '$expected'; message '$message' seen: $said"
		failed=$((failed + 1))
	fi
	sed 's/^/# out: /' "$tmp/out"
	grep -E 'radv|amdgpu|gpurobust|lost' "$tmp/err" | head -n 5 | sed 's/^/# err: /'
}

lost="VK_ERROR_DEVICE_LOST VK_ERROR_DEVICE_LOST VK_ERROR_DEVICE_LOST VK_ERROR_DEVICE_LOST"
fine="VK_SUCCESS VK_SUCCESS VK_SUCCESS VK_SUCCESS"
echo "1..5"
# Upstream gives the guilty context -ECANCELED after a full reset too, and
# QUERY_STATE2 RESET|GUILTY.
# -ECANCELED is ambiguous there (L4): "unknown" at the CS.
scenario "legacy kernel, guilty context" "$lost" \
	"The CS has been rejected (-125): the context was reset, unknown" \
	AMDGPU_SHIM_CS_ERRNO=-125 AMDGPU_SHIM_QUERY2_FLAGS=0x5
# Its work was thrown away: -ECANCELED, QUERY_STATE2 RESET.
scenario "legacy kernel, innocent context" "$lost" \
	"The CS has been rejected (-125): the context was reset, unknown" \
	AMDGPU_SHIM_CS_ERRNO=-125 AMDGPU_SHIM_QUERY2_FLAGS=0x1
# Someone else's reset: QUERY_STATE2 RESET is device-global there.
scenario "legacy kernel, bystander" "$fine" "" \
	AMDGPU_SHIM_QUERY2_FLAGS=0x1 AMDGPU_SHIM_QUERY2_ALWAYS=1
scenario "per-context kernel, bystander" "$fine" "" \
	AMDGPU_SHIM_QUERY2_FLAGS=0x40 AMDGPU_SHIM_QUERY2_ALWAYS=1
# The series' kernel sets PER_CTX_RESET in every answer, the context's
# first included, and there -ECANCELED names the innocent (L3).
scenario "per-context kernel, innocent context" "$lost" \
	"The CS has been rejected (-125): the context was reset, innocent" \
	AMDGPU_SHIM_CS_ERRNO=-125 AMDGPU_SHIM_QUERY2_FLAGS=0x40 AMDGPU_SHIM_QUERY2_ALWAYS=1
[ "$failed" -eq 0 ]
