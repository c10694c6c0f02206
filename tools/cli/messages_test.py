"""Untrusted text in spvsim's messages (README "Messages"): names from a module, tokens
of a .sim file, manifest lines and command-line text reach error and warning lines
escaped (one line each, no terminal escape sequence, no invalid UTF-8), and JSON output
stays valid JSON in valid UTF-8. A UTF-8 byte order mark does not make a .sim's or a
manifest's first line differ. The modules are written word by word here, so that their
names hold exactly the bytes the test means.
"""

import json
import os
import resource
import struct
import subprocess
import tempfile
import unittest

SPVSIM = os.path.abspath("tools/spvsim")
BOM = b"\xef\xbb\xbf"

# An entry-point name holding ESC (a colour sequence), a newline and a byte that is not
# UTF-8; its escaped form, as spirv/text.h writes it, and the JSON string it becomes
# (U+FFFD for the broken byte).
WEIRD = b"k\x1b[31m\nx\xff"
WEIRD_ESCAPED = rb"k\x1b[31m\nx\xff"
WEIRD_JSON = "k\x1b[31m\nx\ufffd"


def literal(text):
    """A SPIR-V literal string: the bytes, a NUL, zero padding to a whole word."""
    data = text + b"\0" * (4 - len(text) % 4)
    return list(struct.unpack("<%dI" % (len(data) // 4), data))


def instruction(opcode, operands):
    return [(len(operands) + 1) << 16 | opcode] + operands


def kernel_module(name, name_words=None):
    """A module with one kernel `name` (as `name_words` when given) that takes nothing
    and does nothing."""
    void, fn_type, fn, label = 1, 2, 3, 4
    words = [0x07230203, 0x00010000, 0, 5, 0]
    for capability in (4, 6, 11):  # Addresses, Kernel, Int64
        words += instruction(17, [capability])
    words += instruction(14, [2, 2])  # OpMemoryModel Physical64 OpenCL
    name_words = name_words or literal(name)
    words += instruction(15, [6, fn] + name_words)  # OpEntryPoint Kernel
    words += instruction(5, [fn] + name_words)  # OpName
    words += instruction(19, [void])  # OpTypeVoid
    words += instruction(33, [fn_type, void])  # OpTypeFunction
    words += instruction(54, [void, fn, 0, fn_type])  # OpFunction
    words += instruction(248, [label])  # OpLabel
    words += instruction(253, [])  # OpReturn
    words += instruction(56, [])  # OpFunctionEnd
    return struct.pack("<%dI" % len(words), *words)


class MessagesTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory()
        self.tmp = self._tmp.name
        self.weird = self.write("weird.spv", kernel_module(WEIRD))
        self.plain = self.write("plain.spv", kernel_module(b"plain"))

    def tearDown(self):
        self._tmp.cleanup()

    def write(self, name, data):
        path = os.path.join(self.tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def spvsim(self, *args):
        return subprocess.run([SPVSIM, *args], capture_output=True, timeout=120)

    def assertOneCleanLine(self, stderr):
        """One line, nothing a terminal acts on, valid UTF-8."""
        self.assertEqual(stderr.count(b"\n"), 1, stderr)
        self.assertTrue(stderr.endswith(b"\n"), stderr)
        self.assertFalse(any(b < 0x20 for b in stderr[:-1]), stderr)
        self.assertNotIn(b"\x7f", stderr)
        stderr.decode("utf-8")  # raises for a broken byte

    def test_kernel_name_runs_and_errors_quote_it_escaped(self):
        # The exact name from the command line finds the kernel.
        r = self.spvsim("run", self.weird, "--kernel", WEIRD, "--global", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        for args in (("run", "--global", "1"), ("info", "--json"), ("info",)):
            r = self.spvsim(args[0], self.weird, "--kernel", "zz\x1b[2J", *args[1:])
            self.assertEqual(r.returncode, 1, r.stderr)
            self.assertOneCleanLine(r.stderr)
            self.assertIn(rb"zz\x1b[2J", r.stderr)
            self.assertIn(WEIRD_ESCAPED, r.stderr)

    def test_a_name_ends_at_its_nul(self):
        # A literal string ends at its NUL (SPIR-V 2.2.1); "ab", NUL, then 'c' in the
        # padding of the same word, which spvsim does not read as part of the name.
        name_words = list(struct.unpack("<I", b"ab\0c"))
        module = self.write("nul.spv", kernel_module(b"", name_words))
        r = self.spvsim("info", module, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([k["name"] for k in json.loads(r.stdout)["kernels"]], ["ab"])
        r = self.spvsim("run", module, "--kernel", "ab", "--global", "1")
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_info_json_is_valid_utf8_json(self):
        r = self.spvsim("info", self.weird, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        info = json.loads(r.stdout.decode("utf-8"))
        self.assertEqual([k["name"] for k in info["kernels"]], [WEIRD_JSON])

    def sim(self, body):
        return self.write("t.sim", body)

    def test_sim_with_byte_order_mark_runs(self):
        path = self.sim(BOM + b"plain.spv\nplain\n1 1 1\n1 1 1\n")
        r = self.spvsim("run", path)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_spvasm_with_byte_order_mark_assembles(self):
        path = self.write("bom.spvasm", BOM + b"""OpCapability Addresses
OpCapability Kernel
OpCapability Int64
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
%void = OpTypeVoid
%ft = OpTypeFunction %void
%k = OpFunction %void None %ft
%l = OpLabel
OpReturn
OpFunctionEnd
""")
        r = self.spvsim("info", path, "--json")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual([k["name"] for k in json.loads(r.stdout)["kernels"]], ["k"])

    def test_sim_tokens_are_escaped_and_a_nul_does_not_cut_the_message(self):
        # The kernel takes no argument: the token is "unexpected" and quoted whole.
        path = self.sim(b"plain.spv\nplain\n1 1 1\n1 1 1\nab\x1b[2J\0cd\xfe\n")
        report = os.path.join(self.tmp, "r.json")
        r = self.spvsim("run", path, "--json", report)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertOneCleanLine(r.stderr)
        self.assertIn(rb"'ab\x1b[2J\x00cd\xfe'", r.stderr)
        with open(report, "rb") as f:
            error = json.loads(f.read().decode("utf-8"))["error"]
        self.assertEqual(error["kind"], "input")
        # The NUL is written out as text (what() is a C string); the rest as it was, the
        # broken byte replaced.
        self.assertIn("'ab\x1b[2J\\x00cd\ufffd'", error["message"])

    def manifest(self, text):
        self.write("bundle/module.spv", kernel_module(b"plain"))
        self.write("bundle/launch.txt", text)
        return os.path.join(self.tmp, "bundle")

    def test_manifest_with_byte_order_mark_is_read(self):
        # Read past the mark, the first line is a manifest of format 2, which is refused
        # as such (without the fix: "not a capture manifest").
        r = self.spvsim("run", self.manifest(BOM + b"spvsim-capture 2\n"))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(b"capture format version '2' (this spvsim reads 1)", r.stderr)

    def test_manifest_text_in_errors_and_warnings_is_escaped(self):
        r = self.spvsim("run", self.manifest(b"spvsim-capture \x1b[31m1\n"))
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertOneCleanLine(r.stderr)
        self.assertIn(rb"capture format version '\x1b[31m1'", r.stderr)
        bundle = self.manifest(
            b"spvsim-capture 1\nkernel plain\nmodule module.spv\nwork-dim 1\n"
            b"global-size 1 1 1\nlocal-size 1 1 1\nsub-group-size 1\n"
            b"warning forged\rwarning: \x1b[2Jgone \xff\nstatus complete\n")
        r = self.spvsim("run", bundle)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertOneCleanLine(r.stderr)
        self.assertIn(rb"forged\rwarning: \x1b[2Jgone \xff", r.stderr)

    def test_host_out_of_memory_has_its_kind(self):
        # 100,000,000 ints (400 MB) do not fit in 256 MiB of address space: allocating
        # the argument fails on the host, under the --max-memory default (half the
        # physical memory), so no launch check says it first.
        self.write("k.cl", b"kernel void k(global int* a) { a[0] = 1; }\n")
        k = os.path.join(self.tmp, "k.spv")
        r = self.spvsim("compile", os.path.join(self.tmp, "k.cl"), "-o", k)
        self.assertEqual(r.returncode, 0, r.stderr)
        report = os.path.join(self.tmp, "r.json")
        limit = 256 << 20
        r = subprocess.run(
            [SPVSIM, "run", k, "--global", "1", "--arg", "buffer:int[100000000]=zero",
             "--json", report],
            capture_output=True, timeout=120,
            preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
        if b"Sanitizer" in r.stderr:
            self.skipTest("a sanitizer's shadow memory does not fit under RLIMIT_AS")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertEqual(r.stderr, b"error: out-of-memory: the host ran out of memory\n")
        with open(report, "rb") as f:
            error = json.loads(f.read().decode("utf-8"))["error"]
        self.assertEqual(error, {"kind": "out-of-memory",
                                 "message": "the host ran out of memory"})


if __name__ == "__main__":
    unittest.main()
