#!/bin/sh
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
# libgpurobust-driver alone, as a Mesa build would take it. TAP.
# usage: driver-alone.sh SOURCE_DIR CONSUMER_SOURCE
#
# 1. The project configures with no pkg-config file visible at all, so that
#    neither json-c, libudev, libxxhash, sqlite3, libdrm nor cmocka can be
#    found, and with the amdgpu backend and the crash side off.
# 2. It builds and installs into a scratch DESTDIR.
# 3. The library needs libc alone (NEEDED), pthread being part of it.
# 4. A program built with `pkg-config gpurobust-driver` and nothing else on
#    the pkg-config path links and runs, once as C99 and once as C++17.
# 5. Every installed header compiles on its own as C99, C11 and C++17 with
#    -pedantic-errors, and only reset-vulkan.h includes a Vulkan header.
set -u
src=$1
consumer=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
fails=0

# result OK|FAIL DESCRIPTION [LOG]
result() {
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -n "${3:-}" ] && [ -f "$3" ] && tail -n 30 "$3" | sed 's/^/# /'
		fails=$((fails + 1))
	fi
}

echo "1..11"
mkdir -p "$tmp/no-pkgconfig"
if PKG_CONFIG_LIBDIR=$tmp/no-pkgconfig PKG_CONFIG_PATH='' meson setup "$tmp/build" "$src" \
	--wrap-mode=nodownload -Dbuildtype=release -Damdgpu=disabled -Dcrash=disabled \
	-Dtests=disabled -Dfuzz=false -Dbench=false --prefix=/usr > "$tmp/setup.log" 2>&1 &&
	grep -q 'crash library and gpurobust command *: NO' "$tmp/setup.log"; then
	result OK "configures with no pkg-config file, the backend and the crash side off"
else
	result FAIL "configures with no pkg-config file, the backend and the crash side off" \
		"$tmp/setup.log"
	echo "Bail out! no build"
	exit 1
fi
if ninja -C "$tmp/build" -j 2 > "$tmp/build.log" 2>&1 &&
	meson install -C "$tmp/build" --no-rebuild --destdir "$tmp/dest" > "$tmp/install.log" 2>&1; then
	result OK "builds and installs"
else
	cat "$tmp/install.log" >> "$tmp/build.log" 2>/dev/null
	result FAIL "builds and installs" "$tmp/build.log"
	echo "Bail out! nothing installed"
	exit 1
fi

lib=$(find "$tmp/dest" -name 'libgpurobust-driver.so.*.*' | head -n 1)
needed=$(readelf -d "$lib" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | tr '\n' ' ')
case "$needed" in
"libc.so.6 ") result OK "libgpurobust-driver.so needs libc alone: $needed" ;;
*) result FAIL "libgpurobust-driver.so needs libc alone, not: $needed" ;;
esac
others=$(find "$tmp/dest" -name '*.so*' ! -name 'libgpurobust-driver.so*' -o -name '*.pc' \
	! -name 'gpurobust-driver.pc' | tr '\n' ' ')
if [ -z "$others" ]; then
	result OK "installs the driver library and its pkg-config file, nothing else"
else
	result FAIL "installs the driver library and its pkg-config file, not also: $others"
fi

# Relocate the .pc into the DESTDIR; it is the only one pkg-config sees.
pc=$(find "$tmp/dest" -name gpurobust-driver.pc)
mkdir -p "$tmp/pc"
sed "s|^prefix=.*|prefix=$tmp/dest/usr|" "$pc" > "$tmp/pc/gpurobust-driver.pc"
export PKG_CONFIG_LIBDIR="$tmp/pc" PKG_CONFIG_PATH=''
if cflags=$(pkg-config --cflags gpurobust-driver) && libs=$(pkg-config --libs gpurobust-driver); then
	result OK "pkg-config gpurobust-driver with no other .pc file: $cflags $libs"
else
	result FAIL "pkg-config gpurobust-driver with no other .pc file"
	exit 1
fi
libdir=$(pkg-config --variable=libdir gpurobust-driver)

# shellcheck disable=SC2086 # the flags are meant to split
for lang in c99 c++17; do
	case $lang in
	c99) compiler="${CC:-cc} -x c -std=c99" ;;
	*) compiler="${CXX:-c++} -x c++ -std=c++17" ;;
	esac
	if $compiler -Wall -Wextra -Werror -pedantic-errors $cflags -o "$tmp/consumer-$lang" \
		"$consumer" $libs > "$tmp/$lang.log" 2>&1 &&
		out=$(LD_LIBRARY_PATH="$libdir" "$tmp/consumer-$lang"); then
		result OK "a $lang program links and runs: $out"
	else
		result FAIL "a $lang program links and runs" "$tmp/$lang.log"
	fi
done

headers=$(cd "$tmp/dest/usr/include" && find gpurobust -name '*.h' | sort)
for lang in c99 c11 c++17; do
	case $lang in
	c++17) compiler="${CXX:-c++} -x c++ -std=c++17" ;;
	*) compiler="${CC:-cc} -x c -std=$lang" ;;
	esac
	bad=""
	for h in $headers; do
		# shellcheck disable=SC2086 # the flags are meant to split
		echo "#include <$h>" | $compiler -Wall -Wextra -Werror -pedantic-errors $cflags \
			-fsyntax-only - > "$tmp/h.log" 2>&1 || bad="$bad $h"
	done
	if [ -z "$bad" ]; then
		result OK "every installed header compiles alone as $lang"
	else
		result FAIL "every installed header compiles alone as $lang; these do not:$bad"
	fi
done

# -H prints every header a compilation opens, one per line.
bad=""
for h in $headers; do
	[ "$h" = gpurobust/reset-vulkan.h ] && continue
	# shellcheck disable=SC2086 # the flags are meant to split
	echo "#include <$h>" | ${CC:-cc} -x c -std=c11 $cflags -H -fsyntax-only - 2> "$tmp/h.log"
	grep -q 'vulkan/\|/GL/' "$tmp/h.log" && bad="$bad $h"
done
if [ -z "$bad" ]; then
	result OK "no header but reset-vulkan.h includes a Vulkan or GL header"
else
	result FAIL "no header but reset-vulkan.h includes a Vulkan or GL header; these do:$bad"
fi
[ "$fails" -eq 0 ]
