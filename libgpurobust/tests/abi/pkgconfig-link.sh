#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# Install into a scratch DESTDIR, then build and run a program that knows
# nothing but `pkg-config PACKAGE`: what a Mesa build would do. TAP.
# usage: pkgconfig-link.sh BUILD_DIR PROGRAM_SOURCE PACKAGE
set -u
build=$1
source=$2
package=$3
destdir=$(mktemp -d)
trap 'rm -rf "$destdir"' EXIT

echo "1..3"
if meson install -C "$build" --no-rebuild --destdir "$destdir" > "$destdir.log" 2>&1; then
	echo "ok 1 - meson install --destdir"
else
	echo "not ok 1 - meson install --destdir"
	sed 's/^/# /' "$destdir.log"
	rm -f "$destdir.log"
	echo "Bail out! nothing installed"
	exit 1
fi
rm -f "$destdir.log"

pcs=$(find "$destdir" -name 'gpurobust-*.pc')
if [ -z "$pcs" ] || [ ! -f "$(dirname "$(echo "$pcs" | head -n 1)")/$package.pc" ]; then
	echo "Bail out! no $package.pc under $destdir"
	exit 1
fi
# Relocate the project's .pc files alone into the DESTDIR, as unpacking a
# package would. PKG_CONFIG_SYSROOT_DIR or --define-variable would move
# libdrm and json-c too, which stay where the system has them.
mkdir -p "$destdir/pkgconfig"
for pc in $pcs; do
	prefix=$(pkg-config --variable=prefix "$pc")
	sed "s|^prefix=.*|prefix=$destdir$prefix|" "$pc" > "$destdir/pkgconfig/$(basename "$pc")"
done
export PKG_CONFIG_PATH="$destdir/pkgconfig"
cflags=$(pkg-config --cflags "$package") || { echo "Bail out! pkg-config --cflags"; exit 1; }
libs=$(pkg-config --libs "$package") || { echo "Bail out! pkg-config --libs"; exit 1; }
libdir=$(pkg-config --variable=libdir "$package")
case "$libdir" in
"$destdir"/*) ;;
*) echo "Bail out! $package.pc's libdir $libdir does not follow its prefix"; exit 1 ;;
esac
echo "# cflags: $cflags"
echo "# libs: $libs"

# shellcheck disable=SC2086 # the flags are meant to split
if ${CC:-cc} -std=c11 -Wall -Wextra -Werror -pedantic $cflags -o "$destdir/consumer" \
	"$source" $libs 2> "$destdir/cc.log"; then
	echo "ok 2 - compile and link with pkg-config $package only"
else
	echo "not ok 2 - compile and link with pkg-config $package only"
	sed 's/^/# /' "$destdir/cc.log"
	exit 1
fi
if out=$(LD_LIBRARY_PATH="$libdir" "$destdir/consumer"); then
	echo "ok 3 - the program runs against the installed library: $out"
else
	echo "not ok 3 - the program runs against the installed library"
	exit 1
fi
