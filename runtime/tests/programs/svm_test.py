"""Shared virtual memory through PyOpenCL (python3-pyopencl) against libspvsim-opencl.so.

Run with OCL_ICD_VENDORS naming the library (svm_test.sh does). Host-built linked
structures in SVM memory that kernels follow, coarse-grained buffers under map/unmap,
fine-grained buffers without maps, SVM commands, buffers over SVM memory, and an access
past an allocation reported. Expected values come from numpy or the OpenCL rules.
"""

import os
import tempfile
import unittest

# Diagnostics to a file this test reads (read by the ICD when it loads).
DIAGNOSTICS = os.path.join(tempfile.mkdtemp(), "diagnostics.txt")
os.environ["SPVSIM_DIAGNOSTICS"] = DIAGNOSTICS

import numpy as np  # noqa: E402
import pyopencl as cl  # noqa: E402

mf = cl.mem_flags
sf = cl.svm_mem_flags

# struct node: an 8-byte pointer and an int, padded to 16 bytes (OpenCL C layout).
NODE = np.dtype([("next", np.uint64), ("v", np.int32), ("pad", np.int32)])

SOURCE = """
struct node { global struct node* next; int v; };

kernel void walk(global struct node* head, global int* out) {
  int s = 0, n = 0;
  for (global struct node* p = head; p; p = p->next) { s += p->v; ++n; }
  out[2 * get_global_id(0)] = s;
  out[2 * get_global_id(0) + 1] = n;
}

// nodes[i].next = &nodes[i + 1] (the last: NULL), v = i * i.
kernel void link(global struct node* nodes, int count) {
  int i = get_global_id(0);
  nodes[i].next = i + 1 < count ? nodes + i + 1 : 0;
  nodes[i].v = i * i;
}

kernel void twice(global float* x) { x[get_global_id(0)] *= 2.0f; }

// Reads x[i] for every work-item: past the end when the range is larger.
kernel void copy(global const int* x, global int* y) {
  y[get_global_id(0)] = x[get_global_id(0)];
}
"""


def address(ary):
    return ary.__array_interface__["data"][0]


class SvmTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platform = [p for p in cl.get_platforms() if "spvsim" in p.name.lower()][0]
        cls.device = platform.get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.programs = [cl.Program(cls.ctx, SOURCE).build(options=o)
                        for o in ("-cl-std=CL2.0 -cl-opt-disable", "-cl-std=CL2.0")]

    def diagnostics(self):
        if not os.path.exists(DIAGNOSTICS):
            return ""
        with open(DIAGNOSTICS) as f:
            text = f.read()
        os.remove(DIAGNOSTICS)
        return text

    def test_capabilities(self):
        caps = self.device.svm_capabilities
        want = cl.device_svm_capabilities.COARSE_GRAIN_BUFFER | \
            cl.device_svm_capabilities.FINE_GRAIN_BUFFER
        self.assertEqual(caps, want)  # no fine-grained system SVM, no SVM atomics

    def test_host_built_list_fine_grain(self):
        # 5 nodes scattered over two allocations, linked in a fixed order by the host.
        a = cl.svm_empty(self.ctx, sf.READ_WRITE | sf.SVM_FINE_GRAIN_BUFFER, 3, NODE)
        b = cl.svm_empty(self.ctx, sf.READ_WRITE | sf.SVM_FINE_GRAIN_BUFFER, 2, NODE)
        order = [(a, 0), (b, 1), (a, 2), (b, 0), (a, 1)]
        values = [3, 50, 700, 9000, 11]
        for k, ((ary, i), v) in enumerate(zip(order, values)):
            ary[i]["v"] = v
            if k + 1 < len(order):
                nxt, j = order[k + 1]
                ary[i]["next"] = address(nxt) + j * NODE.itemsize
            else:
                ary[i]["next"] = 0
        for prog in self.programs:
            out = np.full(16, -1, np.int32)
            out_buf = cl.Buffer(self.ctx, mf.WRITE_ONLY, out.nbytes)
            prog.walk(self.queue, (8,), (4,), cl.SVM(a), out_buf)
            cl.enqueue_copy(self.queue, out, out_buf)
            np.testing.assert_array_equal(out[0::2], np.full(8, sum(values)))
            np.testing.assert_array_equal(out[1::2], np.full(8, 5))
        self.assertEqual(self.diagnostics(), "")

    def test_kernel_links_host_follows(self):
        count = 6
        nodes = cl.svm_empty(self.ctx, sf.READ_WRITE | sf.SVM_FINE_GRAIN_BUFFER, count, NODE)
        base = address(nodes)
        for prog in self.programs:
            nodes[:] = np.zeros(count, NODE)
            prog.link(self.queue, (count,), None, cl.SVM(nodes), np.int32(count))
            self.queue.finish()
            want_next = [base + (i + 1) * NODE.itemsize for i in range(count - 1)] + [0]
            self.assertEqual([int(n) for n in nodes["next"]], want_next)
            np.testing.assert_array_equal(nodes["v"], np.arange(count) ** 2)

    def test_coarse_grain_map_unmap(self):
        x = cl.svm_empty(self.ctx, sf.READ_WRITE, 64, np.float32)
        ref = np.linspace(-3, 5, 64).astype(np.float32)
        with cl.SVM(x).map_rw(self.queue) as host:
            host[:] = ref
        self.programs[1].twice(self.queue, (64,), (16,), cl.SVM(x))
        with cl.SVM(x).map_ro(self.queue) as host:
            np.testing.assert_array_equal(host, 2 * ref)

    def test_memcpy_and_fill(self):
        src = cl.svm_empty(self.ctx, sf.READ_WRITE, 32, np.int32)
        dst = cl.svm_empty(self.ctx, sf.READ_WRITE, 32, np.int32)
        cl.enqueue_svm_memfill(self.queue, cl.SVM(src), np.int32(0x01020304))
        cl.enqueue_copy(self.queue, cl.SVM(dst), cl.SVM(src))
        with cl.SVM(dst).map_ro(self.queue) as host:
            np.testing.assert_array_equal(host, np.full(32, 0x01020304, np.int32))
        self.queue.finish()

    def test_buffer_over_svm(self):
        count = 4
        nodes = cl.svm_empty(self.ctx, sf.READ_WRITE | sf.SVM_FINE_GRAIN_BUFFER, count, NODE)
        buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.USE_HOST_PTR, hostbuf=nodes)
        self.assertTrue(buf.get_info(cl.mem_info.USES_SVM_POINTER))
        plain = cl.Buffer(self.ctx, mf.READ_WRITE, 64)
        self.assertFalse(plain.get_info(cl.mem_info.USES_SVM_POINTER))
        # Pointers the kernel stores through the buffer are the SVM addresses.
        self.programs[0].link(self.queue, (count,), None, buf, np.int32(count))
        self.queue.finish()
        base = address(nodes)
        self.assertEqual([int(n) for n in nodes["next"]],
                         [base + 16, base + 32, base + 48, 0])

    def test_access_past_allocation_is_reported(self):
        x = cl.svm_empty(self.ctx, sf.READ_WRITE | sf.SVM_FINE_GRAIN_BUFFER, 8, np.int32)
        x[:] = np.arange(8, dtype=np.int32) + 1
        self.diagnostics()
        y = np.full(12, -1, np.int32)
        y_buf = cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
        self.programs[1].copy(self.queue, (12,), (4,), cl.SVM(x), y_buf)
        cl.enqueue_copy(self.queue, y, y_buf)
        np.testing.assert_array_equal(y[:8], np.arange(8) + 1)
        text = self.diagnostics()
        self.assertIn("out-of-bounds", text)
        self.assertIn("read of 4 bytes at byte offset 32 of SVM allocation 0x%x" % address(x),
                      text)
        self.assertIn("(global memory, 32 bytes)", text)


if __name__ == "__main__":
    unittest.main()
