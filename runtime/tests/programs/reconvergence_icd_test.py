"""SPVSIM_RECONVERGENCE through the ICD (PyOpenCL against libspvsim-opencl.so): a ballot
inside a divergent branch sees the lanes of its side together by default (ipdom), seeded
groups of them under random:SEED (each a subset of its side holding the lane itself; after
the branch, in uniform control flow, the whole sub-group again), and a malformed value is
reported and ignored. The ICD reads its settings once per process, so each setting runs in
a child process of its own.

Run with OCL_ICD_VENDORS naming the library (reconvergence_icd_test.sh does).
"""

import json
import os
import subprocess
import sys
import unittest

KERNEL = """
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
kernel void bal(global uint* inside, global uint* after) {
  uint l = get_sub_group_local_id();
  uint b = 0;
  if (l % 3 != 0) b = sub_group_ballot(1).x;
  inside[get_global_id(0)] = b;
  after[get_global_id(0)] = sub_group_ballot(1).x;
}
"""
LANES = 16
SIDE = sum(1 << l for l in range(LANES) if l % 3 != 0)  # lanes 1, 2, 4, 5, 7, ...: 0x6db6
WHOLE = (1 << LANES) - 1


def child():
    import numpy as np
    import pyopencl as cl
    ctx = cl.Context(dev_type=cl.device_type.ALL)
    queue = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, KERNEL).build()
    inside = np.zeros(LANES, np.uint32)
    after = np.zeros(LANES, np.uint32)
    mf = cl.mem_flags
    bi = cl.Buffer(ctx, mf.WRITE_ONLY, inside.nbytes)
    ba = cl.Buffer(ctx, mf.WRITE_ONLY, after.nbytes)
    prog.bal(queue, (LANES,), (LANES,), bi, ba)
    cl.enqueue_copy(queue, inside, bi)
    cl.enqueue_copy(queue, after, ba)
    print(json.dumps({"inside": inside.tolist(), "after": after.tolist()}))


def run(setting):
    env = dict(os.environ, SPVSIM_SUB_GROUP_SIZE=str(LANES))
    env.pop("SPVSIM_RECONVERGENCE", None)
    if setting is not None:
        env["SPVSIM_RECONVERGENCE"] = setting
    p = subprocess.run([sys.executable, __file__, "--child"], env=env, capture_output=True,
                       text=True, timeout=120)
    if p.returncode != 0:
        raise AssertionError(f"{setting}: exit {p.returncode}\n{p.stderr}")
    return json.loads(p.stdout.strip().splitlines()[-1]), p.stderr


class Reconvergence(unittest.TestCase):
    def test_ipdom_by_default_and_by_name(self):
        for setting in (None, "ipdom"):
            got, _ = run(setting)
            want = [SIDE if l % 3 != 0 else 0 for l in range(LANES)]
            self.assertEqual(got["inside"], want, setting)
            self.assertEqual(got["after"], [WHOLE] * LANES, setting)

    def test_random_groups(self):
        split = 0
        for seed in range(1, 7):
            got, _ = run(f"random:{seed}")
            self.assertEqual(got["after"], [WHOLE] * LANES, seed)
            for l, mask in enumerate(got["inside"]):
                if l % 3 == 0:
                    self.assertEqual(mask, 0, (seed, l))
                    continue
                self.assertEqual(mask & ~SIDE, 0, (seed, l, hex(mask)))  # within its side
                self.assertTrue(mask >> l & 1, (seed, l, hex(mask)))     # holds itself
                for other in range(LANES):  # a group: its members see the same set
                    if mask >> other & 1:
                        self.assertEqual(got["inside"][other], mask, (seed, l, other))
                split += mask != SIDE
        self.assertGreater(split, 0, "no seed split the side")

    def test_malformed_value_is_reported_and_ignored(self):
        got, err = run("sometimes")
        self.assertIn("ignoring SPVSIM_RECONVERGENCE='sometimes'", err)
        self.assertEqual(got["inside"], [SIDE if l % 3 != 0 else 0 for l in range(LANES)])


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    else:
        unittest.main()
