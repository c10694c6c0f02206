#!/usr/bin/env python3
"""Cross-checks the checker corpus on Oclgrind (not a test): for every .sim case, whether
Oclgrind (`oclgrind-kernel --data-races --uniform-writes --uninitialized`) reports an
error agrees with whether the case's .expect file expects one. `--uniform-writes`: like
spvsim, which follows the memory model, Oclgrind then reports writes of the same value
by several work-items as races (it suppresses them by default).

Cases that run only at -O0 are built by Oclgrind with -cl-opt-disable; sub-group cases
(Oclgrind has no sub-groups) and `spvsim check` cases are beyond it. Only presence is
compared: Oclgrind counts differently (a read-write and a write-write race
per racing pair, an invalid read and write per atomic), builds with its own options, and
cannot compile OpenCL C 2.0 kernels (those are listed as skipped).

    /usr/bin/python3 testdata/checks/crosscheck_oclgrind.py [-k REGEX]
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# The first line of each Oclgrind report (its error messages), as of Oclgrind 21.10.
REPORT = re.compile(r"^(Read-write data race|Write-write data race|Invalid (read|write)|"
                    r"Uninitialized|Work-group divergence|Work-item divergence|"
                    r"Atomic|Invalid |Index \(\d+\) exceeds|Controlflow depends|"
                    r"Invalid memory address)", re.M)
# Where Oclgrind's verdict differs for a reason the case's .expect explains.
KNOWN = {
    "barrier/sub_group_barrier_divergent.sim": "Oclgrind has no sub-groups",
    "barrier/sub_group_barrier_divergent_sg8.sim": "Oclgrind has no sub-groups",
    "memcheck/fake_out_of_bounds.sim":
        "valid byte view of a struct (C99 6.3.2.3p7) that LLVM folds into an index of its "
        "first member, uchar[1]; Oclgrind reports that index",
}


def read_expect(path):
    """(whether an error is expected, whether the case runs only unoptimised)."""
    with open(path) as f:
        lines = f.read().splitlines()
    error = any(re.match(r"error\s+\S+\s+[1-9]", line) for line in lines)
    levels = [line.split(":", 1)[1] for line in lines if line.startswith("levels:")]
    return error, bool(levels) and "-O2" not in levels[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", default="", help="only cases whose path matches this regex")
    args = ap.parse_args()
    agree = disagree = skipped = 0
    for root, _, files in sorted(os.walk(HERE)):
        for name in sorted(files):
            sim = os.path.join(root, name)
            expect = sim[:-4] + ".expect"
            if not name.endswith(".sim") or not os.path.exists(expect):
                continue
            if not re.search(args.k, sim) or os.path.basename(root) == "check":
                continue
            ours, unoptimised = read_expect(expect)
            # A case that runs only at -O0 says why: the UB is optimised away at -O2.
            build = ["--build-options", "-cl-opt-disable"] if unoptimised else []
            p = subprocess.run(["oclgrind-kernel", "--data-races", "--uniform-writes",
                                "--uninitialized"] + build +
                               [name], cwd=root, capture_output=True, text=True, timeout=300)
            report = p.stdout + p.stderr  # Oclgrind prints some reports on stdout
            case = os.path.relpath(sim, HERE)
            if "error generated" in report or "errors generated" in report:
                print(f"skip  {case}: Oclgrind cannot build it")
                skipped += 1
                continue
            theirs = bool(REPORT.search(report))
            same = theirs == ours
            known = "" if same else KNOWN.get(case, "")
            agree += same
            disagree += not same and not known
            tag = "ok  " if same else "known" if known else "DIFF"
            print(f"{tag:5} {case}: expected {'an error' if ours else 'none'},"
                  f" Oclgrind {'reports' if theirs else 'reports none'}"
                  + (f" ({known})" if known else ""))
    print(f"{agree} agree, {disagree} differ unexplained, {skipped} skipped")
    return 1 if disagree else 0


if __name__ == "__main__":
    sys.exit(main())
