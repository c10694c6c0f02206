"""Every form of the Intel sub-group block reads and writes (cl_intel_subgroups and its
_char, _short and _long extensions) through the ICD (PyOpenCL) and `spvsim run`, at
sub-group sizes 8, 16 and 32, -O0 and -O2, against a host model of the layouts the
extensions define:

- buffers: component k of lane l is p[k * S + l], S the maximum sub-group size;
- image2d_t: component k of lane l is the E-byte value at byte x + l * E of row y + k
  (E the element size), read and written without format conversion.

The forms include those clang-15 does not declare (the compile driver's prelude does):
image forms of _uc and _ul, write_only image forms of the _ui writes, _us16 (two _us8
operations), read_write image forms, and before OpenCL C 2.0 every image form.

Usage: intel_block_io_test.py SPVSIM (OCL_ICD_VENDORS names libspvsim-opencl.so).
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
SPVSIM = None

# suffix: (element type, bytes, widths); "" is cl_intel_subgroups' uint family.
FAMILIES = {
    "uc": ("uchar", 1, [1, 2, 4, 8, 16]),
    "us": ("ushort", 2, [1, 2, 4, 8, 16]),
    "ui": ("uint", 4, [1, 2, 4, 8]),
    "": ("uint", 4, [1, 2, 4, 8]),
    "ul": ("ulong", 8, [1, 2, 4, 8]),
}
BUFFER_FAMILIES = ["uc", "us", "ul"]
READ_WRITE_FORMS = [("uc", n) for n in FAMILIES["uc"][2]] + \
                   [("ul", n) for n in FAMILIES["ul"][2]] + [("us", 16)]
SIZES = [8, 16, 32]
LEVELS = ["-O0", "-O2"]
GROUPS, SUB_GROUPS_PER_GROUP = 2, 2  # two work-groups of two sub-groups
RX, RY = 3, 1  # reads start at byte x 3 (any byte offset is allowed) and row 1
NP_TYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
# Pixels no larger than 4 bytes (the extensions leave larger ones undefined).
PIXEL = {1: ("R", "UNSIGNED_INT8", np.uint8), 2: ("R", "UNSIGNED_INT16", np.uint16),
         4: ("R", "UNSIGNED_INT32", np.uint32), 8: ("R", "UNSIGNED_INT32", np.uint32)}


def fn(op, sfx, n):
    return "intel_sub_group_block_%s%s%s" % (op, "_" + sfx if sfx else "", n if n > 1 else "")


def tag(sfx, n):
    return (sfx or "u") + str(n)


def store(n):
    return "out[i] = v;" if n == 1 else "vstore%d(v, i, out);" % n


def kernels(read_write):
    """One kernel per form: reads a block, stores it per lane, writes v * 3 + lane id."""
    src = []
    attr = "kernel __attribute__((intel_reqd_sub_group_size(SG)))"
    head = "  int sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();\n" \
           "  size_t i = get_global_id(0);\n"
    for sfx, (t, e, widths) in FAMILIES.items():
        for n in widths:
            tn = t + (str(n) if n > 1 else "")
            w = "(%s)(v * (%s)3 + (%s)get_sub_group_local_id())" % (tn, t, t)
            src.append(
                "%s void img_%s(read_only image2d_t src, write_only image2d_t dst, global %s* out)"
                " {\n%s  int bx = sg * SG * %d;\n  %s v = %s(src, (int2)(bx + %d, %d));\n  %s\n"
                "  %s(dst, (int2)(bx, 0), %s);\n}\n"
                % (attr, tag(sfx, n), t, head, e, tn, fn("read", sfx, n), RX, RY, store(n),
                   fn("write", sfx, n), w))
            if sfx in BUFFER_FAMILIES:
                src.append(
                    "%s void buf_%s(global const %s* in, global %s* out, global %s* dst) {\n%s"
                    "  %s v = %s(in + %d + sg * %s);\n  %s\n  %s(dst + sg * %s, %s);\n}\n"
                    % (attr, tag(sfx, n), t, t, t, head, tn, fn("read", sfx, n),
                       max(4, e) // e, "BSTRIDE_" + tag(sfx, n), store(n), fn("write", sfx, n),
                       "BSTRIDE_" + tag(sfx, n), w))
            if read_write and (sfx, n) in READ_WRITE_FORMS:
                src.append(
                    "%s void rw_%s(read_write image2d_t img, global %s* out) {\n%s"
                    "  int bx = sg * SG * %d;\n  %s v = %s(img, (int2)(bx + %d, %d));\n  %s\n"
                    "  %s(img, (int2)(bx, %d), %s);\n}\n"
                    % (attr, tag(sfx, n), t, head, e, tn, fn("read", sfx, n), RX, RY, store(n),
                       fn("write", sfx, n), RY + n + 1, w))
    return "".join(src)


def buffer_stride(s, e, n):
    """Elements between two sub-groups' buffer blocks: 16-byte aligned (block writes)."""
    return -(-s * n * e // 16) * 16 // e


def defines(s):
    d = ["-DSG=%d" % s]
    for sfx in BUFFER_FAMILIES:
        t, e, widths = FAMILIES[sfx]
        d += ["-DBSTRIDE_%s=%d" % (tag(sfx, n), buffer_stride(s, e, n)) for n in widths]
    return " ".join(d)


# --- the host model

def element(data, at, e):
    return int.from_bytes(bytes(data[at:at + e]), "little")


def put(data, at, e, value):
    data[at:at + e] = np.frombuffer(int(value % (1 << 8 * e)).to_bytes(e, "little"), np.uint8)


def image_model(src, dst, s, e, n, wy):
    """src, dst: uint8 arrays [rows, row bytes]; returns (out, dst after the kernel)."""
    out, dst = [], dst.copy()
    for sg in range(GROUPS * SUB_GROUPS_PER_GROUP):
        bx = sg * s * e
        for lane in range(s):
            for k in range(n):
                v = element(src[RY + k], bx + RX + lane * e, e)
                out.append(v)
                put(dst[wy + k], bx + lane * e, e, v * 3 + lane)
    return out, dst


def buffer_model(inp, dst, s, e, n):
    """inp, dst: uint8 arrays; element k of lane l is p[k * S + l]."""
    out, dst = [], dst.copy()
    stride, off = buffer_stride(s, e, n), max(4, e) // e
    for sg in range(GROUPS * SUB_GROUPS_PER_GROUP):
        for lane in range(s):
            for k in range(n):
                v = element(inp, ((off + sg * stride) + k * s + lane) * e, e)
                out.append(v)
                put(dst, (sg * stride + k * s + lane) * e, e, v * 3 + lane)
    return out, dst


def random_bytes(rng, shape):
    return rng.integers(0, 256, shape, dtype=np.uint8)


class IntelBlockIoTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platforms = cl.get_platforms()
        assert len(platforms) == 1 and platforms[0].name == "spvsim", platforms
        cls.device = platforms[0].get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.tmp = tempfile.mkdtemp()
        cls.sources = {}
        for rw in (False, True):
            cls.sources[rw] = os.path.join(cls.tmp, "block_io_%s.cl" % ("rw" if rw else "ro"))
            with open(cls.sources[rw], "w") as f:
                f.write(kernels(rw))

    def setUp(self):
        self.rng = np.random.default_rng(33)

    # --- data for one kernel

    def image_case(self, s, e, n, read_write):
        pixel = PIXEL[e]
        pb = np.dtype(pixel[2]).itemsize
        row = -(-(RX + GROUPS * SUB_GROUPS_PER_GROUP * s * e + 8) // pb) * pb
        rows = RY + n + 1 + (n if read_write else 0)
        src = random_bytes(self.rng, (rows, row))
        dst = src.copy() if read_write else np.zeros((n, GROUPS * SUB_GROUPS_PER_GROUP * s * e),
                                                      np.uint8)
        return pixel, src, dst

    def buffer_case(self, s, e, n):
        stride = buffer_stride(s, e, n)
        count = GROUPS * SUB_GROUPS_PER_GROUP * stride + max(4, e) // e + 16
        return random_bytes(self.rng, count * e), np.zeros(count * e, np.uint8)

    # --- through the ICD

    def icd_image(self, prg, kname, s, e, n, read_write):
        (order, ctype, dtype), src, dst = self.image_case(s, e, n, read_write)
        fmt = cl.ImageFormat(getattr(cl.channel_order, order), getattr(cl.channel_type, ctype))
        pb = np.dtype(dtype).itemsize

        def image(flags, data):
            return cl.Image(self.ctx, flags | mf.COPY_HOST_PTR, fmt,
                            shape=(data.shape[1] // pb, data.shape[0]),
                            hostbuf=np.ascontiguousarray(data).view(dtype))
        count = GROUPS * SUB_GROUPS_PER_GROUP * s * n
        ob = cl.Buffer(self.ctx, mf.WRITE_ONLY, count * e)
        k = getattr(prg, kname)
        gsize, lsize = (GROUPS * SUB_GROUPS_PER_GROUP * s,), (SUB_GROUPS_PER_GROUP * s,)
        if read_write:
            img = image(mf.READ_WRITE, src)
            k(self.queue, gsize, lsize, img, ob)
            expected_out, expected_img = image_model(src, src, s, e, n, RY + n + 1)
            got_img = np.empty_like(src).view(dtype)
            cl.enqueue_copy(self.queue, got_img, img, origin=(0, 0),
                            region=(src.shape[1] // pb, src.shape[0]))
        else:
            si, di = image(mf.READ_ONLY, src), image(mf.WRITE_ONLY, dst)
            k(self.queue, gsize, lsize, si, di, ob)
            expected_out, expected_img = image_model(src, dst, s, e, n, 0)
            got_img = np.empty_like(dst).view(dtype)
            cl.enqueue_copy(self.queue, got_img, di, origin=(0, 0),
                            region=(dst.shape[1] // pb, dst.shape[0]))
        out = np.empty(count, NP_TYPES[e])
        cl.enqueue_copy(self.queue, out, ob)
        self.assertEqual(out.tolist(), expected_out, kname)
        np.testing.assert_array_equal(got_img.view(np.uint8), expected_img, err_msg=kname)

    def icd_buffer(self, prg, kname, s, e, n):
        inp, dst = self.buffer_case(s, e, n)
        count = GROUPS * SUB_GROUPS_PER_GROUP * s * n
        ib = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=inp)
        db = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=dst)
        ob = cl.Buffer(self.ctx, mf.WRITE_ONLY, count * e)
        getattr(prg, kname)(self.queue, (GROUPS * SUB_GROUPS_PER_GROUP * s,),
                            (SUB_GROUPS_PER_GROUP * s,), ib, ob, db)
        out, got = np.empty(count, NP_TYPES[e]), np.empty_like(dst)
        cl.enqueue_copy(self.queue, out, ob)
        cl.enqueue_copy(self.queue, got, db)
        expected_out, expected_dst = buffer_model(inp, dst, s, e, n)
        self.assertEqual(out.tolist(), expected_out, kname)
        np.testing.assert_array_equal(got, expected_dst, err_msg=kname)

    def run_icd(self, std):
        read_write = std == "-cl-std=CL3.0"
        source = kernels(read_write)
        for s in SIZES:
            for level in LEVELS:
                options = " ".join(o for o in (std, level, defines(s)) if o)
                with self.subTest(options=options):
                    prg = cl.Program(self.ctx, source).build(options=options)
                    self.assertEqual(prg.get_build_info(
                        self.device, cl.program_build_info.LOG).strip(), "")
                    for sfx, (t, e, widths) in FAMILIES.items():
                        for n in widths:
                            self.icd_image(prg, "img_" + tag(sfx, n), s, e, n, False)
                            if sfx in BUFFER_FAMILIES:
                                self.icd_buffer(prg, "buf_" + tag(sfx, n), s, e, n)
                            if read_write and (sfx, n) in READ_WRITE_FORMS:
                                self.icd_image(prg, "rw_" + tag(sfx, n), s, e, n, True)

    def test_icd_opencl_c_1_2(self):
        """The ICD's default OpenCL C (1.2), where clang-15 declares no image forms."""
        self.run_icd("")

    def test_icd_opencl_c_3_0(self):
        self.run_icd("-cl-std=CL3.0")

    # --- through the command line

    def cli(self, source, kname, s, options, args):
        cmd = [SPVSIM, "run", source, "--kernel", kname,
               "--global", str(GROUPS * SUB_GROUPS_PER_GROUP * s),
               "--local", str(SUB_GROUPS_PER_GROUP * s), "--build-options=" + options, "--dump"]
        for a in args:
            cmd += ["--arg", a]
        r = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""), " ".join(cmd))
        dumps = {}
        for line in r.stdout.splitlines():
            m = re.match(r"arg(\d+) .*? = (.*)$", line)
            if m:
                dumps[int(m.group(1))] = [int(x) for x in m.group(2).split()]
        return dumps

    @staticmethod
    def image_arg(pixel, data):
        order, ctype, dtype = pixel
        pb = np.dtype(dtype).itemsize
        values = np.ascontiguousarray(data).view(dtype).ravel()
        return "image2d:%s,%s[%d,%d]=values(%s)" % (order, ctype, data.shape[1] // pb,
                                                    data.shape[0], ",".join(map(str, values)))

    @staticmethod
    def pixels_as_bytes(values, pixel, shape):
        return np.array(values, pixel[2]).view(np.uint8).reshape(shape)

    def test_cli(self):
        for s in SIZES:
            for level in LEVELS:
                options = "%s %s" % (level, defines(s))
                for sfx, (t, e, widths) in FAMILIES.items():
                    for n in widths:
                        with self.subTest(sub_group_size=s, level=level, form=tag(sfx, n)):
                            self.cli_forms(sfx, t, e, n, s, options)

    def cli_forms(self, sfx, t, e, n, s, options):
        count = GROUPS * SUB_GROUPS_PER_GROUP * s * n
        source = self.sources[True]
        pixel, src, dst = self.image_case(s, e, n, False)
        d = self.cli(source, "img_" + tag(sfx, n), s, options,
                     [self.image_arg(pixel, src), self.image_arg(pixel, dst),
                      "buffer:%s[%d]" % (t, count)])
        expected_out, expected_dst = image_model(src, dst, s, e, n, 0)
        self.assertEqual(d[2], expected_out)
        np.testing.assert_array_equal(self.pixels_as_bytes(d[1], pixel, dst.shape), expected_dst)
        if sfx in BUFFER_FAMILIES:
            inp, dst = self.buffer_case(s, e, n)
            values = lambda a: ",".join(map(str, a.view(NP_TYPES[e])))
            d = self.cli(source, "buf_" + tag(sfx, n), s, options,
                         ["buffer:%s[%d]=values(%s)" % (t, inp.size // e, values(inp)),
                          "buffer:%s[%d]" % (t, count), "buffer:%s[%d]" % (t, dst.size // e)])
            expected_out, expected_dst = buffer_model(inp, dst, s, e, n)
            self.assertEqual(d[1], expected_out)
            self.assertEqual(d[2], expected_dst.view(NP_TYPES[e]).tolist())
        if (sfx, n) in READ_WRITE_FORMS:
            pixel, src, _ = self.image_case(s, e, n, True)
            d = self.cli(source, "rw_" + tag(sfx, n), s, options,
                         [self.image_arg(pixel, src), "buffer:%s[%d]" % (t, count)])
            expected_out, expected_img = image_model(src, src, s, e, n, RY + n + 1)
            self.assertEqual(d[1], expected_out)
            np.testing.assert_array_equal(self.pixels_as_bytes(d[0], pixel, src.shape),
                                          expected_img)


if __name__ == "__main__":
    SPVSIM = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
