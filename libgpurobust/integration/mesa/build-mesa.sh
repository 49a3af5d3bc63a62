#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Apply the series to a Mesa 23.3.x tree the user has, and build RADV,
# radeonsi and the amdgpu drm-shim against libgpurobust-driver.
# usage: build-mesa.sh MESA_TREE [BUILD_DIR]
#
# BUILD_DIR (default ./mesa-gpurobust-build) gets:
#   gpurobust/   libgpurobust-driver installed from this checkout (driver
#                library alone: -Dcrash=disabled), unless
#                GPUROBUST_PREFIX names an install to use instead
#   mesa/        the Mesa build; the compile log is mesa.log
# The tree must be a git checkout (the series is applied with git am) or
# an unpacked release (then patch -p1). A tree that already has the series
# is left as it is. Builds at nice 19 with two jobs (JOBS overrides).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
tree=${1:?usage: build-mesa.sh MESA_TREE [BUILD_DIR]}
build=${2:-$PWD/mesa-gpurobust-build}
jobs=${JOBS:-2}
tree=$(cd "$tree" && pwd)
mkdir -p "$build"
build=$(cd "$build" && pwd)

version=$(cat "$tree/VERSION" 2>/dev/null || echo unknown)
case "$version" in
23.3.*) echo "build-mesa: Mesa $version in $tree" ;;
*) echo "build-mesa: $tree is Mesa $version; the series is for 23.3.x (README.md has the forward port)" >&2
   exit 1 ;;
esac

# 1. libgpurobust-driver, the only thing Mesa gets from this project.
if [ -n "${GPUROBUST_PREFIX:-}" ]; then
	prefix=$GPUROBUST_PREFIX
else
	prefix=$build/gpurobust
	meson setup --reconfigure "$build/gpurobust-build" "$top" --prefix="$prefix" \
		-Dbuildtype=release -Dcrash=disabled -Dtests=disabled > "$build/gpurobust.log" 2>&1 ||
		meson setup "$build/gpurobust-build" "$top" --prefix="$prefix" \
			-Dbuildtype=release -Dcrash=disabled -Dtests=disabled >> "$build/gpurobust.log" 2>&1
	meson install -C "$build/gpurobust-build" >> "$build/gpurobust.log" 2>&1
fi
pcdir=$(dirname "$(find "$prefix" -name gpurobust-driver.pc | head -n 1)")
export PKG_CONFIG_PATH="$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "build-mesa: libgpurobust-driver $(pkg-config --modversion gpurobust-driver) from $pcdir"

# 2. The series.
patches=$(find "$here/patches" -name '0*.patch' ! -name '0000-cover-letter.patch' | sort)
last=$(echo "$patches" | tail -n 1)
if (cd "$tree" && patch -p1 -R --dry-run -s -f < "$last" > /dev/null 2>&1); then
	echo "build-mesa: the series is already applied"
elif [ -d "$tree/.git" ]; then
	# shellcheck disable=SC2086 # one path per patch
	git -C "$tree" am -q $patches
	echo "build-mesa: applied with git am: $(echo "$patches" | wc -l) patches"
else
	for p in $patches; do
		(cd "$tree" && patch -p1 -s < "$p")
	done
	echo "build-mesa: applied with patch -p1"
fi

# 3. RADV, radeonsi and the drm-shim; nothing that needs a display.
if [ ! -f "$build/mesa/build.ninja" ]; then
	meson setup "$build/mesa" "$tree" -Dbuildtype=debugoptimized -Dgpurobust=enabled \
		-Dvulkan-drivers=amd -Dgallium-drivers=radeonsi -Dtools=drm-shim \
		-Dplatforms= -Dglx=disabled -Degl=disabled -Dgbm=disabled -Dgallium-va=disabled \
		-Dgallium-vdpau=disabled -Dvideo-codecs= -Dllvm=enabled -Dshared-llvm=enabled \
		-Dbuild-tests=false > "$build/mesa-setup.log" 2>&1 ||
		{ tail -n 30 "$build/mesa-setup.log"; exit 1; }
fi
grep -E 'gpurobust|libdrm_amdgpu|LLVM' "$build/mesa-setup.log" | sed 's/^/build-mesa: /' || true
nice -n 19 ninja -C "$build/mesa" -j "$jobs" > "$build/mesa.log" 2>&1 ||
	{ tail -n 40 "$build/mesa.log"; exit 1; }
# Warnings in the files the series touches (the comparison with a build
# without the series is in README.md).
touched='radv_amdgpu_cs\.[ch]|amdgpu_cs\.[ch]|amdgpu_noop_drm_shim\.c'
warnings=$(grep -E "($touched):[0-9]+:[0-9]+: warning" "$build/mesa.log" | sort -u | wc -l)
echo "build-mesa: built; $warnings compiler warnings in the files the series touches"
echo "build-mesa: run ./run-drm-shim.sh $build/mesa next"
