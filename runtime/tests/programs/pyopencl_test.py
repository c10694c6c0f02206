"""PyOpenCL (Debian's python3-pyopencl) against libspvsim-opencl.so.

Run with OCL_ICD_VENDORS naming the library (pyopencl_test.sh does): buffers, programs
from source, from IL and from PyOpenCL's binary cache, kernel launches, sub-group
queries checked against what the kernel observes, argument info, events and printf.
Expected values come from numpy or from the OpenCL rules, never from spvsim itself.
"""

import os
import shutil
import subprocess
import tempfile
import threading
import unittest
import warnings

import numpy as np
import pyopencl as cl

mf = cl.mem_flags

OBSERVE = """
kernel void observe(global uint* out) {
  size_t i = get_global_linear_id();
  out[3 * i] = get_max_sub_group_size();
  out[3 * i + 1] = get_num_sub_groups();
  out[3 * i + 2] = get_sub_group_size();
}
"""

SAXPY = """
kernel void saxpy(float a, global const float* x, global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}
"""


def compile_to_spirv(source):
    """OpenCL C -> SPIR-V with the system's clang-15 and llvm-spirv-15 (not spvsim)."""
    d = tempfile.mkdtemp()
    try:
        src, bc, spv = (os.path.join(d, n) for n in ("k.cl", "k.bc", "k.spv"))
        with open(src, "w") as f:
            f.write(source)
        subprocess.run(["clang-15", "-cl-std=CL3.0", "-target", "spir64", "-Xclang",
                        "-no-opaque-pointers", "-cl-no-stdinc", "-Xclang",
                        "-finclude-default-header", "-O2", "-emit-llvm", "-c", src, "-o", bc],
                       check=True)
        subprocess.run(["llvm-spirv-15", "--spirv-ext=+all", bc, "-o", spv], check=True)
        with open(spv, "rb") as f:
            return f.read()
    finally:
        shutil.rmtree(d)


class SpvsimTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platforms = cl.get_platforms()
        assert len(platforms) == 1 and platforms[0].name == "spvsim", platforms
        cls.device = platforms[0].get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(
            cls.ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)

    def build(self, source, options="-cl-std=CL3.0"):
        return cl.Program(self.ctx, source).build(options=options)

    def test_platform_and_device(self):
        self.assertIn("OpenCL 3.0", self.device.version)
        self.assertIn("cl_khr_subgroups", self.device.extensions)
        self.assertIn("cl_khr_il_program", self.device.extensions)

    def test_buffers(self):
        a = np.arange(64, dtype=np.int32)
        buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
        copy = cl.Buffer(self.ctx, mf.READ_WRITE, a.nbytes)
        cl.enqueue_copy(self.queue, copy, buf)
        cl.enqueue_fill_buffer(self.queue, buf, np.int32(7), 0, 32)
        out = np.empty_like(a)
        cl.enqueue_copy(self.queue, out, buf)
        np.testing.assert_array_equal(out, np.concatenate([np.full(8, 7), a[8:]]))
        cl.enqueue_copy(self.queue, out, copy)
        np.testing.assert_array_equal(out, a)
        mapped, _ = cl.enqueue_map_buffer(self.queue, copy, cl.map_flags.READ, 0, a.shape,
                                          a.dtype)
        np.testing.assert_array_equal(mapped, a)
        del mapped

    def test_program_from_source_and_launch(self):
        prg = self.build(SAXPY)
        self.assertEqual(prg.kernel_names, "saxpy")
        x = np.linspace(0, 1, 1000).astype(np.float32)
        y = np.full(1000, 2, dtype=np.float32)
        xb = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        yb = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
        event = prg.saxpy(self.queue, x.shape, None, np.float32(2.5), xb, yb)
        event.wait()
        self.assertEqual(event.command_execution_status, cl.command_execution_status.COMPLETE)
        self.assertLessEqual(event.profile.start, event.profile.end)
        out = np.empty_like(y)
        cl.enqueue_copy(self.queue, out, yb)
        np.testing.assert_allclose(out, np.float32(2.5) * x + y, rtol=1e-6)

    def test_program_from_il(self):
        il = compile_to_spirv(SAXPY)
        prg = cl.Program(self.ctx, il).build()
        self.assertEqual(prg.kernel_names, "saxpy")
        x = np.arange(16, dtype=np.float32)
        xb = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
        yb = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=x)
        prg.saxpy(self.queue, (16,), (8,), np.float32(3), xb, yb)
        out = np.empty_like(x)
        cl.enqueue_copy(self.queue, out, yb)
        np.testing.assert_array_equal(out, 4 * x)

    def test_binary_cache(self):
        # PyOpenCL caches binaries and later creates the program from the cached one
        # (it only warns when that fails: make that an error here).
        cache = tempfile.mkdtemp()
        try:
            warnings.simplefilter("error")
            for _ in range(2):
                prg = cl.Program(self.ctx, SAXPY).build(options="-cl-std=CL2.0",
                                                        cache_dir=cache)
                x = np.ones(4, dtype=np.float32)
                yb = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=x)
                xb = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
                prg.saxpy(self.queue, (4,), None, np.float32(1), xb, yb)
                out = np.empty_like(x)
                cl.enqueue_copy(self.queue, out, yb)
                np.testing.assert_array_equal(out, 2 * x)
            self.assertTrue(os.listdir(cache))
        finally:
            warnings.resetwarnings()
            shutil.rmtree(cache)

    def test_sub_group_info_matches_the_kernel(self):
        kernel = self.build(OBSERVE).observe
        info = cl.kernel_sub_group_info
        for local in [(24,), (5, 3), (4, 3, 2), (16,)]:
            n = int(np.prod(local))
            max_size = kernel.get_sub_group_info(
                self.device, info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, local)
            count = kernel.get_sub_group_info(self.device, info.SUB_GROUP_COUNT_FOR_NDRANGE,
                                              local)
            self.assertEqual(count, -(-n // max_size))  # ceil
            out = cl.Buffer(self.ctx, mf.WRITE_ONLY, n * 12)
            kernel(self.queue, local, local, out)
            seen = np.empty(n * 3, dtype=np.uint32)
            cl.enqueue_copy(self.queue, seen, out)
            seen = seen.reshape(n, 3)
            self.assertTrue((seen[:, 0] == max_size).all(), (local, seen[:, 0]))
            self.assertTrue((seen[:, 1] == count).all(), (local, seen[:, 1]))
            sizes = sorted(seen[:, 2], reverse=True)  # full sub-groups, then the last
            expected = [max_size] * (max_size * (count - 1)) + [n - max_size * (count - 1)] * (
                n - max_size * (count - 1))
            self.assertEqual([int(s) for s in sizes], expected)
        for count in (1, 3):
            local = kernel.get_sub_group_info(self.device,
                                              info.LOCAL_SIZE_FOR_SUB_GROUP_COUNT, count)
            self.assertEqual(local, [count * max_size, 1, 1])
            n = int(np.prod(local))
            out = cl.Buffer(self.ctx, mf.WRITE_ONLY, n * 12)
            kernel(self.queue, local, local, out)
            seen = np.empty(n * 3, dtype=np.uint32)
            cl.enqueue_copy(self.queue, seen, out)
            self.assertEqual(seen[1], count)
        max_groups = kernel.get_sub_group_info(self.device, info.MAX_NUM_SUB_GROUPS)
        self.assertEqual(max_groups, -(-kernel.get_work_group_info(
            cl.kernel_work_group_info.WORK_GROUP_SIZE, self.device) // max_size))
        self.assertEqual(kernel.get_sub_group_info(self.device, info.COMPILE_NUM_SUB_GROUPS), 0)

    def test_sub_group_collectives(self):
        prg = self.build("""
kernel void k(global const int* in, global int* sums, global int* next) {
  size_t i = get_global_id(0);
  sums[i] = sub_group_reduce_add(in[i]);
  next[i] = intel_sub_group_shuffle(in[i], (get_sub_group_local_id() + 1) %
                                           get_sub_group_size());
}
""")
        width = prg.k.get_sub_group_info(
            self.device, cl.kernel_sub_group_info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, (64,))
        a = (np.arange(64, dtype=np.int32) * 7) % 23
        ib = cl.Buffer(self.ctx, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=a)
        sb = cl.Buffer(self.ctx, mf.WRITE_ONLY, a.nbytes)
        nb = cl.Buffer(self.ctx, mf.WRITE_ONLY, a.nbytes)
        prg.k(self.queue, (64,), (64,), ib, sb, nb)
        sums, nxt = np.empty_like(a), np.empty_like(a)
        cl.enqueue_copy(self.queue, sums, sb)
        cl.enqueue_copy(self.queue, nxt, nb)
        groups = a.reshape(-1, width)
        np.testing.assert_array_equal(sums, np.repeat(groups.sum(axis=1), width))
        np.testing.assert_array_equal(nxt, np.roll(groups, -1, axis=1).reshape(-1))

    def test_argument_info(self):
        k = self.build("kernel void k(global const uint* a, local float4* b, int c) {}").k
        ai = cl.kernel_arg_info
        self.assertEqual(k.get_arg_info(0, ai.TYPE_NAME), "uint*")
        self.assertEqual(k.get_arg_info(0, ai.NAME), "a")
        self.assertEqual(k.get_arg_info(0, ai.TYPE_QUALIFIER), cl.kernel_arg_type_qualifier.CONST)
        self.assertEqual(k.get_arg_info(1, ai.ADDRESS_QUALIFIER),
                         cl.kernel_arg_address_qualifier.LOCAL)
        self.assertEqual(k.get_arg_info(2, ai.TYPE_NAME), "int")

    def test_events(self):
        prg = self.build("kernel void inc(global int* a) { a[get_global_id(0)] += 1; }")
        a = np.zeros(8, dtype=np.int32)
        buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=a)
        gate = cl.UserEvent(self.ctx)
        first = prg.inc(self.queue, (8,), None, buf, wait_for=[gate])
        second = prg.inc(self.queue, (8,), None, buf, wait_for=[first])
        self.assertNotEqual(second.command_execution_status,
                            cl.command_execution_status.COMPLETE)
        statuses, called = [], threading.Event()

        def callback(status):
            statuses.append(status)
            called.set()

        second.set_callback(cl.command_execution_status.COMPLETE, callback)
        gate.set_status(cl.command_execution_status.COMPLETE)
        cl.wait_for_events([second])
        self.queue.finish()
        self.assertTrue(called.wait(10))  # callbacks may run after the wait returns
        self.assertEqual(statuses, [cl.command_execution_status.COMPLETE])
        self.assertEqual(second.command_type, cl.command_type.NDRANGE_KERNEL)
        cl.enqueue_copy(self.queue, a, buf)
        np.testing.assert_array_equal(a, np.full(8, 2))

    def test_build_failure_reports_the_log(self):
        with self.assertRaises(cl.RuntimeError) as e:
            self.build("kernel void k() { undeclared_thing = 1; }")
        self.assertIn("undeclared_thing", str(e.exception))

    def test_printf(self):
        prg = self.build('kernel void k() { printf("item %d\\n", (int)get_global_id(0)); }')
        with tempfile.TemporaryFile() as captured:
            saved = os.dup(1)
            os.dup2(captured.fileno(), 1)
            try:
                prg.k(self.queue, (3,), (3,))
                self.queue.finish()
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            captured.seek(0)
            self.assertEqual(captured.read().decode(), "item 0\nitem 1\nitem 2\n")


if __name__ == "__main__":
    unittest.main(verbosity=2)
