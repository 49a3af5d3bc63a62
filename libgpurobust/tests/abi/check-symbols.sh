#!/bin/sh
# The library's exported dynamic symbols must equal gpurobust-symbols.txt,
# so that every change to the ABI is a reviewed edit of that file. TAP.
# usage: check-symbols.sh LIBRARY SYMBOLS_FILE
set -u
lib=$1
list=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "1..2"
if ! nm -D --defined-only "$lib" > "$tmp/nm"; then
	echo "Bail out! nm -D --defined-only $lib failed"
	exit 1
fi
# Drop the version node (type A) and the @@GPUROBUST_0 suffixes.
awk '$2 != "A" { sub(/@.*/, "", $3); print $3 }' "$tmp/nm" | sort -u > "$tmp/exported"
sed 's/#.*//; s/[[:space:]]//g; /^$/d' "$list" | sort -u > "$tmp/listed"

# report N DESCRIPTION SYMBOLS: one TAP line, the offending symbols below it.
report() {
	if [ -z "$3" ]; then
		echo "ok $1 - $2"
	else
		echo "not ok $1 - $2"
		echo "$3" | sed 's/^/# /'
	fi
}

missing=$(comm -23 "$tmp/exported" "$tmp/listed")
absent=$(comm -13 "$tmp/exported" "$tmp/listed")
report 1 "every exported symbol is listed in gpurobust-symbols.txt" "$missing"
report 2 "every listed symbol is exported" "$absent"
[ -z "$missing" ] && [ -z "$absent" ]
