#!/bin/sh
# Turn a devcoredump that an amdgpu KUnit test printed back into a file, or
# check a saved fixture against what the printer prints.
#
# usage: kernel/scripts/extract-coredump-fixture.sh [--name NAME] LOG OUT
#        kernel/scripts/extract-coredump-fixture.sh [--name NAME] --check LOG FIXTURE [RESULTS_DIR]
#        kernel/scripts/extract-coredump-fixture.sh [--name NAME] --prefix LOG FIXTURE
#
# LOG is the raw kernel log of the amdgpu KUnit run (kunit.py writes it to
# <build_dir>/test.log). The tests of amdgpu_coredump_test.c print a dump one
# line per message,
#   AMDGPU_COREDUMP_FIXTURE <name> <4-digit line number>|<line>
# then "AMDGPU_COREDUMP_FIXTURE <name> end lines=N bytes=N crc32=X". NAME
# (default "series") picks the dump: "series" is D4_fixture's, the source of
# fixtures/series-d4-full-reset.devcoredump; "old-text" is
# D4_old_text_unchanged's, which on the bare base is the source of
# fixtures/base-6.12.117-full-reset.devcoredump. The script takes the last
# complete dump of that name in LOG, rebuilds its bytes and verifies them
# against the line count, byte count and CRC-32 the kernel printed, so a
# dropped or mangled console line is an error, not a different fixture.
# The first form writes the dump to OUT. With --check it compares the dump
# byte for byte with FIXTURE, prints a diff when they differ, and, given
# RESULTS_DIR, writes RESULTS_DIR/kernel-fixture ("passed failed skipped").
# With --prefix, FIXTURE must be exactly the first bytes of the dump, and
# what follows must start a new section ("\n**** "): the D4 check that the
# series leaves the 6.12 text as the base printed it.
# Exits non-zero on any failure.
set -eu

die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}

name=series
if [ "${1:-}" = --name ]; then
	[ $# -ge 2 ] || die "--name needs a NAME"
	name=$2
	shift 2
fi
check=
case "${1:-}" in
--check) check=check; shift ;;
--prefix) check=prefix; shift ;;
esac
[ $# -ge 2 ] || die "usage: $0 [--name NAME] [--check|--prefix] LOG OUT|FIXTURE [RESULTS_DIR]"
log=$1
target=$2
results=${3:-}
[ -r "$log" ] || die "cannot read $log"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# The system python first, as the other kernel/ scripts do.
PATH=/usr/bin:/bin:$PATH python3 - "$log" "$tmp" "$name" <<'PY'
import re
import sys
import zlib

MARK = "AMDGPU_COREDUMP_FIXTURE %s " % sys.argv[3]
line_re = re.compile(r"(\d{4,})\|(.*)\Z", re.S)
end_re = re.compile(r"end lines=(\d+) bytes=(\d+) crc32=([0-9a-f]{8})\Z")

def fail(msg):
    sys.stderr.write("extract-coredump-fixture: error: %s\n" % msg)
    sys.exit(1)

dump = None
lines = []
with open(sys.argv[1], "rb") as f:
    for raw in f:
        text = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
        at = text.find(MARK)
        if at < 0:
            continue
        rest = text[at + len(MARK):]
        m = end_re.match(rest)
        if m:
            want_lines, want_bytes = int(m.group(1)), int(m.group(2))
            want_crc = int(m.group(3), 16)
            if len(lines) != want_lines or any(
                    l is None for l in lines):
                fail("the log lost lines of the dump: %d of %d"
                     % (sum(l is not None for l in lines), want_lines))
            body = "\n".join(lines)
            if len(body.encode("utf-8", "surrogateescape")) + 1 == want_bytes:
                body += "\n"
            data = body.encode("utf-8", "surrogateescape")
            if len(data) != want_bytes:
                fail("rebuilt %d bytes, the kernel printed %d"
                     % (len(data), want_bytes))
            if zlib.crc32(data) != want_crc:
                fail("CRC-32 %08x, the kernel printed %08x"
                     % (zlib.crc32(data), want_crc))
            dump = data
            lines = []
            continue
        m = line_re.match(rest)
        if not m:
            fail("malformed fixture line: %r" % rest[:80])
        n = int(m.group(1))
        if n == 0:
            lines = []
        while len(lines) <= n:
            lines.append(None)
        lines[n] = m.group(2)

if dump is None:
    fail("no complete AMDGPU_COREDUMP_FIXTURE %s dump in %s"
         % (sys.argv[3], sys.argv[1]))
with open(sys.argv[2], "wb") as f:
    f.write(dump)
PY

if [ -z "$check" ]; then
	cp "$tmp" "$target"
	echo "wrote $target ($(wc -c < "$target") bytes)"
	exit 0
fi

if [ "$check" = prefix ]; then
	size=$(wc -c < "$target")
	if head -c "$size" "$tmp" | cmp -s - "$target" &&
		[ "$(tail -c +"$((size + 1))" "$tmp" | head -c 6)" = "$(printf '\n**** ')" ]; then
		echo "fixture $target: the first $size bytes of the $name dump, then a new section"
		exit 0
	fi
	echo "the $name dump does not start with $target and a new section:" >&2
	head -c "$size" "$tmp" | diff -u "$target" - | head -n 40 >&2 || true
	exit 1
fi

if cmp -s "$tmp" "$target"; then
	status=0
	echo "fixture $target: byte for byte what the $name dump is"
	[ -z "$results" ] || echo "1 0 0" > "$results/kernel-fixture"
else
	status=1
	echo "fixture $target differs from the $name dump:" >&2
	diff -u "$target" "$tmp" | head -n 40 >&2 || true
	[ -z "$results" ] || echo "0 1 0" > "$results/kernel-fixture"
fi
exit $status
