"""Kernels that read, sample, write and query images, run through the ICD (PyOpenCL) and
through `spvsim run` with image and sampler --arg specs. Expected values come from numpy
models of the OpenCL C spec's rules (nearest and linear filtering with their addressing
modes, normalized conversions, the channel-order mapping), never from spvsim itself.

Usage: image_kernels_test.py SPVSIM (OCL_ICD_VENDORS names libspvsim-opencl.so).
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np
import pyopencl as cl

mf = cl.mem_flags
co = cl.channel_order
ct = cl.channel_type
SPVSIM = None

KERNELS = """
#if __OPENCL_C_VERSION__ < 200
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
#endif
kernel void read_nearest(read_only image2d_t img, sampler_t s, global float4* out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * get_image_width(img) + x] = read_imagef(img, s, (int2)(x, y));
}
kernel void sample(read_only image2d_t img, sampler_t s, global const float2* coords,
                   global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(img, s, coords[i]);
}
kernel void write_f(write_only image2d_t img, global const float4* in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(img, (int2)(x, y), in[y * get_image_width(img) + x]);
}
kernel void read_ui3d(read_only image3d_t img, global uint4* out) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int w = get_image_width(img), h = get_image_height(img);
  out[(z * h + y) * w + x] = read_imageui(img, (int4)(x, y, z, 0));
}
kernel void write_3d(write_only image3d_t img) {
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  write_imageui(img, p, (uint4)(p.x + 10 * p.y + 100 * p.z, 7, 0, 0));
}
kernel void queries(read_only image2d_array_t img, global int* out) {
  out[0] = get_image_width(img);
  out[1] = get_image_height(img);
  out[2] = (int)get_image_array_size(img);
  out[3] = get_image_channel_data_type(img);
  out[4] = get_image_channel_order(img);
}
kernel void invert(read_only image2d_t src, write_only image2d_t dst, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageui(dst, p, (uint4)(255) - read_imageui(src, s, p));
}
kernel void read_buf(read_only image1d_buffer_t img, global int4* out) {
  int i = get_global_id(0);
  out[i] = read_imagei(img, i);
}
"""

OPTIONS = ["-cl-std=CL3.0 -O0", "-cl-std=CL3.0 -O2", "-cl-std=CL1.2 -O2"]


# --- numpy models (OpenCL C spec, "Image Addressing and Filtering")

def address(i, n, mode):
    """Integer texel index after the addressing mode, for CLAMP_TO_EDGE and NONE/CLAMP
    (None: outside, the border colour)."""
    if mode == "clamp_to_edge":
        return min(max(i, 0), n - 1)
    return i if 0 <= i < n else None


def texel(img, i, j, mode, border):
    h, w = img.shape[:2]
    ii, jj = address(i, w, mode), address(j, h, mode)
    if ii is None or jj is None:
        return border
    return img[jj, ii]


def sample_nearest(img, u, v, mode, border):
    return texel(img, int(np.floor(u)), int(np.floor(v)), mode, border)


def sample_linear(img, u, v, mode, border):
    i0, j0 = int(np.floor(u - 0.5)), int(np.floor(v - 0.5))
    a, b = (u - 0.5) - np.floor(u - 0.5), (v - 0.5) - np.floor(v - 0.5)
    t = lambda i, j: np.asarray(texel(img, i, j, mode, border), np.float64)
    return ((1 - a) * (1 - b) * t(i0, j0) + a * (1 - b) * t(i0 + 1, j0) +
            (1 - a) * b * t(i0, j0 + 1) + a * b * t(i0 + 1, j0 + 1))


def sample_repeat_nearest(img, s, t):
    h, w = img.shape[:2]
    u, v = (s - np.floor(s)) * w, (t - np.floor(t)) * h
    i, j = int(np.floor(u)), int(np.floor(v))
    return img[j - h if j > h - 1 else j, i - w if i > w - 1 else i]


def r_float_as_rgba(values):
    """read_imagef of a CL_R image: (r, 0, 0, 1)."""
    out = np.zeros(values.shape + (4,), np.float32)
    out[..., 0] = values
    out[..., 3] = 1
    return out


class ImageKernelTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platforms = cl.get_platforms()
        assert len(platforms) == 1 and platforms[0].name == "spvsim", platforms
        cls.ctx = cl.Context([platforms[0].get_devices()[0]])
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.programs = {o: cl.Program(cls.ctx, KERNELS).build(options=o) for o in OPTIONS}
        cls.tmp = tempfile.mkdtemp()
        cls.source = os.path.join(cls.tmp, "images.cl")
        with open(cls.source, "w") as f:
            f.write(KERNELS)

    def cli(self, kernel, global_size, args, options):
        """`spvsim run` with --dump: {arg index: list of numbers}."""
        cmd = [SPVSIM, "run", self.source, "--kernel", kernel, "--global", global_size,
               "--build-options=" + options, "--dump"]
        for a in args:
            cmd += ["--arg", a]
        r = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        dumps = {}
        for line in r.stdout.splitlines():
            m = re.match(r"arg(\d+) .*? = (.*)$", line)
            if m:
                dumps[int(m.group(1))] = [float(x) for x in
                                          re.findall(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|nan|inf)",
                                                     m.group(2))]
        return dumps

    def test_read_nearest_unorm8(self):
        rng = np.random.default_rng(1)
        pixels = rng.integers(0, 256, (3, 5, 4), dtype=np.uint8)
        expected = pixels.astype(np.float32) / 255  # UNORM_INT8: c / 255
        fmt = cl.ImageFormat(co.RGBA, ct.UNORM_INT8)
        for o, prg in self.programs.items():
            img = cl.Image(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(5, 3),
                           hostbuf=pixels)
            smp = cl.Sampler(self.ctx, False, cl.addressing_mode.CLAMP_TO_EDGE,
                             cl.filter_mode.NEAREST)
            out = np.zeros((3, 5, 4), np.float32)
            ob = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
            prg.read_nearest(self.queue, (5, 3), None, img, smp, ob)
            cl.enqueue_copy(self.queue, out, ob)
            np.testing.assert_allclose(out, expected, rtol=0, atol=1e-7, err_msg=o)
        init = "values(" + ",".join(str(v) for v in pixels.ravel()) + ")"
        for o in OPTIONS:
            d = self.cli("read_nearest", "5,3", ["image2d:RGBA,UNORM_INT8[5,3]=" + init,
                                                 "sampler:UNNORMALIZED,CLAMP_TO_EDGE,NEAREST",
                                                 "buffer:float4[15]"], o)
            np.testing.assert_allclose(np.array(d[2]).reshape(3, 5, 4), expected, atol=1e-6)
            np.testing.assert_array_equal(np.array(d[0]), pixels.ravel())  # unchanged image

    def test_sampling_float_images(self):
        # R FLOAT 4x3 image; coordinates inside, on edges and outside.
        values = np.arange(12, dtype=np.float32).reshape(3, 4) * 1.5 - 2
        coords = np.array([[0.5, 0.5], [0.3, 0.7], [0.1, 0.95], [-0.2, 0.4], [1.3, 1.2],
                           [0.62, 0.17], [2.6, -1.1], [0.875, 0.5]], np.float32)
        am, fm = cl.addressing_mode, cl.filter_mode
        cases = [("clamp_to_edge", am.CLAMP_TO_EDGE, fm.NEAREST, "CLAMP_TO_EDGE,NEAREST"),
                 ("clamp_to_edge", am.CLAMP_TO_EDGE, fm.LINEAR, "CLAMP_TO_EDGE,LINEAR"),
                 ("clamp", am.CLAMP, fm.LINEAR, "CLAMP,LINEAR"),
                 ("clamp", am.CLAMP, fm.NEAREST, "CLAMP,NEAREST"),
                 ("repeat", am.REPEAT, fm.NEAREST, "REPEAT,NEAREST")]
        img_rgba = r_float_as_rgba(values)
        border = np.array([0, 0, 0, 1], np.float32)  # CL_R: border colour (0, 0, 0, 1)
        fmt = cl.ImageFormat(co.R, ct.FLOAT)
        for mode, cl_mode, cl_filter, spec in cases:
            expected = []
            for s, t in coords:
                u, v = float(s) * 4, float(t) * 3
                if mode == "repeat":
                    expected.append(sample_repeat_nearest(img_rgba, float(s), float(t)))
                elif cl_filter == fm.NEAREST:
                    expected.append(sample_nearest(img_rgba, u, v, mode, border))
                else:
                    expected.append(sample_linear(img_rgba, u, v, mode, border))
            expected = np.array(expected, np.float32)
            for o, prg in self.programs.items():
                img = cl.Image(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(4, 3),
                               hostbuf=values)
                smp = cl.Sampler(self.ctx, True, cl_mode, cl_filter)
                cb = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=coords)
                out = np.zeros((len(coords), 4), np.float32)
                ob = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
                prg.sample(self.queue, (len(coords),), None, img, smp, cb, ob)
                cl.enqueue_copy(self.queue, out, ob)
                np.testing.assert_allclose(out, expected, atol=1e-4, err_msg=f"{spec} {o}")
            d = self.cli("sample", str(len(coords)), [
                "image2d:R,FLOAT[4,3]=values(" + ",".join(repr(float(v)) for v in values.ravel()) + ")",
                "sampler:NORMALIZED," + spec,
                "buffer:float2[%d]=values(%s)" % (len(coords), ",".join(repr(float(c)) for c in coords.ravel())),
                "buffer:float4[%d]" % len(coords)], OPTIONS[1])
            np.testing.assert_allclose(np.array(d[3]).reshape(-1, 4), expected, atol=1e-4,
                                       err_msg=spec)

    def test_write_unorm8(self):
        # write_imagef to UNORM_INT8: convert_uchar_sat_rte(v * 255.0f), the product in
        # single precision (0.3f * 255.0f is 76.5f, which rounds to 76).
        vals = np.array([[0.25, 1.5, -0.5, 0.1], [0.5, 0.999, 0.0039, 1.0],
                         [0.75, 0.2, 0.3, 0.4], [0.6, 0.7, 0.8, 0.9]], np.float32)
        expected = np.clip(np.rint(vals * np.float32(255)), 0, 255).astype(np.uint8)
        fmt = cl.ImageFormat(co.RGBA, ct.UNORM_INT8)
        for o, prg in self.programs.items():
            img = cl.Image(self.ctx, mf.WRITE_ONLY, fmt, shape=(2, 2))
            ib = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=vals)
            prg.write_f(self.queue, (2, 2), None, img, ib)
            out = np.zeros((2, 2, 4), np.uint8)
            cl.enqueue_copy(self.queue, out, img, origin=(0, 0), region=(2, 2))
            np.testing.assert_array_equal(out.reshape(4, 4), expected, err_msg=o)
        d = self.cli("write_f", "2,2", [
            "image2d:RGBA,UNORM_INT8[2,2]",
            "buffer:float4[4]=values(" + ",".join(repr(float(v)) for v in vals.ravel()) + ")"],
            OPTIONS[0])
        np.testing.assert_array_equal(np.array(d[0]).reshape(4, 4), expected)

    def test_read_3d_uint(self):
        vol = np.arange(3 * 2 * 4 * 2, dtype=np.uint32).reshape(3, 2, 4, 2) * 1000
        expected = np.zeros((3, 2, 4, 4), np.uint32)
        expected[..., :2] = vol
        expected[..., 3] = 1  # CL_RG: (r, g, 0, 1)
        fmt = cl.ImageFormat(co.RG, ct.UNSIGNED_INT32)
        for o, prg in self.programs.items():
            img = cl.Image(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, fmt, shape=(4, 2, 3),
                           hostbuf=vol)
            out = np.zeros_like(expected)
            ob = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
            prg.read_ui3d(self.queue, (4, 2, 3), None, img, ob)
            cl.enqueue_copy(self.queue, out, ob)
            np.testing.assert_array_equal(out, expected, err_msg=o)

    def test_write_3d(self):
        """cl_khr_3d_image_writes: every voxel written once, x fastest in memory."""
        z, y, x = np.meshgrid(np.arange(3), np.arange(2), np.arange(4), indexing="ij")
        expected = np.stack([x + 10 * y + 100 * z, np.full_like(x, 7)], -1).astype(np.uint32)
        fmt = cl.ImageFormat(co.RG, ct.UNSIGNED_INT32)
        for o, prg in self.programs.items():
            img = cl.Image(self.ctx, mf.WRITE_ONLY, fmt, shape=(4, 2, 3))
            prg.write_3d(self.queue, (4, 2, 3), None, img)
            out = np.zeros_like(expected)
            cl.enqueue_copy(self.queue, out, img, origin=(0, 0, 0), region=(4, 2, 3))
            np.testing.assert_array_equal(out, expected, err_msg=o)
            d = self.cli("write_3d", "4,2,3", ["image3d:RG,UNSIGNED_INT32[4,2,3]"], o)
            np.testing.assert_array_equal(np.array(d[0]), expected.ravel(), err_msg=o)

    def test_queries_and_1d_buffer(self):
        fmt = cl.ImageFormat(co.BGRA, ct.UNORM_INT8)
        for o, prg in self.programs.items():
            arr = cl.Image(self.ctx, mf.READ_ONLY, fmt, shape=(6, 5, 3), is_array=True)
            out = np.zeros(5, np.int32)
            ob = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
            prg.queries(self.queue, (1,), None, arr, ob)
            cl.enqueue_copy(self.queue, out, ob)
            # CLK_UNORM_INT8 = 0x10D2, CLK_BGRA = 0x10B6 (OpenCL C spec values).
            np.testing.assert_array_equal(out, [6, 5, 3, 0x10D2, 0x10B6], err_msg=o)
            data = np.arange(-8, 8, dtype=np.int8)
            buf = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=data)
            img = cl.Image(self.ctx, mf.READ_ONLY, cl.ImageFormat(co.RGBA, ct.SIGNED_INT8),
                           shape=(4,), buffer=buf)
            got = np.zeros((4, 4), np.int32)
            gb = cl.Buffer(self.ctx, mf.WRITE_ONLY, got.nbytes)
            prg.read_buf(self.queue, (4,), None, img, gb)
            cl.enqueue_copy(self.queue, got, gb)
            np.testing.assert_array_equal(got, data.reshape(4, 4).astype(np.int32), err_msg=o)

    def test_sim_file(self):
        # A .sim file with image and sampler headers; CL_R reads as (r, 0, 0, 1) and
        # write_imageui stores the red channel: 255 - v.
        src = np.array([1, 2, 30, 250], np.uint8)
        sim = os.path.join(self.tmp, "invert.sim")
        with open(sim, "w") as f:
            f.write("images.cl\ninvert\n2 2 1\n2 2 1\n<image2d R,UNSIGNED_INT8[2,2]>\n" +
                    " ".join(str(v) for v in src) + "\n<image2d R,UNSIGNED_INT8[2,2] noinit dump>\n"
                    "<sampler UNNORMALIZED,CLAMP,NEAREST>\n")
        r = subprocess.run([SPVSIM, "run", sim], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "arg1 image2d R,UNSIGNED_INT8[2,2] = " +
                         " ".join(str(255 - int(v)) for v in src))

    def test_argument_errors(self):
        prg = self.programs[OPTIONS[0]]
        fmt = cl.ImageFormat(co.RGBA, ct.UNORM_INT8)
        k = prg.write_f
        ro = cl.Image(self.ctx, mf.READ_ONLY, fmt, shape=(2, 2))
        vol = cl.Image(self.ctx, mf.READ_WRITE, fmt, shape=(2, 2, 2))
        buf = cl.Buffer(self.ctx, mf.READ_WRITE, 64)
        for value, code in ((ro, cl.status_code.INVALID_ARG_VALUE),
                            (vol, cl.status_code.INVALID_ARG_VALUE),
                            (buf, cl.status_code.INVALID_MEM_OBJECT)):
            with self.assertRaises(cl.Error) as cm:
                k.set_arg(0, value)
            self.assertEqual(cm.exception.code, code)
        with self.assertRaises(cl.Error) as cm:
            prg.sample.set_arg(1, buf)
        self.assertEqual(cm.exception.code, cl.status_code.INVALID_SAMPLER)
        # The command line names the mismatch.
        r = subprocess.run([SPVSIM, "run", self.source, "--kernel", "write_f", "--global", "1",
                            "--arg", "image3d:RGBA,UNORM_INT8[2,2,2]", "--arg", "buffer:float4[1]"],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("is an image3d_t", r.stderr)


if __name__ == "__main__":
    SPVSIM = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
