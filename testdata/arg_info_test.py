"""`spvsim info` against clGetKernelArgInfo through the spvsim ICD, for every kernel of
testdata/ (the .cl files, also the corpus and debugger kernels, and the .spv files).

Both read the loader's kernel signature, so for the same module they must agree on every
parameter's name, type name, and address, access and type qualifiers: a .cl file is
compared with the program built from its source (clCreateProgramWithSource), and with
the module `spvsim compile` makes of it loaded with clCreateProgramWithIL; a .spv file
with that file loaded with clCreateProgramWithIL.

Run from the runfiles tree with OCL_ICD_VENDORS naming libspvsim-opencl.so
(arg_info_test.sh does).
"""

import glob
import os
import subprocess
import sys
import tempfile

import pyopencl as cl

SPVSIM = "tools/spvsim"
AQ = cl.kernel_arg_address_qualifier
ACC = cl.kernel_arg_access_qualifier
TQ = cl.kernel_arg_type_qualifier
SPACES = {"global": AQ.GLOBAL, "constant": AQ.CONSTANT, "local": AQ.LOCAL, "private": AQ.PRIVATE}
ACCESS = {"none": ACC.NONE, "read_only": ACC.READ_ONLY, "write_only": ACC.WRITE_ONLY,
          "read_write": ACC.READ_WRITE}
QUALS = {"const": TQ.CONST, "restrict": TQ.RESTRICT, "volatile": TQ.VOLATILE, "pipe": TQ.PIPE}


def cli_info(path):
    """{kernel: [(name, type, address, access, qualifiers)]} from `spvsim info`."""
    out = subprocess.run([SPVSIM, "info", path], check=True, capture_output=True,
                         text=True).stdout
    kernels, current, columns = {}, None, None
    for line in out.splitlines():
        if line.startswith("kernel "):
            current = kernels.setdefault(line[len("kernel "):], [])
        elif current is not None and line.startswith("  arg "):
            names = ["arg", "name", "type", "space", "access", "qualifiers", "argument"]
            columns = [line.index(n) for n in names]
        elif current is not None and columns and line.startswith("  ") and line[2].isdigit():
            cells = [line[a:b].strip() for a, b in zip(columns, columns[1:] + [None])]
            quals = 0
            for q in cells[5].split():
                if q != "-":
                    quals |= QUALS[q]
            current.append((cells[1], cells[2], SPACES[cells[3]], ACCESS[cells[4]], quals))
        elif not line.startswith("  "):
            columns = None
    return kernels


def icd_info(program):
    """The same from clGetKernelArgInfo; an unnamed parameter reads as argN, as the CLI."""
    kernels = {}
    for k in program.all_kernels():
        params = []
        for i in range(k.num_args):
            try:
                name = k.get_arg_info(i, cl.kernel_arg_info.NAME)
            except cl.RuntimeError:  # CL_KERNEL_ARG_INFO_NOT_AVAILABLE
                name = "arg%d" % i
            params.append((name, k.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME),
                           k.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER),
                           k.get_arg_info(i, cl.kernel_arg_info.ACCESS_QUALIFIER),
                           k.get_arg_info(i, cl.kernel_arg_info.TYPE_QUALIFIER)))
        kernels[k.function_name] = params
    return kernels


def compare(what, cli, icd, totals):
    """1 for a mismatch, or for a module whose info shows no kernel (a parse failure)."""
    totals[0] += len(cli)
    totals[1] += sum(len(p) for p in cli.values())
    if cli == icd and cli:
        return 0
    print("MISMATCH %s\n  spvsim info:        %s\n  clGetKernelArgInfo: %s" % (what, cli, icd))
    return 1


def main():
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    # recursion_tree.cl is refused at every level (recursion; e2e_test checks the error).
    refused = {"testdata/recursion_tree.cl"}
    sources = sorted(p for p in glob.glob("testdata/*.cl") + glob.glob("testdata/corpus/*.cl") +
                     glob.glob("testdata/debug/*.cl") if p not in refused)
    binaries = sorted(glob.glob("testdata/*.spv"))
    failures = checked = 0
    totals = [0, 0]  # kernels, parameters compared
    tmp = tempfile.mkdtemp()
    for path in sources:
        spv = os.path.join(tmp, os.path.basename(path) + ".spv")
        subprocess.run([SPVSIM, "compile", path, "-o", spv], check=True, capture_output=True)
        with open(path) as f:
            # spvsim compiles OpenCL C 3.0 by default; clBuildProgram, OpenCL C 1.2.
            from_source = cl.Program(ctx, f.read()).build(options=["-cl-std=CL3.0"])
        failures += compare(path + " (from source)", cli_info(path), icd_info(from_source), totals)
        binaries.append(spv)
        checked += 1
    for path in binaries:
        with open(path, "rb") as f:
            from_il = cl.Program(ctx, f.read()).build()
        failures += compare(path + " (from IL)", cli_info(path), icd_info(from_il), totals)
        checked += 1
    print("%d modules, %d kernels, %d parameters checked; %d mismatches" %
          (checked, totals[0], totals[1], failures))
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
