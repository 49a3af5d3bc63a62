#!/usr/bin/python3
"""Count KUnit results, and fail a run whose kernel log shows a splat.

usage: kunit-results.py [--from-boot] [--require NAME=REGEX]...
                        [--part PREFIX=COUNTS]... KUNIT_JSON KERNEL_LOG COUNTS_OUT

Prints one line per test case ("PASS suite.test") and writes
"passed failed skipped" to COUNTS_OUT. A KASAN report, lockdep splat, list
corruption, BUG or WARNING in the kernel log counts as one more failed test,
"kernel-log-clean": KUnit itself does not fail a test for most of them. The
log is scanned from the start of the test run on, or from the first line with
--from-boot. A missing or unparsable JSON file counts as one failure.

Each --require adds a test NAME that passes only when some line of the kernel
log matches REGEX: a banner that proves a debugging feature (KASAN, lockdep)
was really on in the kernel that ran the tests.

Each --part counts the tests of the suites whose names start with PREFIX in
COUNTS of their own instead of COUNTS_OUT: one kernel runs the drm/sched and
the amdgpu suites, and `make check` reports them apart. A part that ran no
test counts as one failure. The kernel log's tests stay in COUNTS_OUT.
"""

import argparse
import json
import re

SPLATS = re.compile(
    r"BUG: |WARNING: |KASAN|possible circular locking|possible recursive locking"
    r"|inconsistent lock state|lock held when returning|list_add corruption"
    r"|list_del corruption|Kernel panic|Oops|UBSAN"
)


def walk(group, prefix, results):
    name = group.get("name", "")
    path = f"{prefix}.{name}" if prefix is not None else ""
    for case in group.get("test_cases", []):
        results.append((case.get("status", "FAIL"), f"{path}.{case['name']}".lstrip(".")))
    for sub in group.get("sub_groups", []):
        walk(sub, path, results)


def require(arg):
    name, sep, regex = arg.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"{arg!r} is not NAME=REGEX")
    return name, re.compile(regex)


def part(arg):
    prefix, sep, path = arg.partition("=")
    if not sep or not prefix or not path:
        raise argparse.ArgumentTypeError(f"{arg!r} is not PREFIX=COUNTS")
    return prefix, path


def write_counts(path, results):
    """Print RESULTS one per line and write their "passed failed skipped"."""
    passed = failed = skipped = 0
    for status, name in results:
        print(f"{status} {name}")
        if status == "PASS":
            passed += 1
        elif status == "SKIP":
            skipped += 1
        else:
            failed += 1
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"{passed} {failed} {skipped}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--from-boot", action="store_true")
    parser.add_argument("--require", type=require, action="append", default=[])
    parser.add_argument("--part", type=part, action="append", default=[])
    parser.add_argument("json_path")
    parser.add_argument("log_path")
    parser.add_argument("counts_path")
    args = parser.parse_args()
    json_path, log_path, counts_path = args.json_path, args.log_path, args.counts_path
    results = []
    try:
        with open(json_path, encoding="utf-8") as f:
            walk(json.load(f), None, results)
    except (OSError, ValueError) as err:
        print(f"FAIL kunit-json ({err})")
        results.append(("FAIL", "kunit-json"))
    if not results:
        results.append(("FAIL", "kunit-ran-no-tests"))

    # Without --from-boot only the test run counts: UML's boot warns about
    # PCI without a virtio device (arch_uml.config enables it), which no test
    # here uses.
    splats = []
    found = set()
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            testing = args.from_boot
            for line in f:
                found.update(name for name, regex in args.require if regex.search(line))
                testing = testing or "KTAP version" in line
                if testing and SPLATS.search(line):
                    splats.append(line.rstrip())
    except OSError as err:
        splats = [str(err)]
    results.append(("FAIL" if splats else "PASS", "kernel-log-clean"))
    for name, _ in args.require:
        results.append(("PASS" if name in found else "FAIL", name))

    for prefix, path in args.part:
        mine = [r for r in results if r[1].startswith(prefix)]
        results = [r for r in results if not r[1].startswith(prefix)]
        write_counts(path, mine or [("FAIL", f"{prefix}-ran-no-tests")])
    write_counts(counts_path, results)
    for line in splats[:20]:
        print(f"  kernel log: {line}")


if __name__ == "__main__":
    main()
