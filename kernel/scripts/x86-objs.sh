# shellcheck shell=sh
# Building single amdgpu objects, x86_64, for check.sh and bisect-amdgpu.sh.
# Source it after lib.sh. amdgpu does not build for UML, so its objects are
# built for x86_64 with the amdgpu KUnit tier's configuration
# (kunit/amdgpu.kunitconfig plus the lines kunit.py adds for QEMU x86_64).
# shellcheck disable=SC2034 # the variables are for the scripts sourcing this
AMDGPU_KUNITCONFIG=$SDIR/kunit/amdgpu.kunitconfig

# Paths relative to the cache root let ccache reuse objects across trees,
# as in kunit-amdgpu.sh.
export CCACHE_BASEDIR="$CACHE_ROOT" CCACHE_NOHASHDIR=1

# amdgpu_config TREE BUILD: write BUILD/.config for TREE as kunit.py does for
# the amdgpu tier: the kunitconfig, then the QEMU x86_64 lines, then
# olddefconfig. Options TREE does not have yet (the KUnit option before the
# patch adding the tests) are dropped. With the same .config as kunit.py's,
# make in kunit.py's build dir rebuilds only what TREE changed.
amdgpu_config() {
	mkdir -p "$2"
	{
		cat "$AMDGPU_KUNITCONFIG"
		sed -n "/kconfig='''/,/'''/{s/.*kconfig='''//;s/'''.*//;p}" \
			"$1/tools/testing/kunit/qemu_configs/x86_64.py"
	} > "$2/.config"
	make -C "$1" ARCH=x86_64 O="$2" CC="$MAKE_CC" olddefconfig
}

# amdgpu_scope: where the users of a changed declaration are searched for.
# The x86_64 objects checked are amdgpu's; drm/sched's own files are built
# under UML by check.sh.
AMDGPU_SCOPE=drivers/gpu/drm/amd

# removed_declarations PATCH: "KIND NAME FILE LINE" for each declaration a
# patch removes or changes in a header: KIND is "member" for a struct member
# (used as ->NAME or .NAME) and "word" for a function, macro, enumerator or
# type. LINE is the removed line as it was.
removed_declarations() {
	awk '/^diff --git / { header = ($4 ~ /\.h$/); file = substr($3, 3) }
		header && /^-/ && !/^--- / { print file "\001" substr($0, 2) }' "$1" |
	while IFS=$(printf '\001') read -r file line; do
		decl=$(printf '%s\n' "$line" | sed -n -E \
			-e 's/^#[[:space:]]*define[[:space:]]+([A-Za-z_][A-Za-z0-9_]*).*/word \1/p' \
			-e 's/^(struct|union|enum)[[:space:]]+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\{.*/word \2/p' \
			-e 's/^[A-Za-z_][^(]*[^A-Za-z0-9_(]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*\(.*/word \1/p' \
			-e '/^[[:space:]]+(return|goto|case|break|continue)[^A-Za-z0-9_]/d' \
			-e 's/^[[:space:]]+([A-Za-z_][A-Za-z0-9_]*[[:space:]*]+)+([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*(\[[^]]*\])?[[:space:]]*(:[[:space:]]*[0-9]+)?;.*/member \2/p' \
			-e 's/^[[:space:]]+([A-Z][A-Z0-9_]+)[[:space:]]*(=[^,]*)?,[[:space:]]*$/word \1/p' |
			head -n 1)
		[ -z "$decl" ] || printf '%s\001%s\001%s\n' "$decl" "$file" "$line"
	done
}

# declaration_users TREE PATCH SERIES_FILES: the .c files under AMDGPU_SCOPE
# in TREE (with PATCH applied) that still use a declaration PATCH removes or
# changes, so that they build again with it. A declaration the base already
# had is searched for in every file; one an earlier patch of the series added
# can only be used by the files the series touched (SERIES_FILES), which
# keeps a generic member name such as "error" from matching half the driver.
declaration_users() {
	removed_declarations "$2" | while IFS=$(printf '\001') read -r kind_name file line; do
		kind=${kind_name% *}
		name=${kind_name#* }
		case $kind in
		member) pattern="(->|\\.)$name([^A-Za-z0-9_]|\$)" ;;
		*) pattern="(^|[^A-Za-z0-9_])$name([^A-Za-z0-9_]|\$)" ;;
		esac
		if git -C "$BASE_GIT" show "$BASE_COMMIT:$file" 2>/dev/null |
			grep -qxF -- "$line"; then
			git -C "$1" grep -lE "$pattern" -- "$AMDGPU_SCOPE/*.c" || true
		else
			# shellcheck disable=SC2086 # one file per word
			[ -z "$3" ] || (cd "$1" && grep -lE "$pattern" $3) || true
		fi
	done | sort -u
}

# amdgpu_objects_of PATCH: the amdgpu .c files PATCH changes or adds.
amdgpu_objects_of() {
	sed -n "s,^+++ b/\\($AMDGPU_SCOPE/.*\\.c\\)\$,\\1,p" "$1"
}

# included_names TREE FILES: the file names of the headers that FILES (of
# TREE, one per line) include, directly or through a header of their own
# directory (amdgpu.h includes most of the driver's headers).
included_names() {
	for file in $2; do
		dir=$(dirname "$1/$file")
		sed -n 's/^#include [<"]\(.*\)[>"].*/\1/p' "$1/$file" | while read -r inc; do
			basename "$inc"
			[ ! -f "$dir/$inc" ] ||
				sed -n 's/^#include [<"]\(.*\)[>"].*/\1/p' "$dir/$inc" |
				sed 's,.*/,,'
		done
	done | sort -u
}

# header_includer TREE PATCH FILES: for each header PATCH changes that none
# of FILES (.c files of TREE, one per line) includes (included_names), one
# .c file under AMDGPU_SCOPE in TREE that does, so that the header is built
# even by a patch that changes no .c file.
header_includer() {
	names=$(included_names "$1" "$3")
	sed -n 's,^+++ b/\(.*\.h\)$,\1,p' "$2" | while read -r header; do
		name=$(basename "$header")
		! echo "$names" | grep -qxF "$name" || continue
		git -C "$1" grep -lE "#include [<\"](.*/)?${name}[>\"]" \
			-- "$AMDGPU_SCOPE/*.c" | head -n 1
	done
}

# built_as TREE FILE: the .c file whose object builds FILE. A KUnit test
# file that a driver file #includes (as tests/amdgpu_userq_reset_test.c is
# by amdgpu_userq_fence.c, to reach its static functions) is no object of
# its own: its includer is built instead.
built_as() {
	name=$(basename "$2" .c)
	if git -C "$1" grep -qE "(^|[ /+=])$name\.o\b" -- "$AMDGPU_SCOPE/*Makefile"; then
		echo "$2"
		return
	fi
	includer=$(git -C "$1" grep -lE "#include \"(.*/)?$name\.c\"" -- "$AMDGPU_SCOPE/*.c" |
		head -n 1)
	echo "${includer:-$2}"
}

# amdgpu_candidates TREE PATCH SERIES_FILES: the amdgpu .c files to build
# after PATCH, that exist in TREE: those it changes, the users of the
# declarations it changes (declaration_users) and an includer of each header
# it changes that none of those includes.
amdgpu_candidates() {
	changed=$({
		amdgpu_objects_of "$2"
		declaration_users "$@"
	} | sort -u | while read -r file; do
		[ -f "$1/$file" ] && echo "$file"
	done)
	{
		echo "$changed"
		header_includer "$1" "$2" "$changed"
	} | sed '/^$/d' | sort -u | while read -r file; do
		[ -f "$1/$file" ] && built_as "$1" "$file"
	done | sort -u
}

# amdgpu_build_dir TREE: the build dir kunit-amdgpu.sh builds TREE's amdgpu
# KUnit kernel in (the same formula), whose bzImage guest-probe.sh boots.
amdgpu_build_dir() {
	echo "$CACHE/build/kunit-amdgpu-$(config_key "$AMDGPU_KUNITCONFIG")-$(echo "$BASE_COMMIT $1" |
		sha256sum | cut -c 1-8)"
}
