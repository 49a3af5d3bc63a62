#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# What `make check` can check of the Mesa series without a Mesa tree:
#  1. patches/ is a git format-patch series that git apply can parse;
#  2. the series' tests/ac_reset_lattice.h is byte for byte
#     libgpurobust/tests/reset/reset-lattice.h, the table libgpurobust's
#     test-classify checks, so the two classifiers cannot drift apart;
#  3. the uAPI the series adds to drm-uapi/amdgpu_drm.h is, line for line,
#     what the 7.2 kernel series adds to include/uapi/drm/amdgpu_drm.h in
#     the two patches it stands for (QUERY_STATE2 per context, and
#     AMDGPU_VM_DUMPABLE), in the same order;
#  4. the series' ac_reset.c passes the series' ac_reset_test, built with
#     sid's compiler and -Werror in the sid root ROOT. The files are taken
#     from the patch; drm-uapi/amdgpu_drm.h is sid's libdrm copy, and
#     util/detect_os.h a stand-in for Mesa's that says "Linux".
#
# usage: check-series.sh ROOT RESULTS_DIR
# Writes RESULTS_DIR/mesa-series: "passed failed skipped".
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=${1:?usage: check-series.sh ROOT RESULTS_DIR}
results=${2:?usage: check-series.sh ROOT RESULTS_DIR}
lattice=$here/../../../tests/reset/reset-lattice.h
kernel_uapi_patches=$(ls "$here"/../../../../kernel/7.2/patches/*-drm-amdgpu-Answer-QUERY_STATE2-per-context.patch \
	"$here"/../../../../kernel/7.2/patches/*-drm-amdgpu-Add-AMDGPU_VM_DUMPABLE-for-breadcrumbs-in.patch)
passed=0
failed=0
ok() {
	echo "mesa-series: ok: $*"
	passed=$((passed + 1))
}
not_ok() {
	echo "mesa-series: not ok: $*"
	failed=$((failed + 1))
}

work=$(mktemp -d "$root/tmp/gpurobust-series.XXXXXX")
trap 'rm -rf "$work"' EXIT
# The patches, without the cover letter.
patches=
for p in "$here"/patches/0*-*.patch; do
	case $p in */0000-*) ;; *) patches="$patches $p" ;; esac
done
# shellcheck disable=SC2086 # one file per word
if [ -f "$here/patches/0000-cover-letter.patch" ] && [ -n "$patches" ] &&
	git apply --stat $patches > /dev/null 2>&1; then
	ok "patches/ parses: a cover letter and $(echo "$patches" | wc -w) patches"
else
	not_ok "patches/ does not parse (git apply --stat)"
fi

# The lines a patch adds to FILE (the path after a/ and b/).
added_lines() {
	awk -v file="$1" '
		/^diff --git / { inside = ($3 == "a/" file) }
		inside && /^\+/ && !/^\+\+\+/ { print }
	' "$2"
}
# shellcheck disable=SC2086 # one file per word
series_uapi=$(for p in $patches; do added_lines include/drm-uapi/amdgpu_drm.h "$p"; done)
# shellcheck disable=SC2086 # one file per word
kernel_uapi=$(for p in $kernel_uapi_patches; do added_lines include/uapi/drm/amdgpu_drm.h "$p"; done)
if [ -n "$series_uapi" ] && [ "$series_uapi" = "$kernel_uapi" ]; then
	ok "drm-uapi/amdgpu_drm.h gains what the 7.2 kernel series adds ($(echo "$series_uapi" | grep -c '#define') defines)"
else
	not_ok "the series' drm-uapi/amdgpu_drm.h lines differ from the 7.2 kernel series' uAPI"
fi

# The files the series adds, and nothing it changes, into an empty tree.
git -C "$work" init -q
# shellcheck disable=SC2086 # one file per word
if git -C "$work" apply --include='src/amd/common/ac_reset*' \
	--include='src/amd/common/tests/*' $patches 2> "$work/apply.log"; then
	if cmp -s "$lattice" "$work/src/amd/common/tests/ac_reset_lattice.h"; then
		ok "the series' ac_reset_lattice.h is libgpurobust's reset-lattice.h"
	else
		not_ok "the series' ac_reset_lattice.h differs from libgpurobust's reset-lattice.h"
	fi
	mkdir -p "$work/include/drm-uapi" "$work/src/util"
	cp "$root/usr/include/libdrm/amdgpu_drm.h" "$work/include/drm-uapi/"
	printf '#define DETECT_OS_%s 0\n' OPENBSD FREEBSD DRAGONFLY > "$work/src/util/detect_os.h"
	in_root=${work#"$root"}
	if chroot "$root" sh -c "cd $in_root/src/amd/common &&
		cc -std=c11 -Wall -Wextra -Werror -I. -I../.. -I../../../include -I/usr/include/libdrm -o ac_reset_test \
			ac_reset_test.c ac_reset.c && ./ac_reset_test" > "$work/test.log" 2>&1; then
		ok "ac_reset_test: $(tail -n 1 "$work/test.log")"
	else
		not_ok "ac_reset_test: $(tail -n 3 "$work/test.log" | tr '\n' ' ')"
	fi
else
	not_ok "the series' new files do not apply: $(head -n 3 "$work/apply.log" | tr '\n' ' ')"
	not_ok "ac_reset_test not built"
fi
echo "$passed $failed 0" > "$results/mesa-series"
[ "$failed" -eq 0 ]
