"""Limits with holes (issue 34 item 5), through the spvsim command line: --threads beyond
the work to do takes no memory past --max-memory, and inputs that are not regular files
(FIFOs, devices, directories) are refused at once with what they are, never read
forever or waited on.
"""

import os
import subprocess
import tempfile
import unittest

SPVSIM = os.path.abspath("tools/spvsim")

ADD = """kernel void add(global int* out, global const int* in) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}
"""

# A command that blocks or reads forever fails the test instead of hanging it.
TIMEOUT = 60


class LimitsTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name
        self.add_cl = self.path("add.cl")
        with open(self.add_cl, "w") as f:
            f.write(ADD)
        self.add_spv = self.path("add.spv")
        r = self.spvsim("compile", self.add_cl, "-o", self.add_spv)
        self.assertEqual(r.returncode, 0, r.stderr)

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def spvsim(self, *args):
        return subprocess.run([SPVSIM, *args], capture_output=True, text=True, cwd=self.tmp,
                              timeout=TIMEOUT)

    def fifo(self, name):
        os.mkfifo(self.path(name))
        return self.path(name)

    # --threads

    def test_threads_beyond_the_work_stay_within_max_memory(self):
        # 64 work-items: no launch uses more than 64 threads, and 50 MiB holds at most 50
        # threads' 1 MiB of touched memory; 4096 threads once touched 4 GiB (1024: a peak
        # of 1045 MiB). The process itself takes about 10 MiB beside the limit.
        with open(self.path("out"), "w+") as out, open(self.path("err"), "w+") as err:
            p = subprocess.Popen([SPVSIM, "run", self.add_spv, "--global", "64",
                                  "--arg", "buffer:int[64]", "--arg", "buffer:int[64]=range(1)",
                                  "--threads", "4096", "--max-memory", "50M", "--dump"],
                                 stdout=out, stderr=err, cwd=self.tmp)
            _, status, usage = os.wait4(p.pid, 0)  # this child's own peak, in KiB
            p.returncode = os.waitstatus_to_exitcode(status)
            out.seek(0)
            err.seek(0)
            self.assertEqual(p.returncode, 0, err.read())
            self.assertIn("arg0 int[64] = 2 3 4", out.read())
        # Under ASan (its test environment sets ASAN_OPTIONS) shadow memory and quarantine
        # add about 110 MiB to any run; the 4 GiB of the defect stays far above.
        slack = 40 if "ASAN_OPTIONS" not in os.environ else 400
        self.assertLess(usage.ru_maxrss, (50 + slack) * 1024)

    # Inputs that are not regular files.

    def assert_refused(self, args, what, kind):
        r = self.spvsim(*args)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(f"'{what}' is not a regular file (it is {kind})", r.stderr)

    def add_args(self, init="range(1)"):
        return ["--global", "4", "--arg", "buffer:int[4]", "--arg", f"buffer:int[4]={init}"]

    def test_file_initialiser_must_be_a_regular_file(self):
        fifo = self.fifo("in.fifo")
        self.assert_refused(["run", self.add_spv, *self.add_args(f"file({fifo})")], fifo,
                            "a FIFO")
        self.assert_refused(["run", self.add_spv, *self.add_args("file(/dev/zero)")],
                            "/dev/zero", "a character device")
        self.assert_refused(["run", self.add_spv, *self.add_args(f"file({self.tmp})")],
                            self.tmp, "a directory")
        r = self.spvsim("run", self.add_spv, *self.add_args("file(gone.bin)"))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("cannot open 'gone.bin': no such file", r.stderr)

    def test_kernels_sim_files_and_expect_files_must_be_regular_files(self):
        for name in ("k.spv", "k.cl", "k.spvasm"):
            fifo = self.fifo(name)
            self.assert_refused(["run", fifo, *self.add_args()], fifo, "a FIFO")
        sim = self.fifo("k.sim")  # a .sim file brings its own sizes and arguments
        self.assert_refused(["run", sim], sim, "a FIFO")
        self.assert_refused(["check", sim], sim, "a FIFO")
        os.symlink("/dev/zero", self.path("zero.spv"))
        self.assert_refused(["info", self.path("zero.spv")], self.path("zero.spv"),
                            "a character device")
        expect = self.fifo("expect.txt")
        self.assert_refused(["check", self.add_spv, *self.add_args(), "--expect", expect],
                            expect, "a FIFO")

    def test_a_bundle_whose_manifest_is_a_fifo_is_refused(self):
        bundle = self.path("bundle")
        os.mkdir(bundle)
        with open(self.add_spv, "rb") as src, open(os.path.join(bundle, "module.spv"), "wb") as dst:
            dst.write(src.read())
        manifest = os.path.join(bundle, "launch.txt")
        os.mkfifo(manifest)
        for command in ("run", "check", "info"):
            self.assert_refused([command, bundle], manifest, "a FIFO")


if __name__ == "__main__":
    unittest.main()
