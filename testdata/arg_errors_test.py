"""One argument check, two front ends: each kind of argument error as `spvsim run --arg`
reports it (message, exit status) and as the ICD's clSetKernelArg / clEnqueueNDRangeKernel
return it, with the error codes of runtime/arg_errors.h (Count: CL_INVALID_KERNEL_ARGS,
Kind and Type: CL_INVALID_ARG_VALUE, Size: CL_INVALID_ARG_SIZE).

The messages are worked by hand from the kernel below; the codes are the OpenCL API's for
the same misuse. Run as arg_info_test.py is (arg_errors_test.sh).
"""

import subprocess
import sys
import unittest

import numpy as np
import pyopencl as cl

SPVSIM = "tools/spvsim"
SOURCE = "kernel void k(global int* a, local float* l, int4 v) { a[0] = v.x; l[0] = 1; }\n"
PREFIX = "error: "


def cli_error(tmp, *args):
    """The CLI's error line for `spvsim run` with these --arg specs."""
    path = tmp + "/k.cl"
    with open(path, "w") as f:
        f.write(SOURCE)
    argv = [SPVSIM, "run", path, "--global", "1"]
    for a in args:
        argv += ["--arg", a]
    r = subprocess.run(argv, capture_output=True, text=True)
    assert r.returncode != 0, r
    return [l for l in r.stderr.splitlines() if l.startswith("error:")][0]


class ArgErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.tmp = tempfile.mkdtemp()
        cls.ctx = cl.Context(cl.get_platforms()[0].get_devices())
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.prog = cl.Program(cls.ctx, SOURCE).build()

    def code(self, fn):
        try:
            fn()
        except cl.Error as e:
            return e.code
        return 0

    def test_count(self):
        self.assertEqual(cli_error(self.tmp, "buffer:int[1]"),
                         PREFIX + "kernel 'k' takes 3 arguments (global int* a, local float* l, "
                         "int4 v) but 1 was given")
        k = self.prog.k
        k.set_arg(0, cl.Buffer(self.ctx, cl.mem_flags.READ_WRITE, 4))
        self.assertEqual(self.code(lambda: cl.enqueue_nd_range_kernel(self.queue, k, (1,), None)),
                         cl.status_code.INVALID_KERNEL_ARGS)

    def test_kind(self):
        self.assertEqual(cli_error(self.tmp, "buffer:int[1]", "buffer:float[4]", "int4:0"),
                         PREFIX + "argument 1 (l) is 'local float* l': give local:BYTES, not "
                         "'buffer:float[4]'")
        buf = cl.Buffer(self.ctx, cl.mem_flags.READ_WRITE, 16)
        self.assertEqual(self.code(lambda: self.prog.k.set_arg(1, buf)),
                         cl.status_code.INVALID_ARG_VALUE)

    def test_size(self):
        self.assertEqual(cli_error(self.tmp, "buffer:int[1]", "local:16", "int:0"),
                         PREFIX + "argument 2 (v) is 'int4 v' (16 bytes) but 'int:0' gives 4 bytes")
        self.assertEqual(self.code(lambda: self.prog.k.set_arg(2, np.int32(0))),
                         cl.status_code.INVALID_ARG_SIZE)
        self.assertEqual(self.code(lambda: self.prog.k.set_arg(1, cl.LocalMemory(0))),
                         cl.status_code.INVALID_ARG_SIZE)

    def test_float_for_int(self):
        self.assertEqual(cli_error(self.tmp, "buffer:int[1]", "local:16", "float4:0"),
                         PREFIX + "argument 2 (v) is 'int4 v' but 'float4:0' gives float4 "
                         "(integer and floating-point bits differ)")
        # The API passes bytes only: 16 bytes of floats are a valid int4 argument there.
        self.assertEqual(self.code(lambda: self.prog.k.set_arg(2, np.zeros(4, np.float32))), 0)


if __name__ == "__main__":
    sys.exit(unittest.main())
