#!/usr/bin/python3
"""Physical32 modules through `spvsim run`, against host models.

pointers32.cl is compiled for a 32-bit device (clang-15 -target spir, then llvm-spirv-15)
at -O0 and -O2; builtins32.spvasm and pointers32.spvasm are written by hand. Each case
checks the exit status, the dumped buffers, printf output and diagnostics. Expected values
come from the models below: the OpenCL C semantics of each kernel, and for addresses the
32-bit layout src/exec/address32.h documents (global window at 1 GiB; each object in a
slot of guard | size rounded to 4 KiB | guard, the guard its size clamped to 64 KiB..16 MiB).

  /usr/bin/python3 testdata/physical32/run_physical32.py [--spvsim PATH] [-k REGEX] [-v]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
LEVELS = ['-O0', '-O2']
CHECKERS = ['--check-uninitialized', '--check-undefined', '--check-races']


def round_up(n, to=4096):
    return (n + to - 1) // to * to


def global_bases(sizes):
    """32-bit addresses of global buffers of these byte sizes, in argument order."""
    cursor, bases = GIB, []
    for size in sizes:
        guard = min(max(round_up(size), 64 * KIB), 16 * MIB)
        bases.append(cursor + guard)
        cursor += guard + round_up(max(size, 1)) + guard
    return bases


def u32(x):
    return x & 0xffffffff


# ---- the cases: (name, file, kernel, spvsim arguments, expected) -------------------------
# expected: 'dump' {arg index: values}, 'stdout' lines, 'stderr' substrings, 'stderr_re'
# patterns one line must match, 'rc'.

def holder():
    base = global_bases([32, 32, 32])[0]
    return {'dump': {1: [(10 + i) * 3 + 4 * 100 + 4 * 1000 + 8 * 10000 for i in range(8)],
                     2: [4 * i for i in range(8)]},
            'stdout': ['0x%x 0x%x' % (base, base)]}


def linked_list():
    n = 6
    base = global_bases([8 * n, 4 * n, 8])[0]
    nodes = []
    for i in range(n):
        nodes += [base + 8 * (i + 1) if i + 1 < n else 0, 10 * i]
    return {'dump': {0: nodes, 1: [sum(10 * j for j in range(i, n)) for i in range(n)],
                     2: [8, base]}}


def atomics():
    groups, local = 2, 32
    hist = [groups * sum(l for l in range(local) if l & 3 == k) for k in range(4)]
    return {'dump': {0: [groups * local], 1: hist}}


def subgroups(width=8, n=32):
    return {'dump': {0: [sum(range(x // width * width, x // width * width + width)) +
                         1000 * (x % width) + 100000 * (x // width) for x in range(n)]}}


def builtins32(offset=2, n=12, local=6, width=4):
    out = [0] * ((offset + n) * 8)
    for g in range(offset, offset + n):
        l = (g - offset) % local
        out[g * 8:g * 8 + 8] = [g, l, (g - offset) // local, n, local, n // local, g - offset,
                                l % width]
    return {'dump': {0: out}}


def private_pointer():
    out_base = global_bases([16, 16, 32])[1]
    pairs = []
    for i in range(4):
        pairs += [out_base, i]
    return {'dump': {1: [11 + i for i in range(4)], 2: pairs}}


def far_pointer():
    base = global_bases([16, 16])[0]
    return {'dump': {1: [u32(base + 64 * MIB), 0, 0, 0]},
            'stderr': ['warning: pointer-conversion: a pointer at byte offset 67108864 of '
                       'argument 0', 'which leads elsewhere: to 32-bit address 0x%08x (it '
                       'names no object)' % u32(base + 64 * MIB)]}


CL = 'pointers32.cl'
CASES = [
    ('holder', CL, 'holder', ['--global', '8', '--arg', 'buffer:int[8]=range(10)',
                              '--arg', 'buffer:uint[8]=zero', '--arg', 'buffer:uint[8]=zero'],
     holder()),
    ('linked_list', CL, 'linked_list',
     ['--global', '6', '--arg', 'buffer:uint[12]=zero', '--arg', 'buffer:int[6]=zero',
      '--arg', 'buffer:uint[2]=zero'], linked_list()),
    ('local_pointers', CL, 'local_pointers',
     ['--global', '16', '--local', '8', '--arg', 'buffer:int[16]=zero', '--arg', 'local:256'],
     {'dump': {0: [5 * (g % 8) for g in range(16)]}}),
    ('vectors', CL, 'vectors', ['--global', '4', '--arg', 'buffer:float[16]=range(1)',
                                '--arg', 'buffer:float[16]=zero'],
     {'dump': {1: [2.0 * (1 + k) for k in range(16)]}}),
    ('atomics', CL, 'atomics', ['--global', '64', '--local', '32', '--arg', 'buffer:uint[1]=zero',
                                '--arg', 'buffer:uint[4]=zero', '--arg', 'local:16'], atomics()),
    ('subgroups', CL, 'subgroups', ['--global', '32', '--local', '32', '--sub-group-size', '8',
                                    '--arg', 'buffer:uint[32]=zero'], subgroups()),
    ('async_copy', CL, 'async_copy',
     ['--global', '16', '--local', '8', '--arg', 'buffer:int[16]=range(0)',
      '--arg', 'buffer:int[16]=zero', '--arg', 'local:32'],
     {'dump': {1: [g // 8 * 8 + 7 - g % 8 for g in range(16)]}}),
    ('past_the_end', CL, 'past_the_end',
     ['--global', '4', '--arg', 'buffer:int[8]=range(1)', '--arg', 'buffer:int[4]=zero'],
     {'rc': 2, 'dump': {1: [0, 0, 0, 0]},
      'stderr': ['error: out-of-bounds: read of 4 bytes at byte offset 32 of argument 0 (',
                 '(global memory, 32 bytes)']}),
    ('no_object', CL, 'no_object', ['--global', '1', '--arg', 'buffer:int[1]=zero'],
     {'rc': 2, 'stderr': ['error: out-of-bounds: read of 4 bytes through a 32-bit address '
                          '0x7fff0000 (it names no object)']}),
    ('null_page', CL, 'null_page', ['--global', '1', '--arg', 'buffer:int[1]=zero'],
     {'rc': 2, 'stderr': ['error: out-of-bounds: read of 4 bytes at byte offset 16 from a null '
                          'pointer']}),
    ('far_pointer', CL, 'far_pointer',
     ['--global', '1', '--arg', 'buffer:int[4]=zero', '--arg', 'buffer:uint[4]=zero'],
     far_pointer()),
    ('program_scope', 'program_scope32.cl', 'program_scope', ['--global', '4', '--arg', 'buffer:int[4]=zero'],
     {'dump': {0: [(22 if i & 1 else 11) + 500 + 8 for i in range(4)]},
      # llvm-spirv-15 writes the table's initialiser in a form the validator refuses.
      'stderr': ['warning: repaired: constant composites']}),
    ('builtins32', 'builtins32.spvasm', 'builtins32',
     ['--global', '12', '--local', '6', '--global-offset', '2', '--sub-group-size', '4',
      '--arg', 'buffer:uint[112]=zero'], builtins32()),
    ('size_t_range', 'builtins32.spvasm', 'builtins32',
     ['--global', '2', '--global-offset', '4294967295', '--arg', 'buffer:uint[8]=zero'],
     {'rc': 1, 'stderr': ["kernel builtins32 is a Physical32 module, whose size_t is 32 bits: "
                          "global offset 4294967295 + global size 2 in dimension 0 exceeds "
                          "2^32"]}),
    ('private_pointer', 'pointers32.spvasm', 'private_pointer',
     ['--global', '4', '--arg', 'buffer:uint[4]=range(10)', '--arg', 'buffer:uint[4]=zero',
      '--arg', 'buffer:uint[8]=zero'], private_pointer()),
    ('pointer_int', 'pointers32.spvasm', 'pointer_int',
     ['--global', '4', '--arg', 'buffer:uint[4]=range(10)', '--arg', 'buffer:uint[16]=zero'],
     {'dump': {1: [v for i in range(4) for v in (10 + i, 4 * i, 0, 0)]}}),
    ('pointer_array', 'pointers32.spvasm', 'pointer_array',
     ['--global', '8', '--arg', 'buffer:uint[16]=range(100)', '--arg', 'buffer:uint[16]=zero'],
     {'dump': {1: [100 + i + (4 if i & 1 else 0) for i in range(8)] + list(range(8))}}),
    ('vector_atomic_subgroup', 'pointers32.spvasm', 'vector_atomic_subgroup',
     ['--global', '8', '--sub-group-size', '4', '--arg', 'buffer:float[32]=range(1)',
      '--arg', 'buffer:float[32]=zero', '--arg', 'buffer:uint[1]=zero',
      '--arg', 'buffer:uint[8]=zero'],
     {'dump': {1: [2.0 * (1 + k) for k in range(32)], 2: [8],
               3: [sum(range(i // 4 * 4, i // 4 * 4 + 4)) for i in range(8)]}}),
    ('undefined_pointer', 'pointers32.spvasm', 'undefined_pointer',
     ['--global', '4', '--check-undefined', '--arg', 'buffer:uint[4]=range(10)',
      '--arg', 'buffer:uint[4]=zero'],
     {'rc': 2, 'stderr_re': [r'^error: uninitialized-value: undefined value %\S+ used as the '
                             r'address of a load .* lanes 0-3, ']}),
]

# Cases also run with every checker on: same results, and no report (the kernels are
# correct), pointer loads and stores of 4 bytes included.
CHECKED = {'holder', 'linked_list', 'local_pointers', 'private_pointer', 'pointer_array'}

DUMP_RE = re.compile(r'^arg(\d+) \w+\[\d+\] = ?(.*)$')


def compile_cl(path, level, outdir):
    stem = os.path.join(outdir, os.path.basename(path) + level)
    subprocess.run(['clang-15', '-cl-std=CL2.0', '-target', 'spir', '-Xclang',
                    '-no-opaque-pointers', '-cl-no-stdinc', '-Xclang',
                    '-finclude-default-header', level, '-emit-llvm', '-c', path, '-o',
                    stem + '.bc'], check=True)
    subprocess.run(['llvm-spirv-15', '--spirv-ext=+all', stem + '.bc', '-o', stem + '.spv'],
                   check=True)
    return stem + '.spv'


def numbers(text):
    return [float(t) if re.search(r'[.en]', t) else int(t) for t in text.split()]


def check(name, result, expected, errors):
    rc = expected.get('rc', 0)
    if result.returncode != rc:
        errors.append('%s: exit %d, expected %d\n%s' % (name, result.returncode, rc,
                                                       result.stderr[-2000:]))
        return
    dumps = {}
    stdout = []
    for line in result.stdout.splitlines():
        m = DUMP_RE.match(line)
        if m:
            dumps[int(m.group(1))] = numbers(m.group(2))
        else:
            stdout.append(line)
    for arg, want in expected.get('dump', {}).items():
        if dumps.get(arg) != want:
            errors.append('%s: arg%d = %s, expected %s' % (name, arg, dumps.get(arg), want))
    if 'stdout' in expected and stdout != expected['stdout']:
        errors.append('%s: stdout %s, expected %s' % (name, stdout, expected['stdout']))
    for text in expected.get('stderr', []):
        if text not in result.stderr:
            errors.append('%s: stderr lacks %r:\n%s' % (name, text, result.stderr[-2000:]))
    for pattern in expected.get('stderr_re', []):  # one line matches
        if not any(re.search(pattern, line) for line in result.stderr.splitlines()):
            errors.append('%s: no stderr line matches %r:\n%s' % (name, pattern,
                                                                  result.stderr[-2000:]))
    if rc == 0 and not expected.get('stderr') and result.stderr.strip():
        errors.append('%s: unexpected diagnostics:\n%s' % (name, result.stderr[-2000:]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--spvsim', default=os.path.join(os.getcwd(), 'tools', 'spvsim'))
    ap.add_argument('-k', default='')
    ap.add_argument('-v', action='store_true')
    opts = ap.parse_args()
    errors, runs = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        modules = {}
        for name, source, kernel, args, expected in CASES:
            if not re.search(opts.k, name):
                continue
            path = os.path.join(HERE, source)
            variants = [(l, compile_cl(path, l, tmp) if (path, l) not in modules else
                         modules[(path, l)]) for l in LEVELS] if source.endswith('.cl') else \
                [('', path)]
            for level, module in variants:
                modules[(path, level)] = module
                checks = [[]] + ([CHECKERS] if name in CHECKED else [])
                for extra in checks:
                    label = ' '.join(filter(None, [name, level] + extra))
                    cmd = [opts.spvsim, 'run', module, '--kernel', kernel, '--dump'] + args + extra
                    result = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
                    runs += 1
                    if opts.v:
                        print(label, result.returncode)
                    check(label, result, expected, errors)
    for e in errors:
        print('FAIL', e)
    print('%d runs, %d failures' % (runs, len(errors)))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
