#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
#
# Check that libgpurobust's own copies of amdgpu uAPI constants equal the
# series' include/uapi/drm/amdgpu_drm.h, and that its driver version for the
# per-context reset semantics equals the series' KMS_DRIVER_* version.
#
# usage: kernel/scripts/check-uapi.sh TREE
#
# TREE is a kernel tree with the series applied. The library defines the
# amdgpu constants Debian's libdrm headers lack behind "#ifndef NAME", so
# including both headers would compare nothing: each such fallback of
# libgpurobust's sources becomes a static assertion against the tree's
# header instead, compiled with the host gcc
# (the header's own includes resolve to the system's linux-libc-dev).
# Prints one line per constant and exits non-zero on any mismatch.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: $0 TREE"
tree=$1
libsrc=$KDIR/../libgpurobust
uapi=$tree/include/uapi/drm/amdgpu_drm.h
drv=$tree/drivers/gpu/drm/amd/amdgpu/amdgpu_drv.c
[ -d "$libsrc" ] || die "no $libsrc"
[ -f "$uapi" ] && [ -f "$drv" ] || die "$tree has no amdgpu uAPI header or driver"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# "NAME VALUE" for every "#ifndef AMDGPU_X" directly followed by its define.
find "$libsrc" -path "$libsrc/build*" -prune -o \( -name '*.h' -o -name '*.c' \) \
	-print | sort | xargs awk '
	/^#ifndef AMDGPU_/ { want = $2; next }
	want != "" && $1 == "#define" && $2 == want {
		$1 = ""; $2 = ""; sub(/^ +/, ""); print want, $0
	}
	{ want = "" }' | sort -u > "$work/fallbacks"
[ -s "$work/fallbacks" ] || die "libgpurobust has no amdgpu uAPI fallback"
names=$(cut -d ' ' -f 1 "$work/fallbacks")
lib=$(grep -rl 'GPUROBUST_PER_CTX_RESET_KMS_MINOR' "$libsrc" --include='*.h' | head -n 1)
{
	echo '#include <stdint.h>'
	# what headers_install strips from uAPI headers
	echo '#define __user'
	echo "#include \"$uapi\""
	while read -r name value; do
		echo "#ifndef $name"
		echo "#error \"$name: the series' amdgpu_drm.h lacks it\""
		echo "#endif"
		echo "_Static_assert($name == ($value), \"$name differs\");"
	done < "$work/fallbacks"
	# The version the library's detection names (Documentation/uapi.md).
	[ -z "$lib" ] || sed -n 's/^#define \(GPUROBUST_PER_CTX_RESET_KMS_[A-Z]*\)[[:space:]]*\([0-9]*\).*/#define LIB_\1 \2/p' "$lib"
	sed -n 's/^#define \(KMS_DRIVER_[A-Z]*\)[[:space:]]*\([0-9]*\).*/#define \1 \2/p' "$drv"
	echo '#ifdef LIB_GPUROBUST_PER_CTX_RESET_KMS_MINOR'
	echo '_Static_assert(LIB_GPUROBUST_PER_CTX_RESET_KMS_MINOR == KMS_DRIVER_MINOR, "KMS minor differs");'
	echo '_Static_assert(LIB_GPUROBUST_PER_CTX_RESET_KMS_PATCHLEVEL == KMS_DRIVER_PATCHLEVEL, "KMS patchlevel differs");'
	echo '#endif'
} > "$work/check.c"
if gcc -std=c11 -fsyntax-only "$work/check.c" \
	> "$work/gcc.log" 2>&1; then
	for name in $names; do
		echo "PASS $name"
	done
	[ -z "$lib" ] || echo "PASS KMS version"
	exit 0
fi
cat "$work/gcc.log"
exit 1
