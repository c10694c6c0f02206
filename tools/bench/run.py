#!/usr/bin/python3
"""Benchmarks spvsim against Oclgrind and PoCL on the ten kernels of tools/bench/kernels/.

  /usr/bin/python3 tools/bench/run.py [--spvsim PATH] [--repeat N] [--threads N] [-k REGEX]
        [--no-oclgrind] [--no-pocl] [--json FILE] [--markdown] [--spv DIR] [--whole-dump]
  /usr/bin/python3 tools/bench/run.py --scaling 1,2,4,8,16 [--repeat N] [--spv DIR]
  /usr/bin/python3 tools/bench/run.py --checkers [--repeat N] [--no-oclgrind] [--markdown]
  /usr/bin/python3 tools/bench/run.py --check-dump [--small] [--threads N]
  /usr/bin/python3 tools/bench/run.py --precompile DIR      (then copy DIR with the binary)
  /usr/bin/python3 tools/bench/run.py --write-sims          (regenerates kernels/*.sim)
  /usr/bin/python3 tools/bench/run.py --check-sims          (fails if they are stale)

Execution-only times, from interleaved rounds (round r runs every tool once on every
kernel, in turn; each time is the best of --repeat rounds, so a burst of load from
elsewhere hits all tools alike):
  spvsim    the launch time `spvsim run K.sim --stats` prints (`stats: launch X s`: no
            compiling, loading or buffer set-up);
  Oclgrind  wall time of `oclgrind-kernel K.sim` minus the wall time of the same .sim
            with the global size set to ONE work-group: that subtracts Oclgrind's compile,
            set-up and buffer initialisation, leaving the other work-groups' execution (so
            it slightly under-counts, in Oclgrind's favour, one work-group's time);
  PoCL      PyOpenCL on a CL_QUEUE_PROFILING_ENABLE queue, event end - start of one
            launch, after a warm-up launch (PoCL builds its work-group function then).
Each tool gets --threads host threads (OCLGRIND_NUM_THREADS, POCL_MAX_PTHREAD_COUNT).
Beside spvsim's launch time, what a command-line user waits for: "whole s", the wall time
of a plain `spvsim run K.sim` process (started directly, start to exit: loading, buffer
set-up, the launch, freeing; a run of its own in each round), best of the rounds;
"floor s", the launch plus the kernel's buffer bytes at the machine's memcpy bandwidth
(measured once: libc's memmove of 64 MiB between mappings that ask for huge pages, as
spvsim's buffers do, best of 7), i.e. the launch plus a set-up that writes each buffer
once at memory speed; and "whole/floor", which issue 39 asks to keep within 2x.
--whole-dump times the whole process with --dump (its output to /dev/null) and adds the
dumped text's bytes to the floor (formatting millions of floats is not bandwidth-bound:
that ratio is information, not a goal).
Peak RSS is spvsim's own (GNU time's %M of the `spvsim run` process; empty without
/usr/bin/time), shown also minus the bytes of the kernel's buffers. Verdicts apply issue 16's done-when thresholds.

Tools that are missing (no oclgrind-kernel, no PyOpenCL/PoCL, no clang where --spv runs
precompiled modules) leave their columns empty with a note on stderr.

--checkers measures what the checkers cost (issue 37), in CPU time (user + system of the
process, so that other load on the machine does not count), one thread: each kernel's
launch plain and with --check-races --check-uninitialized --check-undefined in spvsim, and
plain and with --data-races --uninitialized in Oclgrind, each as the CPU time of the full
launch less that of the same launch restricted to one work-group (the subtraction above,
for both tools); the ratios, and spvsim with checks against Oclgrind with checks
(verdicts: within 3x, and at least 100x faster).

--check-dump is a correctness check (exit 1 on failure): each kernel's `--dump` output at
--threads 1, 2 and N must be identical, and its buffers must equal the kernel's numpy
host model (kernels.py); with --small the launches are the small ones with random inputs
and partial sub-groups, also run at sub-group sizes 7 and 32 and at -O0.
"""

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_SPVSIM = os.path.abspath(os.path.join(ROOT, 'bazel-bin', 'tools', 'spvsim'))
KDIR = os.path.join(HERE, 'kernels')
sys.path.insert(0, HERE)
import kernels as K  # noqa: E402

THRESHOLD_OCLGRIND = 100.0
THRESHOLD_POCL = {'compute': 5.0, 'memory': 25.0}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------
# Running things

def run_proc(cmd, cwd=None, env=None):
    """(returncode, stdout, stderr, wall seconds, peak RSS bytes) of one process."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return (p.returncode, out.read().decode(errors='replace'),
                err.read().decode(errors='replace'), wall, usage.ru_maxrss * 1024)


def failed(what, rc, err):
    log('  %s failed (exit %d): %s' % (what, rc, err.strip()[-600:].replace('\n', '\n    ')))


class Workdir:
    """A temporary directory holding, per kernel, a copy of its .cl (or its precompiled
    .spv) and the .sim files the tools run: the full launch and its one-work-group
    variant (for Oclgrind), or the small launch."""

    def __init__(self, spv_dir=None):
        self.path = tempfile.mkdtemp(prefix='spvsim-bench-')
        self.spv_dir = spv_dir

    def sim(self, k, size='full', one_group=False, source=False):
        """source: the .cl even where precompiled modules exist (for Oclgrind)."""
        spv = self.spv_dir and not source
        program = k.name + ('.spv' if spv else '.cl')
        src = os.path.join(self.spv_dir if spv else KDIR, program)
        if not os.path.exists(os.path.join(self.path, program)):
            shutil.copy(src, self.path)
        name = '%s.%s%s.%s.sim' % (k.name, size, '.1wg' if one_group else '', program[-2:])
        path = os.path.join(self.path, name)
        if not os.path.exists(path):
            with open(path, 'w') as f:
                f.write(k.launch(size).sim_text(program, k.name, one_group))
        return path

    def close(self):
        shutil.rmtree(self.path, ignore_errors=True)


STATS_RE = re.compile(r'stats: launch ([\d.eE+-]+) s.*?([\d]+) lane instructions')


TIME = '/usr/bin/time'


def spvsim_launch(opts, sim, threads, extra=()):
    """(launch seconds, lane instructions, peak RSS bytes or None) or None.

    The RSS comes from GNU time (-f %M): a child forked by this Python process inherits
    Python's own high-water mark in wait4's ru_maxrss (Linux counts the copied address
    space up to exec), so only a small parent measures spvsim alone."""
    cmd = [opts.spvsim, 'run', sim, '--stats', '--threads', str(threads)] + list(extra)
    rss = None
    with tempfile.NamedTemporaryFile('r') as tf:
        timed = os.access(TIME, os.X_OK)
        rc, out, err, _, _ = run_proc(([TIME, '-f', '%M', '-o', tf.name] if timed else []) + cmd)
        if timed and rc == 0:
            kb = tf.read().split()
            rss = int(kb[-1]) * 1024 if kb and kb[-1].isdigit() else None
    m = STATS_RE.search(err)
    if rc != 0 or not m:
        failed('spvsim', rc, err)
        return None
    return float(m.group(1)), int(m.group(2)), rss


def spvsim_whole(opts, sim, threads):
    """Wall seconds of a plain `spvsim run K.sim` process (with --whole-dump: `--dump`, its
    output to /dev/null), from its start to its exit (started directly, without GNU time
    in between), or None."""
    cmd = [opts.spvsim, 'run', sim, '--threads', str(threads)]
    if opts.whole_dump:
        cmd.append('--dump')
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
        rc = p.wait()
        wall = time.perf_counter() - t0
        if rc != 0:
            err.seek(0)
            failed('spvsim', rc, err.read().decode(errors='replace'))
            return None
    return wall


def dump_bytes(opts, sim, threads):
    """Bytes of the text `spvsim run K.sim --dump` prints."""
    with tempfile.TemporaryFile() as out:
        subprocess.run([opts.spvsim, 'run', sim, '--dump', '--threads', str(threads)],
                       stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.DEVNULL)
        return out.tell()


_BANDWIDTH = []


def memcpy_bandwidth():
    """Bytes per second of one large memcpy on this machine: libc's memmove (ctypes)
    between two 64 MiB anonymous mappings that ask for transparent huge pages, as
    spvsim's buffers do (src/files/host_buffer.h); best of 7 copies after a warm-up."""
    if not _BANDWIDTH:
        import ctypes
        import mmap
        n = 64 << 20
        private = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS  # shared memory has no huge pages
        maps = [mmap.mmap(-1, n, flags=private) for _ in range(2)]
        for m in maps:
            if hasattr(m, 'madvise') and hasattr(mmap, 'MADV_HUGEPAGE'):
                m.madvise(mmap.MADV_HUGEPAGE)
        src, dst = (ctypes.addressof(ctypes.c_char.from_buffer(m)) for m in maps)
        ctypes.memset(src, 1, n)
        ctypes.memmove(dst, src, n)
        best = None
        for _ in range(7):
            t0 = time.perf_counter()
            ctypes.memmove(dst, src, n)
            t = time.perf_counter() - t0
            best = t if best is None else min(best, t)
        src = dst = None
        _BANDWIDTH.append(n / best)
    return _BANDWIDTH[0]


def oclgrind_wall(sim, threads):
    env = dict(os.environ, OCLGRIND_NUM_THREADS=str(threads))
    rc, out, err, wall, _ = run_proc(['oclgrind-kernel', sim], cwd=os.path.dirname(sim), env=env)
    if rc != 0:
        failed('oclgrind-kernel ' + os.path.basename(sim), rc, err)
        return None
    return wall


class Pocl:
    """One kernel's launch set up on PoCL once; `time()` is one profiled launch."""

    def __init__(self, k, launch):
        import numpy as np
        import pyopencl as cl
        self.cl = cl
        dev = pocl_device()
        if k.name == 'sgreduce' and 'cl_khr_subgroups' not in dev.extensions:
            raise RuntimeError('PoCL (%s) lacks cl_khr_subgroups' % dev.version)
        self.ctx = cl.Context([dev])
        self.q = cl.CommandQueue(self.ctx,
                                 properties=cl.command_queue_properties.PROFILING_ENABLE)
        src = open(os.path.join(KDIR, k.name + '.cl')).read()
        opts = ['-cl-std=CL3.0'] if k.name == 'sgreduce' else []
        kern = getattr(cl.Program(self.ctx, src).build(options=opts), k.name)
        args = []
        for a, v in zip(launch.args, launch.values()):
            if isinstance(a, K.Local):
                args.append(cl.LocalMemory(a.bytes))
            elif isinstance(a, K.Scalar):
                args.append(v)
            else:
                args.append(cl.Buffer(self.ctx, cl.mem_flags.READ_WRITE |
                                      cl.mem_flags.COPY_HOST_PTR, hostbuf=np.ascontiguousarray(v)))
        kern.set_args(*args)
        self.args = args  # set_args keeps no reference: the buffers must outlive it
        self.kern, self.glob, self.local = kern, tuple(launch.glob), tuple(launch.local)
        self.time()  # warm-up

    def time(self):
        ev = self.cl.enqueue_nd_range_kernel(self.q, self.kern, self.glob, self.local)
        ev.wait()
        return (ev.profile.end - ev.profile.start) * 1e-9


_POCL = []


def pocl_device():
    if not _POCL:
        import pyopencl as cl
        for p in cl.get_platforms():
            if 'Portable Computing Language' in p.name:
                _POCL.append(p.get_devices()[0])
                break
        else:
            raise RuntimeError('no PoCL platform among %s' % [p.name for p in cl.get_platforms()])
    return _POCL[0]


# ---------------------------------------------------------------------------------------
# Modes

def selected(opts):
    ks = [k for k in K.KERNELS if not opts.k or re.search(opts.k, k.name)]
    if not ks:
        sys.exit('no kernel matches %r' % opts.k)
    return ks


def default_threads(opts):
    return opts.threads if opts.threads else (os.cpu_count() or 1)


def write_sims(opts):
    for k in selected(opts):
        path = os.path.join(KDIR, k.name + '.sim')
        with open(path, 'w') as f:
            f.write(k.full().sim_text(k.name + '.cl', k.name))
        log('wrote ' + os.path.relpath(path, ROOT))
    return 0


def check_sims(opts):
    stale = []
    for k in selected(opts):
        path = os.path.join(KDIR, k.name + '.sim')
        have = open(path).read() if os.path.exists(path) else None
        if have != k.full().sim_text(k.name + '.cl', k.name):
            stale.append(os.path.relpath(path, ROOT))
    for p in stale:
        print('FAIL %s differs from kernels.py (run.py --write-sims regenerates it)' % p)
    print('check-sims: %d stale' % len(stale))
    return 1 if stale else 0


def precompile(opts):
    return compile_all(opts, selected(opts), opts.precompile)


def compile_all(opts, ks, outdir):
    os.makedirs(outdir, exist_ok=True)
    for k in ks:
        out = os.path.join(outdir, k.name + '.spv')
        cmd = [opts.spvsim, 'compile', os.path.join(KDIR, k.name + '.cl'), '-o', out]
        if k.build:
            cmd.append('--build-options=' + k.build)
        rc, _, err, _, _ = run_proc(cmd)
        if rc != 0:
            failed('spvsim compile ' + k.name, rc, err)
            return 1
    return 0


def precompiled_workdir(opts, ks):
    """A Workdir whose spvsim runs load precompiled modules (--spv DIR, else compiled here
    first), so that no clang child process adds to spvsim's peak RSS."""
    if opts.spv:
        return Workdir(opts.spv)
    work = Workdir()
    spv = os.path.join(work.path, 'spv')
    if compile_all(opts, ks, spv) != 0:
        sys.exit('compiling the kernels failed')
    work.spv_dir = spv
    return work


def bench(opts):
    ks = selected(opts)
    work = precompiled_workdir(opts, ks)
    threads = default_threads(opts)
    use_og = not opts.no_oclgrind and tool_available('oclgrind-kernel', 'Oclgrind')
    notes, pocl = {}, {}
    # Every tool gets the same number of host threads (PoCL reads this when it starts).
    os.environ.setdefault('POCL_MAX_PTHREAD_COUNT', str(threads))
    if not opts.no_pocl:
        for k in ks:
            try:
                pocl[k.name] = Pocl(k, k.full())
            except Exception as e:  # PoCL missing, or the kernel not supported there
                notes.setdefault(k.name, []).append('PoCL: %s' % str(e).splitlines()[0])
                log('  %s on PoCL: skipped (%s)' % (k.name, str(e).splitlines()[0]))
    res = {k.name: {'spvsim': [], 'whole': [], 'og': [], 'og1': [], 'pocl': []} for k in ks}
    for r in range(opts.repeat):
        for k in ks:
            log('round %d/%d: %s' % (r + 1, opts.repeat, k.name))
            d = res[k.name]
            s = spvsim_launch(opts, work.sim(k), threads)
            if s:
                d['spvsim'].append(s)
            w = spvsim_whole(opts, work.sim(k), threads)
            if w:
                d['whole'].append(w)
            if use_og and k.name != 'sgreduce':
                full = oclgrind_wall(work.sim(k, source=True), threads)
                one = oclgrind_wall(work.sim(k, one_group=True, source=True), threads)
                if full is not None and one is not None:
                    d['og'].append(full)
                    d['og1'].append(one)
            if k.name in pocl:
                d['pocl'].append(pocl[k.name].time())
    if opts.whole_dump:
        for k in ks:
            res[k.name]['dump_bytes'] = dump_bytes(opts, work.sim(k), threads)
    work.close()
    if use_og and any(k.name == 'sgreduce' for k in ks):
        notes.setdefault('sgreduce', []).append('Oclgrind: no sub-group support')
    rows = [summarise(k, res[k.name]) for k in ks]
    apply_verdicts(rows)
    machine = machine_info(threads, use_og, bool(pocl), opts.spvsim)
    print_table(rows, machine, opts, notes)
    if opts.markdown:
        print_markdown(rows, machine, opts)
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump({'machine': machine, 'repeat': opts.repeat, 'threads': threads,
                       'rows': rows, 'notes': notes}, f, indent=1)
    return 0


def tool_available(exe, name):
    if shutil.which(exe):
        return True
    log('note: %s not found (%s): its columns stay empty' % (name, exe))
    return False


def summarise(k, d):
    row = {'kernel': k.name, 'bound': k.bound, 'note': k.full().note,
           'buffer_bytes': sum(a.count * K.SIZES[a.type]
                               for a in k.full().args if isinstance(a, K.Buf))}
    if d['spvsim']:
        t, n, _ = min(d['spvsim'])
        row.update(spvsim_s=t, lane_instr=n, lane_instr_per_s=n / t)
        rss = [s[2] for s in d['spvsim'] if s[2]]
        if rss:
            row['rss'] = max(rss)
            row['rss_minus_buffers'] = row['rss'] - row['buffer_bytes']
    if d['spvsim'] and d['whole']:
        # What the whole process costs a command-line user, against the launch plus the
        # buffers' bytes written once at memory speed (issue 39: within 2x).
        row['whole_s'] = min(d['whole'])
        row['memcpy_bytes_per_s'] = memcpy_bandwidth()
        # With --whole-dump the dumps' text is bytes written too.
        written = row['buffer_bytes'] + d.get('dump_bytes', 0)
        row['dump_bytes'] = d.get('dump_bytes', 0)
        row['floor_s'] = row['spvsim_s'] + written / row['memcpy_bytes_per_s']
        row['whole_over_floor'] = row['whole_s'] / row['floor_s']
    if d['og']:
        row.update(oclgrind_whole_s=min(d['og']), oclgrind_one_group_s=min(d['og1']))
        # Best of the per-round differences: each round's two runs saw the same load.
        row['oclgrind_s'] = max(1e-9, min(a - b for a, b in zip(d['og'], d['og1'])))
    if d['pocl']:
        row['pocl_s'] = min(d['pocl'])
    if 'spvsim_s' in row and 'oclgrind_s' in row:
        row['vs_oclgrind'] = row['oclgrind_s'] / row['spvsim_s']
    if 'spvsim_s' in row and 'pocl_s' in row:
        row['vs_pocl'] = row['spvsim_s'] / row['pocl_s']
    return row


THRESHOLD_WHOLE = 2.0


def apply_verdicts(rows):
    by = {r['kernel']: r for r in rows}
    for r in rows:
        v = []
        if 'whole_over_floor' in r and not r.get('dump_bytes'):  # --whole-dump: no goal
            v.append('whole %s' % ('ok' if r['whole_over_floor'] <= THRESHOLD_WHOLE else
                                   'MISS(>%gx)' % THRESHOLD_WHOLE))
        if 'vs_oclgrind' in r:
            v.append('oclgrind %s' % ('ok' if r['vs_oclgrind'] >= THRESHOLD_OCLGRIND else
                                      'MISS(<%gx)' % THRESHOLD_OCLGRIND))
        if 'vs_pocl' in r:
            lim = THRESHOLD_POCL[r['bound']]
            v.append('pocl %s' % ('ok' if r['vs_pocl'] <= lim else 'MISS(>%gx)' % lim))
        if r['kernel'] == 'sgreduce' and 'spvsim_s' in r and 'spvsim_s' in by.get('lreduce', {}):
            faster = r['spvsim_s'] < by['lreduce']['spvsim_s']
            v.append('vs lreduce %s' % ('ok' if faster else 'MISS(not faster)'))
        r['verdict'] = ', '.join(v) or '-'


def fmt(v, spec):
    return '-' if v is None else spec % v


def cells(r):
    g = r.get
    return [r['kernel'], r['bound'], fmt(g('spvsim_s'), '%.4f'), fmt(g('whole_s'), '%.3f'),
            fmt(g('floor_s'), '%.3f'), fmt(g('whole_over_floor'), '%.2fx'),
            fmt(g('oclgrind_s'), '%.2f'),
            fmt(g('pocl_s'), '%.5f'), fmt(g('vs_oclgrind'), '%.0fx faster'),
            fmt(g('vs_pocl'), '%.1fx slower'), fmt(g('lane_instr_per_s'), '%.2g'),
            fmt(g('rss') and g('rss') / 2**20, '%.0f MB'),
            fmt(g('rss_minus_buffers') and g('rss_minus_buffers') / 2**20, '%.0f MB'),
            r['verdict']]


HEAD = ['kernel', 'bound', 'spvsim s', 'whole s', 'floor s', 'whole/floor', 'oclgrind s',
        'pocl s', 'vs oclgrind', 'vs pocl', 'lane-instr/s', 'peak RSS', 'RSS-buffers', 'verdict']


def print_table(rows, machine, opts, notes):
    table = [HEAD] + [cells(r) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(HEAD))]
    print('%s; best of %d interleaved rounds; spvsim --threads %d; execution only; whole: '
          'the spvsim run%s process; floor: launch + buffer%s bytes at memcpy %.1f GB/s' % (
              machine['summary'], opts.repeat, machine['threads'],
              ' --dump' if opts.whole_dump else '', ' and dump' if opts.whole_dump else '',
              memcpy_bandwidth() / 1e9))
    for row in table:
        print('  '.join(c.ljust(w) if i in (0, 1, len(HEAD) - 1) else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
    for name, ns in notes.items():
        for n in ns:
            print('note: %s: %s' % (name, n))


def print_markdown(rows, machine, opts):
    print()
    print('Measured on %s, best of %d interleaved rounds, spvsim `--threads %d`, memcpy '
          '%.1f GB/s:' % (machine['summary'], opts.repeat, machine['threads'],
                          memcpy_bandwidth() / 1e9))
    print()
    print('| ' + ' | '.join(HEAD) + ' |')
    print('|' + '---|' * len(HEAD))
    for r in rows:
        print('| ' + ' | '.join(cells(r)) + ' |')


def machine_info(threads, og, pocl, spvsim):
    cpu = '?'
    try:
        for line in open('/proc/cpuinfo'):
            if line.startswith('model name'):
                cpu = line.split(':', 1)[1].strip()
                break
    except OSError:
        pass
    cores = os.cpu_count()
    versions = {'python': platform.python_version()}
    if og:
        p = subprocess.run(['oclgrind', '--version'], capture_output=True, text=True)
        m = re.search(r'Oclgrind ([\d.]+)', p.stdout + p.stderr)
        versions['oclgrind'] = m.group(1) if m else '?'
    if pocl:
        versions['pocl'] = pocl_device().platform.version
    # The checkout's commit names the binary only when it is the checkout's own build.
    if spvsim != DEFAULT_SPVSIM:
        versions['spvsim'] = spvsim
    else:
        try:
            rev = subprocess.run(['git', '-C', ROOT, 'rev-parse', '--short', 'HEAD'],
                                 capture_output=True, text=True).stdout.strip()
            versions['spvsim'] = rev or '?'
        except OSError:
            versions['spvsim'] = '?'
    tools = ', '.join('%s %s' % kv for kv in versions.items())
    return {'cpu': cpu, 'cores': cores, 'threads': threads, 'versions': versions,
            'summary': '%s, %d cores (%s)' % (cpu, cores, tools)}


# What each tool checks in --checkers: spvsim's three checkers, and Oclgrind's data-race
# and uninitialised-value plugins (its memory-access checks are always on).
SPVSIM_CHECKS = ['--check-races', '--check-uninitialized', '--check-undefined']
OCLGRIND_CHECKS = ['--data-races', '--uninitialized']
THRESHOLD_CHECK_COST = 3.0


def cpu_seconds(cmd, cwd=None, env=None, ok=(0,)):
    """User + system CPU seconds of one process (None on failure): what a process costs
    whatever else runs on the machine, where its wall time is not."""
    with tempfile.TemporaryFile() as err:
        p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        rc = os.waitstatus_to_exitcode(status)
        if rc not in ok:
            err.seek(0)
            failed(os.path.basename(cmd[0]), rc, err.read().decode(errors='replace'))
            return None
        return usage.ru_utime + usage.ru_stime


def launch_cpu(cmd, full, one, cwd=None, env=None, ok=(0,)):
    """CPU seconds of the launch `full` and of the same launch restricted to one work-group
    (`one`), as a pair (None on failure): their difference removes compiling, loading and
    buffer set-up, as for Oclgrind's times above (and slightly under-counts one
    work-group's execution). See best_launch_cpu."""
    a = cpu_seconds(cmd + [full], cwd, env, ok)
    b = cpu_seconds(cmd + [one], cwd, env, ok)
    return None if a is None or b is None else (a, b)


def best_launch_cpu(pairs):
    """The launch's CPU seconds from launch_cpu's pairs over the rounds: the best full run
    less the best one-group run. (The best of each round's difference would pick the
    round whose one-group run was slowest: with set-up far longer than the launch, as for
    triad's 48 MB of buffers, that difference can be noise alone.)"""
    return max(min(a for a, _ in pairs) - min(b for _, b in pairs), 1e-6)


def checker_cost(opts):
    """One thread, CPU time of the execution: each kernel plain and with every checker, in
    spvsim and in Oclgrind, interleaved; the cost of the checks as ratios, and spvsim
    against Oclgrind with checks on both sides (issue 37: within 3x, and >= 100x)."""
    ks = selected(opts)
    work = precompiled_workdir(opts, ks)
    use_og = not opts.no_oclgrind and tool_available('oclgrind-kernel', 'Oclgrind')
    og_env = dict(os.environ, OCLGRIND_NUM_THREADS='1')
    res = {k.name: {key: [] for key in ('s', 'sc', 'og', 'ogc')} for k in ks}
    for r in range(opts.repeat):
        for k in ks:
            log('round %d/%d: %s' % (r + 1, opts.repeat, k.name))
            d = res[k.name]
            full, one = work.sim(k), work.sim(k, one_group=True)
            for key, extra in (('s', []), ('sc', SPVSIM_CHECKS)):
                t = launch_cpu([opts.spvsim, 'run', '--threads', '1'] + extra, full, one,
                               ok=(0, 2))
                if t is not None:
                    d[key].append(t)
            if use_og and k.name != 'sgreduce':
                full = work.sim(k, source=True)
                one = work.sim(k, one_group=True, source=True)
                for key, extra in (('og', []), ('ogc', OCLGRIND_CHECKS)):
                    t = launch_cpu(['oclgrind-kernel'] + extra, full, one,
                                   cwd=os.path.dirname(full), env=og_env)
                    if t is not None:
                        d[key].append(t)
    work.close()
    rows = [cost_row(k, res[k.name]) for k in ks]
    head = ['kernel', 'spvsim s', '+checks s', 'cost', 'oclgrind s', '+checks s', 'cost',
            'vs oclgrind', 'checked vs oclgrind checked', 'verdict']
    table = [head] + [[r['kernel']] + [fmt(r.get(c), f) for c, f in COST_CELLS] + [r['verdict']]
                      for r in rows]
    machine = machine_info(1, use_og, False, opts.spvsim)
    print('%s; best of %d interleaved rounds; one thread; CPU seconds of the execution; '
          'spvsim checks: %s; oclgrind checks: %s' % (
              machine['summary'], opts.repeat, ' '.join(SPVSIM_CHECKS), ' '.join(OCLGRIND_CHECKS)))
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        print('  '.join(c.ljust(w) if i in (0, len(head) - 1) else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
    if opts.markdown:
        print('\n| ' + ' | '.join(head) + ' |\n|' + '---|' * len(head))
        for row in table[1:]:
            print('| ' + ' | '.join(row) + ' |')
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump({'machine': machine, 'repeat': opts.repeat, 'rows': rows}, f, indent=1)
    return 0


COST_CELLS = [('spvsim_s', '%.4f'), ('spvsim_checked_s', '%.4f'), ('spvsim_cost', '%.1fx'),
              ('oclgrind_s', '%.2f'), ('oclgrind_checked_s', '%.2f'), ('oclgrind_cost', '%.1fx'),
              ('vs_oclgrind', '%.0fx'), ('checked_vs_oclgrind_checked', '%.0fx')]


def cost_row(k, d):
    row = {'kernel': k.name}
    for key, name in (('s', 'spvsim_s'), ('sc', 'spvsim_checked_s'), ('og', 'oclgrind_s'),
                      ('ogc', 'oclgrind_checked_s')):
        if d[key]:
            row[name] = best_launch_cpu(d[key])
    g = row.get
    if g('spvsim_s') and g('spvsim_checked_s'):
        row['spvsim_cost'] = g('spvsim_checked_s') / g('spvsim_s')
    if g('oclgrind_s') and g('oclgrind_checked_s'):
        row['oclgrind_cost'] = g('oclgrind_checked_s') / g('oclgrind_s')
    if g('spvsim_s') and g('oclgrind_s'):
        row['vs_oclgrind'] = g('oclgrind_s') / g('spvsim_s')
    if g('spvsim_checked_s') and g('oclgrind_checked_s'):
        row['checked_vs_oclgrind_checked'] = g('oclgrind_checked_s') / g('spvsim_checked_s')
    v = []
    if 'spvsim_cost' in row:
        v.append('cost %s' % ('ok' if row['spvsim_cost'] <= THRESHOLD_CHECK_COST else
                              'MISS(>%gx)' % THRESHOLD_CHECK_COST))
    if 'checked_vs_oclgrind_checked' in row:
        ok = row['checked_vs_oclgrind_checked'] >= THRESHOLD_OCLGRIND
        v.append('oclgrind %s' % ('ok' if ok else 'MISS(<%gx)' % THRESHOLD_OCLGRIND))
    row['verdict'] = ', '.join(v) or '-'
    return row


def concurrent_launches(opts, sim, n):
    """Median launch seconds of n one-thread `spvsim run` processes started at once."""
    cmd = [opts.spvsim, 'run', sim, '--stats', '--threads', '1']
    procs = [subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True) for _ in range(n)]
    times = []
    for p in procs:
        err = p.communicate()[1]
        m = STATS_RE.search(err)
        if p.returncode != 0 or not m:
            failed('spvsim', p.returncode, err)
            return None
        times.append(float(m.group(1)))
    return sorted(times)[len(times) // 2]


def scaling(opts):
    """Launch time per thread count, and the machine's own ceiling for the largest: N
    one-thread processes at once share nothing but the machine (cores, caches, memory
    bandwidth, a VM's host), so N x (one alone) / (each of N at once) bounds the speed-up
    any N threads can reach there."""
    counts = [int(t) for t in opts.scaling.split(',')]
    top = max(counts)
    ks = selected(opts)
    work = precompiled_workdir(opts, ks)
    best = {(k.name, t): None for k in ks for t in counts}
    together = {k.name: None for k in ks}
    for r in range(opts.repeat):
        for k in ks:
            log('round %d/%d: %s' % (r + 1, opts.repeat, k.name))
            for t in counts:
                s = spvsim_launch(opts, work.sim(k), t)
                if s and (best[k.name, t] is None or s[0] < best[k.name, t]):
                    best[k.name, t] = s[0]
            if top > 1:
                s = concurrent_launches(opts, work.sim(k), top)
                if s and (together[k.name] is None or s < together[k.name]):
                    together[k.name] = s
    work.close()
    machine = machine_info(top, False, False, opts.spvsim)
    print('%s; spvsim launch seconds, best of %d interleaved rounds; speed-up vs %d thread(s)'
          % (machine['summary'], opts.repeat, counts[0]))
    if top > 1:
        print('machine x%d: %d one-thread processes at once, %d x (one alone) / (median of '
              'them); of machine: x%d / machine x%d' % (top, top, top, top, top))
    head = ['kernel'] + ['%d thr' % t for t in counts] + ['x%d' % t for t in counts[1:]]
    if top > 1:
        head += ['machine x%d' % top, 'of machine']
    table = [head]
    for k in ks:
        base = best[k.name, counts[0]]
        row = [k.name] + [fmt(best[k.name, t], '%.4f') for t in counts]
        row += [fmt(base / best[k.name, t] if base and best[k.name, t] else None, '%.1fx')
                for t in counts[1:]]
        if top > 1:
            one = best.get((k.name, 1))
            ceiling = top * one / together[k.name] if one and together[k.name] else None
            got = one / best[k.name, top] if one and best[k.name, top] else None
            row += [fmt(ceiling, '%.1fx'),
                    fmt(100 * got / ceiling if got and ceiling else None, '%.0f%%')]
        table.append(row)
    widths = [max(len(row[i]) for row in table) for i in range(len(head))]
    for row in table:
        print('  '.join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(row, widths))))
    if opts.json:
        with open(opts.json, 'w') as f:
            json.dump({'machine': machine, 'repeat': opts.repeat, 'scaling': {
                k.name: {str(t): best[k.name, t] for t in counts} for k in ks},
                'concurrent_one_thread': together}, f, indent=1)
    return 0


def check_dump(opts):
    """Identical --dump at every thread count, and buffers equal to the host model."""
    import numpy as np
    size = 'small' if opts.small else 'full'
    work = Workdir(opts.spv)
    counts = sorted({1, 2, default_threads(opts)})
    failures = []
    for k in selected(opts):
        sim = work.sim(k, size)
        launch = k.launch(size)
        expected = k.model(launch.values())
        runs = [(['--threads', str(t)], True) for t in counts]
        if opts.small:
            runs += [(['--threads', '2', '--sub-group-size', str(s)], False) for s in (7, 32)]
            if not opts.spv:
                runs.append((['--threads', '1', '--build-options=-O0'], False))
        dumps = {}
        for extra, compare_dump in runs:
            what = '%s %s' % (k.name, ' '.join(extra))
            jpath = os.path.join(work.path, k.name + '.json')
            rc, out, err, _, _ = run_proc([opts.spvsim, 'run', sim, '--dump', '--json', jpath]
                                          + extra)
            if rc != 0:
                failed('spvsim run ' + what, rc, err)
                failures.append(what + ': exit %d' % rc)
                continue
            if compare_dump:
                dumps[' '.join(extra)] = out
            with open(jpath) as f:
                bufs = json.load(f)['buffers']
            for idx, (want, rtol, atol) in expected.items():
                got = np.asarray(bufs['arg%d' % idx], dtype=np.float64).ravel()
                err_msg = compare(got, np.asarray(want, dtype=np.float64).ravel(), rtol, atol)
                if err_msg:
                    failures.append('%s: arg%d %s' % (what, idx, err_msg))
        ref = next(iter(dumps.items()), None)
        for key, out in dumps.items():
            if ref and out != ref[1]:
                failures.append('%s: --dump at %s differs from %s' % (k.name, key, ref[0]))
        log('%s: %d runs checked (%s)' % (k.name, len(runs), launch.note))
    work.close()
    for f in failures:
        print('FAIL ' + f)
    print('%s: %d kernels, %s' % ('check-dump', len(selected(opts)),
                                  'FAILED' if failures else 'all identical and equal to the models'))
    return 1 if failures else 0


def compare(got, want, rtol, atol):
    import numpy as np
    if got.shape != want.shape:
        return 'has %d values, the model %d' % (got.size, want.size)
    bad = ~(np.abs(got - want) <= atol + rtol * np.abs(want))
    if not bad.any():
        return None
    i = int(np.argmax(bad))
    return '%d of %d values differ from the model, first [%d]: %r, expected %r' % (
        int(bad.sum()), got.size, i, got[i], want[i])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog='\n'.join(__doc__.splitlines()[1:]))
    ap.add_argument('--spvsim', default=DEFAULT_SPVSIM)
    ap.add_argument('--repeat', type=int, default=3, help='rounds; best of N (default 3)')
    ap.add_argument('--threads', type=int, help='spvsim --threads (default: all cores)')
    ap.add_argument('-k', metavar='REGEX', help='only kernels whose name matches')
    ap.add_argument('--no-oclgrind', action='store_true')
    ap.add_argument('--no-pocl', action='store_true')
    ap.add_argument('--json', metavar='FILE', help='save the results')
    ap.add_argument('--markdown', action='store_true', help='also print a README table')
    ap.add_argument('--whole-dump', action='store_true',
                    help='whole-process runs with --dump (to /dev/null); the floor adds the '
                         'text\'s bytes')
    ap.add_argument('--scaling', metavar='T1,T2,...', help='spvsim launch time per --threads')
    ap.add_argument('--checkers', action='store_true',
                    help='checker cost: one thread, plain and with every checker, in spvsim '
                         'and Oclgrind')
    ap.add_argument('--check-dump', action='store_true',
                    help='correctness: --dump identical at threads 1, 2, N; model agreement')
    ap.add_argument('--small', action='store_true', help='--check-dump on the small launches')
    ap.add_argument('--precompile', metavar='DIR', help='compile every kernel to DIR/K.spv')
    ap.add_argument('--spv', metavar='DIR', help='run DIR/K.spv instead of compiling K.cl')
    ap.add_argument('--write-sims', action='store_true', help='regenerate kernels/*.sim')
    ap.add_argument('--check-sims', action='store_true',
                    help='fail if kernels/*.sim differ from what --write-sims writes')
    opts = ap.parse_args()
    opts.spvsim = os.path.abspath(opts.spvsim)
    if opts.spv:
        opts.spv = os.path.abspath(opts.spv)
    if opts.write_sims:
        return write_sims(opts)
    if opts.check_sims:
        return check_sims(opts)
    if not os.access(opts.spvsim, os.X_OK):
        sys.exit('no spvsim at %s (bazel build //tools:spvsim, or --spvsim PATH)' % opts.spvsim)
    if opts.precompile:
        return precompile(opts)
    if opts.check_dump:
        return check_dump(opts)
    if opts.scaling:
        return scaling(opts)
    if opts.checkers:
        return checker_cost(opts)
    return bench(opts)


if __name__ == '__main__':
    sys.exit(main())
