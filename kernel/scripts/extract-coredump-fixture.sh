#!/bin/sh
# Turn the devcoredump that the amdgpu KUnit test D4_fixture printed back
# into a file, or check that a saved fixture is still what the printer prints.
#
# usage: kernel/scripts/extract-coredump-fixture.sh LOG OUT
#        kernel/scripts/extract-coredump-fixture.sh --check LOG FIXTURE [RESULTS_DIR]
#
# LOG is the raw kernel log of the amdgpu KUnit run (kunit.py writes it to
# <build_dir>/test.log). D4_fixture prints the dump one line per message,
#   AMDGPU_COREDUMP_FIXTURE <4-digit line number>|<line>
# then "AMDGPU_COREDUMP_FIXTURE end lines=N bytes=N crc32=X". The script takes
# the last complete dump in LOG, rebuilds its bytes and verifies them against
# the line count, byte count and CRC-32 the kernel printed, so a dropped or
# mangled console line is an error, not a different fixture.
# The first form writes the dump to OUT. With --check it compares the dump
# byte for byte with FIXTURE, prints a diff when they differ, and, given
# RESULTS_DIR, writes RESULTS_DIR/kernel-fixture ("passed failed skipped").
# Exits non-zero on any failure.
set -eu

die() {
	printf '%s: error: %s\n' "$(basename "$0")" "$*" >&2
	exit 1
}

check=
if [ "${1:-}" = --check ]; then
	check=1
	shift
fi
[ $# -ge 2 ] || die "usage: $0 [--check] LOG OUT|FIXTURE [RESULTS_DIR]"
log=$1
target=$2
results=${3:-}
[ -r "$log" ] || die "cannot read $log"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

# The system python first, as the other kernel/ scripts do.
PATH=/usr/bin:/bin:$PATH python3 - "$log" "$tmp" <<'PY'
import re
import sys
import zlib

MARK = "AMDGPU_COREDUMP_FIXTURE "
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
    fail("no complete AMDGPU_COREDUMP_FIXTURE dump in %s" % sys.argv[1])
with open(sys.argv[2], "wb") as f:
    f.write(dump)
PY

if [ -z "$check" ]; then
	cp "$tmp" "$target"
	echo "wrote $target ($(wc -c < "$target") bytes)"
	exit 0
fi

if cmp -s "$tmp" "$target"; then
	status=0
	echo "fixture $target: byte for byte what D4_fixture printed"
	[ -z "$results" ] || echo "1 0 0" > "$results/kernel-fixture"
else
	status=1
	echo "fixture $target differs from what D4_fixture printed:" >&2
	diff -u "$target" "$tmp" | head -n 40 >&2 || true
	[ -z "$results" ] || echo "0 1 0" > "$results/kernel-fixture"
fi
exit $status
