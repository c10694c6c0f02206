#!/usr/bin/python3
"""Runs corpus kernels through a real OpenCL host API (PyOpenCL) and checks them against
their models.

  /usr/bin/python3 testdata/corpus/run_pyopencl.py [--icd PATH] [-k REGEX] [--levels O0,O2]
  /usr/bin/python3 testdata/corpus/run_pyopencl.py --crosscheck [-k REGEX]

Default (ICD mode): the cases marked `icd` in corpus.py run on spvsim's OpenCL ICD
(libspvsim-opencl.so, through the ocl-icd loader with OCL_ICD_VENDORS naming it), built
from source by clBuildProgram with "-cl-std=CL3.0 -O0" and "-cl-std=CL3.0 -O2". Each
level must match the model, and the levels must agree byte for byte.

--crosscheck: every case whose model PoCL can check (no sub-groups, no cl_khr_fp16, no
non-uniform work-groups) runs on PoCL, the machine's default ICD, and is compared with its
model. This checks the models, independently of spvsim; it is not part of `bazel test`.

Needs Debian's python3-pyopencl (and numpy): use /usr/bin/python3.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402
from corpus_lib import LEVELS, SCALARS, compare_buffer, split_type  # noqa: E402

ICD_LIB = 'libspvsim-opencl.so'


def find_icd(explicit):
    for p in (explicit, os.environ.get('OCL_ICD_VENDORS'),
              os.path.join(os.getcwd(), 'runtime', ICD_LIB),
              os.path.join(HERE, '..', '..', 'bazel-bin', 'runtime', ICD_LIB)):
        if p and p.endswith('.so') and os.path.isfile(p):
            return os.path.abspath(p)
    sys.exit('run_pyopencl.py: no %s (bazel build //runtime:%s or pass --icd)' % (ICD_LIB, ICD_LIB))


def np_scalar_type(np, base):
    return {'char': np.int8, 'uchar': np.uint8, 'short': np.int16, 'ushort': np.uint16,
            'int': np.int32, 'uint': np.uint32, 'long': np.int64, 'ulong': np.uint64,
            'half': np.float16, 'float': np.float32, 'double': np.float64}[base]


def struct_dtype(np, fields):
    """A numpy dtype with C layout (each member aligned to its size, size rounded up)."""
    names, formats, offsets, off, align = [], [], [], 0, 1
    for k, f in enumerate(fields):
        base, lanes = split_type(f)
        size = SCALARS[base][1] * (4 if lanes == 3 else lanes)
        off = (off + size - 1) // size * size
        names.append('f%d' % k)
        formats.append((np_scalar_type(np, base), (lanes,)) if lanes > 1 else np_scalar_type(np, base))
        offsets.append(off)
        off += size
        align = max(align, size)
    return np.dtype({'names': names, 'formats': formats, 'offsets': offsets,
                     'itemsize': (off + align - 1) // align * align})


def kernel_args(cl, np, ctx, args):
    """(PyOpenCL argument objects, {index: (Arg, host array, Buffer)})."""
    import pyopencl.cltypes as cltypes
    out, bufs = [], {}
    mf = cl.mem_flags
    for i, a in enumerate(args):
        if a.kind == 'local':
            out.append(cl.LocalMemory(a.bytes))
        elif a.kind == 'null':
            out.append(None)
        elif a.kind == 'struct':
            dt = struct_dtype(np, a.fields)
            host = np.zeros(1, dt)
            for k, v in enumerate(a.value):
                host[0]['f%d' % k] = v
            out.append(host[0])
        elif a.kind == 'scalar':
            if a.lanes > 1:
                out.append(getattr(cltypes, 'make_' + a.type)(*a.value))
            else:
                out.append(np_scalar_type(np, a.base)(a.value))
        else:
            flat = a.flat() if hasattr(a, 'flat') else list(a.values)
            host = np.array(flat, dtype=np_scalar_type(np, a.base))
            buf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=host)
            bufs[i] = (a, host, buf)
            out.append(buf)
    return out, bufs


def run_case(cl, np, ctx, queue, case, options, log_problems):
    """Builds and runs one case; returns {arg index: (type, values, raw bytes)}. Diagnostic
    lines of the build log (e.g. a driver falling back to another -O level) are appended
    to log_problems."""
    src = open(os.path.join(HERE, case.file)).read()
    prog = cl.Program(ctx, src).build(options=options)
    for dev in ctx.devices:
        log = prog.get_build_info(dev, cl.program_build_info.LOG) or ''
        log_problems += ['build log: ' + l.strip()[:400] for l in log.splitlines()
                         if re.match(r'\s*(warning|error): ', l)]
    kern = getattr(prog, case.kernel)
    args = case.initial_args()
    objs, bufs = kernel_args(cl, np, ctx, args)
    for k, o in enumerate(objs):
        kern.set_arg(k, o)
    cl.enqueue_nd_range_kernel(queue, kern, case.glob, case.local)
    queue.finish()
    out = {}
    for i, (a, host, buf) in sorted(bufs.items()):
        cl.enqueue_copy(queue, host, buf)
        queue.finish()
        flat = host.tolist()
        if SCALARS[a.base][0] == 'float':
            flat = [float(v) for v in flat]
        lanes = getattr(a, 'lanes', 1)
        vals = flat if lanes == 1 else [tuple(flat[k:k + lanes]) for k in range(0, len(flat), lanes)]
        out[i] = (a.type, vals, host.tobytes())
    return out


def check(case, got):
    """Problems between one run's buffers and the model."""
    expected = case.expected_buffers()
    problems = []
    for idx in sorted(expected):
        etype, ecount, evals = expected[idx]
        if idx not in got:
            problems.append('arg%d not read back' % idx)
            continue
        problems += compare_buffer(idx, etype, evals, got[idx][1], case.tolerance(idx))
    return problems


def pocl_ok(case):
    if not case.pocl or case.is_sim:
        return False
    if any(g % l for g, l in zip(case.glob, case.local or case.glob)):
        return False        # PoCL has no non-uniform work-groups
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--icd', help='path of libspvsim-opencl.so (ICD mode)')
    ap.add_argument('-k', metavar='REGEX')
    ap.add_argument('--levels', default='O0,O2', help='ICD mode: levels (default O0,O2)')
    ap.add_argument('--crosscheck', action='store_true', help='check the models on PoCL')
    ap.add_argument('--list', action='store_true')
    opts = ap.parse_args()

    if opts.crosscheck:
        selected = [c for c in corpus.CASES if pocl_ok(c)]
        levels = [('default', '-cl-std=CL3.0')]
    else:
        selected = [c for c in corpus.CASES if c.icd and not c.is_sim]
        names = dict(LEVELS)
        levels = [(n, '-cl-std=CL3.0 ' + names[n]) for n in opts.levels.split(',')]
        for c in selected:
            # the ICD's sub-group size is SPVSIM_SUB_GROUP_SIZE (16 here) unless reqd
            assert c.sg in (None, 16) or c.reqd_sg, '%s: needs sub-group size %s' % (c.name, c.sg)
    selected = [c for c in selected if not opts.k or re.search(opts.k, c.name)]
    if opts.list:
        for c in selected:
            print(c.name)
        return 0
    if not selected:
        sys.exit('run_pyopencl.py: no case matches')

    if not opts.crosscheck and os.environ.get('RUN_PYOPENCL_CHILD') != '1':
        # The loader reads OCL_ICD_VENDORS once: re-run with only spvsim's ICD visible,
        # sub-groups of 16 and a fresh compile cache.
        env = dict(os.environ, OCL_ICD_VENDORS=find_icd(opts.icd), RUN_PYOPENCL_CHILD='1',
                   SPVSIM_SUB_GROUP_SIZE='16', PYOPENCL_NO_CACHE='1')
        with tempfile.TemporaryDirectory(prefix='spvsim-icd-',
                                         dir=os.environ.get('TEST_TMPDIR')) as tmp:
            env['SPVSIM_CACHE_DIR'] = os.path.join(tmp, 'cache')   # fresh per run
            env['XDG_CACHE_HOME'] = os.path.join(tmp, 'xdg')       # PyOpenCL's caches
            return subprocess.run([sys.executable] + sys.argv, env=env).returncode

    import warnings
    import numpy as np
    import pyopencl as cl
    warnings.simplefilter('ignore', cl.CompilerWarning)   # the build log is checked below
    platforms = cl.get_platforms()
    if opts.crosscheck:
        plat = [p for p in platforms if 'Portable Computing Language' in p.name]
        if not plat:
            sys.exit('run_pyopencl.py: PoCL is not installed (pocl-opencl-icd)')
    else:
        plat = [p for p in platforms if p.name == 'spvsim']
        if not plat:
            sys.exit('run_pyopencl.py: the spvsim platform is not visible: %s' % platforms)
    device = plat[0].get_devices()[0]
    ctx = cl.Context([device])
    queue = cl.CommandQueue(ctx)
    print('platform: %s, device: %s' % (plat[0].name, device.name))

    failed = []
    for c in selected:
        results, problems = {}, []
        for name, options in levels:
            log_problems = []
            try:
                got = run_case(cl, np, ctx, queue, c, options, log_problems)
            except Exception as e:   # build errors, enqueue errors: report and go on
                # PyOpenCL repeats "clBuildProgram failed: ..." and "Build on <device>:"
                # around the build log: keep the log's lines.
                msg = [l.strip() for l in str(e).splitlines() if l.strip() and not
                       l.strip().startswith(('clBuildProgram failed', 'Build on <'))]
                problems.append('[%s] %s: %s' % (name, type(e).__name__,
                                                 ' | '.join(msg[:6])[:1500]))
                continue
            results[name] = got
            problems += ['[%s] %s' % (name, p) for p in log_problems + check(c, got)]
        if len(results) > 1:
            ref_name, ref = next(iter(results.items()))
            for name, got in list(results.items())[1:]:
                for idx in sorted(ref):
                    if ref[idx][2] != got[idx][2]:
                        problems.append('[%s vs %s] arg%d differs byte-wise' % (ref_name, name, idx))
        ok = not problems
        print('%s %s' % ('ok  ' if ok else 'FAIL', c.name))
        for p in problems:
            print('    ' + p.replace('\n', '\n    '))
        sys.stdout.flush()
        if not ok:
            failed.append(c.name)
    what = 'cross-checked on PoCL' if opts.crosscheck else 'run through the ICD at %s' % (
        ', '.join(n for n, _ in levels))
    print('\n%d of %d cases %s agree with their model' % (len(selected) - len(failed),
                                                          len(selected), what))
    if failed:
        print('failed: ' + ' '.join(failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
