#!/bin/sh
# The igt tier: style-check the IGT series with the kernel's checkpatch.pl.
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
# Writes RESULTS_DIR/igt: "passed failed skipped", one count per patch.
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
count=$(echo "$patches" | wc -w)

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
	# shellcheck disable=SC2086 # the options are meant to split into words
	if out=$(cd "$scratch" && HOME=$scratch "$checkpatch" -q $CHECKPATCH_OPTS \
			"$here/patches/$patch" 2>&1); then
		passed=$((passed + 1))
		log "ok   $patch"
	else
		failed=$((failed + 1))
		log "FAIL $patch"
		echo "$out"
	fi
done

report "$passed" "$failed"
log "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
