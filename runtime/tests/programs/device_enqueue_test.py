"""Device-side enqueue through PyOpenCL against libspvsim-opencl.so.

An on-device default queue (clCreateCommandQueueWithProperties with CL_QUEUE_ON_DEVICE |
CL_QUEUE_ON_DEVICE_DEFAULT), a parent kernel whose work-items enqueue blocks, a queue_t
kernel argument, and the device's queue limits. Expected values come from numpy and
from the OpenCL rules, never from spvsim itself.
"""

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

    def test_queue_argument_must_be_a_device_queue(self):
        k = self.program.with_queue
        with self.assertRaises(cl.LogicError) as e:
            k.set_arg(0, np.uint64(self.queue.int_ptr))
        self.assertIn("INVALID_DEVICE_QUEUE", str(e.exception))


if __name__ == "__main__":
    unittest.main(verbosity=2)
