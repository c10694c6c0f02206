#!/usr/bin/env python3
"""Checker regression corpus: every case's diagnostics, counted, against its .expect file.

A case is CATEGORY/NAME.sim (an Oclgrind .sim naming its kernel source) or CATEGORY/NAME.cl
run with the options in NAME.expect, plus NAME.expect:

    # Why these diagnostics, from the spec (cite the section).
    command: run                  run (default) or check
    options: --check-races        spvsim options (may repeat; also --global/--arg for a .cl)
    levels: -O0 | -O2 | -O2 -g    build options to run at, separated by '|'
                                  (default: -O0 | -O2)
    error data-race 3             SEVERITY KIND N: N occurrences (a diagnostic and its
                                  repeats) of that severity and kind, summed over the run
    error data-race 1 line 7      ... N of them at source line 7 (the case runs with -g)
    stderr: REGEX                 stderr must match (Python re.search, multi-line)
    exit: 2                       the exit status

Every (severity, kind) not listed must not occur: the counts are exact. The expected
values come from the specs, worked by hand, never from running spvsim.
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


class Expect:
    def __init__(self, path):
        self.path = path
        self.command = "run"
        self.options = []
        self.levels = ["-O0", "-O2"]
        self.counts = collections.Counter()  # (severity, kind) -> n
        self.line_counts = collections.Counter()  # (severity, kind, line) -> n
        self.stderr = []
        self.exit = None
        with open(path) as f:
            for number, raw in enumerate(f, 1):
                self._parse(raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("stderr:") else raw.strip(), number)
        if self.exit is None:
            raise SystemExit(f"{path}: no 'exit:' line")
        if self.line_counts:
            self.levels = [lv if "-g" in lv.split() else lv + " -g" for lv in self.levels]

    def _parse(self, line, number):
        if not line:
            return
        key, _, rest = line.partition(":")
        rest = rest.strip()
        if key == "command" and rest in ("run", "check"):
            self.command = rest
        elif key == "options":
            self.options += rest.split()
        elif key == "levels":
            self.levels = [lv.strip() for lv in rest.split("|") if lv.strip()]
        elif key == "stderr":
            self.stderr.append(rest)
        elif key == "exit":
            self.exit = int(rest)
        else:
            words = line.split()
            if len(words) in (3, 5) and words[0] in ("error", "warning") and words[2].isdigit():
                if len(words) == 5 and words[3] == "line" and words[4].isdigit():
                    self.line_counts[(words[0], words[1], int(words[4]))] += int(words[2])
                    return
                if len(words) == 3:
                    self.counts[(words[0], words[1])] += int(words[2])
                    return
            raise SystemExit(f"{self.path}:{number}: cannot read '{line}'")


def source_line(d):
    m = re.search(r":(\d+)$", d.get("line", ""))
    return int(m.group(1)) if m else None


def run_case(spvsim, case, expect, level, workdir):
    report = os.path.join(workdir, "report.json")
    if os.path.exists(report):
        os.remove(report)
    cmd = [spvsim, expect.command, case, "--build-options=" + level, "--no-cache",
           "--json", report] + expect.options
    env = dict(os.environ, HOME=workdir)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    problems = []
    if p.returncode != expect.exit:
        problems.append(f"exit status {p.returncode}, expected {expect.exit}")
    for pattern in expect.stderr:
        if not re.search(pattern, p.stderr, re.M):
            problems.append(f"stderr does not match /{pattern}/")
    counts, line_counts = collections.Counter(), collections.Counter()
    if os.path.exists(report):
        with open(report) as f:
            for d in json.load(f).get("diagnostics", []):
                n = 1 + d.get("repeats", 0)
                counts[(d["severity"], d["kind"])] += n
                line_counts[(d["severity"], d["kind"], source_line(d))] += n
    elif expect.exit != 1:
        problems.append("no JSON report written")
    for key in sorted(set(counts) | set(expect.counts)
                      | {(s, k) for s, k, _ in expect.line_counts}):
        want = expect.counts.get(key)
        if want is None:
            # Only line-qualified expectations for this kind: the total is their sum.
            want = sum(n for (s, k, _), n in expect.line_counts.items() if (s, k) == key)
        if counts[key] != want:
            problems.append(f"{key[0]} {key[1]}: {counts[key]} occurrences, expected {want}")
    for key, want in expect.line_counts.items():
        if line_counts[key] != want:
            problems.append(f"{key[0]} {key[1]} at line {key[2]}: {line_counts[key]}, "
                            f"expected {want}")
    return problems, cmd, p


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--spvsim", required=True)
    ap.add_argument("-k", default="", help="only cases whose path matches this regex")
    ap.add_argument("-v", action="store_true", help="print each command and its stderr")
    args = ap.parse_args()
    cases = []
    for root, _, files in os.walk(HERE):
        for name in sorted(files):
            if name.endswith(".expect"):
                stem = os.path.join(root, name[:-len(".expect")])
                kernel = stem + ".sim" if os.path.exists(stem + ".sim") else stem + ".cl"
                if re.search(args.k, kernel):
                    cases.append((kernel, Expect(stem + ".expect")))
    if not cases:
        raise SystemExit("no cases")
    failures = 0
    with tempfile.TemporaryDirectory() as workdir:
        for kernel, expect in sorted(cases, key=lambda c: c[0]):
            for level in expect.levels:
                problems, cmd, p = run_case(args.spvsim, kernel, expect, level, workdir)
                name = f"{os.path.relpath(kernel, HERE)} [{level}]"
                if args.v or problems:
                    print(" ".join(cmd))
                    print(p.stderr, end="")
                print(("FAIL " if problems else "ok   ") + name)
                for problem in problems:
                    print("     " + problem)
                failures += bool(problems)
    print(f"{len(cases)} cases, {failures} failed runs")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
