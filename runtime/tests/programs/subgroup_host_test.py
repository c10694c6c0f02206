"""The sub-group host program against `spvsim run` and a host model.

subgroup_host runs subgroup_kernel.cl (sub_group_reduce_add and intel_sub_group_shuffle)
through the OpenCL ICD loader and libspvsim-opencl.so; `spvsim run` runs the same kernel
with the same arguments from the command line. Their dumped buffers must be identical,
and equal to what a Python model of the kernel computes from the OpenCL sub-group rules:
a work-group's work-items, in linear local id order, are cut into sub-groups of the
configured size (SPVSIM_SUB_GROUP_SIZE / --sub-group-size), all full but the last.

Usage: subgroup_host_test.py --host H --spvsim S --icd LIB --kernel K
"""

import argparse
import itertools
import os
import subprocess
import sys

# (global, local, delta, sub-group size): non-uniform work-groups and partial last
# sub-groups in 1-D, 2- and 3-D work-groups cut across rows.
CASES = [
    ("100", "48", 3, 16),
    ("100", "48", 5, 8),
    ("37", "37", 1, 5),
    ("12,5", "6,5", 1, 16),
    ("8,3,2", "4,3,2", 7, 8),
    ("64", "64", 0, 32),
]


def sizes(text):
    v = [int(x) for x in text.split(",")]
    return v + [1] * (3 - len(v))


def model(global_text, local_text, delta, width):
    """sums and rotated for every global linear id, as the OpenCL C spec defines them."""
    g, l = sizes(global_text), sizes(local_text)
    n = g[0] * g[1] * g[2]
    values = [-50 + 3 * i for i in range(n)]
    sums, rotated = [None] * n, [None] * n
    groups = [range((gd + ld - 1) // ld) for gd, ld in zip(g, l)]
    for wz, wy, wx in itertools.product(groups[2], groups[1], groups[0]):
        # The work-group's actual size (the last one in a dimension may be smaller).
        size = [min(l[d], g[d] - w * l[d]) for d, w in enumerate((wx, wy, wz))]
        members = []  # global linear ids in linear local id order
        for lz, ly, lx in itertools.product(range(size[2]), range(size[1]), range(size[0])):
            x, y, z = wx * l[0] + lx, wy * l[1] + ly, wz * l[2] + lz
            members.append(x + y * g[0] + z * g[0] * g[1])
        for start in range(0, len(members), width):
            sub = members[start:start + width]
            total = sum(values[i] for i in sub)
            for lane, i in enumerate(sub):
                sums[i] = total
                rotated[i] = values[sub[(lane + delta) % len(sub)]]
    return values, sums, rotated


def parse_dump(text):
    """{index: [ints]} from `argN int[M] = v v v` lines."""
    out = {}
    for line in text.splitlines():
        head, _, values = line.partition(" = ")
        out[int(head.split()[0][3:])] = [int(v) for v in values.split()]
    return out


def run(argv, env=None):
    r = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    if r.returncode != 0:
        sys.exit(f"{' '.join(argv)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    return r.stdout


def main():
    p = argparse.ArgumentParser()
    for name in ("--host", "--spvsim", "--icd", "--kernel"):
        p.add_argument(name, required=True)
    args = p.parse_args()
    failures = 0
    for global_text, local_text, delta, width in CASES:
        n = 1
        for s in sizes(global_text):
            n *= s
        env = dict(os.environ, OCL_ICD_VENDORS=args.icd, SPVSIM_SUB_GROUP_SIZE=str(width))
        host = run([args.host, args.kernel, global_text, local_text, str(delta)], env)
        cli = run([args.spvsim, "run", args.kernel, "--kernel", "reduce_shuffle",
                   "--global", global_text, "--local", local_text,
                   "--sub-group-size", str(width), "--build-options=-cl-std=CL3.0",
                   "--arg", f"buffer:int[{n}]=range(-50,3)", "--arg", f"buffer:int[{n}]=zero",
                   "--arg", f"buffer:int[{n}]=zero", "--arg", f"uint:{delta}", "--dump"])
        case = f"global {global_text} local {local_text} delta {delta} sub-group size {width}"
        expected = dict(enumerate(model(global_text, local_text, delta, width)))
        if host != cli:
            failures += 1
            print(f"FAIL {case}: the ICD and spvsim run differ\nICD:\n{host}spvsim run:\n{cli}")
        elif parse_dump(host) != expected:
            failures += 1
            print(f"FAIL {case}: differs from the model\ngot:\n{host}expected: {expected}")
        else:
            print(f"ok   {case}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
