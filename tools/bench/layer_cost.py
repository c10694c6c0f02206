#!/usr/bin/python3
"""What the OpenCL layer (libspvsim-layer.so, README "OpenCL layer") costs a PyOpenCL
application: the same app run without the layer and with it over the machine's default
driver, wall time of the launches (best of --repeat), and the ratio.

  /usr/bin/python3 tools/bench/layer_cost.py [--layer PATH] [--repeat N] [--size N]
        [--launches N]

The app (run in a child process per measurement, as an application runs): saxpy on
--size floats and a 64-bin histogram with local atomics over --size ints, --launches
each, every launch waited for (clFinish), after one warm-up launch of each kernel. The
layer shadows every launch (no SPVSIM_SHADOW_FILTER), with its diagnostics discarded.
"""
import argparse
import os
import subprocess
import sys
import time

APP = r"""
import sys, time
import numpy as np
import pyopencl as cl
size, launches = int(sys.argv[1]), int(sys.argv[2])
ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
q = cl.CommandQueue(ctx)
src = '''
kernel void saxpy(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
kernel void histogram(global const uint *in, global uint *bins, local uint *part) {
  size_t l = get_local_id(0);
  if (l < 64) part[l] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&part[in[get_global_id(0)] % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < 64) atomic_add(&bins[l], part[l]);
}
'''
prg = cl.Program(ctx, src).build()
mf = cl.mem_flags
x = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.arange(size, dtype=np.float32))
y = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.ones(size, dtype=np.float32))
data = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR,
                 hostbuf=(np.arange(size, dtype=np.uint32) * 2654435761 % 4096).astype(np.uint32))
bins = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(64, dtype=np.uint32))
local = cl.LocalMemory(64 * 4)
def once():
    prg.saxpy(q, (size,), (64,), np.float32(0.5), x, y)
    prg.histogram(q, (size,), (64,), data, bins, local)
    q.finish()
once()
start = time.perf_counter()
for _ in range(launches):
    once()
print(time.perf_counter() - start)
"""


def run(env, size, launches):
    out = subprocess.run([sys.executable, "-c", APP, str(size), str(launches)], env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=True)
    return float(out.stdout.decode().strip().splitlines()[-1])


def main():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--layer", default=os.path.join(root, "bazel-bin/runtime/layer/libspvsim-layer.so"))
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--size", type=int, default=1 << 16)
    p.add_argument("--launches", type=int, default=10)
    a = p.parse_args()
    if not os.path.exists(a.layer):
        sys.exit(f"layer_cost.py: no layer at {a.layer} (bazel build //runtime/layer:all)")
    base = dict(os.environ, PYOPENCL_NO_CACHE="1")
    layered = dict(base, OPENCL_LAYERS=a.layer, SPVSIM_DIAGNOSTICS="none")
    without, with_layer = [], []
    for _ in range(a.repeat):  # interleaved, so load from elsewhere hits both alike
        without.append(run(base, a.size, a.launches))
        with_layer.append(run(layered, a.size, a.launches))
    w, l = min(without), min(with_layer)
    n = 2 * a.launches
    print(f"{n} launches of {a.size} work-items (saxpy, histogram), best of {a.repeat}:")
    print(f"  without the layer  {w:8.3f} s  ({w / n * 1e3:8.2f} ms per launch)")
    print(f"  with the layer     {l:8.3f} s  ({l / n * 1e3:8.2f} ms per launch)")
    print(f"  ratio              {l / w:8.1f}x")


if __name__ == "__main__":
    main()
