#!/usr/bin/python3
"""Benchmarks spvsim against Oclgrind and PoCL on the .sim kernels of tools/bench/.

  /usr/bin/python3 tools/bench/run.py [--spvsim PATH] [--repeat N] [--threads N] [-k REGEX]
                                [--no-oclgrind] [--no-pocl]

For each kernel it runs `oclgrind-kernel X.sim` and `spvsim run X.sim` (wall clock of the
whole process, OpenCL C compile included for both) and, natively on PoCL through PyOpenCL,
the same launch timing only enqueue + finish (after one warm-up launch). Each time is the
best of --repeat runs. spvsim's lane-instructions/s come from `--stats` when spvsim has
that flag (otherwise "-"). A tool, not a test: nothing is asserted.
"""

import argparse
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'testdata'))
import cases  # noqa: E402  (the .sim parser)

# name, .sim file, indices of the pointer (buffer) arguments
KERNELS = [
    ('saxpy-1M', 'saxpy.sim', (1, 2)),
    ('matmul-128', 'matmul.sim', (0, 1, 2)),
    ('mandel-256', 'mandel.sim', (0,)),
    ('reduce-256K', 'reduce.sim', (0, 1)),
]


def best_of(n, fn):
    best = None
    for _ in range(n):
        t = fn()
        if t is None:
            return None
        best = t if best is None else min(best, t)
    return best


def time_process(cmd, out=None):
    """Wall-clock seconds of one run of cmd in tools/bench/, or None when it fails."""
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=HERE, stdin=subprocess.DEVNULL, capture_output=True, text=True)
    dt = time.perf_counter() - t0
    if p.returncode != 0:
        print('  failed (exit %d): %s\n    %s' % (p.returncode, ' '.join(cmd),
                                                  p.stderr.strip()[-500:].replace('\n', '\n    ')),
              file=sys.stderr)
        return None
    if out is not None:
        out.append(p.stdout + '\n' + p.stderr)
    return dt


def spvsim_has_stats(spvsim):
    text = ''
    for args in (['--help'], ['run', '--help'], ['help']):
        p = subprocess.run([spvsim] + args, capture_output=True, text=True)
        text += p.stdout + p.stderr
    return '--stats' in text


def lane_instructions(text):
    """The lane-instruction count in spvsim's --stats output, if any."""
    m = (re.search(r'([\d,]+)\s+lane[- ]instructions', text, re.I) or
         re.search(r'lane[- ]instructions\s*[:=]?\s*([\d,]+)', text, re.I))
    return int(m.group(1).replace(',', '')) if m else None


def launch_seconds(text):
    """spvsim's launch time (no compilation or loading) from --stats, if any."""
    m = re.search(r'stats: launch ([\d.]+) s', text)
    return float(m.group(1)) if m else None


def time_pocl(sim, buffers, repeat):
    import numpy as np
    import pyopencl as cl
    program, kernel, glob, local, args = cases.parse_sim(os.path.join(HERE, sim), buffers)
    ctx = cl.Context(cl.get_platforms()[0].get_devices())
    q = cl.CommandQueue(ctx)
    prog = cl.Program(ctx, open(os.path.join(HERE, program)).read()).build()
    kern = getattr(prog, kernel)
    dtypes = {'int': np.int32, 'uint': np.uint32, 'float': np.float32, 'long': np.int64,
              'ulong': np.uint64, 'char': np.int8, 'uchar': np.uint8, 'short': np.int16,
              'ushort': np.uint16, 'double': np.float64}
    kargs = []
    for a in args:
        if a.kind == 'local':
            kargs.append(cl.LocalMemory(a.bytes))
        elif a.kind == 'scalar':
            kargs.append(dtypes[a.base](a.value))
        else:
            host = np.array(a.values, dtype=dtypes[a.base])
            kargs.append(cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR,
                                   hostbuf=host))
    kern.set_args(*kargs)

    def once():
        t0 = time.perf_counter()
        cl.enqueue_nd_range_kernel(q, kern, glob, local)
        q.finish()
        return time.perf_counter() - t0
    once()  # warm-up (PoCL compiles the work-group function on first launch)
    return best_of(repeat, once)


def fmt(v, spec='%.3f'):
    return '-' if v is None else spec % v


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--spvsim', default=os.path.join(ROOT, 'bazel-bin', 'tools', 'spvsim'))
    ap.add_argument('--repeat', type=int, default=3, help='best of N (default 3)')
    ap.add_argument('--threads', type=int, help='passed to spvsim as --threads N')
    ap.add_argument('-k', metavar='REGEX', help='only kernels whose name matches')
    ap.add_argument('--no-oclgrind', action='store_true')
    ap.add_argument('--no-pocl', action='store_true')
    opts = ap.parse_args()

    have_spvsim = os.access(opts.spvsim, os.X_OK)
    if not have_spvsim:
        print('note: no spvsim at %s (bazel build //tools:spvsim)' % opts.spvsim, file=sys.stderr)
    stats = have_spvsim and spvsim_has_stats(opts.spvsim)
    extra = (['--threads', str(opts.threads)] if opts.threads else []) + (['--stats'] if stats else [])

    rows = []
    for name, sim, buffers in KERNELS:
        if opts.k and not re.search(opts.k, name):
            continue
        print('running %s ...' % name, file=sys.stderr)
        og = None if opts.no_oclgrind else best_of(
            opts.repeat, lambda: time_process(['oclgrind-kernel', sim]))
        sp, rate, launch, outputs = None, None, None, []
        if have_spvsim:
            sp = best_of(opts.repeat, lambda: time_process(
                [os.path.abspath(opts.spvsim), 'run', sim] + extra, outputs))
            n = lane_instructions(outputs[-1]) if (sp and stats and outputs) else None
            launches = [launch_seconds(o) for o in outputs]
            launches = [t for t in launches if t]
            launch = min(launches) if launches else None
            rate = n / launch if n and launch else None
        pc = None
        if not opts.no_pocl:
            try:
                pc = time_pocl(sim, buffers, opts.repeat)
            except Exception as e:  # PoCL missing or failing: leave the column empty
                print('  pocl: %s' % e, file=sys.stderr)
        rows.append((name, og, sp, launch, pc, og / sp if og and sp else None,
                     launch / pc if launch and pc else None, rate))

    head = ('kernel', 'oclgrind s', 'spvsim s', 'spvsim launch s', 'pocl s', 'vs oclgrind',
            'launch vs pocl', 'lane-instr/s')
    table = [head] + [(r[0], fmt(r[1]), fmt(r[2]), fmt(r[3], '%.4f'), fmt(r[4], '%.4f'),
                       fmt(r[5], '%.1fx faster'), fmt(r[6], '%.0fx slower'),
                       fmt(r[7], '%.3g')) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    print('best of %d%s; oclgrind/spvsim: whole process incl. compiling the .cl; '
          'spvsim launch (from --stats) and pocl: the NDRange alone' % (
        opts.repeat, ', spvsim --threads %d' % opts.threads if opts.threads else ''))
    for row in table:
        print('  '.join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
    return 0


if __name__ == '__main__':
    sys.exit(main())
