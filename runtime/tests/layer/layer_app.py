#!/usr/bin/python3
"""A PyOpenCL application for the layer's test (runtime/layer/tests/layer_test.sh): a few
kernels as an application runs them, printing what the device computed (the test compares
this output with and without the layer) and, last, "launches N" for the launches it
made.

  layer_app.py SPV_PATH SPVSIM

The IL part runs only where the device takes SPIR-V (CL_DEVICE_IL_VERSION): SPV_PATH is
compiled there by `SPVSIM compile`.
"""
import subprocess
import sys

import numpy as np
import pyopencl as cl

SOURCE = """
kernel void triad(global const int *a, global const int *b, global int *c, int k) {
  size_t i = get_global_id(0);
  c[i] = a[i] * k + b[i];
}
kernel void expo(global float *y, float s) {
  size_t i = get_global_id(0);
  y[i] = exp(y[i]) * s;
}
kernel void fill_image(write_only image2d_t img) {
  write_imagef(img, (int2)(get_global_id(0), get_global_id(1)), (float4)(0.25f, 0.5f, 0.75f, 1));
}
kernel void smooth(read_only image2d_t src, sampler_t s, write_only image2d_t dst) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagef(dst, p, (read_imagef(src, s, p) + read_imagef(src, s, p + (int2)(1, 0))) * 0.5f);
}
"""

IL_SOURCE = """
kernel void reverse(global const uint *in, global uint *out) {
  size_t i = get_global_id(0), n = get_global_size(0);
  out[n - 1 - i] = in[i] ^ 0x5a5a5a5au;
}
"""


def main():
    spv_path, spvsim = sys.argv[1], sys.argv[2]
    platform = cl.get_platforms()[0]
    device = platform.get_devices()[0]
    ctx = cl.Context([device])
    q = cl.CommandQueue(ctx)
    mf = cl.mem_flags
    prg = cl.Program(ctx, SOURCE).build()
    launches = 0

    n = 256
    a = np.arange(n, dtype=np.int32)
    b = (1000 - 3 * a).astype(np.int32)
    ba = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
    bb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=b)
    bc = cl.Buffer(ctx, mf.WRITE_ONLY, size=a.nbytes)
    prg.triad(q, (n,), (64,), ba, bb, bc, np.int32(5))
    launches += 1
    c = np.empty_like(a)
    cl.enqueue_copy(q, c, bc)
    assert (c == a * 5 + b).all(), "triad"
    print("triad", c.sum())

    # Two windows of one buffer as sub-buffers (256-byte aligned for any device).
    whole = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.concatenate([a, b]))
    first = whole.get_sub_region(0, a.nbytes)
    second = whole.get_sub_region(a.nbytes, a.nbytes)
    prg.triad(q, (n,), None, first, second, second, np.int32(2))
    launches += 1
    out = np.empty_like(a)
    cl.enqueue_copy(q, out, second)
    assert (out == a * 2 + b).all(), "sub-buffers"
    print("sub-buffers", out.sum())

    y = np.linspace(-4, 4, n).astype(np.float32)
    by = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
    prg.expo(q, (n,), (32,), by, np.float32(1.5))
    launches += 1
    cl.enqueue_copy(q, y, by)
    print("expo", " ".join(f"{v:.9g}" for v in y[::17]))

    # Images and a sampler, in float and normalized channels.
    for ctype, dtype in [(cl.channel_type.FLOAT, np.float32), (cl.channel_type.UNORM_INT8, np.uint8)]:
        fmt = cl.ImageFormat(cl.channel_order.RGBA, ctype)
        img = cl.Image(ctx, mf.READ_WRITE, fmt, shape=(8, 4))
        prg.fill_image(q, (8, 4), None, img)
        dst = cl.Image(ctx, mf.WRITE_ONLY, fmt, shape=(8, 4))
        smp = cl.Sampler(ctx, False, cl.addressing_mode.CLAMP_TO_EDGE, cl.filter_mode.NEAREST)
        prg.smooth(q, (8, 4), None, img, smp, dst)
        launches += 2
        pixels = np.empty((4, 8, 4), dtype=dtype)
        cl.enqueue_copy(q, pixels, dst, origin=(0, 0), region=(8, 4))
        print("image", pixels[1, 7].tolist())

    if device.get_info(cl.device_info.IL_VERSION).strip():
        cl_path = spv_path[:-len(".spv")] + ".cl"
        with open(cl_path, "w") as f:
            f.write(IL_SOURCE)
        subprocess.run([spvsim, "compile", cl_path, "-o", spv_path], check=True)
        il = cl.Program(ctx, open(spv_path, "rb").read()).build()
        data = np.arange(64, dtype=np.uint32)
        bi = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
        bo = cl.Buffer(ctx, mf.WRITE_ONLY, size=data.nbytes)
        il.reverse(q, (64,), None, bi, bo)
        launches += 1
        rev = np.empty_like(data)
        cl.enqueue_copy(q, rev, bo)
        print("il", rev[:4].tolist())
    q.finish()
    print("launches", launches)


if __name__ == "__main__":
    main()
