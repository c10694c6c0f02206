"""SPVSIM_CAPTURE bundles from a PyOpenCL application, replayed by `spvsim run|check`.

Run by capture_test.sh with OCL_ICD_VENDORS naming libspvsim-opencl.so and SPVSIM_BIN the
spvsim binary. The application (this file with --app) runs three kernels: a scalar and a
local argument; a sub-buffer and its parent buffer passed together (aliasing); one buffer
passed twice to a 2-D NDRange with a global offset. It checks its results against numpy
models and saves them; the test then replays every bundle and compares `spvsim run
--dump` with both, runs `spvsim check BUNDLE`, corrupts an "after" file and expects
check to name the buffer and element. SPVSIM_CAPTURE_FILTER and SPVSIM_CAPTURE_LIMIT are
read once per process, so each setting runs the application in a child process.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

import numpy as np

KERNELS = """
kernel void scale_local(global float* a, float s, local float* tmp) {
  size_t i = get_global_id(0), l = get_local_id(0), n = get_local_size(0);
  tmp[l] = a[i] * s;
  barrier(CLK_LOCAL_MEM_FENCE);
  a[i] = tmp[n - 1 - l] + 0.5f;
}

// dst is a sub-buffer of src's buffer (dst[i] is src[i + 32]): the second read of
// src[i + 32] sees the first write only when the two arguments share storage.
kernel void alias_update(global int* dst, global const int* src, int k) {
  size_t i = get_global_id(0);
  dst[i] = src[i] * k;
  dst[i] = dst[i] + src[i + 32];
}

// a and b are one buffer: b[j] reads back what a[j] just wrote.
kernel void grid(global int* a, global int* b, int w) {
  int x = get_global_id(0), y = get_global_id(1);
  a[y * w + x] = x * 100 + y;
  b[y * w + x] += 1;
}
"""

IMAGE_KERNELS = """
kernel void copy_image(read_only image2d_t img, global float4* out) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * 4 + x] = read_imagef(img, (int2)(x, y)) * 2.0f;
}
kernel void fill_image(write_only image2d_t img) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(img, (int2)(x, y), (float4)(x, y, x + y, 1));
}
"""

PIPE_KERNEL = """
kernel void produce(__write_only pipe int p, global const int* src) {
  write_pipe(p, &src[get_global_id(0)]);
}
"""

# A program-scope variable keeps its value between launches: the second launch's bundle
# must start from the value the first one left.
GLOBAL_KERNEL = """
global int total = 0;
kernel void accumulate(global int* out, int add) {
  if (get_global_id(0) == 0) {
    total += add;
    out[0] = total;
  }
}
"""

# Compiled with clCompileProgram against an embedded header and -D options, then linked:
# the bundle holds the header under its include name and both options.
UTIL_H = """#ifndef UTIL_H
#define UTIL_H
int scaled(int x) {
  int y = x * SCALE_BY;
  return y + OFFSET;
}
#endif
"""

HEADER_KERNEL = """#include "inc/util.h"
kernel void scale_offset(global int* a) {
  size_t i = get_global_id(0);
  a[i] = scaled(a[i]);
}
"""

HEADER_OPTIONS = "-g -DSCALE_BY=3 -DOFFSET=5"


def app_headers():
    import pyopencl as cl

    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    main = cl.Program(ctx, HEADER_KERNEL)
    main.compile(options=HEADER_OPTIONS, headers=[("inc/util.h", cl.Program(ctx, UTIL_H))])
    prog = cl.link_program(ctx, [main])
    data = np.arange(16, dtype=np.int32)
    buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
    prog.scale_offset(q, (16,), None, buf)
    cl.enqueue_copy(q, data, buf)
    np.testing.assert_array_equal(data, np.arange(16, dtype=np.int32) * 3 + 5)


W, H = 10, 5
K = 3


def models(seed):
    """Inputs and the numpy model of each kernel's results."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(16).astype(np.float32)
    scaled = (a * np.float32(2.5)).reshape(2, 8)[:, ::-1].reshape(16) + np.float32(0.5)
    p = rng.integers(-1000, 1000, 64).astype(np.int32)
    p_after = p.copy()
    p_after[32:] = 2 * K * p[:32]
    g = rng.integers(-1000, 1000, W * H).astype(np.int32)
    g_after = g.copy().reshape(H, W)
    for y in range(1, 5):
        for x in range(2, 10):
            g_after[y, x] = x * 100 + y + 1
    return dict(a=a, scaled=scaled, p=p, p_after=p_after, g=g, g_after=g_after.reshape(-1))


def app_globals():
    import pyopencl as cl

    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, GLOBAL_KERNEL).build(options="-cl-std=CL2.0")
    out = np.zeros(1, np.int32)
    ob = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=out)
    for add in (5, 7):
        prog.accumulate(q, (4,), None, ob, np.int32(add))
    cl.enqueue_copy(q, out, ob)
    assert out[0] == 12, out


def app_svm():
    import pyopencl as cl

    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, "kernel void svm_inc(global int* p) { p[get_global_id(0)] += 1; }")
    prog = prog.build(options="-cl-std=CL2.0")
    sf = cl.svm_mem_flags
    data = cl.svm_empty(ctx, sf.READ_WRITE | sf.SVM_FINE_GRAIN_BUFFER, 4, np.int32)
    data[:] = [1, 2, 3, 4]
    prog.svm_inc(q, (4,), None, cl.SVM(data))
    q.finish()
    assert list(data) == [2, 3, 4, 5], list(data)


# Buffers of float4 elements: the launch.sim of its bundle types them as float (Oclgrind's
# format has scalar types only), which is no argument mismatch.
VECTOR_KERNEL = """
kernel void axpy4(global float4* y, global const float4* x, float a) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i].wzyx;
}
"""


def vector_model():
    x = np.arange(32, dtype=np.float32) / 4
    y = np.arange(32, dtype=np.float32)[::-1].copy()
    want = (np.float32(1.5) * x.reshape(8, 4) + y.reshape(8, 4)[:, ::-1]).reshape(-1)
    return x, y, want


def app_vectors():
    import pyopencl as cl

    mf = cl.mem_flags
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    x, y, want = vector_model()
    for options in ("-cl-opt-disable", ""):
        prog = cl.Program(ctx, VECTOR_KERNEL).build(options=options)
        yb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
        xb = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        prog.axpy4(q, (8,), (4,), yb, xb, np.float32(1.5))
        got = np.empty_like(y)
        cl.enqueue_copy(q, got, yb)
        np.testing.assert_array_equal(got, want)


def app_big():
    """Three launches of one kernel; the second's buffer (512 KiB) is past the file size
    limit the test sets, so its bundle cannot be written."""
    import pyopencl as cl

    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, "kernel void inc(global int* a) { a[get_global_id(0)] += 1; }")
    prog = prog.build()
    for n in (16, 128 * 1024, 16):
        data = np.arange(n, dtype=np.int32)
        buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
        prog.inc(q, (n,), None, buf)
        cl.enqueue_copy(q, data, buf)
        np.testing.assert_array_equal(data, np.arange(n, dtype=np.int32) + 1)


def app(out_path, options, with_image):
    """The application: runs the kernels through the ICD and checks them against numpy."""
    import pyopencl as cl

    mf = cl.mem_flags
    m = models(7)
    ctx = cl.create_some_context(interactive=False)
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, KERNELS).build(options=options)

    a = m["a"].copy()
    ab = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
    prog.scale_local(q, (16,), (8,), ab, np.float32(2.5), cl.LocalMemory(8 * 4))
    cl.enqueue_copy(q, a, ab)

    p = m["p"].copy()
    pb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=p)
    sub = pb.get_sub_region(32 * 4, 32 * 4)
    prog.alias_update(q, (32,), (8,), sub, pb, np.int32(K))
    cl.enqueue_copy(q, p, pb)

    g = m["g"].copy()
    gb = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=g)
    prog.grid(q, (8, 4), (4, 2), gb, gb, np.int32(W), global_offset=(2, 1))
    cl.enqueue_copy(q, g, gb)
    q.finish()

    np.testing.assert_array_equal(a, m["scaled"])
    np.testing.assert_array_equal(p, m["p_after"])
    np.testing.assert_array_equal(g, m["g_after"])
    saved = dict(a=a, p=p, g=g)
    if with_image:
        images = cl.Program(ctx, IMAGE_KERNELS).build(options=options)
        pixels = image_pixels()
        img = cl.image_from_array(ctx, pixels, 4)  # 4 wide, 2 high, RGBA float
        out = cl.Buffer(ctx, mf.WRITE_ONLY, 4 * 4 * 8)
        images.copy_image(q, (4, 2), None, img, out)
        copied = np.empty(32, np.float32)
        cl.enqueue_copy(q, copied, out)
        np.testing.assert_array_equal(copied, 2 * pixels.reshape(-1))
        filled = cl.Image(ctx, mf.WRITE_ONLY, cl.ImageFormat(cl.channel_order.RGBA,
                                                            cl.channel_type.FLOAT), (4, 2))
        images.fill_image(q, (4, 2), None, filled)
        q.finish()
        saved["copied"] = copied
        pipe = cl.Pipe(ctx, 0, 4, 8)
        src = cl.Buffer(ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=np.arange(8, dtype=np.int32))
        cl.Program(ctx, PIPE_KERNEL).build(options="-cl-std=CL2.0").produce(q, (8,), None, pipe, src)
        q.finish()
    np.savez(out_path, **saved)


def image_pixels():
    return np.arange(32, dtype=np.float32).reshape(2, 4, 4) / 8


def filled_model():
    """fill_image's pixels in memory order (x fastest, RGBA interleaved)."""
    out = np.zeros((2, 4, 4), np.float32)
    for y in range(2):
        for x in range(4):
            out[y, x] = (x, y, x + y, 1)
    return out.reshape(-1)


class CaptureTest(unittest.TestCase):
    spvsim = os.environ.get("SPVSIM_BIN", "spvsim")

    def run_app(self, capture, options="", extra_env=None, with_image=False):
        results = os.path.join(self.tmp, "results.npz")
        env = dict(os.environ, SPVSIM_CAPTURE=capture)
        env.update(extra_env or {})
        cmd = [sys.executable, __file__, "--app", results, options]
        if with_image:
            cmd.append("--image")
        r = subprocess.run(cmd, env=env, capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("SPVSIM_CAPTURE", r.stderr)  # no capture error was reported
        return dict(np.load(results))

    def run_variant(self, flag):
        """Runs this file's application variant `flag` under SPVSIM_CAPTURE; the folder."""
        capture = os.path.join(self.tmp, "bundles")
        env = dict(os.environ, SPVSIM_CAPTURE=capture)
        r = subprocess.run([sys.executable, __file__, flag], env=env, capture_output=True,
                           text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return capture

    def spvsim_run(self, *args):
        return subprocess.run([self.spvsim, *args], capture_output=True, text=True)

    def dump(self, bundle):
        r = self.spvsim_run("run", bundle, "--dump", "--threads", "2")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        out = {}
        for line in r.stdout.splitlines():
            m = re.fullmatch(r"arg(\d+) (\w+)\[(\d+)\] = (.*)", line)
            self.assertIsNotNone(m, line)
            dtype = {"float": np.float32, "int": np.int32}[m.group(2)]
            values = np.array([float(v) for v in m.group(4).split()]).astype(dtype)
            self.assertEqual(len(values), int(m.group(3)))
            out[int(m.group(1))] = values
        return out

    def bundles(self, capture):
        return sorted(os.listdir(capture))

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()

    def check_replays(self, options):
        capture = os.path.join(self.tmp, "bundles")
        got = self.run_app(capture, options)
        m = models(7)
        self.assertEqual(
            self.bundles(capture), ["0001-scale_local", "0002-alias_update", "0003-grid"]
        )
        b1, b2, b3 = (os.path.join(capture, b) for b in self.bundles(capture))
        d = self.dump(b1)
        self.assertEqual(list(d), [0])  # only the buffer is dumped
        np.testing.assert_array_equal(d[0], m["scaled"])
        np.testing.assert_array_equal(d[0], got["a"])
        # The launch that fits Oclgrind's format has a .sim too, with the same result.
        d = self.dump(os.path.join(b1, "launch.sim"))
        np.testing.assert_array_equal(d[0], m["scaled"])
        for b, why in ((b2, "argument 0 (global int* dst: shares its buffer with another "
                            "argument)"), (b3, "a global offset")):
            self.assertFalse(os.path.exists(os.path.join(b, "launch.sim")))
            with open(os.path.join(b, "launch.txt")) as f:
                self.assertIn(f"# no launch.sim: {why} does not fit", f.read())
        d = self.dump(os.path.join(b2, "launch.txt"))  # the manifest path works too
        np.testing.assert_array_equal(d[0], m["p_after"][32:])  # the sub-buffer's window
        np.testing.assert_array_equal(d[1], m["p_after"])
        np.testing.assert_array_equal(d[1], got["p"])
        d = self.dump(b3)
        np.testing.assert_array_equal(d[0], m["g_after"])
        np.testing.assert_array_equal(d[1], got["g"])
        # The bundle holds the inputs as the application had them.
        before = np.fromfile(os.path.join(b3, "buffer0.before.bin"), np.int32)
        np.testing.assert_array_equal(before, m["g"])
        for b in (b1, b2, b3):
            r = self.spvsim_run("check", b)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("matches expect", r.stderr)
            self.assertIn("no problems found", r.stderr)
        return capture

    def test_replay_O0(self):
        self.check_replays("-cl-opt-disable")

    def test_replay_O2_and_corrupted_after(self):
        capture = self.check_replays("")
        grid = os.path.join(capture, "0003-grid")
        after = os.path.join(grid, "buffer0.after.bin")
        values = np.fromfile(after, np.int32)
        values[23] += 5
        values.tofile(after)
        r = self.spvsim_run("check", grid)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("expect-mismatch", r.stderr)
        self.assertRegex(r.stderr, r"argument 0 \(int\[50\]\): element 23: expected \d+, actual")
        self.assertIn("mismatch", r.stderr)

    def test_options_alongside(self):
        capture = os.path.join(self.tmp, "bundles")
        self.run_app(capture)
        b1 = os.path.join(capture, "0001-scale_local")
        r = self.spvsim_run("run", b1, "--global", "8")
        self.assertEqual(r.returncode, 1)
        self.assertIn("a capture bundle gives the kernel, sizes and arguments itself", r.stderr)
        r = self.spvsim_run("info", b1)  # dis and info read the bundle's module
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("kernel scale_local", r.stdout)
        # The sub-group size is the captured one unless the command line sets it.
        r = self.spvsim_run("run", b1, "--stats")
        self.assertIn("sub-group size 16", r.stderr)
        r = self.spvsim_run("run", b1, "--stats", "--sub-group-size", "8")
        self.assertIn("sub-group size 8", r.stderr)

    def test_svm_refused_with_a_warning(self):
        capture = self.run_variant("--app-svm")
        r = self.spvsim_run("run", os.path.join(capture, "0001-svm_inc"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("the context has SVM allocations, which are not captured", r.stderr)
        self.assertIn("was not captured: SVM pointers", r.stderr)

    def test_debug_opens_a_bundle(self):
        capture = os.path.join(self.tmp, "bundles")
        self.run_app(capture)
        r = subprocess.run(
            [self.spvsim, "debug", os.path.join(capture, "0002-alias_update"), "--dump"],
            input="continue\nquit\n", capture_output=True, text=True,
        )
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("Kernel alias_update finished", r.stdout)
        line = [l for l in r.stdout.splitlines() if l.startswith("arg1 int[64] = ")]
        self.assertEqual(len(line), 1, r.stdout)
        values = [int(v) for v in line[0].split("=")[1].split()]
        self.assertEqual(values, models(7)["p_after"].tolist())  # shared storage in the debugger

    def test_bundle_carries_the_source(self):
        """A program built from source: the bundle holds it named after the application
        (capture_test.cl: manifest `source capture_test.cl`) with its build options, and
        `spvsim debug BUNDLE` lists and breaks in it by that name (the module's line
        information says <stdin>)."""
        capture = os.path.join(self.tmp, "with_source")
        self.run_app(capture, options="-g")
        bundle = os.path.join(capture, "0002-alias_update")
        self.assertFalse(os.path.exists(os.path.join(bundle, "program.cl")))
        with open(os.path.join(bundle, "capture_test.cl")) as f:
            # (PyOpenCL without its cache appends a declaration that defeats the driver's.)
            self.assertTrue(f.read().startswith(KERNELS))
        with open(os.path.join(bundle, "launch.txt")) as f:
            manifest = f.read()
        # (PyOpenCL adds an -I option of its own.)
        self.assertRegex(manifest, "source capture_test.cl\nbuild-options -g( -I \\S+)?\n")
        self.assertNotIn("compile-options", manifest)  # clBuildProgram: build-options apply
        line = next(n for n, l in enumerate(KERNELS.splitlines(), 1) if "alias_update" in l) + 1
        r = subprocess.run([self.spvsim, "debug", bundle],
                           input=f"list\nbreak capture_test.cl:{line}\ncontinue\nquit\n",
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("capture_test.cl:\n", r.stdout)
        self.assertIn("kernel void alias_update", r.stdout)
        self.assertIn(f"Breakpoint 1, capture_test.cl:{line}", r.stdout)
        # The profile's source view reads it too.
        page = os.path.join(self.tmp, "profile.html")
        r = self.spvsim_run("run", bundle, "--profile", page)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(page) as f:
            self.assertIn("dst[i] = src[i] * k;", f.read())

    def test_bundle_source_listed_without_line_information(self):
        """Most applications build without -g: the module then names no line, but the
        bundle still carries the source, and `spvsim debug BUNDLE` says so at the entry and
        in `list`, and lists the copy by its name (`list capture_test.cl:N`), marking no
        line as current."""
        capture = os.path.join(self.tmp, "without_g")
        self.run_app(capture)
        bundle = os.path.join(capture, "0002-alias_update")
        line = next(n for n, l in enumerate(KERNELS.splitlines(), 1) if "alias_update" in l)
        r = subprocess.run([self.spvsim, "debug", bundle],
                           input=f"list\nlist capture_test.cl:{line}\nlist capture_test.cl:100000\n"
                                 "quit\n",
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("The module has no source lines", r.stdout)
        self.assertIn("the bundle carries the source it compiled (`list capture_test.cl:1`)",
                      r.stdout)
        self.assertIn("`list capture_test.cl:1` shows it", r.stdout)
        self.assertIn("capture_test.cl (as the bundle carries it; the module has no line "
                      "information, so no line is current):", r.stdout)
        self.assertRegex(r.stdout, f"\\n +{line}  [^\\n]*alias_update")
        self.assertNotIn("=>  ", r.stdout.split("capture_test.cl (as the bundle")[1])
        self.assertRegex(r.stderr, "error: capture_test.cl has [0-9]+ lines")

    def test_bundle_carries_headers_and_options(self):
        """clCompileProgram with an embedded header and -D options, then clLinkProgram: the
        bundle holds the header under its include name and the compile options; debug
        lists and breaks in the header's lines, the profile shows them, and check builds
        the captured source again at -O0 with them."""
        capture = self.run_variant("--app-headers")
        bundle = os.path.join(capture, "0001-scale_offset")
        with open(os.path.join(bundle, "launch.txt")) as f:
            manifest = f.read()
        # (PyOpenCL adds an -I option of its own.)
        self.assertRegex(manifest, "source capture_test.cl\n"
                         f"compile-options {HEADER_OPTIONS}( -I \\S+)?\n"
                         "header name=inc/util.h file=headers/inc/util.h\n"
                         "build-options \n")  # the link's options: none
        with open(os.path.join(bundle, "headers", "inc", "util.h")) as f:
            self.assertEqual(f.read(), UTIL_H)
        with open(os.path.join(bundle, "capture_test.cl")) as f:
            self.assertTrue(f.read().startswith(HEADER_KERNEL))
        self.assertEqual(self.dump(bundle)[0].tolist(), list(range(5, 5 + 16 * 3, 3)))

        line = next(n for n, l in enumerate(UTIL_H.splitlines(), 1) if "SCALE_BY;" in l)
        r = subprocess.run([self.spvsim, "debug", bundle],
                           input=f"break util.h:{line}\ncontinue\nlist\ninfo line\nquit\n",
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(f"Breakpoint 1, util.h:{line}", r.stdout)
        self.assertIn("util.h:\n", r.stdout)
        self.assertIn("int y = x * SCALE_BY;", r.stdout)  # the header's text, listed
        self.assertNotIn("cannot be read", r.stdout)
        r = subprocess.run([self.spvsim, "debug", bundle], input="list inc/util.h:1\nquit\n",
                           capture_output=True, text=True)
        self.assertIn("#ifndef UTIL_H", r.stdout)

        page = os.path.join(self.tmp, "headers.html")
        r = self.spvsim_run("run", bundle, "--profile", page)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(page) as f:
            html = f.read()
        self.assertIn("int y = x * SCALE_BY;", html)
        self.assertIn("a[i] = scaled(a[i]);", html)

        # check's -O0 build of the captured source needs the header and the -D options:
        # without them it would not compile (a warning says so).
        r = self.spvsim_run("check", bundle)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertNotIn("warning: the -O0 build of", r.stderr)
        self.assertIn("matches expect", r.stderr)
        self.assertIn("round-robin, -O0 build", r.stderr)  # its -O0 configuration ran

    def test_dap_opens_a_bundle(self):
        """spvsim dap launches a bundle as spvsim debug does: stops on entry, runs to the end
        and reports the replayed results (the --dump lines) as output events."""
        capture = os.path.join(self.tmp, "bundles")
        self.run_app(capture)
        dap = subprocess.Popen([self.spvsim, "dap"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        seq = [0]

        def send(command, arguments):
            seq[0] += 1
            body = json.dumps({"seq": seq[0], "type": "request", "command": command,
                               "arguments": arguments}).encode()
            dap.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            dap.stdin.flush()

        def receive():
            length = 0
            while True:
                line = dap.stdout.readline()
                self.assertTrue(line, "the adapter closed its output")
                if not line.strip():
                    break
                key, value = line.split(b":", 1)
                if key.strip().lower() == b"content-length":
                    length = int(value)
            return json.loads(dap.stdout.read(length))

        output = []

        def until(predicate):
            while True:
                m = receive()
                if m.get("event") == "output":
                    output.append(m["body"]["output"])
                if predicate(m):
                    return m

        try:
            send("initialize", {"adapterID": "spvsim"})
            until(lambda m: m.get("command") == "initialize")
            send("launch", {"program": os.path.join(capture, "0002-alias_update"),
                            "args": ["--dump"], "stopOnEntry": True})
            self.assertTrue(until(lambda m: m.get("command") == "launch")["success"])
            send("configurationDone", {})
            stopped = until(lambda m: m.get("event") == "stopped")
            self.assertEqual(stopped["body"]["reason"], "entry")
            send("continue", {"threadId": stopped["body"]["threadId"]})
            until(lambda m: m.get("event") == "terminated")
            send("disconnect", {})
            until(lambda m: m.get("command") == "disconnect")
        finally:
            dap.stdin.close()
            dap.wait(timeout=30)
        lines = [l for l in "".join(output).splitlines() if l.startswith("arg1 int[64] = ")]
        self.assertEqual(len(lines), 1, output)
        values = [int(v) for v in lines[0].split("=")[1].split()]
        self.assertEqual(values, models(7)["p_after"].tolist())

    def test_filter(self):
        capture = os.path.join(self.tmp, "bundles")
        self.run_app(capture, extra_env={"SPVSIM_CAPTURE_FILTER": "*alias*"})
        self.assertEqual(self.bundles(capture), ["0001-alias_update"])
        self.run_app(capture, extra_env={"SPVSIM_CAPTURE_FILTER": "[gs]*"})
        # A second run adds to the folder after the bundles already there.
        self.assertEqual(
            self.bundles(capture), ["0001-alias_update", "0002-scale_local", "0003-grid"]
        )

    def test_limit(self):
        capture = os.path.join(self.tmp, "bundles")
        self.run_app(capture, extra_env={"SPVSIM_CAPTURE_LIMIT": "2"})
        self.assertEqual(self.bundles(capture), ["0001-scale_local", "0002-alias_update"])
        other = os.path.join(self.tmp, "none")
        self.run_app(other, extra_env={"SPVSIM_CAPTURE_LIMIT": "0"})
        self.assertFalse(os.path.exists(other) and os.listdir(other))

    def test_unwritable_capture_dir_does_not_break_the_app(self):
        blocker = os.path.join(self.tmp, "file")
        open(blocker, "w").close()
        results = os.path.join(self.tmp, "results.npz")
        env = dict(os.environ, SPVSIM_CAPTURE=os.path.join(blocker, "sub"))
        r = subprocess.run(
            [sys.executable, __file__, "--app", results, ""], env=env, capture_output=True,
            text=True,
        )
        self.assertEqual(r.returncode, 0, r.stderr)  # the app's own numpy checks passed
        self.assertEqual(r.stderr.count("spvsim: SPVSIM_CAPTURE:"), 1, r.stderr)

    def test_write_failure_leaves_no_bundle_and_stops_capturing(self):
        """A bundle that cannot be written (here: a file past RLIMIT_FSIZE, with SIGXFSZ
        ignored so that write() fails as on a full disk) is removed, reported once, and no
        later launch is captured; every launch still runs and returns its results."""
        import resource
        import signal

        def limit_file_size():
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))

        capture = os.path.join(self.tmp, "bundles")
        env = dict(os.environ, SPVSIM_CAPTURE=capture, SPVSIM_CACHE="off", PYOPENCL_NO_CACHE="1")
        r = subprocess.run([sys.executable, __file__, "--app-big"], env=env, capture_output=True,
                           text=True, preexec_fn=limit_file_size)
        self.assertEqual(r.returncode, 0, r.stderr)  # the app's own checks passed
        # Only the first, complete bundle: no half-written one, no temporary folder.
        self.assertEqual(os.listdir(capture), ["0001-inc"])
        self.assertEqual(r.stderr.count("spvsim: SPVSIM_CAPTURE:"), 1, r.stderr)
        self.assertIn("File too large", r.stderr)
        self.assertIn("no further launch of this process is captured", r.stderr)
        self.assertEqual(self.dump(os.path.join(capture, "0001-inc"))[0].tolist(),
                         list(range(1, 17)))

    def test_output_naming_a_bundle_file_is_refused(self):
        capture = self.run_variant("--app-globals")
        bundle = os.path.join(capture, "0001-accumulate")
        before = os.path.join(bundle, "buffer0.before.bin")
        with open(before, "rb") as f:
            data = f.read()
        r = self.spvsim_run("run", bundle, "--json", before)
        self.assertEqual(r.returncode, 1)
        self.assertIn("is the input file", r.stderr)
        with open(before, "rb") as f:
            self.assertEqual(f.read(), data)

    def test_program_scope_variables(self):
        capture = self.run_variant("--app-globals")
        second = os.path.join(capture, "0002-accumulate")
        self.assertEqual(self.dump(second)[0].tolist(), [12])  # 5 from the first launch, + 7
        r = self.spvsim_run("check", second)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_vector_buffers_replay_without_a_mismatch(self):
        capture = self.run_variant("--app-vectors")
        self.assertEqual(self.bundles(capture), ["0001-axpy4", "0002-axpy4"])  # -O0, -O2
        want = vector_model()[2]
        for b in self.bundles(capture):
            sim = os.path.join(capture, b, "launch.sim")
            with open(sim) as f:
                self.assertIn("<size=128 float", f.read())
            r = self.spvsim_run("run", sim, "--dump")
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn("argument-mismatch", r.stderr)
            np.testing.assert_array_equal(self.dump(sim)[0], want)

    def test_images_captured_pipes_refused(self):
        capture = os.path.join(self.tmp, "bundles")
        got = self.run_app(capture, with_image=True)
        copy, fill, pipe = (
            os.path.join(capture, b) for b in ("0004-copy_image", "0005-fill_image", "0006-produce")
        )
        r = self.spvsim_run("run", copy, "--dump")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines[0], "arg0 image2d RGBA,FLOAT[4,2] = " +
                         " ".join(f"{v:g}" for v in image_pixels().reshape(-1)))
        out = re.fullmatch(r"arg1 float4\[8\] = (.*)", lines[1]).group(1)
        values = [float(v) for v in re.findall(r"[-0-9.e]+", out)]
        np.testing.assert_array_equal(np.array(values, np.float32), got["copied"])
        r = self.spvsim_run("run", fill, "--dump")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "arg0 image2d RGBA,FLOAT[4,2] = " +
                         " ".join(f"{v:g}" for v in filled_model()))
        for b in (copy, fill):
            r = self.spvsim_run("check", b)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("matches expect", r.stderr)
        after = os.path.join(fill, "image0.after.bin")
        pixels = np.fromfile(after, np.float32)
        pixels[6] = 9
        pixels.tofile(after)
        r = self.spvsim_run("check", fill)
        self.assertEqual(r.returncode, 2)
        self.assertIn("argument 0 (image2d RGBA,FLOAT[4,2]): element 6: expected 9, actual 1", r.stderr)
        with open(os.path.join(pipe, "launch.txt")) as f:
            self.assertIn("arg 0 not-captured pipes", f.read())
        r = self.spvsim_run("run", pipe)
        self.assertEqual(r.returncode, 1)
        # Line 12: the manifest's source line (program.cl) comes before the arguments.
        self.assertRegex(r.stderr, r"launch.txt:12: argument 0 \(.* p\) was not captured: pipes")

if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--app-globals":
        app_globals()
    elif len(sys.argv) > 1 and sys.argv[1] == "--app-vectors":
        app_vectors()
    elif len(sys.argv) > 1 and sys.argv[1] == "--app-big":
        app_big()
    elif len(sys.argv) > 1 and sys.argv[1] == "--app-svm":
        app_svm()
    elif len(sys.argv) > 1 and sys.argv[1] == "--app-headers":
        app_headers()
    elif len(sys.argv) > 1 and sys.argv[1] == "--app":
        app(sys.argv[2], sys.argv[3], "--image" in sys.argv[4:])
    else:
        unittest.main()
