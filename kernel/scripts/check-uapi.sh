#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
#
# Check that libgpurobust's own copies of amdgpu uAPI constants equal the
# series' include/uapi/drm/amdgpu_drm.h, and that its driver version for the
# per-context reset semantics equals the series' KMS_DRIVER_* version (for
# the 7.2 series GPUROBUST_PER_CTX_RESET_KMS_*, for its 6.12 backport
# GPUROBUST_PER_CTX_RESET_BACKPORT_KMS_*).
#
# usage: kernel/scripts/check-uapi.sh [--pending FILE] TREE
#
# --pending FILE names, one per line, the constants (and "KMS version") that
# the series does not define yet although the library uses them: the 7.2
# series gains them patch by patch (kernel/7.2/uapi-pending). Each is
# reported as SKIP; one the tree does define fails, so the list only shrinks.
#
# TREE is a kernel tree with the series applied. The library defines the
# amdgpu constants Debian's libdrm headers lack behind "#ifndef NAME", so
# including both headers would compare nothing: each such fallback of
# libgpurobust's sources becomes a static assertion against the tree's
# header instead, compiled with the host gcc. The header's own includes
# resolve to the system's linux-libc-dev first (installed, sanitised
# headers), and to TREE's include/uapi only for what it lacks (7.x's
# drm_mode.h includes linux/bits.h, which Debian 12's does not have).
# Prints one line per constant and exits non-zero on any mismatch.
set -eu
. "$(dirname "$0")/lib.sh"

pending=/dev/null
if [ "${1:-}" = --pending ]; then
	pending=$2
	shift 2
fi
[ $# -eq 1 ] || die "usage: $0 [--pending FILE] TREE"
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
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$pending" > "$work/pending"
status=0
while read -r name; do
	[ "$name" != "KMS version" ] || continue
	if grep -q "^#define $name\b" "$uapi"; then
		echo "FAIL $name: the series defines it now; take it off $pending"
		status=1
	else
		echo "SKIP $name: not in this series yet ($pending)"
	fi
done < "$work/pending"
grep -v -w -F -f "$work/pending" "$work/fallbacks" > "$work/checked" || true
mv "$work/checked" "$work/fallbacks"
grep -qx 'KMS version' "$work/pending" && kms_pending=yes || kms_pending=no
names=$(cut -d ' ' -f 1 "$work/fallbacks")
lib=$(grep -rl 'GPUROBUST_PER_CTX_RESET_KMS_MINOR' "$libsrc" --include='*.h' | head -n 1)
# The library knows both series' versions: upstream's minor bump (7.2) and
# the backport's patchlevel (6.12).
case "$SERIES" in
6.12) kms_prefix=GPUROBUST_PER_CTX_RESET_BACKPORT_KMS_ ;;
*) kms_prefix=GPUROBUST_PER_CTX_RESET_KMS_ ;;
esac
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
	[ -z "$lib" ] || sed -n "s/^#define ${kms_prefix}\([A-Z]*\)[[:space:]]*\([0-9]*\).*/#define LIB_KMS_\1 \2/p" "$lib"
	sed -n 's/^#define \(KMS_DRIVER_[A-Z]*\)[[:space:]]*\([0-9]*\).*/#define \1 \2/p' "$drv"
	[ "$kms_pending" = yes ] || echo '#ifdef LIB_KMS_MINOR'
	[ "$kms_pending" = no ] || echo '#if 0 /* the KMS version is pending */'
	echo '_Static_assert(LIB_KMS_MINOR == KMS_DRIVER_MINOR, "KMS minor differs");'
	echo '_Static_assert(LIB_KMS_PATCHLEVEL == KMS_DRIVER_PATCHLEVEL, "KMS patchlevel differs");'
	echo '#endif'
} > "$work/check.c"
if gcc -std=c11 -fsyntax-only -idirafter "$tree/include/uapi" "$work/check.c" \
	> "$work/gcc.log" 2>&1; then
	for name in $names; do
		echo "PASS $name"
	done
	if [ "$kms_pending" = yes ]; then
		echo "SKIP KMS version: not in this series yet ($pending)"
	elif [ -n "$lib" ]; then
		echo "PASS KMS version"
	fi
	exit $status
fi
cat "$work/gcc.log"
exit 1
