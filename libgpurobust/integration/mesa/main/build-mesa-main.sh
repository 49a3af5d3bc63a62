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
# series with git am; a tree that carries the series already (the first
# patch's subject since the base) is built as it is. The build goes to
# /build/NAME (default mesa-gpurobust) inside the root that
# `../stock/sid-root.sh build` prints, where run-main.sh runs it. Ends with
# the compiler warnings in the files the series touches.
#
# The series builds libgpurobust-driver for RADV from its meson wrap,
# subprojects/libgpurobust.wrap. Until libgpurobust 0.1.0 is released, the
# wrap names no tarball, and this script puts this checkout's libgpurobust
# where the wrap points (subprojects/libgpurobust-0.1.0, which Mesa's
# subprojects/.gitignore ignores); meson uses a wrap's directory as it is.
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
set -- "$here"/patches/0001-*.patch
first=$(git mailinfo /dev/null /dev/null < "$1" | sed -n 's/^Subject: //p')
[ -n "$first" ] || die "no first patch in $here/patches"
if ! git -C "$tree" log --format=%s "$base..HEAD" | grep -qxF "$first"; then
	# shellcheck disable=SC2046 # one file per word
	git -C "$tree" am -q $(ls "$here"/patches/0*-*.patch | grep -v '/0000-cover-letter') ||
		die "git am failed; the tree is left mid-am (git -C $tree am --abort)"
fi

library=$(cd "$here/../../.." && pwd)
rm -rf "$tree/subprojects/libgpurobust-0.1.0"
mkdir -p "$tree/subprojects/libgpurobust-0.1.0"
(cd "$library" && tar -cf - meson.build meson_options.txt include src man) |
	tar -xf - -C "$tree/subprojects/libgpurobust-0.1.0"

root=$("$here/../stock/sid-root.sh" build)
mkdir -p "$root/src/mesa" "$root/build"
mount --bind "$tree" "$root/src/mesa"
trap 'umount "$root/src/mesa"' EXIT
# Asserts off, as Debian builds Mesa: the drm-shim never writes user fences,
# which amdgpu_fence_wait() asserts on.
options="-Dbuildtype=debugoptimized -Db_ndebug=true -Dvulkan-drivers=amd -Dgallium-drivers=radeonsi
	-Dllvm=disabled -Damd-use-llvm=false -Dplatforms= -Dglx=disabled -Degl=enabled
	-Dgbm=enabled -Dglvnd=enabled -Dgles1=disabled -Dgles2=enabled -Dtools=drm-shim
	-Dvideo-codecs= -Dbuild-tests=true -Dvalgrind=disabled -Dlibunwind=disabled"
# shellcheck disable=SC2086 # the options are words
chroot "$root" sh -ec "
	export CCACHE_DIR=/build/ccache
	cd /src/mesa
	[ -f /build/$name/build.ninja ] || meson setup /build/$name $(echo $options)
	nice -n ${NICE:-19} ninja -C /build/$name -j ${JOBS:-2} >> /build/$name.log 2>&1 ||
		{ tail -n 30 /build/$name.log; exit 1; }
	tail -n 1 /build/$name.log"
# Warnings in the files the series touches, and of those the ones on lines
# it wrote (git blame of base..HEAD; older lines are the base's own). The
# log keeps every build of NAME, as a build that compiles nothing prints no
# warnings.
files=$(git -C "$tree" diff --name-only "$base" HEAD -- '*.c' '*.cpp' '*.h' |
	grep -v '^src/freedreno\|^src/gallium/targets/teflon\|^src/intel' || true)
touched=0
new=0
for f in $files; do
	for at in $(sed -n "s|^\.\./\.\./src/mesa/$f:\([0-9]*\):[0-9]*: warning.*|\1|p" \
		"$root/build/$name.log" | sort -un); do
		touched=$((touched + 1))
		if git -C "$tree" blame -s -L "$at,$at" "$base..HEAD" -- "$f" | grep -qv '^\^'; then
			new=$((new + 1))
			echo "build-mesa-main: new warning: $f:$at"
		fi
	done
done
echo "build-mesa-main: built /build/$name in $root; warnings in the $(echo "$files" | wc -w) files the series touches: $touched, on lines it wrote: $new"
