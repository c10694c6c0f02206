"""SPVSIM_FORWARD_PROGRESS through the ICD (PyOpenCL against libspvsim-opencl.so): work-group 0
waits for a flag work-group 1 sets. With no forward progress between work-groups (unset, or
none) that is a deadlock, reported on stderr, and out keeps its -1 (on one host thread,
SPVSIM_THREADS=1: work-groups one after the other); occupancy:2 holds both and out is
data + 1 = 42; occupancy:1 still deadlocks, saying why; occupancy alone takes
CL_DEVICE_MAX_COMPUTE_UNITS work-groups (SPVSIM_THREADS=2: two); a malformed value is
reported and ignored. The ICD reads its settings once per process, so each setting runs in
a child process of its own.

Run with OCL_ICD_VENDORS naming the library (forward_progress_icd_test.sh does).
"""

import json
import os
import subprocess
import sys
import unittest

KERNEL = """
kernel void handoff(global atomic_int* flag, global int* data, global int* out) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == 0) {
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {}
    out[0] = data[0] + 1;
  } else {
    data[0] = 41;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  }
}
"""


def child():
    import numpy as np
    import pyopencl as cl
    ctx = cl.Context(dev_type=cl.device_type.ALL)
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, KERNEL).build(options="-cl-std=CL2.0")
    mf = cl.mem_flags
    flag = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(1, np.int32))
    data = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=np.zeros(1, np.int32))
    out = np.full(1, -1, np.int32)
    bo = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=out)
    status = "complete"
    try:
        prog.handoff(queue, (32,), (16,), flag, data, bo).wait()
    except cl.Error as e:  # a fatal diagnostic: the event ends in an error status
        status = str(e.code)
    cl.enqueue_copy(queue, out, bo)
    units = ctx.devices[0].max_compute_units
    print(json.dumps({"out": int(out[0]), "status": status, "units": units}))


def run(setting, threads):
    env = dict(os.environ, SPVSIM_THREADS=str(threads))
    env.pop("SPVSIM_FORWARD_PROGRESS", None)
    if setting is not None:
        env["SPVSIM_FORWARD_PROGRESS"] = setting
    p = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"{setting}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


class ForwardProgress(unittest.TestCase):
    def assertDeadlock(self, got, err, setting):
        self.assertIn("deadlock: no sub-group of the work-group can make progress", err, setting)
        self.assertEqual(got["out"], -1, setting)

    def test_none_by_default_and_by_name(self):
        for setting in (None, "none"):
            got, err = run(setting, 1)
            self.assertDeadlock(got, err, setting)
            self.assertIn("OpenCL guarantees no forward progress between work-groups", err)

    def test_occupancy_two_completes(self):
        got, err = run("occupancy:2", 1)
        self.assertNotIn("deadlock", err)
        self.assertEqual(got, {"out": 42, "status": "complete", "units": 1})

    def test_occupancy_one_still_deadlocks(self):
        got, err = run("occupancy:1", 1)
        self.assertDeadlock(got, err, "occupancy:1")
        self.assertIn("Under --forward-progress occupancy:1 it is the only resident work-group",
                      err)

    def test_occupancy_takes_the_compute_units(self):
        got, err = run("occupancy", 2)  # CL_DEVICE_MAX_COMPUTE_UNITS: SPVSIM_THREADS
        self.assertNotIn("deadlock", err)
        self.assertEqual(got, {"out": 42, "status": "complete", "units": 2})
        got, err = run("occupancy", 1)
        self.assertDeadlock(got, err, "occupancy with 1 compute unit")

    def test_malformed_value_is_reported_and_ignored(self):
        for setting in ("occupancy:0", "occupancy:x", "always"):
            got, err = run(setting, 1)
            self.assertIn(f"ignoring SPVSIM_FORWARD_PROGRESS='{setting}'", err)
            self.assertDeadlock(got, err, setting)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        unittest.main()
