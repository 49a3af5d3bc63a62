#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Apply the Mesa series to a Mesa main tree and build RADV, radeonsi (EGL
# surfaceless, GBM) and the amdgpu drm-shim in the sid build root.
#
# usage: build-mesa-main.sh MESA_TREE [NAME]
#
# MESA_TREE must contain upstream main's d8e524cd6bb (26.0.0-devel), the
# series' base. A tree at that commit, or on a branch of it, gets the
# series with git am; a tree whose HEAD already carries the series (the
# cover letter's last subject) is built as it is. The build goes to
# /build/NAME (default mesa-gpurobust) inside the root that
# `../stock/sid-root.sh build` prints, where run-main.sh runs it. Ends with
# the number of compiler warnings in the files the series touches.
# JOBS (default 2) and NICE (default 19) set the build's parallelism.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "${1:?usage: build-mesa-main.sh MESA_TREE [NAME]}" && pwd)
name=${2:-mesa-gpurobust}
base=d8e524cd6bb
die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}

git -C "$tree" merge-base --is-ancestor "$base" HEAD 2>/dev/null ||
	die "$tree does not contain Mesa main's $base, the series' base"
last=$(sed -n 's/^Subject: \[PATCH [0-9]*\/[0-9]*\] //p' "$here"/patches/0*-*.patch | tail -n 1)
if [ "$(git -C "$tree" log -1 --format=%s)" != "$last" ]; then
	git -C "$tree" am -q "$here"/patches/0[0-9][0-9][1-9]-*.patch ||
		die "git am failed; the tree is left mid-am (git -C $tree am --abort)"
fi

root=$("$here/../stock/sid-root.sh" build)
mkdir -p "$root/src/mesa" "$root/build"
mount --bind "$tree" "$root/src/mesa"
trap 'umount "$root/src/mesa"' EXIT
options="-Dbuildtype=debugoptimized -Dvulkan-drivers=amd -Dgallium-drivers=radeonsi
	-Dllvm=disabled -Damd-use-llvm=false -Dplatforms= -Dglx=disabled -Degl=enabled
	-Dgbm=enabled -Dglvnd=enabled -Dgles1=disabled -Dgles2=enabled -Dtools=drm-shim
	-Dvideo-codecs= -Dbuild-tests=true -Dvalgrind=disabled -Dlibunwind=disabled"
# shellcheck disable=SC2086 # the options are words
chroot "$root" sh -ec "
	export CCACHE_DIR=/build/ccache
	cd /src/mesa
	[ -f /build/$name/build.ninja ] || meson setup /build/$name $(echo $options)
	nice -n ${NICE:-19} ninja -C /build/$name -j ${JOBS:-2} > /build/$name.log 2>&1 ||
		{ tail -n 30 /build/$name.log; exit 1; }
	tail -n 1 /build/$name.log"
files=$(git -C "$tree" diff --name-only "$base" HEAD -- '*.c' '*.cpp' '*.h' |
	grep -v '^src/freedreno\|^src/gallium/targets/teflon\|^src/intel' || true)
warnings=0
for f in $files; do
	n=$(grep -c "^\.\./\.\./src/mesa/$f:[0-9]*:[0-9]*: warning" "$root/build/$name.log" || true)
	warnings=$((warnings + n))
done
echo "build-mesa-main: built /build/$name in $root; $warnings compiler warnings in the $(echo "$files" | wc -w) files the series touches"
