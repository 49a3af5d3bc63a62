#!/bin/sh
# The igt tier: style-check the IGT series with the kernel's checkpatch.pl,
# and check its uAPI copy against the kernel series' header.
#
# usage: igt-tests/check.sh RESULTS_DIR
#
# CI has no IGT tree, so it cannot build or run the tests; what it can check is
# that every patch listed in patches/series passes scripts/checkpatch.pl of the
# kernel base with the options IGT asks for (its CONTRIBUTING.md and
# .checkpatch.conf), and that the series was made against the IGT revision
# pinned in BASE. checkpatch.pl comes from the base tree that
# kernel/scripts/prepare-base.sh prepares when it is there, otherwise from the
# linux-source tarball (only the three files it needs, cached).
#
# include/drm-uapi/amdgpu_drm.h is the kernel's text, not IGT's: checkpatch
# skips it, and instead the check rebuilds the 7.2 series' header (the 7.2
# base that the kernel72 tier prepares, plus the series' hunks of
# include/uapi/drm/amdgpu_drm.h) and applies the IGT patch's hunks to it in
# reverse. That succeeds only when every hunk's result is the series'
# header, line for line; with git am on IGT's own file (build-in-igt.sh) it
# means the synced copy is exactly the series' header.
#
# Writes RESULTS_DIR/igt: "passed failed skipped", one count per patch, plus
# one for the uAPI copy.
# Exits non-zero when a patch fails or the series is not on the pinned base.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
here=$top/igt-tests
results=${1:?usage: igt-tests/check.sh RESULTS_DIR}
cache_root=${GPUROBUST_CACHE:-/var/cache/gpurobust}

# shellcheck source=BASE
. "$here/BASE"
# shellcheck source=../kernel/BASE
. "$top/kernel/BASE"

# IGT's .checkpatch.conf, plus:
#   --no-tree          IGT is not a kernel tree
#   FILE_PATH_CHANGES  IGT's MAINTAINERS lists people, not paths, so "does
#                      MAINTAINERS need updating?" never applies to it
CHECKPATCH_OPTS="--no-tree --strict --show-types --max-line-length=100
--ignore=BIT_MACRO,SPLIT_STRING,LONG_LINE_STRING,BOOL_MEMBER,PREFER_KERNEL_TYPES,FILE_PATH_CHANGES"

log() {
	echo "igt-check: $*"
}

report() {
	mkdir -p "$results"
	echo "$1 $2 0" > "$results/igt"
}

# Prints the path of a checkpatch.pl that has its data files beside it.
find_checkpatch() {
	prepared=$cache_root/linux-$KERNEL_VERSION/base/scripts/checkpatch.pl
	if [ -f "$prepared" ]; then
		echo "$prepared"
		return
	fi
	dir=$cache_root/igt-checkpatch/linux-$KERNEL_VERSION
	if [ ! -f "$dir/scripts/checkpatch.pl" ]; then
		[ -f "$TARBALL" ] || {
			log "no prepared kernel tree and no $TARBALL (install $DEB_PACKAGE)" >&2
			return 1
		}
		echo "$TARBALL_SHA256  $TARBALL" | sha256sum -c --quiet - >&2 || {
			log "$TARBALL does not match the checksum in kernel/BASE" >&2
			return 1
		}
		log "extracting checkpatch.pl from $TARBALL" >&2
		rm -rf "$dir.tmp"
		mkdir -p "$dir.tmp"
		tar -xJf "$TARBALL" -C "$dir.tmp" --strip-components=1 --wildcards \
			'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
			'*/scripts/const_structs.checkpatch'
		rm -rf "$dir"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir/scripts/checkpatch.pl"
}

patches=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/patches/series")
count=$(($(echo "$patches" | wc -w) + 1))
uapi=include/drm-uapi/amdgpu_drm.h

# A patch without its sections of FILE (a path after a/ and b/).
without_file() {
	awk -v file="$1" '
		/^diff --git / { skip = ($3 == "a/" file) }
		/^-- *$/ { skip = 0 }
		!skip { print }
	' "$2"
}

if ! grep -qx "base-commit: $IGT_COMMIT" "$here/patches/0000-cover-letter.patch"; then
	log "the series was not made against IGT $IGT_COMMIT (igt-tests/BASE)" >&2
	report 0 "$count"
	exit 1
fi

checkpatch=$(find_checkpatch) || {
	report 0 "$count"
	exit 1
}

# checkpatch caches names in the current directory and reads ~/.checkpatch.conf:
# run it where neither touches the repository or depends on the user.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

passed=0
failed=0
for patch in $patches; do
	without_file "$uapi" "$here/patches/$patch" > "$scratch/$patch"
	# shellcheck disable=SC2086 # the options are meant to split into words
	if out=$(cd "$scratch" && HOME=$scratch "$checkpatch" -q $CHECKPATCH_OPTS \
			"$scratch/$patch" 2>&1); then
		passed=$((passed + 1))
		log "ok   $patch"
	else
		failed=$((failed + 1))
		log "FAIL $patch"
		echo "$out"
	fi
done

# The uAPI copy: the series' header from the 7.2 base and the kernel series.
# shellcheck source=../kernel/7.2/BASE
base72=$(. "$top/kernel/7.2/BASE" && echo "$cache_root/linux-$KERNEL_VERSION/base $BASE_COMMIT")
base72_tree=${base72% *}
base72_commit=${base72#* }
uapi_patch=$(grep -l "^diff --git a/$uapi " "$here"/patches/0*-*.patch | head -n 1)
mkdir -p "$scratch/series/include/uapi/drm" "$scratch/series/include/drm-uapi"
if [ -z "$uapi_patch" ]; then
	failed=$((failed + 1))
	log "FAIL no patch syncs $uapi"
elif ! git -C "$base72_tree" show "$base72_commit:include/uapi/drm/amdgpu_drm.h" \
		> "$scratch/series/include/uapi/drm/amdgpu_drm.h" 2>/dev/null; then
	failed=$((failed + 1))
	log "FAIL no prepared 7.2 base at $base72_tree (the kernel72 tier makes it)"
elif ! (cd "$scratch/series" &&
	for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/kernel/7.2/series"); do
		git apply --include=include/uapi/drm/amdgpu_drm.h "$top/kernel/7.2/patches/$p" ||
			exit 1
	done); then
	failed=$((failed + 1))
	log "FAIL the 7.2 series' uAPI hunks do not apply to the 7.2 base"
else
	mv "$scratch/series/include/uapi/drm/amdgpu_drm.h" "$scratch/series/$uapi"
	if git -C "$scratch/series" apply -R --check --include="$uapi" "$uapi_patch" 2> "$scratch/apply.log"; then
		passed=$((passed + 1))
		log "ok   $(basename "$uapi_patch"): $uapi is the 7.2 series' header"
	else
		failed=$((failed + 1))
		log "FAIL $(basename "$uapi_patch"): $uapi differs from the 7.2 series' header"
		cat "$scratch/apply.log"
	fi
fi

report "$passed" "$failed"
log "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
