#!/usr/bin/python3
"""Times clBuildProgram of a program of N kernels against compiling its source alone.

  /usr/bin/python3 tools/bench/build_time.py [N ...] [--repeat R] [--spvsim PATH] [--icd PATH]

For each N (default 25 100 200) it generates N small kernels (each with a __local array,
a __local argument, a barrier and a sub-group reduction) and prints, side by side:
  compile   `spvsim compile` of the source (clang, llvm-spirv, the loader's repairs and
            validation), the compile cache off
  build     clBuildProgram of the source through spvsim's ICD and PyOpenCL (the same
            compile, then every kernel made ready to launch), both caches off
  build IL  clBuildProgram of the compiled SPIR-V (clCreateProgramWithIL): the ICD's own
            share (loading the module, lowering every kernel)
Each time is the best of --repeat runs (wall clock). Run from the repository root after
`bazel build //tools:spvsim //runtime:all`. A tool, not a test: nothing is asserted.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def source(n):
    return "\n".join(f"""
kernel void k{i}(global float* a, global const int* b, float s, local float* t) {{
  local float tile[64];
  size_t g = get_global_id(0), l = get_local_id(0);
  tile[l % 64] = a[g] * s + b[g] + {i};
  t[l] = tile[l % 64];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[g] = t[(l + 1) % get_local_size(0)] + sub_group_reduce_add(a[g]);
}}""" for i in range(n))


def no_cache_env(**extra):
    env = dict(os.environ, SPVSIM_CACHE="0")
    env.update(extra)
    return env


def compile_seconds(spvsim, path, out):
    cmd = [spvsim, "compile", path, "-o", out, "--no-cache", "--build-options", "-cl-std=CL1.2"]
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=no_cache_env(), stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


# In a child process, so that OCL_ICD_VENDORS names spvsim before PyOpenCL starts.
def build_seconds(icd, path):
    child = [sys.executable, os.path.abspath(__file__), "--child", path]
    env = no_cache_env(OCL_ICD_VENDORS=icd, PYOPENCL_NO_CACHE="1")
    r = subprocess.run(child, check=True, env=env, stdout=subprocess.PIPE, text=True)
    return float(r.stdout.strip().splitlines()[-1])


def child(path):
    import pyopencl as cl
    with open(path, "rb") as f:
        content = f.read()
    # bytes: a program from IL; str: from source
    program = content if path.endswith(".spv") else content.decode()
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    start = time.perf_counter()
    cl.Program(ctx, program).build()
    print(time.perf_counter() - start)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("counts", nargs="*", type=int, default=[25, 100, 200])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--spvsim", default=os.path.join(ROOT, "bazel-bin/tools/spvsim"))
    ap.add_argument("--icd", default=os.path.join(ROOT, "bazel-bin/runtime/libspvsim-opencl.so"))
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        return child(args.child)
    print(f"{'kernels':>8} {'compile s':>10} {'build s':>9} {'build IL s':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.counts:
            path = os.path.join(tmp, f"kernels{n}.cl")
            with open(path, "w") as f:
                f.write(source(n))
            out = os.path.join(tmp, f"kernels{n}.spv")
            c = min(compile_seconds(args.spvsim, path, out) for _ in range(args.repeat))
            b = min(build_seconds(args.icd, path) for _ in range(args.repeat))
            il = min(build_seconds(args.icd, out) for _ in range(args.repeat))
            print(f"{n:>8} {c:>10.2f} {b:>9.2f} {il:>11.2f}", flush=True)


if __name__ == "__main__":
    main()
