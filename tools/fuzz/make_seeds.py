#!/usr/bin/python3
"""Builds the fuzz targets' seed corpora from testdata (run by tools/fuzz.sh; nothing of
it is committed but tools/fuzz/seeds, the small hand-written seeds).

  tools/fuzz/make_seeds.py SPVSIM OUTDIR

OUTDIR/fuzz_loader    SPIR-V modules: testdata's .spv and assembled .spvasm files, and
                      testdata/*.cl, testdata/corpus/*.cl and testdata/checks/*/*.cl compiled
                      with `spvsim compile`
                      at -O0 and -O2 (repaired, valid modules), and with plain clang-15 +
                      llvm-spirv-15 at -O2 (what the loader's repairs exist for)
OUTDIR/fuzz_launch    the same modules behind fuzz_launch's 4-byte launch header (every
                      checker on for testdata/checks' kernels)
OUTDIR/fuzz_sim_file  testdata's .sim files behind a line naming their kernel's
                      parameters (fuzz_sim_file.cc), plus tools/fuzz/seeds/fuzz_sim_file
OUTDIR/fuzz_arg_spec, OUTDIR/fuzz_command_line, OUTDIR/fuzz_bundle, OUTDIR/fuzz_dap, OUTDIR/fuzz_dap_session:
                      tools/fuzz/seeds/TARGET
Compiled modules are kept in OUTDIR/cache/ and reused while newer than their source.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TARGETS = ["fuzz_loader", "fuzz_launch", "fuzz_sim_file", "fuzz_arg_spec", "fuzz_command_line",
           "fuzz_bundle", "fuzz_dap", "fuzz_dap_session"]
LAUNCH_HEADER = b"\0\0\0\0"
# testdata/checks' kernels launch with every checker on (byte 3: uninitialized, races,
# undefined values), so the checkers' own code is fuzzed from the start.
CHECKED_LAUNCH_HEADER = b"\0\0\0\x0b"
CLANG = ["clang-15", "-cl-std=CL3.0", "-target", "spir64", "-Xclang", "-no-opaque-pointers",
         "-cl-no-stdinc", "-Xclang", "-finclude-default-header", "-O2", "-emit-llvm", "-c"]


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def fresh(out, src):
    return os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src)


def compile_one(spvsim, cache, src, variant):
    """One module for `src` as `variant` ("O0", "O2" or "raw"): its path, or None."""
    name = os.path.relpath(src, ROOT).replace("/", "_")
    out = os.path.join(cache, f"{name}.{variant}.spv")
    if fresh(out, src):
        return out
    tmp = out + ".tmp"
    if src.endswith(".spvasm"):
        ok = run(["spirv-as", "--preserve-numeric-ids", src, "-o", tmp]).returncode == 0
    elif variant == "raw":
        bc = out + ".bc"
        ok = (run(CLANG + [src, "-o", bc]).returncode == 0 and
              run(["llvm-spirv-15", "--spirv-ext=+all", bc, "-o", tmp]).returncode == 0)
        if os.path.exists(bc):
            os.remove(bc)
    else:
        ok = run([spvsim, "compile", src, "-o", tmp, "--build-options", "-" + variant,
                  "--no-cache"]).returncode == 0
    if not ok:
        if os.path.exists(tmp):
            os.remove(tmp)
        return None
    os.replace(tmp, out)
    return out


# `spvsim info` parameter rows ("0   in    int*  global   read-only") -> the letters of
# fuzz_sim_file.cc's parameter table.
POINTER_LETTERS = {"float": "G", "int": "I", "uint": "U", "uchar": "C", "char": "C",
                   "double": "D", "half": "H", "float4": "F"}
VALUE_LETTERS = {"char": "c", "uchar": "c", "short": "s", "ushort": "s", "half": "h",
                 "int": "i", "uint": "u", "float": "f", "long": "l", "ulong": "z",
                 "size_t": "z", "double": "d", "float4": "v", "int3": "w"}


def param_letters(spvsim, program, kernel):
    info = run([spvsim, "info", program, "--kernel", kernel])
    if info.returncode != 0:
        return None
    letters = ""
    for line in info.stdout.decode(errors="replace").splitlines():
        m = re.match(r"\s+\d+\s+\S+\s+(.+?)\s+(global|constant|local|private)\s+(.*)$", line)
        if not m:
            continue
        ctype, space, access = m.groups()
        base = ctype.replace("const ", "").replace("volatile ", "").rstrip("*").strip()
        if space == "global":
            letters += POINTER_LETTERS.get(base, "V")
        elif space == "constant":
            letters += "k" if base == "float" else "K"
        elif space == "local":
            letters += "L" if base == "float" else "M"
        elif "image" in ctype or "sampler" in ctype:
            letters += "X"
        elif ctype.startswith("struct"):
            letters += "T"
        else:
            letters += VALUE_LETTERS.get(base, "i")
    return letters


def main():
    spvsim, outdir = sys.argv[1], sys.argv[2]
    cache = os.path.join(outdir, "cache")
    os.makedirs(cache, exist_ok=True)
    for t in TARGETS:
        shutil.rmtree(os.path.join(outdir, t), ignore_errors=True)
        os.makedirs(os.path.join(outdir, t))
        # fuzz_dap_session starts from fuzz_dap's sessions.
        hand = "fuzz_dap" if t == "fuzz_dap_session" else t
        for f in glob.glob(os.path.join(ROOT, "tools", "fuzz", "seeds", hand, "*")):
            shutil.copy(f, os.path.join(outdir, t))

    cl = sorted(glob.glob(f"{ROOT}/testdata/*.cl") + glob.glob(f"{ROOT}/testdata/corpus/*.cl") +
                glob.glob(f"{ROOT}/testdata/checks/*/*.cl"))
    asm = sorted(glob.glob(f"{ROOT}/testdata/**/*.spvasm", recursive=True) +
                 glob.glob(f"{ROOT}/src/testdata/*.spvasm") +
                 glob.glob(f"{ROOT}/runtime/tests/programs/*.spvasm"))
    jobs = [(s, v) for s in cl for v in ("O0", "O2", "raw")] + [(s, "asm") for s in asm]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        modules = list(pool.map(lambda j: compile_one(spvsim, cache, *j), jobs))
    failed = [f"{os.path.relpath(s, ROOT)} ({v})" for (s, v), m in zip(jobs, modules) if not m]
    modules = [m for m in modules if m]
    modules += sorted(glob.glob(f"{ROOT}/testdata/**/*.spv", recursive=True) +
                      glob.glob(f"{ROOT}/src/testdata/*.spv"))
    seen = set()
    for m in modules:
        data = open(m, "rb").read()
        if data in seen:
            continue
        seen.add(data)
        base = os.path.basename(m)
        open(os.path.join(outdir, "fuzz_loader", base), "wb").write(data)
        header = CHECKED_LAUNCH_HEADER if base.startswith("testdata_checks_") else LAUNCH_HEADER
        open(os.path.join(outdir, "fuzz_launch", base), "wb").write(header + data)

    sims = 0
    for sim in sorted(glob.glob(f"{ROOT}/testdata/*.sim") + glob.glob(f"{ROOT}/testdata/corpus/*.sim")):
        lines = [l.split("#")[0].strip() for l in open(sim).read().splitlines()]
        words = [l for l in lines if l]
        if len(words) < 2:
            continue
        letters = param_letters(spvsim, os.path.join(os.path.dirname(sim), words[0]), words[1])
        if letters is None:
            continue
        out = os.path.join(outdir, "fuzz_sim_file", os.path.basename(sim))
        open(out, "w").write(letters + "\n" + open(sim).read())
        sims += 1

    print(f"seeds: {len(seen)} modules ({len(jobs)} compile jobs, {len(failed)} without a module), "
          f"{sims} .sim files -> {outdir}")
    if failed:
        print("  no module (expected for some raw clang-15 + llvm-spirv-15 builds): " +
              ", ".join(failed[:12]) + (" ..." if len(failed) > 12 else ""))


if __name__ == "__main__":
    main()
