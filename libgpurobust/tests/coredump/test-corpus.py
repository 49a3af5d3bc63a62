#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Copyright © 2026 The gpurobust authors
"""Check `gpurobust report --json` against fixtures/EXPECTED, file by file.

usage: test-corpus.py FIXTURES_DIR GPUROBUST [--score]

Every fixture named in EXPECTED is run through the command as a triager runs
it: a .devcoredump as the dump, anything else with --dmesg. Each expected
value is one check. Without --score the script prints TAP, one test per file,
and fails when any check fails. With --score it prints the per-field recovery
table instead (devcoredump texts and kernel logs apart) and always exits 0,
so that it can measure an older build too: a report without "hangs" and
"faults" arrays is read as one hang and one fault (its what_happened).
"""
import json
import os
import shlex
import subprocess
import sys

HANG_KEYS = ["ring", "recovery", "outcome", "process", "pid", "thread", "tid",
             "vram_lost", "device"]
FAULT_KEYS = ["hub", "addr", "status", "client", "process", "pid", "thread", "tid", "device"]
NUMERIC = {"pid", "tid", "addr", "status"}


def parse_expected(path):
    files, cur = [], None
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("["):
                cur = {"name": line[1:-1], "hangs": [], "faults": [], "counts": {}}
                files.append(cur)
                continue
            words = shlex.split(line)
            kind, rest = words[0], words[1:]
            if kind in ("hang", "fault"):
                cur[kind + "s"].append(dict(w.split("=", 1) for w in rest))
            else:
                cur["counts"][kind] = rest[0]
    return files


def run(tool, fixtures, name):
    path = os.path.join(fixtures, name)
    if name.endswith(".devcoredump"):
        argv = [tool, "report", "--json", path]
    else:
        argv = [tool, "report", "--json", "--dmesg", path]
    p = subprocess.run(argv, capture_output=True)
    try:
        report = json.loads(p.stdout.decode("utf-8")) if p.returncode == 0 else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        report = None
    return p.returncode, report


def legacy_view(report):
    """An older report: one hang and one fault in what_happened."""
    w = report.get("what_happened", {})
    hang = {"ring": w.get("ring") or None, "recovery": w.get("recovery"),
            "outcome": w.get("outcome"), "process": w.get("process") or None,
            "pid": w.get("pid"), "vram_lost": w.get("vram_lost")}
    f = w.get("vm_fault")
    faults = []
    if f:
        faults.append({"hub": f.get("hub"), "address": f.get("address"),
                       "status": f.get("status"), "client": f.get("client") or None})
    return [hang], faults, None, None


def view(report):
    if "hangs" not in report:
        return legacy_view(report)
    src = report.get("source", {})
    return report["hangs"], report["faults"], src.get("family"), src.get("partial")


def same(key, want, got):
    if got is None:
        return False
    if key == "vram_lost":
        return (want == "yes") == bool(got)
    if key in NUMERIC:
        try:
            return int(want, 0) == (int(got, 0) if isinstance(got, str) else int(got))
        except (TypeError, ValueError):
            return False
    return want == str(got)


def check_file(tool, fixtures, exp, tally):
    kind = "dump" if exp["name"].endswith(".devcoredump") else "log"
    fails = []

    def count(field, ok, what):
        t = tally.setdefault((kind, field), [0, 0])
        t[1] += 1
        t[0] += bool(ok)
        if not ok:
            fails.append(what)

    rc, report = run(tool, fixtures, exp["name"])
    if exp["counts"].get("nothing") == "yes":
        count("nothing to report", rc == 4, "exit status %d, want 4" % rc)
        return fails
    if report is None:
        count("report", False, "no report (exit status %d)" % rc)
        return fails
    hangs, faults, family, partial = view(report)
    for kind_name, records, keys in (("hang", hangs, HANG_KEYS), ("fault", faults, FAULT_KEYS)):
        for i, want in enumerate(exp[kind_name + "s"]):
            got = records[i] if i < len(records) else {}
            for key in (k for k in keys if k in want):
                g = got.get({"addr": "address"}.get(key, key))
                count(kind_name + " " + key, same(key, want[key], g),
                      "%s %d %s: want %r, got %r" % (kind_name, i, key, want[key], g))
    c = exp["counts"]
    if "hangs" in c:
        count("number of hangs", int(c["hangs"]) == len(hangs),
              "hangs: want %s, got %d" % (c["hangs"], len(hangs)))
    if "faults" in c:
        count("number of faults", int(c["faults"]) == len(faults),
              "faults: want %s, got %d" % (c["faults"], len(faults)))
    if "family" in c:
        count("SOC family", same("pid", c["family"], family),
              "family: want %s, got %r" % (c["family"], family))
    if "partial" in c:
        count("partial dump said", bool(partial), "partial: want yes, got %r" % partial)
    return fails


def main():
    fixtures, tool = sys.argv[1], sys.argv[2]
    score = "--score" in sys.argv[3:]
    expected = parse_expected(os.path.join(fixtures, "EXPECTED"))
    tally, failed = {}, 0
    if not score:
        print("1..%d" % len(expected))
    for n, exp in enumerate(expected, 1):
        fails = check_file(tool, fixtures, exp, tally)
        failed += bool(fails)
        if not score:
            print("%s %d - %s" % ("not ok" if fails else "ok", n, exp["name"]))
            for f in fails:
                print("#   " + f)
    if score:
        print("| field | devcoredump texts | kernel logs |")
        print("|---|---|---|")
        fields = sorted({f for _, f in tally}, key=lambda f: (f.split()[0], f))
        for field in fields:
            cells = []
            for kind in ("dump", "log"):
                t = tally.get((kind, field))
                cells.append("%d of %d" % tuple(t) if t else "—")
            print("| %s | %s | %s |" % (field, cells[0], cells[1]))
        for kind, label in (("dump", "devcoredump"), ("log", "kernel-log")):
            ok = sum(v[0] for (k, _), v in tally.items() if k == kind)
            total = sum(v[1] for (k, _), v in tally.items() if k == kind)
            print("%s fields: %d of %d" % (label, ok, total))
        return 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
