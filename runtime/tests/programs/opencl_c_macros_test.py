"""What kernels see of the device's OpenCL C, through the ICD (PyOpenCL) and `spvsim run`:

- __OPENCL_VERSION__ is the device's OpenCL version (CL_DEVICE_NUMERIC_VERSION) whatever
  -cl-std says, so `#if __OPENCL_VERSION__ >= 200` code takes the 2.0 path;
- __OPENCL_C_VERSION__ follows -cl-std, and without it is the highest OpenCL C 1.x
  version (CL_DEVICE_OPENCL_C_VERSION) through the ICD and 3.0 on the command line;
- `#pragma OPENCL EXTENSION NAME : enable` for each extension the device reports and
  kernels see as a macro builds without a warning (an empty build log, no PyOpenCL
  CompilerWarning, nothing on the command line's stderr), as in CLBlast's kernels.

Usage: opencl_c_macros_test.py SPVSIM (OCL_ICD_VENDORS names libspvsim-opencl.so).
"""

import os
import re
import subprocess
import sys
import tempfile
import unittest
import warnings

import numpy as np
import pyopencl as cl

mf = cl.mem_flags
SPVSIM = None
LEVELS = ["-O0", "-O2"]

VERSIONS = """
// A header shared with the host side, as ArrayFire's are: it needs __OPENCL_VERSION__.
#ifndef __OPENCL_VERSION__
#error __OPENCL_VERSION__ is not defined
#endif
#if __OPENCL_VERSION__ >= 200
#define PATH 2
#else
#define PATH 1
#endif
kernel void versions(global int* out) {
  out[0] = __OPENCL_VERSION__;
  out[1] = __OPENCL_C_VERSION__;
  out[2] = PATH;
}
"""

# The start of a CLBlast-style kernel file: the extensions it may use, each enabled when
# the compiler defines it; then a kernel that uses __builtin_expect/__builtin_assume.
PRAGMA_KERNEL = """
#if !defined(__has_builtin)
#define __has_builtin(x) 0
#endif
kernel void axpy(const int n, const float alpha, global const float* x, global float* y) {
  const int i = get_global_id(0);
#if defined(cl_khr_expect_assume) && __has_builtin(__builtin_assume)
  __builtin_assume(n > 0);
#endif
  if (__builtin_expect(i < n, 1)) y[i] = alpha * x[i] + y[i];
}
"""


def pragmas(extensions):
    return "".join("#if defined(%s)\n#pragma OPENCL EXTENSION %s : enable\n#endif\n" % (e, e)
                   for e in extensions)


def version_number(text):
    """"OpenCL C 1.2 spvsim" -> 120."""
    major, minor = re.search(r"(\d+)\.(\d+)", text).groups()
    return int(major) * 100 + int(minor) * 10


class OpenclCMacrosTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platforms = cl.get_platforms()
        assert len(platforms) == 1 and platforms[0].name == "spvsim", platforms
        cls.device = platforms[0].get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)
        v = cls.device.get_info(cl.device_info.NUMERIC_VERSION)
        cls.device_version = (v >> 22) * 100 + ((v >> 12) & 0x3FF) * 10
        cls.default_c_version = version_number(cls.device.opencl_c_version)
        cls.extensions = cls.device.extensions.split()
        cls.tmp = tempfile.mkdtemp()

    def build(self, source, options):
        """The program and its build log; PyOpenCL's compiler warnings are failures."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            prg = cl.Program(self.ctx, source).build(options=options)
        self.assertEqual([str(w.message) for w in caught], [], options)
        return prg, prg.get_build_info(self.device, cl.program_build_info.LOG).strip()

    def cli(self, source, kernel, options, args, global_size=1):
        path = os.path.join(self.tmp, kernel + ".cl")
        with open(path, "w") as f:
            f.write(source)
        cmd = [SPVSIM, "run", path, "--kernel", kernel, "--global", str(global_size),
               "--build-options=" + options, "--dump"]
        for a in args:
            cmd += ["--arg", a]
        r = subprocess.run(cmd, capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""), " ".join(cmd))
        return {int(m.group(1)): m.group(2).split()
                for m in re.finditer(r"^arg(\d+) .*? = (.*)$", r.stdout, re.M)}

    def test_the_device_is_opencl_3_0(self):
        # The rest of the test derives its expectations from these queries.
        self.assertEqual(self.device_version, 300)
        self.assertEqual(self.default_c_version, 120)

    def test_version_macros_through_the_icd(self):
        cases = [("", self.default_c_version), ("-cl-std=CL1.2", 120),
                 ("-cl-std=CL2.0", 200), ("-cl-std=CL3.0", 300)]
        for std, c_version in cases:
            for level in LEVELS:
                options = (std + " " + level).strip()
                prg, log = self.build(VERSIONS, options)
                self.assertEqual(log, "", options)
                out = np.zeros(3, np.int32)
                buf = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
                prg.versions(self.queue, (1,), None, buf)
                cl.enqueue_copy(self.queue, out, buf)
                self.assertEqual(out.tolist(), [self.device_version, c_version, 2], options)

    def test_version_macros_on_the_command_line(self):
        # The command line's default OpenCL C is 3.0 (README "Compile driver").
        cases = [("", 300), ("-cl-std=CL1.2", 120), ("-cl-std=CL2.0", 200),
                 ("-cl-std=CL3.0", 300)]
        for std, c_version in cases:
            for level in LEVELS:
                options = (std + " " + level).strip()
                d = self.cli(VERSIONS, "versions", options, ["buffer:int[3]"])
                self.assertEqual(d[0], [str(self.device_version), str(c_version), "2"], options)

    def test_extension_pragmas_build_without_warnings(self):
        source = pragmas(self.extensions) + PRAGMA_KERNEL
        n = 40
        x = np.arange(n, dtype=np.float32) - 7
        y = np.linspace(-3, 5, n, dtype=np.float32)
        expected = (np.float32(1.5) * x + y)[:n]
        expected[n - 8:] = y[n - 8:]  # i >= n - 8: the kernel's n
        for std in ("", "-cl-std=CL1.2", "-cl-std=CL2.0", "-cl-std=CL3.0"):
            for level in LEVELS:
                options = (std + " " + level).strip()
                prg, log = self.build(source, options)
                self.assertEqual(log, "", options)
                xb = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
                yb = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
                prg.axpy(self.queue, (n,), None, np.int32(n - 8), np.float32(1.5), xb, yb)
                out = np.empty_like(y)
                cl.enqueue_copy(self.queue, out, yb)
                np.testing.assert_array_equal(out, expected, err_msg=options)
                d = self.cli(source, "axpy", options,
                             ["int:%d" % (n - 8), "float:1.5",
                              "buffer:float[%d]=values(%s)" % (n, ",".join(map(repr, x.tolist()))),
                              "buffer:float[%d]=values(%s)" % (n, ",".join(map(repr, y.tolist())))],
                             global_size=n)
                np.testing.assert_array_equal(np.array(d[3], np.float32), expected,
                                              err_msg=options)

    def test_the_macros_the_pragmas_test(self):
        """The pragma test is not vacuous: kernels see the language extensions' macros
        (cl_ext_float_atomics, whose functions use OpenCL C 2.0 atomics, from 2.0 on)."""
        language = ["cl_khr_expect_assume", "cl_khr_subgroups", "cl_khr_subgroup_ballot",
                    "cl_intel_subgroups_char", "cl_intel_required_subgroup_size",
                    "cl_intel_media_block_io", "cl_khr_spirv_no_integer_wrap_decoration",
                    "cl_khr_fp16", "cl_khr_fp64", "cl_ext_float_atomics"]
        body = "".join("#ifdef %s\n  out[%d] = 1;\n#endif\n" % (e, i) for i, e in enumerate(language))
        source = "kernel void seen(global int* out) {\n%s}\n" % body
        for std in ("", "-cl-std=CL3.0"):
            prg, _ = self.build(source, std)
            out = np.zeros(len(language), np.int32)
            buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
            prg.seen(self.queue, (1,), None, buf)
            cl.enqueue_copy(self.queue, out, buf)
            for e, v in zip(language, out.tolist()):
                self.assertIn(e, self.extensions)
                self.assertEqual(v, 0 if e == "cl_ext_float_atomics" and std == "" else 1,
                                 "%s %s" % (e, std))


if __name__ == "__main__":
    SPVSIM = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
