"""Device-side enqueue through PyOpenCL against libspvsim-opencl.so.

An on-device default queue (clCreateCommandQueueWithProperties with CL_QUEUE_ON_DEVICE |
CL_QUEUE_ON_DEVICE_DEFAULT), a parent kernel whose work-items enqueue blocks, a queue_t
kernel argument, and the device's queue limits. Expected values come from numpy and
from the OpenCL rules, never from spvsim itself.
"""

import os
import subprocess
import sys
import unittest

import numpy as np
import pyopencl as cl

mf = cl.mem_flags
cqp = cl.command_queue_properties

PARENT = """
kernel void parent(global int* out, global int* rc, int k) {
  size_t g = get_global_id(0);
  if (g % 8 == 0)
    rc[g / 8] = enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL,
        ndrange_1D(g, 8, 4), ^{ size_t i = get_global_id(0); out[i] = (int)(i * i) + k; });
}

void grow(global int* hits, global int* failed, int level) {
  atomic_inc(&hits[get_global_id(0)]);
  if (level == 0) return;
  size_t ls = 1 + get_global_id(0) % 3;
  if (enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(5, ls),
                     ^{ grow(hits, failed, level - 1); }) != CLK_SUCCESS)
    atomic_inc(failed);
}

kernel void tree(global int* hits, global int* failed, int level) {
  grow(hits, failed, level);
}

kernel void with_queue(queue_t q, global int* out) {
  clk_event_t e;
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(16), 0, NULL, &e,
                 ^{ out[get_global_id(0)] = 2 * (int)get_global_id(0); });
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1), 1, &e, NULL,
                 ^{ out[16] = out[15] + 1; });
  release_event(e);
}
"""


class DeviceEnqueueTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platforms = cl.get_platforms()
        assert len(platforms) == 1 and platforms[0].name == "spvsim", platforms
        cls.device = platforms[0].get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.program = cl.Program(cls.ctx, PARENT).build(options="-cl-std=CL2.0")

    def device_queue(self, default=True, size=None):
        props = cqp.ON_DEVICE | cqp.OUT_OF_ORDER_EXEC_MODE_ENABLE
        if default:
            props |= cqp.ON_DEVICE_DEFAULT
        plist = [cl.command_queue_info.PROPERTIES, props]
        if size is not None:
            plist += [0x1094, size]  # CL_QUEUE_SIZE
        return cl.CommandQueue(self.ctx, properties=plist)

    def test_device_limits(self):
        d = self.device
        self.assertEqual(d.queue_on_device_preferred_size, 16 * 1024)
        self.assertEqual(d.queue_on_device_max_size, 256 * 1024)
        self.assertGreaterEqual(d.max_on_device_queues, 1)
        self.assertGreaterEqual(d.max_on_device_events, 1)
        self.assertTrue(d.queue_on_device_properties & cqp.OUT_OF_ORDER_EXEC_MODE_ENABLE)
        features = [nv.name for nv in d.get_info(0x106F)]  # CL_DEVICE_OPENCL_C_FEATURES
        self.assertIn("__opencl_c_device_enqueue", features)

    def test_parent_enqueues_children_on_the_default_device_queue(self):
        dq = self.device_queue()
        self.assertEqual(dq.get_info(0x1094), 16 * 1024)  # CL_QUEUE_SIZE: the default
        out = np.full(32, -1, np.int32)
        rc = np.full(4, 99, np.int32)
        out_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
        rc_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=rc)
        self.program.parent(self.queue, (32,), (8,), out_buf, rc_buf, np.int32(5))
        cl.enqueue_copy(self.queue, out, out_buf)
        cl.enqueue_copy(self.queue, rc, rc_buf)
        i = np.arange(32, dtype=np.int32)
        np.testing.assert_array_equal(out, i * i + 5)
        np.testing.assert_array_equal(rc, np.zeros(4, np.int32))  # CLK_SUCCESS
        del dq  # released: the context has no device queue again

    def test_without_a_device_queue_enqueue_fails(self):
        out = np.full(32, -1, np.int32)
        rc = np.full(4, 99, np.int32)
        out_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
        rc_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=rc)
        self.program.parent(self.queue, (32,), (8,), out_buf, rc_buf, np.int32(5))
        cl.enqueue_copy(self.queue, out, out_buf)
        cl.enqueue_copy(self.queue, rc, rc_buf)
        np.testing.assert_array_equal(out, np.full(32, -1, np.int32))
        np.testing.assert_array_equal(rc, np.full(4, -102, np.int32))  # CLK_INVALID_QUEUE

    def test_queue_argument_and_events(self):
        dq = self.device_queue(default=False, size=4096)
        self.assertEqual(dq.get_info(0x1094), 4096)
        out = np.zeros(17, np.int32)
        out_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
        k = self.program.with_queue
        k.set_arg(0, np.uint64(dq.int_ptr))  # a queue_t is its cl_command_queue
        k.set_arg(1, out_buf)
        cl.enqueue_nd_range_kernel(self.queue, k, (1,), (1,))
        cl.enqueue_copy(self.queue, out, out_buf)
        expected = np.append(2 * np.arange(16, dtype=np.int32), 31)
        np.testing.assert_array_equal(out, expected)
        # Host commands are refused on a device queue.
        with self.assertRaises(cl.LogicError):
            cl.enqueue_copy(dq, out, out_buf)
        del dq  # released: the context has no device queue again

    def test_fan_out_tree_fits_the_queue(self):
        # Every work-item of every launch enqueues 5 work-items (local sizes 1..3, not
        # dividing 5), down to level 0: the 64 root work-items at level 4 make
        # 64 * (1 + 5 + 25 + 125) = 9984 enqueues, 8000 waiting at once if the levels ran
        # one after the other; run depth first, a queue of the preferred size (128
        # places) holds them.
        dq = self.device_queue()
        hits = np.zeros(64, np.int32)
        expected = np.zeros(64, np.int32)

        def model(n, level):
            expected[:n] += 1
            if level > 0:
                for _ in range(n):
                    model(5, level - 1)

        model(64, 4)
        failed = np.zeros(1, np.int32)
        hits_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=hits)
        failed_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=failed)
        event = self.program.tree(self.queue, (64,), (16,), hits_buf, failed_buf, np.int32(4))
        event.wait()
        self.assertEqual(event.command_execution_status, 0)  # CL_COMPLETE
        cl.enqueue_copy(self.queue, hits, hits_buf)
        cl.enqueue_copy(self.queue, failed, failed_buf)
        self.assertEqual(failed[0], 0)
        np.testing.assert_array_equal(hits, expected)
        del dq

    def test_max_device_enqueues(self):
        # SPVSIM_MAX_DEVICE_ENQUEUES bounds what one host launch's tree enqueues: the tree
        # above at level 2 enqueues 64 * (1 + 5) = 384 commands; with a bound of 100 the
        # launch stops (CL_OUT_OF_RESOURCES) and the diagnostic names the bound. Knobs are
        # read once per process: a child process runs it.
        script = (
            "import numpy as np, pyopencl as cl, sys\n"
            "sys.path.insert(0, %r)\n"
            "import device_enqueue_test as t\n"
            "ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])\n"
            "q = cl.CommandQueue(ctx)\n"
            "p = cl.Program(ctx, t.PARENT).build(options='-cl-std=CL2.0')\n"
            "cqp = cl.command_queue_properties\n"
            "dq = cl.CommandQueue(ctx, properties=[cl.command_queue_info.PROPERTIES,\n"
            "    cqp.ON_DEVICE | cqp.ON_DEVICE_DEFAULT | cqp.OUT_OF_ORDER_EXEC_MODE_ENABLE])\n"
            "mf = cl.mem_flags\n"
            "h = cl.Buffer(ctx, mf.READ_WRITE, 256)\n"
            "f = cl.Buffer(ctx, mf.READ_WRITE, 4)\n"
            "e = p.tree(q, (64,), (16,), h, f, np.int32(2))\n"
            "try:\n"
            "    e.wait()\n"
            "except cl.Error:\n"
            "    pass\n"
            "print('status', e.command_execution_status)\n"
        ) % os.path.dirname(os.path.abspath(__file__))
        env = dict(os.environ, SPVSIM_MAX_DEVICE_ENQUEUES="100")
        run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                             text=True, timeout=120)
        self.assertIn("status -5", run.stdout, run.stdout + run.stderr)  # CL_OUT_OF_RESOURCES
        self.assertIn("have enqueued 100 commands, spvsim's bound", run.stderr)
        self.assertIn("SPVSIM_MAX_DEVICE_ENQUEUES", run.stderr)

    def test_queue_argument_must_be_a_device_queue(self):
        k = self.program.with_queue
        with self.assertRaises(cl.LogicError) as e:
            k.set_arg(0, np.uint64(self.queue.int_ptr))
        self.assertIn("INVALID_DEVICE_QUEUE", str(e.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
