#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
#
# Check that every uAPI value the series adds to amdgpu_drm.h is free: it
# takes no bit or value that the base's header, another name the series adds
# to the same field, or a pending upstream proposal already uses.
#
# usage: kernel/scripts/check-uapi-bits.sh BASE_TREE TREE TABLE
#
# BASE_TREE is the bare base, TREE the base with the series. TABLE (the
# series' uapi-bits) says, for each name the series adds, which field it
# belongs to:
#   NAME bit|value REGEX    NAME is a flag of the field whose names match the
#                           extended regex REGEX (no bit may be shared), or
#                           a value of it (no value may be repeated)
#   NAME limit              NAME is a count or a size that no field holds
#                           (nothing to check but that TABLE places it)
#   proposal NAME VALUE REGEX
#                           a value a pending upstream proposal takes in
#                           that field (it is not in the base's header)
# A name the series adds that TABLE does not place fails: nothing new goes
# unchecked. Prints PASS or FAIL per name and exits non-zero on a FAIL.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 3 ] || die "usage: $0 BASE_TREE TREE TABLE"
base_h=$1/include/uapi/drm/amdgpu_drm.h
new_h=$2/include/uapi/drm/amdgpu_drm.h
table=$3
[ -f "$base_h" ] && [ -f "$new_h" ] || die "no amdgpu_drm.h in $1 or $2"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# defines FILE: the object-like macros a header defines, one name a line.
defines() {
	sed -n 's/^#define[[:space:]]\{1,\}\([A-Z0-9_]\{1,\}\)[[:space:]].*/\1/p' "$1" | sort -u
}
defines "$base_h" > "$work/base"
defines "$new_h" > "$work/new"
comm -13 "$work/base" "$work/new" > "$work/added"
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$table" > "$work/table"

status=0
{
	echo '#include <stdint.h>'
	echo '#define __user'
	echo "#include \"$new_h\""
} > "$work/check.c"
for name in $(cat "$work/added"); do
	entry=$(awk -v n="$name" '$1 == n { print $2, $3 }' "$work/table")
	if [ -z "$entry" ]; then
		echo "FAIL $name: the series adds it, $table does not say which field it is in"
		status=1
		continue
	fi
	kind=${entry%% *}
	regex=${entry#* }
	if [ "$kind" = limit ]; then
		echo "$name limit, in no field" >> "$work/checked"
		continue
	fi
	# Every other name of the field, from the base and from the series.
	others=$(grep -E "$regex" "$work/new" | grep -vx "$name" || true)
	for other in $others; do
		if [ "$kind" = bit ]; then
			echo "_Static_assert((($name) & ($other)) == 0, \"$name shares a bit with $other\");"
		else
			echo "_Static_assert(($name) != ($other), \"$name has the value of $other\");"
		fi
	done >> "$work/check.c"
	awk -v re="$regex" '$1 == "proposal" && $4 == re { print $2, $3 }' "$work/table" |
	while read -r proposal value; do
		if [ "$kind" = bit ]; then
			echo "_Static_assert((($name) & ($value)) == 0, \"$name shares a bit with the proposed $proposal\");"
		else
			echo "_Static_assert(($name) != ($value), \"$name has the value of the proposed $proposal\");"
		fi
	done >> "$work/check.c"
	echo "$name $kind, against: $(echo "$others" | tr '\n' ' ')$(awk -v re="$regex" \
		'$1 == "proposal" && $4 == re { printf "proposed %s ", $2 }' "$work/table")" \
		>> "$work/checked"
done
if ! gcc -std=c11 -fsyntax-only -idirafter "$2/include/uapi" "$work/check.c" > "$work/gcc.log" 2>&1; then
	grep 'error' "$work/gcc.log"
	echo "FAIL: a new uAPI value is taken (above)"
	exit 1
fi
if [ -f "$work/checked" ]; then
	sed 's/^/PASS /' "$work/checked"
fi
exit $status
