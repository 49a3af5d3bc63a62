#!/bin/sh
# Build the KUnit kernel of the series (x86_64, amdgpu built in) and run it in
# QEMU: the amdgpu tests and the drm/sched tests.
#
# usage: kernel/scripts/kunit-amdgpu.sh TREE RESULTS
#
# TREE is a kernel tree with the series applied (kernel/scripts/apply-series.sh).
# Its tests run the real amdgpu contexts, jobs, schedulers and ioctls on a fake
# device (drivers/gpu/drm/amd/amdgpu/tests/). amdgpu cannot be built for UML, so
# kunit.py builds an x86_64 kernel from kernel/kunit/amdgpu.kunitconfig and
# boots it in qemu-system-x86_64. The same kernel runs the drm/sched mock
# scheduler suites: one KASAN and lockdep kernel per tier instead of two keeps
# a cold `make check` inside its budget. No KVM: on this machine's nested KVM the
# kernel hangs while decompressing; under TCG the tests take seconds (see the
# QEMU wrapper below).
#
# The build directory is kept in the cache, keyed by the base commit, the
# kunitconfig and TREE's path, so a rerun only rebuilds what the series
# changed; ccache serves a cold build directory. Writes RESULTS/kernel-amdgpu
# and, for the drm_sched suites, RESULTS/kernel-kunit-sched ("passed failed
# skipped", counted by kunit-results.py, which also fails a kernel log with a
# KASAN or lockdep report, BUG or WARNING and checks that KASAN and lockdep
# were on, plus the tests of the series' devcoredump fixtures: its
# fixtures/series-d4-full-reset.devcoredump, where it has one, is what
# D4_fixture printed, and the dump D4_old_text_unchanged printed starts with
# its fixtures/base-<kernel version>-full-reset.devcoredump, what the bare
# base's printer wrote for the same hang; each skipped where TREE lacks the
# KUnit test that prints the dump), one line per test in
# RESULTS/kernel-amdgpu.tests, and the logs. Exits non-zero unless every test
# passed.
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 2 ] || die "usage: $0 TREE RESULTS"
tree=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
kunitconfig=$SDIR/kunit/amdgpu.kunitconfig

[ -x "$tree/tools/testing/kunit/kunit.py" ] || die "$tree is not a kernel tree"
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 is missing (Debian package qemu-system-x86)"
command -v ccache >/dev/null || die "ccache is missing"

tree_key=$(echo "$BASE_COMMIT $tree" | sha256sum | cut -c 1-8)
build=$CACHE/build/kunit-amdgpu-$(config_key "$kunitconfig")-$tree_key
mkdir -p "$build"
rm -f "$build/test.log"
# Paths relative to the cache root let ccache reuse objects across trees.
export CCACHE_BASEDIR="$CACHE_ROOT" CCACHE_NOHASHDIR=1

# 6.12's kunit.py gives QEMU no accelerator, so QEMU uses TCG. 7.2's runs
# "-accel kvm -accel hvf -accel tcg", and QEMU takes the first that works. Where /dev/kvm exists but nested KVM hangs the boot (this
# machine), the run times out with no output. kunit.py finds QEMU in PATH: put a
# QEMU first that runs the same command without the KVM and HVF requests.
qemu=$(command -v qemu-system-x86_64)
qemu_dir=$(mktemp -d)
trap 'rm -rf "$qemu_dir"' EXIT
cat > "$qemu_dir/qemu-system-x86_64" <<EOF
#!/bin/sh
# qemu-system-x86_64 without "-accel kvm" and "-accel hvf" (kunit-amdgpu.sh)
accel=
for arg do
	shift
	if [ -n "\$accel" ]; then
		accel=
		case "\$arg" in kvm|hvf) continue ;; esac
		set -- "\$@" -accel
	fi
	if [ "\$arg" = -accel ]; then
		accel=1
		continue
	fi
	set -- "\$@" "\$arg"
done
exec "$qemu" "\$@"
EOF
chmod +x "$qemu_dir/qemu-system-x86_64"
PATH=$qemu_dir:$PATH

log "amdgpu KUnit: building and running $tree in $build"
status=0
# Tests upstream marks slow (7.2's drm_sched_scheduler_queue_overhead and
# _ping_pong assert that 1000 jobs finish within 5 s) are reported as
# skipped: a timed assertion measures the machine's load, not the scheduler
# (the project's speed figures come from benchmarks).
(cd "$tree" && python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
	--kunitconfig="$kunitconfig" --build_dir="$build" --jobs=2 \
	--filter 'speed>slow' --filter_action skip \
	--make_options "CC=$MAKE_CC" --json="$results/$TIER-amdgpu.json") \
	> "$results/$TIER-amdgpu.log" 2>&1 || status=$?

if [ ! -s "$build/test.log" ]; then
	tail -n 40 "$results/$TIER-amdgpu.log" >&2
	echo "0 1 0" > "$results/$TIER-amdgpu"
	echo "0 1 0" > "$results/$TIER-kunit-sched"
	die "no KUnit results (build or boot failed, kunit.py exit $status)"
fi
# One line per test, plus kernel-log-clean: a KASAN or lockdep report, BUG or
# WARNING anywhere in the kernel log, boot included, fails the tier even when
# every test passed; and two tests that the kernel which ran them had KASAN
# and lockdep on (their boot banners).
python3 "$KDIR/scripts/kunit-results.py" --from-boot \
	--require 'kasan-enabled=KernelAddressSanitizer initialized' \
	--require 'lockdep-enabled=Lock dependency validator' \
	--part "drm_sched=$results/$TIER-kunit-sched" \
	"$results/$TIER-amdgpu.json" "$build/test.log" "$results/$TIER-amdgpu" \
	> "$results/$TIER-amdgpu.tests"
cp "$build/test.log" "$results/$TIER-amdgpu-kernel.log"
read -r passed failed skipped < "$results/$TIER-amdgpu"
# fixture_test NAME KUNIT_TEST ARGS...: one more test, NAME, passing when
# extract-coredump-fixture.sh ARGS does (its output in a log of its own).
# It is skipped when the KUnit test KUNIT_TEST that prints the dump did not
# run: TREE is the series up to an earlier patch, which lacks it.
fixture_test() {
	name=$1
	kunit_test=$2
	shift 2
	if ! grep -q "^[A-Z]* amdgpu_coredump\.$kunit_test\$" "$results/$TIER-amdgpu.tests"; then
		skipped=$((skipped + 1))
		echo "SKIP $name ($kunit_test is not in $tree)" >> "$results/$TIER-amdgpu.tests"
	elif "$KDIR/scripts/extract-coredump-fixture.sh" "$@" \
		> "$results/$TIER-amdgpu-$name.log" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $name" >> "$results/$TIER-amdgpu.tests"
	else
		failed=$((failed + 1))
		echo "FAIL $name" >> "$results/$TIER-amdgpu.tests"
		cat "$results/$TIER-amdgpu-$name.log" >&2
	fi
}
# The devcoredump fixtures are the series' own (fixtures/README.md of each).
# The saved series fixture is byte for byte what the printer wrote in
# D4_fixture this run (the 6.12 series has one).
if [ -f "$SDIR/fixtures/series-d4-full-reset.devcoredump" ]; then
	fixture_test coredump-fixture D4_fixture --check "$build/test.log" \
		"$SDIR/fixtures/series-d4-full-reset.devcoredump"
fi
# D4 against the unpatched printer: the base's text of the series' dump is
# byte for byte what the bare base printed for the same hang. A fixture of
# another base (the pin moved) is a failure: the new base's printer has to
# print it again (fixtures/README.md).
base_fixture="$SDIR/fixtures/base-$KERNEL_VERSION-full-reset.devcoredump"
if [ -f "$base_fixture" ]; then
	fixture_test coredump-d4-base-prefix D4_old_text_unchanged --name old-text --prefix \
		"$build/test.log" "$base_fixture"
elif ls "$SDIR"/fixtures/base-*-full-reset.devcoredump >/dev/null 2>&1; then
	failed=$((failed + 1))
	echo "FAIL coredump-d4-base-prefix (no fixture of base $KERNEL_VERSION in $SDIR/fixtures)" \
		>> "$results/$TIER-amdgpu.tests"
fi
echo "$passed $failed $skipped" > "$results/$TIER-amdgpu"
log "amdgpu KUnit: $passed passed, $failed failed, $skipped skipped"
read -r sched_passed sched_failed sched_skipped < "$results/$TIER-kunit-sched"
log "drm/sched KUnit: $sched_passed passed, $sched_failed failed, $sched_skipped skipped"
if [ "$failed" -ne 0 ] || [ "$sched_failed" -ne 0 ]; then
	grep -v '^PASS' "$results/$TIER-amdgpu.tests" >&2
	grep -h 'Expected\|but \|not ok' "$build/test.log" | head -n 60 >&2
	exit 1
fi
