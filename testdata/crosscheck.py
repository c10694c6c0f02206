#!/usr/bin/python3
"""Checks the host models of testdata/cases.py against real OpenCL implementations.

  /usr/bin/python3 testdata/crosscheck.py [-k REGEX]

This is a check of the *models* (and of the comparison code of run_e2e.py), independent of
spvsim: each OpenCL C case that PoCL can run (no sub-groups, no SPIR-V input) runs on
PoCL through PyOpenCL; .sim cases run under `oclgrind-kernel`; the hand-written .spvasm
kernel runs as an equivalent OpenCL C kernel on PoCL. The buffers are printed in spvsim's
`--dump` format and compared with the model exactly as run_e2e.py compares spvsim's output.
Not part of `bazel test` (it needs PoCL and Oclgrind, and their results are not the spec).
"""

import argparse
import ctypes
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402
import run_e2e  # noqa: E402

# OpenCL C equivalents of kernels PoCL cannot load directly.
EQUIVALENT_CL = {
    'phi_select.spvasm': r'''
kernel void phi_select(global uint *out, uint n) {
  uint i = get_global_id(0), s = 0;
  for (uint k = 0; k < i + n; ++k) s = s * 3 + k;
  out[i] = (i & 1) ? s : ~s;
}''',
    'saxpy.spv': open(os.path.join(HERE, 'saxpy.cl')).read(),
}

# Cases whose kernels use only get_global_id: PoCL has no non-uniform work-groups, so their
# non-uniform NDRange runs as two uniform launches (the full groups, then the remainder).
SPLIT_NONUNIFORM = {'saxpy_offset_nonuniform', 'diverge_sg8_nonuniform'}

# Cases that also (or only) run under Oclgrind through a generated .sim file
# (OpenCL 1.2 kernels, uniform NDRange without offset).
# (Not `vectors`: Oclgrind dumps floats with 6 digits and mangles an int8 by-value argument.)
OCLGRIND_CL = {'printf_one', 'printf_each', 'transpose_64x48', 'int64', 'diverge_sg16',
               'saxpy_cl'}

# Known PoCL 3.1 defects that would fail a correct model.
POCL_SKIP = {'printf_one': 'PoCL prints "printf format string error" for %v4d'}


def np_dtype(np, cltypes, type_name):
    base, lanes = cases.split_type(type_name)
    if lanes > 1:
        return getattr(cltypes, type_name)
    return {'char': np.int8, 'uchar': np.uint8, 'short': np.int16, 'ushort': np.uint16,
            'int': np.int32, 'uint': np.uint32, 'long': np.int64, 'ulong': np.uint64,
            'float': np.float32, 'double': np.float64}[base]


def fmt_scalar(np, x, base):
    if cases.SCALARS[base][0] == 'int':
        return str(int(x))
    return repr(np.float32(x)) if base == 'float' else repr(float(x))


class CaptureStdout:
    """Captures what native code (PoCL's printf) writes to file descriptor 1."""

    def __enter__(self):
        self.libc = ctypes.CDLL(None)
        sys.stdout.flush()
        self.tmp = tempfile.TemporaryFile()
        self.saved = os.dup(1)
        os.dup2(self.tmp.fileno(), 1)
        return self

    def __exit__(self, *exc):
        self.libc.fflush(None)
        os.dup2(self.saved, 1)
        os.close(self.saved)
        self.tmp.seek(0)
        self.text = self.tmp.read().decode('utf-8', 'replace')


def run_pocl(case):
    import numpy as np
    import pyopencl as cl
    import pyopencl.cltypes as cltypes
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    q = cl.CommandQueue(ctx)
    src = EQUIVALENT_CL.get(case.kernel) or open(os.path.join(HERE, case.kernel)).read()
    prog = cl.Program(ctx, src).build(options=['-cl-std=CL3.0'])
    kern = getattr(prog, case.kernel_name)
    args, bufs = [], {}
    for i, a in enumerate(case.initial_args()):
        if a.kind == 'local':
            args.append(cl.LocalMemory(a.bytes))
        elif a.kind == 'scalar':
            if a.lanes > 1:
                args.append(getattr(cltypes, 'make_' + a.type)(*a.value))
            else:
                args.append(np_dtype(np, cltypes, a.type)(a.value))
        else:
            host = np.array(a.values, dtype=np_dtype(np, cltypes, a.type))
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=host)
            bufs[i] = (a, host, buf)
            args.append(buf)
    kern.set_args(*args)
    launches = [(case.glob, case.local, case.offset)]
    if case.name in SPLIT_NONUNIFORM:
        g, l, o = case.glob[0], case.local[0], (case.offset or [0])[0]
        full = g // l * l
        launches = [([full], [l], [o]), ([g - full], [g - full], [o + full])]
    with CaptureStdout() as cap:
        for glob, local, offset in launches:
            cl.enqueue_nd_range_kernel(q, kern, glob, local, global_work_offset=offset)
        q.finish()
    lines = cap.text.splitlines()
    for i, (a, host, buf) in sorted(bufs.items()):
        cl.enqueue_copy(q, host, buf)
        q.finish()
        if a.lanes > 1:
            elems = ['(' + ','.join(fmt_scalar(np, v, a.base) for v in e) + ')' for e in host.tolist()]
        else:
            elems = [fmt_scalar(np, v, a.base) for v in host.tolist()]
        lines.append('arg%d %s[%d] = %s' % (i, a.type, a.count, ' '.join(elems)))
    return lines


def sim_header(a):
    base = a.base if a.kind != 'local' else None
    if a.kind == 'local':
        return '<size=%d>' % a.bytes, ''
    size = cases.SCALARS[a.base][1] * a.lanes * (a.count if a.kind == 'buffer' else 1)
    if a.kind == 'scalar':
        vals = a.value if a.lanes > 1 else (a.value,)
        return '<size=%d %s>' % (size, a.base), ' '.join(map(str, vals))
    flat = [x for v in a.values for x in (v if a.lanes > 1 else (v,))]
    return '<size=%d %s dump>' % (size, a.base), ' '.join(map(repr, flat))


def run_oclgrind_cl(case):
    """Runs an OpenCL C case under Oclgrind through a generated .sim file."""
    assert not case.offset
    args = case.initial_args()
    glob = list(case.glob) + [1] * (3 - len(case.glob))
    local = list(case.local) + [1] * (3 - len(case.local))
    text = [os.path.join(HERE, case.kernel), case.kernel_name,
            ' '.join(map(str, glob)), ' '.join(map(str, local))]
    for a in args:
        hdr, vals = sim_header(a)
        text += [hdr, vals]
    with tempfile.NamedTemporaryFile('w', suffix='.sim', delete=False) as f:
        f.write('\n'.join(text) + '\n')
    try:
        p = subprocess.run(['oclgrind-kernel', f.name], capture_output=True, text=True,
                           timeout=600)
    finally:
        os.unlink(f.name)
    if p.returncode:
        raise RuntimeError('oclgrind-kernel failed: %s' % p.stderr[-2000:])
    return oclgrind_lines(p.stdout, args)


def oclgrind_lines(stdout, args):
    """Turns Oclgrind's output (printf text, then `Argument 'x'` dumps) into printf lines
    followed by spvsim-style dump lines for every buffer argument, in order."""
    printed, dumped, name = [], {}, None
    for line in stdout.splitlines():
        m = re.match(r"Argument '(\w+)': (\d+) bytes", line)
        if m:
            name = m.group(1)
            dumped[name] = []
            continue
        m = re.match(r'\s+(\w+)\[(\d+)\] = (\S+)', line)
        if m and name:
            dumped[name].append(m.group(3))
        elif name is None:
            printed.append(line)
    while printed and not printed[-1]:
        printed.pop()
    names = list(dumped)
    buf_idx = [i for i, a in enumerate(args) if a.kind == 'buffer']
    if len(names) != len(buf_idx):
        raise RuntimeError('oclgrind dumped %s, expected %d buffers' % (names, len(buf_idx)))
    out = list(printed)
    for i, n in zip(buf_idx, names):
        a, vals = args[i], dumped[n]
        if a.lanes > 1:   # Oclgrind dumps vector buffers component by component
            vals = ['(' + ','.join(vals[j:j + a.lanes]) + ')' for j in range(0, len(vals), a.lanes)]
        out.append('arg%d %s[%d] = %s' % (i, a.type, a.count, ' '.join(vals)))
    return out


def run_oclgrind(case):
    p = subprocess.run(['oclgrind-kernel', case.kernel], cwd=HERE, capture_output=True,
                       text=True, timeout=600)
    if p.returncode:
        raise RuntimeError('oclgrind-kernel failed: %s' % p.stderr[-2000:])
    # Every buffer of the test .sim files is marked `dump`, in argument order.
    return oclgrind_lines(p.stdout, case.initial_args())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-k', metavar='REGEX')
    opts = ap.parse_args()
    failed = checked = 0
    for c in cases.CASES:
        if opts.k and not re.search(opts.k, c.name):
            continue
        runs = []
        if c.is_sim:
            runs.append(('oclgrind', run_oclgrind))
        elif c.name in POCL_SKIP:
            print('     %s: not on PoCL: %s' % (c.name, POCL_SKIP[c.name]))
        elif c.rc == 0 and (c.pocl or c.kernel in EQUIVALENT_CL):
            runs.append(('pocl', run_pocl))
        if c.name in OCLGRIND_CL:
            runs.append(('oclgrind', run_oclgrind_cl))
        if not runs:
            print('skip %-30s (%s)' % (c.name, c.note if not c.pocl and c.note else
                  'sub-groups, non-uniform work-groups or an error path: no peer runs it'))
            continue
        for how, fn in runs:
            checked += 1
            try:
                lines = fn(c)
            except Exception as e:  # report and go on with the other cases
                print('FAIL %-30s %s: %s' % (c.name, how, e))
                failed += 1
                continue
            errors = []
            dump = [l for l in lines if run_e2e.DUMP_RE.match(l)]
            other = [l for l in lines if not run_e2e.DUMP_RE.match(l)]
            run_e2e.compare_dumps(c, dump, errors)
            exp = sorted(c.stdout) if c.stdout_sorted else c.stdout
            got = sorted(other) if c.stdout_sorted else other
            if got != exp:
                errors.append('stdout differs:\n' + '\n'.join(
                    '  expected %r\n  actual   %r' % (e, g)
                    for e, g in zip(exp + [''] * len(got), got + [''] * len(exp)) if e != g))
            print('%s %-30s %s' % ('FAIL' if errors else 'ok  ', c.name, how))
            for e in errors:
                print('    ' + e.replace('\n', '\n    '))
            failed += bool(errors)
    print('\n%d of %d cross-checked cases agree with their model' % (checked - failed, checked))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
