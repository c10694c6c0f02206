"""Extensions and OpenCL C features the device reports, each checked by a kernel through
PyOpenCL (python3-pyopencl) against libspvsim-opencl.so: the feature macros kernels see
match CL_DEVICE_OPENCL_C_FEATURES, float atomics (cl_ext_float_atomics) and
__builtin_expect/__builtin_assume (cl_khr_expect_assume) compute what numpy does.

Run with OCL_ICD_VENDORS naming the library (device_features_test.sh does).
"""

import unittest

import numpy as np
import pyopencl as cl

mf = cl.mem_flags

FLOAT_ATOMICS = """
kernel void sums(global const float* x, global const double* y, global float* fs,
                 global double* ds, local float* lf, local double* ld) {
  size_t i = get_global_id(0), g = get_group_id(0);
  if (get_local_id(0) == 0) {
    atomic_store_explicit((volatile local atomic_float*)lf, 0.0f, memory_order_relaxed,
                          memory_scope_work_group);
    atomic_store_explicit((volatile local atomic_double*)ld, 1e300, memory_order_relaxed,
                          memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit((volatile global atomic_float*)fs, x[i], memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_max_explicit((volatile global atomic_float*)(fs + 1), x[i],
                            memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit((volatile global atomic_double*)ds, y[i], memory_order_relaxed,
                            memory_scope_device);
  atomic_fetch_min_explicit((volatile global atomic_double*)(ds + 1), y[i],
                            memory_order_relaxed, memory_scope_device);
  atomic_fetch_add_explicit((volatile local atomic_float*)lf, x[i], memory_order_relaxed,
                            memory_scope_work_group);
  atomic_fetch_min_explicit((volatile local atomic_double*)ld, y[i], memory_order_relaxed,
                            memory_scope_work_group);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    fs[2 + g] = atomic_load_explicit((volatile local atomic_float*)lf, memory_order_relaxed,
                                     memory_scope_work_group);
    ds[2 + g] = atomic_load_explicit((volatile local atomic_double*)ld, memory_order_relaxed,
                                     memory_scope_work_group);
  }
}
"""

EXPECT_ASSUME = """
kernel void k(global int* a, int n) {
  int i = get_global_id(0);
  __builtin_assume(n > 0);
  if (__builtin_expect(i < n, 1)) a[i] = a[i] * 3 + n;
}
"""


class DeviceFeaturesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platform = [p for p in cl.get_platforms() if "spvsim" in p.name.lower()][0]
        cls.device = platform.get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.extensions = cls.device.extensions.split()
        cls.features = [nv.name for nv in cls.device.get_info(cl.device_info.OPENCL_C_FEATURES)]

    def macros_defined(self, names, options):
        body = "".join(
            "#ifdef %s\n  out[%d] = 1;\n#else\n  out[%d] = 0;\n#endif\n" % (n, i, i)
            for i, n in enumerate(names))
        prog = cl.Program(self.ctx, "kernel void k(global int* out) {\n%s}\n" % body).build(
            options=options)
        out = np.full(len(names), -1, np.int32)
        buf = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
        prog.k(self.queue, (1,), None, buf)
        cl.enqueue_copy(self.queue, out, buf)
        return dict(zip(names, out.tolist()))

    def test_feature_macros_match_the_query(self):
        self.assertIn("__opencl_c_ext_fp32_global_atomic_add", self.features)
        self.assertIn("__opencl_c_ext_fp64_local_atomic_min_max", self.features)
        seen = self.macros_defined(self.features, "-cl-std=CL3.0")
        self.assertEqual([f for f, v in seen.items() if v != 1], [])
        # Half atomics are not claimed, and kernels do not see them.
        absent = ["__opencl_c_ext_fp16_global_atomic_add", "__opencl_c_ext_fp16_local_atomic_add",
                  "__opencl_c_pipes", "__opencl_c_device_enqueue"]
        for name in absent:
            if name not in self.features:
                self.assertEqual(self.macros_defined([name], "-cl-std=CL3.0")[name], 0, name)

    def test_language_extensions_are_defined(self):
        for e in ("cl_ext_float_atomics", "cl_khr_expect_assume"):
            self.assertIn(e, self.extensions)
            self.assertEqual(self.macros_defined([e], "-cl-std=CL3.0")[e], 1, e)
        self.assertIn("cl_khr_spirv_no_integer_wrap_decoration", self.extensions)

    def test_float_atomics(self):
        groups, local = 4, 32
        n = groups * local
        rng = np.random.default_rng(7)
        # Multiples of 1/4 below 64: every partial sum is exact in float, in any order.
        x = (rng.integers(-256, 256, n) / 4).astype(np.float32)
        y = rng.standard_normal(n)
        prog = cl.Program(self.ctx, FLOAT_ATOMICS).build(options="-cl-std=CL3.0")
        fs = np.array([0, -np.inf] + [0] * groups, np.float32)
        ds = np.array([0, np.inf] + [0] * groups, np.float64)
        x_buf = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        y_buf = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=y)
        fs_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=fs)
        ds_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=ds)
        prog.sums(self.queue, (n,), (local,), x_buf, y_buf, fs_buf, ds_buf,
                  cl.LocalMemory(4), cl.LocalMemory(8))
        cl.enqueue_copy(self.queue, fs, fs_buf)
        cl.enqueue_copy(self.queue, ds, ds_buf)
        self.assertEqual(fs[0], x.sum())
        self.assertEqual(fs[1], x.max())
        self.assertAlmostEqual(ds[0], y.sum(), delta=1e-12)  # order of the sum: any
        self.assertEqual(ds[1], y.min())
        np.testing.assert_array_equal(fs[2:], x.reshape(groups, local).sum(axis=1))
        np.testing.assert_array_equal(ds[2:], y.reshape(groups, local).min(axis=1))

    def test_expect_assume(self):
        prog = cl.Program(self.ctx, EXPECT_ASSUME).build(options="-cl-std=CL3.0")
        a = np.arange(8, dtype=np.int32)
        buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
        prog.k(self.queue, (8,), None, buf, np.int32(5))
        out = np.empty_like(a)
        cl.enqueue_copy(self.queue, out, buf)
        np.testing.assert_array_equal(out, np.where(a < 5, a * 3 + 5, a))


if __name__ == "__main__":
    unittest.main()
