"""Pipes through PyOpenCL (Debian's python3-pyopencl) and libspvsim-opencl.so.

A producer kernel writes packets into a cl.Pipe, a consumer kernel enqueued after it on
the same queue reads them: the pipe's contents persist between launches (OpenCL 3.0 API,
"Pipes"). Expected values come from numpy and the OpenCL C rules: the consumer receives
exactly the multiset of packets written; read_pipe/write_pipe return 0 on success and a
negative value when the pipe is empty/full; reservations fail (invalid reserve id)
when the pipe lacks room or packets.
"""

import unittest

import numpy as np
import pyopencl as cl

mf = cl.mem_flags

SOURCE = """
kernel void produce(__write_only pipe int p, global const int* src, global int* status) {
  size_t g = get_global_id(0);
  status[g] = write_pipe(p, &src[g]);
}
kernel void consume(__read_only pipe int p, global int* dst, global int* status) {
  size_t g = get_global_id(0);
  int v = -1;
  status[g] = read_pipe(p, &v);
  dst[g] = v;
}
kernel void wg_produce(__write_only pipe int p, global const int* src, global int* valid) {
  size_t g = get_global_id(0);
  reserve_id_t id = work_group_reserve_write_pipe(p, get_local_size(0));
  valid[g] = is_valid_reserve_id(id);
  if (is_valid_reserve_id(id)) {
    write_pipe(p, id, get_local_id(0), &src[g]);
    work_group_commit_write_pipe(p, id);
  }
}
kernel void sg_consume(__read_only pipe int p, global int* dst) {
  int v = -1;
  reserve_id_t id = sub_group_reserve_read_pipe(p, get_sub_group_size());
  if (is_valid_reserve_id(id)) {
    read_pipe(p, id, get_sub_group_local_id(), &v);
    sub_group_commit_read_pipe(p, id);
  }
  dst[get_global_id(0)] = v;
}
kernel void counts(__read_only pipe int p, global uint* out) {
  out[0] = get_pipe_num_packets(p);
  out[1] = get_pipe_max_packets(p);
}
"""

OPTIONS = ["-cl-std=CL2.0", "-cl-std=CL3.0 -cl-opt-disable"]


class Pipes(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        platform = next(p for p in cl.get_platforms() if "spvsim" in p.name.lower())
        cls.device = platform.get_devices()[0]
        cls.ctx = cl.Context([cls.device])
        cls.queue = cl.CommandQueue(cls.ctx)
        cls.programs = [cl.Program(cls.ctx, SOURCE).build(options=o) for o in OPTIONS]

    def buffer(self, array):
        return cl.Buffer(self.ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=array)

    def read(self, buf, n, dtype=np.int32):
        out = np.empty(n, dtype)
        cl.enqueue_copy(self.queue, out, buf)
        return out

    def run_kernel(self, program, name, n, local, *args):
        getattr(program, name)(self.queue, (n,), (local,), *args)

    def test_device_and_pipe_info(self):
        self.assertTrue(self.device.get_info(cl.device_info.PIPE_SUPPORT))
        self.assertGreaterEqual(self.device.get_info(cl.device_info.PIPE_MAX_PACKET_SIZE), 1024)
        pipe = cl.Pipe(self.ctx, 0, 8, 33)
        self.assertEqual(pipe.packet_size, 8)
        self.assertEqual(pipe.max_packets, 33)
        self.assertEqual(pipe.get_info(cl.mem_info.TYPE), cl.mem_object_type.PIPE)

    def test_consumer_reads_what_an_earlier_launch_wrote(self):
        n = 256
        src = (np.arange(n, dtype=np.int32) * 3 + 1)
        for program in self.programs:
            pipe = cl.Pipe(self.ctx, 0, 4, n)
            status = self.buffer(np.full(n, 9, np.int32))
            self.run_kernel(program, "produce", n, 64, pipe, self.buffer(src), status)
            np.testing.assert_array_equal(self.read(status, n), np.zeros(n, np.int32))
            counts = self.buffer(np.zeros(2, np.uint32))
            self.run_kernel(program, "counts", 1, 1, pipe, counts)
            np.testing.assert_array_equal(self.read(counts, 2, np.uint32), [n, n])
            dst = self.buffer(np.zeros(n, np.int32))
            self.run_kernel(program, "consume", n, 64, pipe, dst, status)
            np.testing.assert_array_equal(self.read(status, n), np.zeros(n, np.int32))
            np.testing.assert_array_equal(np.sort(self.read(dst, n)), src)
            # Empty now: every read fails with a negative value.
            self.run_kernel(program, "consume", 16, 16, pipe, dst, status)
            self.assertTrue((self.read(status, n)[:16] < 0).all())

    def test_full_pipe_refuses_writes(self):
        n, capacity = 256, 100
        src = np.arange(n, dtype=np.int32) + 1000
        for program in self.programs:
            pipe = cl.Pipe(self.ctx, 0, 4, capacity)
            status = self.buffer(np.full(n, 9, np.int32))
            self.run_kernel(program, "produce", n, 64, pipe, self.buffer(src), status)
            written = self.read(status, n)
            self.assertEqual(int((written == 0).sum()), capacity)
            self.assertTrue(((written == 0) | (written < 0)).all())
            dst = self.buffer(np.zeros(n, np.int32))
            read_status = self.buffer(np.full(n, 9, np.int32))
            self.run_kernel(program, "consume", n, 64, pipe, dst, read_status)
            got = self.read(dst, n)[self.read(read_status, n) == 0]
            np.testing.assert_array_equal(np.sort(got), src[written == 0])

    def test_work_group_and_sub_group_reservations(self):
        n, local = 128, 32
        src = np.arange(n, dtype=np.int32) * 5
        for program in self.programs:
            pipe = cl.Pipe(self.ctx, 0, 4, 96)  # room for three of the four work-groups
            valid = self.buffer(np.full(n, 9, np.int32))
            self.run_kernel(program, "wg_produce", n, local, pipe, self.buffer(src), valid)
            v = self.read(valid, n).reshape(-1, local)
            self.assertTrue((v == v[:, :1]).all())  # one reserve id per work-group
            self.assertEqual(int(v[:, 0].sum()), 3)
            written = src.reshape(-1, local)[v[:, 0] == 1].ravel()
            dst = self.buffer(np.zeros(n, np.int32))
            self.run_kernel(program, "sg_consume", n, local, pipe, dst)
            got = self.read(dst, n)
            np.testing.assert_array_equal(np.sort(got[got != -1]), np.sort(written))

    def test_a_buffer_is_not_a_pipe(self):
        program = self.programs[0]
        kernel = program.produce
        with self.assertRaises(cl.Error):
            kernel.set_arg(0, self.buffer(np.zeros(4, np.int32)))
        with self.assertRaises(cl.Error):  # packets of 8 bytes for a pipe of int
            kernel.set_arg(0, cl.Pipe(self.ctx, 0, 8, 4))


if __name__ == "__main__":
    unittest.main(verbosity=2)
