"""The files `spvsim run|check|compile` write (--json, --profile, --profile-json, -o) and
their standard output: an output that names an input is refused and the input left alone;
a report is written whole at the end, so a refused, failed, interrupted or unwritable run
leaves the previous report byte for byte (or, for a run that failed, a whole error
report); a write that fails is an error exit. Write failures are made with RLIMIT_FSIZE
(SIGXFSZ ignored, so write() returns EFBIG as on a full disk) and /dev/full.
"""

import json
import os
import resource
import signal
import subprocess
import tempfile
import time
import unittest

SPVSIM = os.path.abspath("tools/spvsim")

ADD = """kernel void add(global int* out, global const int* in) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}
"""

# Runs until flag[0] is set, which nothing does: a run the test interrupts.
SPIN = """kernel void spin(volatile global int* flag) {
  while (flag[0] == 0) flag[1] += 1;
}
"""

OLD_REPORT = b'{"old": "report"}\n'


def limit_file_size(limit):
    def setup():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return setup


class OutputFilesTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name
        self.add_spv = self.compiled("add", ADD)

    def tearDown(self):
        self._tmp.cleanup()

    def path(self, name):
        return os.path.join(self.tmp, name)

    def write(self, name, data):
        with open(self.path(name), "wb") as f:
            f.write(data)
        return self.path(name)

    def read(self, name):
        with open(self.path(name), "rb") as f:
            return f.read()

    def compiled(self, name, source):
        cl = self.write(name + ".cl", source.encode())
        spv = self.path(name + ".spv")
        r = subprocess.run([SPVSIM, "compile", cl, "-o", spv], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        return spv

    def spvsim(self, *args, **kwargs):
        return subprocess.run([SPVSIM, *args], capture_output=True, text=True, cwd=self.tmp,
                              **kwargs)

    def add_args(self, n=4):
        return [self.add_spv, "--global", str(n), "--arg", f"buffer:int[{n}]",
                "--arg", f"buffer:int[{n}]=range(1)"]

    def assert_no_temporary_files(self):
        left = [f for f in os.listdir(self.tmp) if ".tmp." in f]
        self.assertEqual(left, [])

    # An output naming an input: refused before anything runs, the input unchanged.

    def test_json_naming_the_kernel_is_refused(self):
        before = self.read("add.spv")
        for command in ("run", "check"):
            r = self.spvsim(command, *self.add_args(), "--json", "add.spv")
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertIn("error: --json 'add.spv' is the input file", r.stderr)
            self.assertEqual(self.read("add.spv"), before)
        os.link(self.add_spv, self.path("same-inode.json"))  # another name, the same file
        r = self.spvsim("run", *self.add_args(), "--profile-json", "same-inode.json")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("--profile-json 'same-inode.json' is the input file", r.stderr)
        self.assertEqual(self.read("add.spv"), before)

    def test_profile_naming_the_source_is_refused(self):
        source = self.read("add.cl")
        r = self.spvsim("run", "add.cl", "--global", "4", "--arg", "buffer:int[4]",
                        "--arg", "buffer:int[4]", "--profile", "add.cl")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("--profile 'add.cl' is the input file 'add.cl'", r.stderr)
        self.assertEqual(self.read("add.cl"), source)

    def test_json_naming_an_arg_file_or_expect_file_is_refused(self):
        data = bytes(range(16))
        self.write("in.bin", data)
        r = self.spvsim("run", self.add_spv, "--global", "4", "--arg", "buffer:int[4]",
                        "--arg", "buffer:int[4]=file(in.bin)", "--json", "in.bin")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("--json 'in.bin' is the input file 'in.bin'", r.stderr)
        self.assertEqual(self.read("in.bin"), data)
        expect = self.write("expect.txt", b"arg0 int[4] = 2 3 4 5\n")
        r = self.spvsim("check", *self.add_args(), "--expect", expect, "--json", expect)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(self.read("expect.txt"), b"arg0 int[4] = 2 3 4 5\n")

    def test_json_naming_a_sim_files_program_is_refused(self):
        os.mkdir(self.path("sim"))
        self.write("sim/k.cl", ADD.encode())
        self.write("sim/k.sim",
                   b"k.cl\nadd\n4 1 1\n4 1 1\n<size=16 int fill=0 dump>\n<size=16 int range=1:1:4>\n")
        r = self.spvsim("run", "sim/k.sim", "--json", "sim/k.cl")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("is the input file 'sim/k.cl'", r.stderr)
        self.assertEqual(self.read("sim/k.cl"), ADD.encode())
        r = self.spvsim("run", "sim/k.sim", "--json", "sim/r.json")  # the .sim itself runs
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(self.path("sim/r.json")) as f:
            self.assertEqual(json.load(f)["buffers"]["arg0"], [2, 3, 4, 5])

    def test_compile_output_naming_the_input_is_refused(self):
        before = self.read("add.spv")
        r = self.spvsim("compile", "add.spv", "-o", "add.spv")
        self.assertEqual(r.returncode, 1)
        self.assertIn("is the input", r.stderr)
        self.assertEqual(self.read("add.spv"), before)

    def test_two_outputs_naming_one_file_are_refused(self):
        r = self.spvsim("run", *self.add_args(), "--json", "r.out", "--profile-json", "r.out")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--json and --profile-json name the same file 'r.out'", r.stderr)
        self.assertFalse(os.path.exists(self.path("r.out")))

    # Reports are written at the end, whole.

    def test_usage_error_leaves_the_old_report(self):
        self.write("r.json", OLD_REPORT)
        r = self.spvsim("run", *self.add_args(), "--json", "r.json", "--no-such-option")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(self.read("r.json"), OLD_REPORT)

    def test_failed_run_writes_a_whole_error_report(self):
        self.write("r.json", OLD_REPORT)
        r = self.spvsim("run", self.add_spv, "--global", "4", "--arg", "buffer:int[4]",
                        "--arg", "buffer:int[4]=nonsense", "--json", "r.json")
        self.assertEqual(r.returncode, 1)
        with open(self.path("r.json")) as f:
            report = json.load(f)
        self.assertEqual(report["error"]["kind"], "invalid-argument")
        self.assertIn("nonsense", report["error"]["message"])
        self.assert_no_temporary_files()

    def test_out_of_memory_writes_an_error_report(self):
        # std::bad_alloc (not an Error): an 800 MB buffer under a 400 MB address space.
        self.write("r.json", OLD_REPORT)
        r = subprocess.run(
            ["prlimit", "--as=400000000", SPVSIM, "run", self.add_spv, "--global", "4",
             "--arg", "buffer:int[4]", "--arg", "buffer:int[200000000]", "--max-memory", "4G",
             "--json", "r.json"], capture_output=True, text=True, cwd=self.tmp)
        if "Sanitizer" in r.stderr:
            self.skipTest("a sanitizer's shadow memory does not fit under RLIMIT_AS")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("error: out-of-memory: the host ran out of memory", r.stderr)
        with open(self.path("r.json")) as f:
            self.assertEqual(json.load(f)["error"]["kind"], "out-of-memory")

    def test_signal_mid_run_leaves_the_old_reports(self):
        spin = self.compiled("spin", SPIN)
        for sig in (signal.SIGTERM, signal.SIGINT):
            self.write("r.json", OLD_REPORT)
            self.write("p.json", OLD_REPORT)
            p = subprocess.Popen(
                [SPVSIM, "run", spin, "--global", "1", "--arg", "buffer:int[2]",
                 "--instruction-budget", "1000000000000", "--json", "r.json",
                 "--profile-json", "p.json"],
                cwd=self.tmp, stderr=subprocess.PIPE,
                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
            time.sleep(1.0)  # the kernel is running
            self.assertIsNone(p.poll(), p.stderr.read() if p.poll() is not None else "")
            p.send_signal(sig)
            self.assertEqual(p.wait(timeout=60), -sig)
            p.stderr.close()
            self.assertEqual(self.read("r.json"), OLD_REPORT)
            self.assertEqual(self.read("p.json"), OLD_REPORT)
            self.assert_no_temporary_files()

    # A write that fails is an error exit, and leaves the old file.

    def test_report_write_failure_is_an_error_and_keeps_the_old_report(self):
        n = 20000  # the report's two buffers take well over 64 KiB
        for option in ("--json", "--profile", "--profile-json"):
            name = "r" + option.replace("-", "_")
            self.write(name, OLD_REPORT)
            r = self.spvsim("run", *self.add_args(n), option, name,
                            preexec_fn=limit_file_size(1000 if "profile" in option else 65536))
            self.assertEqual(r.returncode, 1, option + r.stderr)
            self.assertIn(f"error: {option}: cannot write '{name}': File too large", r.stderr)
            self.assertEqual(self.read(name), OLD_REPORT)
            self.assert_no_temporary_files()

    def test_compile_write_failure_keeps_the_old_module(self):
        self.write("out.spv", b"old module")
        # From the .spv: compiling OpenCL C writes files of its own.
        r = self.spvsim("compile", "add.spv", "-o", "out.spv", preexec_fn=limit_file_size(100))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("error: -o: cannot write 'out.spv': File too large", r.stderr)
        self.assertEqual(self.read("out.spv"), b"old module")
        self.assert_no_temporary_files()

    def test_full_disk(self):
        with open("/dev/full", "w") as full:
            for args in (["run", *self.add_args(), "--dump"], ["check", *self.add_args(), "--dump"],
                         ["dis", self.add_spv]):
                r = subprocess.run([SPVSIM, *args], stdout=full, stderr=subprocess.PIPE,
                                   text=True, cwd=self.tmp)
                self.assertEqual(r.returncode, 1, args)
                self.assertIn("cannot write the results to standard output: No space left on "
                              "device", r.stderr)
        r = self.spvsim("run", *self.add_args(), "--json", "/dev/full")
        self.assertEqual(r.returncode, 1)
        self.assertIn("error: --json: cannot write '/dev/full': No space left on device", r.stderr)

    def test_unwritable_report_fails_before_running(self):
        spin = self.compiled("spin", SPIN)  # would run until the test's timeout
        r = self.spvsim("run", spin, "--global", "1", "--arg", "buffer:int[2]",
                        "--json", "no/such/folder/r.json", timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("error: --json: cannot write 'no/such/folder/r.json': cannot use the "
                      "folder 'no/such/folder'", r.stderr)

    def test_report_written_whole_and_through_a_link(self):
        self.write("target.json", OLD_REPORT)
        os.symlink("target.json", self.path("link.json"))
        r = self.spvsim("run", *self.add_args(), "--json", "link.json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(os.path.islink(self.path("link.json")))
        with open(self.path("target.json")) as f:
            self.assertEqual(json.load(f)["buffers"]["arg0"], [2, 3, 4, 5])
        self.assert_no_temporary_files()


if __name__ == "__main__":
    unittest.main()
