#!/bin/sh
# The kernel tier of `make check`.
#
# usage: [GPUROBUST_SERIES=7.2] kernel/scripts/check.sh RESULTS_DIR
#
# Verifies the pinned base, then checks the series the way a drm maintainer
# would, writing one "passed failed skipped" line per part. The files are
# named for the 6.12 series below; the 7.2 series' are kernel72-* instead
# ($TIER in lib.sh). When the pinned base cannot be had (prepare-base.sh
# exits 77), every part is skipped with its reason.
#   RESULTS_DIR/kernel-checkpatch  checkpatch.pl --strict on every patch, and
#                                  every new file covered by MAINTAINERS
#   RESULTS_DIR/kernel-build       the kunitconfigs agree with the top-level
#                                  Kconfig; each patch builds on its own (UML
#                                  for drm/sched, x86_64 objects for amdgpu);
#                                  no new W=1 or sparse warning in any object
#                                  the series touches, and no new kernel-doc
#                                  warning in any file it touches, and
#                                  libgpurobust's amdgpu uAPI constants
#                                  equal the series' (check-uapi.sh)
# then runs kernel/scripts/kunit-amdgpu.sh, whose x86_64 kernel with KASAN,
# lockdep and list debugging runs the amdgpu tests (RESULTS_DIR/kernel-amdgpu)
# and the drm/sched tests (RESULTS_DIR/kernel-kunit-sched), and on that
# kernel kernel/scripts/guest-probe.sh (RESULTS_DIR/kernel-guest-l10) and
# the series' kselftest of the amdgpu uAPI, kernel/scripts/guest-kselftest.sh
# (RESULTS_DIR/kernel-kselftest).
# Trees, build dirs and ccache live in /var/cache/gpurobust.
# Exits non-zero if anything failed.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/x86-objs.sh"

[ $# -eq 1 ] || die "usage: $0 RESULTS_DIR"
mkdir -p "$1"
RESULTS=$(cd "$1" && pwd)
WORK=$RESULTS/$TIER-logs
rm -rf "$WORK"
mkdir -p "$WORK"
TOP=$(cd "$KDIR/.." && pwd)
OBJS=$CACHE/build/objs-um-$(config_key "$KUNITCONFIG")
XOBJS=$CACHE/build/objs-x86-$(config_key "$AMDGPU_KUNITCONFIG")

# A part that dies before it finishes still reports: one failure.
for part in checkpatch build kunit-sched guest-l10 kselftest; do
	echo "0 1 0" > "$RESULTS/$TIER-$part"
done

# count PART PASSED FAILED [SKIPPED]: write a part's result.
count() {
	echo "$2 $3 ${4:-0}" > "$RESULTS/$TIER-$1"
	log "$TIER-$1: $2 passed, $3 failed, ${4:-0} skipped"
}

run_amdgpu_tier() {
	if ! has_amdgpu_tests "$CHECK_TREE"; then
		# A series without the amdgpu KUnit tests (yet) has no amdgpu
		# kernel to boot: both parts that need one say so and skip.
		for part in amdgpu kunit-sched guest-l10 kselftest; do
			echo "0 0 1" > "$RESULTS/$TIER-$part"
			log "$TIER-$part: skipped: the $SERIES series has no amdgpu KUnit tests (DRM_AMDGPU_KUNIT_TEST)"
		done
		amdgpu_kernel=no
		return 0
	fi
	log "running kernel/scripts/kunit-amdgpu.sh"
	amdgpu_status=0
	"$KDIR/scripts/kunit-amdgpu.sh" "$CHECK_TREE" "$RESULTS" || amdgpu_status=1
	# Every other kernel-* file in RESULTS must be a "passed failed skipped"
	# line for scripts/summarize.sh; keep the amdgpu log with the others.
	if [ -f "$RESULTS/$TIER-amdgpu.log" ]; then
		mv "$RESULTS/$TIER-amdgpu.log" "$WORK/kernel-amdgpu.log"
	fi
	return $amdgpu_status
}

# run_guest_probe: the L10 probe in QEMU, on the kernel kunit-amdgpu.sh just
# built (guest-probe.sh). kunit.py writes test.log only after that kernel
# built and booted, so an older bzImage is never tested in its place.
run_guest_probe() {
	build=$(amdgpu_build_dir "$CHECK_TREE")
	if [ ! -s "$build/test.log" ]; then
		log "$TIER-guest-l10: no amdgpu kernel was built and booted in this run"
		return 1
	fi
	"$KDIR/scripts/guest-probe.sh" "$build" "$RESULTS"
}

# run_guest_kselftest: the series' kselftest in QEMU, on the same kernel.
run_guest_kselftest() {
	build=$(amdgpu_build_dir "$CHECK_TREE")
	if [ ! -s "$build/test.log" ]; then
		log "$TIER-kselftest: no amdgpu kernel was built and booted in this run"
		return 1
	fi
	"$KDIR/scripts/guest-kselftest.sh" "$CHECK_TREE" "$build" "$RESULTS"
}

log "kernel tier: base $KERNEL_VERSION, results in $RESULTS, logs in $WORK"
prepare_status=0
"$KDIR/scripts/prepare-base.sh" > "$WORK/prepare-base.log" 2>&1 || prepare_status=$?
if [ "$prepare_status" -eq 77 ]; then
	# The pinned base left its suite and is not cached: every part of the
	# tier is skipped, with prepare-base.sh's reason, never passed.
	grep '^SKIP' "$WORK/prepare-base.log"
	for part in checkpatch build kunit-sched amdgpu guest-l10 kselftest; do
		echo "0 0 1" > "$RESULTS/$TIER-$part"
	done
	log "$TIER: skipped: the pinned base $DEB_PACKAGE $DEB_VERSION cannot be had"
	exit 0
elif [ "$prepare_status" -ne 0 ]; then
	cat "$WORK/prepare-base.log"
	die "the base tree could not be prepared or verified"
fi
exec 9>"$CHECK_LOCK"
flock 9

# The sparse the base accepts (sid-sparse.sh): without one, C=1 checks
# nothing, which counts as a skip of the build part, never a pass.
sparse_skipped=0
sparse_status=0
SPARSE=$("$KDIR/scripts/sid-sparse.sh" 2> "$WORK/sid-sparse.log") || sparse_status=$?
if [ "$sparse_status" -eq 77 ]; then
	cat "$WORK/sid-sparse.log"
	SPARSE=sparse
	sparse_skipped=1
elif [ "$sparse_status" -ne 0 ]; then
	cat "$WORK/sid-sparse.log"
	die "no sparse for $KERNEL_VERSION"
fi
log "sparse: $SPARSE"

status=0

# --- checkpatch -------------------------------------------------------------
# Two checkpatch types cannot be met by any series based on a release tarball,
# and are replaced by checks that can:
#  - UNKNOWN_COMMIT_ID: Fixes: names upstream commits, which a tree made from
#    a tarball has no history for. checkpatch still checks the tag's format.
#  - FILE_PATH_CHANGES asks whether MAINTAINERS needs updating for a new
#    file; instead get_maintainer.pl must find a maintainer for each one.
pass=0
fail=0
for patch in $(series_patches); do
	if (cd "$BASE_GIT" && perl scripts/checkpatch.pl --strict --quiet \
		--ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
		"$SDIR/patches/$patch") > "$WORK/checkpatch-$patch.log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		log "checkpatch: $patch:"
		cat "$WORK/checkpatch-$patch.log"
	fi
	new_files=$(awk '/^diff --git / { file = substr($4, 3) }
		/^new file mode/ { print file }' "$SDIR/patches/$patch")
	for file in $new_files; do
		# A one-line patch adding just this file: whoever get_maintainer.pl
		# names for it, beyond the catch-all list, covers it.
		printf 'diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+\n' \
			"$file" "$file" "$file" > "$WORK/new-file.patch"
		if (cd "$BASE_GIT" && perl scripts/get_maintainer.pl --nogit \
			--nogit-fallback --no-rolestats "$WORK/new-file.patch") 2>/dev/null |
			grep -v '^linux-kernel@' | grep -q .; then
			pass=$((pass + 1))
		else
			fail=$((fail + 1))
			log "checkpatch: no MAINTAINERS entry covers $file"
		fi
	done
done
count checkpatch "$pass" "$fail"
[ "$fail" -eq 0 ] || status=1

# --- build checks ------------------------------------------------------------
pass=0
fail=0

# Every line of a kunitconfig must come from the top-level Kconfig fragment.
for conf in "$SDIR"/kunit/*.kunitconfig; do
	drift=$(grep '^CONFIG_' "$conf" | while read -r line; do
		grep -qxF "$line" "$TOP/Kconfig" || echo "$line"
	done)
	if [ -z "$drift" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		log "$(basename "$conf") has lines the top-level Kconfig lacks: $drift"
	fi
done

# objs_make ARGS...: make in the object build dir, a UML build with the
# drm/sched kunitconfig. Nothing selects DRM_SCHED on the bare base, so it is
# forced on the command line to build the scheduler's objects there too.
objs_make() {
	make -C "$CHECK_TREE" ARCH=um O="$OBJS" CC="$MAKE_CC" CHECK="$SPARSE" -j2 \
		CONFIG_DRM_SCHED=y "$@"
}

# objs_config: (re)make the object build dir's .config for the tree as it is.
objs_config() {
	mkdir -p "$OBJS"
	cat "$KUNITCONFIG" "$CHECK_TREE/tools/testing/kunit/configs/arch_uml.config" \
		> "$OBJS/.config"
	objs_make olddefconfig > "$WORK/objs-config.log" 2>&1
}

# touched_c: the .c files outside amdgpu the whole series changes, that
# exist in the tree now. UML builds them; amdgpu's are built for x86_64.
touched_c() {
	touched '\.c' | grep -v "^$AMDGPU_SCOPE/"
}

# touched_amdgpu_c: the amdgpu .c files the whole series changes, that exist
# in the tree now.
touched_amdgpu_c() {
	touched '\.c' | grep "^$AMDGPU_SCOPE/" | while read -r file; do
		built_as "$CHECK_TREE" "$file"
	done | sort -u
}

# touched PATTERN: the files matching PATTERN the series changes, that exist
# in the tree now.
touched() {
	for patch in $(series_patches); do
		sed -n 's,^+++ b/,,p' "$SDIR/patches/$patch" | grep "$1\$"
	done | sort -u | while read -r file; do
		[ -f "$CHECK_TREE/$file" ] && echo "$file"
	done
}

# kerneldoc NAME: kernel-doc -Wall warnings of every touched .c and .h file,
# without line numbers, in $WORK/kerneldoc-NAME.
kerneldoc() {
	for file in $(touched '\.[ch]'); do
		(cd "$CHECK_TREE" && perl scripts/kernel-doc -none -Wall "$file") 2>&1 |
			sed 's,^\([^:]*\):[0-9]*:,\1:,'
	done | sort -u > "$WORK/kerneldoc-$1"
}

# warnings NAME: rebuild every touched object with W=1 and sparse (C=1),
# and keep their warnings, without line numbers (the series moves lines),
# in $WORK/warnings-NAME.
warnings() {
	: > "$WORK/warnings-$1"
	for file in $(touched_c); do
		obj=${file%.c}.o
		rm -f "$OBJS/$obj"
		objs_make W=1 C=1 CONFIG_DRM_SCHED_KUNIT_TEST=y "$obj" \
			> "$WORK/w1-$1-$(echo "$obj" | tr / _).log" 2>&1 ||
			echo "$obj: error: does not build" >> "$WORK/warnings-$1"
		grep -h ': warning:\|: error:' "$WORK/w1-$1-$(echo "$obj" | tr / _).log" |
			sed 's,^\([^:]*\):[0-9]*:[0-9]*:,\1:,' >> "$WORK/warnings-$1" || true
	done
	sort -u -o "$WORK/warnings-$1" "$WORK/warnings-$1"
}

# xobjs_make ARGS...: make in the x86_64 object build dir (x86-objs.sh).
xobjs_make() {
	make -C "$CHECK_TREE" ARCH=x86_64 O="$XOBJS" CC="$MAKE_CC" CHECK="$SPARSE" -j2 "$@"
}

# amdgpu_warnings NAME FILE...: build the objects of the amdgpu .c FILEs for
# x86_64 with W=1 and sparse, and keep their warnings and errors, without
# line numbers, in $WORK/x86-warnings-NAME, with a line for each object that
# does not build. A single-object make builds a file even when the
# configuration leaves it out, and one that does not build there fails the
# same way on the base, so only what is new counts. Each object's warnings
# are kept in $WORK/x86-objects: an object this run built before, which make
# finds up to date (nothing it depends on changed since), has the same
# warnings, and is not built again. The first time, it is always built.
amdgpu_warnings() {
	name=$1
	shift
	tree_real=$(cd "$CHECK_TREE" && pwd -P)
	mkdir -p "$WORK/x86-objects"
	: > "$WORK/x86-warnings-$name"
	for file in "$@"; do
		obj=${file%.c}.o
		objlog=$WORK/x86-$name-$(echo "$obj" | tr / _).log
		kept=$WORK/x86-objects/$(echo "$obj" | tr / _)
		[ -f "$kept" ] || rm -f "$XOBJS/$obj"
		made=yes
		xobjs_make W=1 C=1 "$obj" > "$objlog" 2>&1 || made=no
		if [ "$made" = no ] || [ ! -f "$kept" ] ||
			grep -q "^ *CC  *$obj\$" "$objlog"; then
			# sparse names files by absolute path, and a header reached
			# from tests/ as amdgpu/../amdgpu/: the same warning gets
			# one name.
			{
				grep -h ': warning:\|: error:' "$objlog" |
					sed -e "s,^$tree_real/,," -e "s,^$CHECK_TREE/,," \
						-e 's,[^/:]*/\.\./,,g' \
						-e 's,^\([^:]*\):[0-9]*:[0-9]*:,\1:,'
				[ "$made" = yes ] || echo "$obj: error: does not build"
			} > "$kept"
		fi
		cat "$kept" >> "$WORK/x86-warnings-$name"
	done
	sort -u -o "$WORK/x86-warnings-$name" "$WORK/x86-warnings-$name"
}

# new_amdgpu_warnings NAME: the warnings of $WORK/x86-warnings-NAME the base
# did not have.
new_amdgpu_warnings() {
	comm -13 "$WORK/x86-warnings-base" "$WORK/x86-warnings-$1"
}

log "build: W=1, sparse and kernel-doc on the base"
lock_cache
reset_worktree "$CHECK_TREE"
unlock_cache
if ! objs_config; then
	cat "$WORK/objs-config.log"
	die "cannot configure $OBJS"
fi
warnings base
kerneldoc base
# amdgpu on the base: every file a patch will build (amdgpu_candidates),
# for the warnings each already has.
if ! amdgpu_config "$CHECK_TREE" "$XOBJS" > "$WORK/x86-config.log" 2>&1; then
	cat "$WORK/x86-config.log"
	die "cannot configure $XOBJS"
fi
# shellcheck disable=SC2046 # one file per word
amdgpu_warnings base $(for patch in $(series_patches); do
	amdgpu_candidates "$CHECK_TREE" "$SDIR/patches/$patch" ""
done | sort -u)

# Each patch on its own: apply it and rebuild, incrementally, every
# directory it touches that UML can build. amdgpu cannot build for UML, and
# a full x86_64 rebuild after each patch is too slow for the CI budget (a
# change to amdgpu_ctx.h rebuilds some 300 objects; bisect-amdgpu.sh does
# that, by hand). Instead each patch rebuilds, for x86_64 with W=1 and
# sparse, the amdgpu objects it can break (amdgpu_candidates): the files it
# changes, the users of each declaration it removes or changes, and one
# includer of each header it changes. None of them may fail to build or have
# a warning the base did not have.
n=0
series_files=
for patch in $(series_patches); do
	n=$((n + 1))
	if ! am_patch "$CHECK_TREE" "$patch" > "$WORK/am-$n.log" 2>&1; then
		cat "$WORK/am-$n.log"
		log "build: $patch does not apply"
		fail=$((fail + 1))
		status=1
		break
	fi
	# Only a patch that changes a Kconfig file changes what the
	# configurations hold.
	kconfig_changed=no
	! grep -q '^+++ b/.*Kconfig' "$SDIR/patches/$patch" || kconfig_changed=yes
	[ "$kconfig_changed" = no ] || objs_config || true
	dirs=$(sed -n -e 's,^+++ b/\(.*\)/[^/]*\.[ch]$,\1/,p' \
		-e 's,^+++ b/\(.*\)/Makefile$,\1/,p' "$SDIR/patches/$patch" |
		sed 's,^include/drm/$,drivers/gpu/drm/scheduler/,' |
		grep '^drivers/' | grep -v '^drivers/gpu/drm/amd/' | sort -u | tr '\n' ' ')
	log "build: after $patch: ${dirs:-nothing UML builds}"
	# shellcheck disable=SC2086 # one make goal per directory
	if [ -z "$dirs" ] ||
		objs_make CONFIG_DRM_SCHED_KUNIT_TEST=y $dirs \
		> "$WORK/bisect-$n.log" 2>&1; then
		pass=$((pass + 1))
	else
		grep -m 20 'error' "$WORK/bisect-$n.log"
		log "build: the tree does not build after $patch"
		fail=$((fail + 1))
	fi

	series_files=$({
		echo "$series_files"
		amdgpu_objects_of "$SDIR/patches/$patch"
	} | sed '/^$/d' | sort -u)
	files=$(amdgpu_candidates "$CHECK_TREE" "$SDIR/patches/$patch" "$series_files")
	[ -n "$files" ] || continue
	[ "$kconfig_changed" = no ] ||
		amdgpu_config "$CHECK_TREE" "$XOBJS" > "$WORK/x86-config.log" 2>&1 || true
	log "build: after $patch, amdgpu x86_64: $(echo "$files" | tr '\n' ' ')"
	# shellcheck disable=SC2086 # one file per word
	amdgpu_warnings "patch-$n" $files
	new=$(new_amdgpu_warnings "patch-$n")
	if [ -z "$new" ]; then
		pass=$((pass + 1))
	else
		log "build: amdgpu objects do not build cleanly after $patch:"
		echo "$new"
		fail=$((fail + 1))
	fi
done

log "build: W=1, sparse and kernel-doc with the series"
warnings series
kerneldoc series
for file in $(touched '\.[ch]'); do
	new=$(comm -13 "$WORK/kerneldoc-base" "$WORK/kerneldoc-series" |
		grep "^$file:" || true)
	if [ -z "$new" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		log "build: new kernel-doc warnings in $file:"
		echo "$new"
	fi
done
for file in $(touched_c); do
	new=$(comm -13 "$WORK/warnings-base" "$WORK/warnings-series" | grep "^$file:" || true)
	if [ -z "$new" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		log "build: new W=1/sparse warnings in $file:"
		echo "$new"
	fi
done
# shellcheck disable=SC2046 # one file per word
amdgpu_warnings series $(touched_amdgpu_c)
for file in $(touched_amdgpu_c); do
	new=$(new_amdgpu_warnings series | grep "^$file:\|^${file%.c}.o:" || true)
	if [ -z "$new" ]; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		log "build: $file does not build cleanly for x86_64:"
		echo "$new"
	fi
done
# A new warning in a header the objects include counts once for all of them.
touched_amdgpu_c | sed 's/\(.*\)\.c$/\1.c:\n\1.o:/' > "$WORK/x86-touched"
new=$(new_amdgpu_warnings series | grep -v -F -f "$WORK/x86-touched" || true)
if [ -z "$new" ]; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	log "build: new W=1/sparse warnings in headers amdgpu objects include:"
	echo "$new"
fi
# libgpurobust's own copies of the series' uAPI constants equal the header.
# A series still on its way lists the names it lacks in uapi-pending: each
# is a skip, never a pass.
pending=
[ ! -f "$SDIR/uapi-pending" ] || pending="--pending $SDIR/uapi-pending"
# shellcheck disable=SC2086 # an option and its argument, or nothing
if "$KDIR/scripts/check-uapi.sh" $pending "$CHECK_TREE" > "$WORK/check-uapi.log" 2>&1; then
	pass=$((pass + 1))
else
	fail=$((fail + 1))
	log "build: libgpurobust's amdgpu uAPI constants differ from the series:"
	cat "$WORK/check-uapi.log"
fi
# Every uAPI value the series adds is free in the base's header and in the
# pending proposals the series' uapi-bits lists.
if [ -f "$SDIR/uapi-bits" ]; then
	if "$KDIR/scripts/check-uapi-bits.sh" "$BASE_GIT" "$CHECK_TREE" "$SDIR/uapi-bits" \
		> "$WORK/check-uapi-bits.log" 2>&1; then
		pass=$((pass + 1))
	else
		fail=$((fail + 1))
		log "build: the series takes a uAPI value that is not free:"
		cat "$WORK/check-uapi-bits.log"
	fi
fi
count build "$pass" "$fail" \
	"$(($(grep -c '^SKIP' "$WORK/check-uapi.log" || true) + sparse_skipped))"
[ "$fail" -eq 0 ] || status=1

# --- KUnit ---------------------------------------------------------------------
amdgpu_kernel=yes
run_amdgpu_tier || status=1
[ "$amdgpu_kernel" = no ] || run_guest_probe || status=1
[ "$amdgpu_kernel" = no ] || run_guest_kselftest || status=1
exit $status
