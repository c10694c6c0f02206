#!/usr/bin/env python3
"""How many translation units reach a header through quoted #includes, transitively.

  /usr/bin/python3 tools/include_reach.py [HEADER]   (default src/exec/program.h)

Prints the units that include it (all, production ones, those in src/exec) and the
src/exec headers through which they do. Used to measure the include knot of issue 36: a
header that many units reach recompiles them all when it changes.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'#include "([^"]+)"')


def main():
    target = sys.argv[1] if len(sys.argv) > 1 else "src/exec/program.h"
    cache = {}

    def deps(path):
        if path in cache:
            return cache[path]
        cache[path] = set()
        full = os.path.join(ROOT, path)
        if not os.path.exists(full):
            return cache[path]
        out = set()
        with open(full, errors="replace") as f:
            for m in INCLUDE.finditer(f.read()):
                out.add(m.group(1))
                out |= deps(m.group(1))
        cache[path] = out
        return out

    units = []
    for top in ("src", "runtime", "tools", "spirv"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            units += [os.path.relpath(os.path.join(folder, f), ROOT) for f in files
                      if f.endswith(".cc")]
    reach = [u for u in units if target in deps(u)]
    production = [u for u in reach if not u.endswith("_test.cc") and
                  not any(p in u for p in ("/testing/", "/fuzz/", "/bench/"))]
    in_exec = [u for u in production if u.startswith("src/exec/")]
    headers = sorted(h for h in cache if h.startswith("src/exec/") and h.endswith(".h")
                     and target in deps(h))
    print(f"{target}: {len(reach)} units include it ({len(production)} production, "
          f"{len(in_exec)} in src/exec); src/exec headers that include it: {headers}")


if __name__ == "__main__":
    main()
