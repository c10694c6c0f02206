#!/usr/bin/python3
"""Differential self-test of spvsim across optimisation levels.

Runs every kernel of testdata/corpus/corpus.py through `spvsim run K.cl --build-options
LEVEL --dump` at -O0, -O1, -O2, -O3 and "-O2 -g", and checks that
  1. each run succeeds (exit 0, no diagnostics on stderr),
  2. its buffers equal the kernel's Python model (integers exactly; floats exactly, or
     within the ulps a case states where the OpenCL spec allows error), and
  3. the levels agree with each other bit for bit (the dumped text, which is the shortest
     round-trip form of every value), unless a case states why the spec lets them differ.
Anything that differs is a bug in the compile driver or the loader, never "expected".

  /usr/bin/python3 testdata/corpus/run_corpus.py [--spvsim PATH] [-k REGEX]
        [--levels O0,O1,O2,O3,O2g] [--jobs N] [--list] [-v] [--crosscheck]

Without --spvsim it uses $SPVSIM, then tools/spvsim under the working directory (the Bazel
runfiles tree), then bazel-bin/tools/spvsim of the repository. SPVSIM_CACHE_DIR is set to
a fresh temporary directory for each run of this script. --crosscheck runs the models on
PoCL instead (run_pyopencl.py --crosscheck).
"""

import argparse
import concurrent.futures
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus  # noqa: E402
from corpus_lib import LEVELS, compare_buffer, parse_dump_values, split_type  # noqa: E402

DUMP_RE = re.compile(r'^arg(\d+) (\w+)\[(\d+)\] = ?(.*)$')
TIMEOUT_S = 120


def find_spvsim(explicit):
    for p in (explicit, os.environ.get('SPVSIM'), os.path.join(os.getcwd(), 'tools', 'spvsim'),
              os.path.join(HERE, '..', '..', 'bazel-bin', 'tools', 'spvsim')):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.abspath(p)
    sys.exit('run_corpus.py: no spvsim binary (build //tools:spvsim or pass --spvsim)')


def parse_levels(text):
    names = dict(LEVELS)
    out = []
    for t in text.split(','):
        t = t.strip().lstrip('-').replace(' ', '').replace('-', '')
        if t not in names:
            sys.exit('run_corpus.py: unknown level %r (known: %s)' % (t, ','.join(names)))
        out.append((t, names[t]))
    return out


class Run:
    """One spvsim process: a case at one level."""

    def __init__(self, case, level, options):
        self.case, self.level, self.options = case, level, options
        self.rc, self.stdout, self.stderr, self.seconds = None, [], [], 0.0
        self.problems = []          # what is wrong with this run on its own
        self.dumps = {}             # arg index -> (type, count, text)
        self.short = 'ok'           # one word for the summary table

    def command(self, spvsim):
        # --threads 1: the runner already keeps both cores busy with two processes
        return [spvsim] + self.case.argv(self.case.file, self.options) + ['--threads', '1']


def execute(run, spvsim, env):
    cmd = run.command(spvsim)
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=HERE, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=TIMEOUT_S, env=env)
        run.rc = p.returncode
        run.stdout = p.stdout.decode('utf-8', 'replace').splitlines()
        run.stderr = p.stderr.decode('utf-8', 'replace').splitlines()
    except subprocess.TimeoutExpired:
        run.rc = 'timeout'
    run.seconds = time.time() - t0
    return run


def first_error(lines):
    """The first diagnostic line; for a failed compile also the tool's first message line
    (e.g. llvm-spirv's "InvalidInstruction: ..." or an assertion)."""
    for k, l in enumerate(lines):
        if l.startswith(('error:', 'warning:')):
            if l.rstrip().endswith(':'):
                more = [m.strip() for m in lines[k + 1:k + 4] if m.strip()]
                if more:
                    text = more[0] if not more[0].endswith(':') else ' '.join(more[:2])
                    return l.rstrip() + ' ' + text[:300]
            return l
    return next((l for l in lines if l.strip()), '')


def check_run(run, expected):
    """Fills run.problems/short from its exit status, stderr and dump against the model."""
    if run.rc == 'timeout':
        run.problems.append('timed out after %d s' % TIMEOUT_S)
        run.short = 'TIMEOUT'
        return
    diag = [l for l in run.stderr if l.startswith(('error:', 'warning:'))]
    if run.rc != 0:
        err = first_error(run.stderr)
        run.problems.append('exit status %s: %s' % (run.rc, err))
        if run.rc == 1 and 'compiling' in err:
            run.short = 'COMPILE'
        elif run.rc == 1:
            run.short = 'LOAD'
        else:
            run.short = 'RUN'
        return
    if diag:
        run.problems.append('diagnostics on a run that must be clean: %s' % diag[0])
        # a driver that silently compiles at another level is not running this level
        run.short = 'FALLBACK' if re.search(r'compiling at -O\S* instead', diag[0]) else 'DIAG'
    for line in run.stdout:
        m = DUMP_RE.match(line)
        if m:
            run.dumps[int(m.group(1))] = (m.group(2), int(m.group(3)), m.group(4))
        elif line.strip():
            run.problems.append('unexpected output line: %s' % line[:200])
    wrong = False
    for idx in sorted(set(expected) | set(run.dumps)):
        if idx not in run.dumps:
            run.problems.append('no dump line for buffer arg%d' % idx)
            wrong = True
            continue
        if idx not in expected:
            run.problems.append('dump line for arg%d, which is not a buffer' % idx)
            wrong = True
            continue
        etype, ecount, evals = expected[idx]
        atype, acount, text = run.dumps[idx]
        if (atype, acount) != (etype, ecount):
            run.problems.append('arg%d dumped as %s[%d], expected %s[%d]' % (
                idx, atype, acount, etype, ecount))
            wrong = True
            continue
        base, lanes = split_type(etype)
        try:
            got = parse_dump_values(text, base, lanes)
        except ValueError as e:
            run.problems.append('arg%d: unparsable dump: %s' % (idx, e))
            wrong = True
            continue
        p = compare_buffer(idx, etype, evals, got, run.case.tolerance(idx))
        if p:
            run.problems += p
            wrong = True
    if wrong:
        run.short = 'WRONG'


def check_levels(runs):
    """Problems from comparing the dumps of the successful levels with each other."""
    good = [r for r in runs if r.rc == 0 and r.dumps]
    if len(good) < 2:
        return []
    ref = good[0]
    out = []
    for r in good[1:]:
        for idx in sorted(set(ref.dumps) | set(r.dumps)):
            a, b = ref.dumps.get(idx), r.dumps.get(idx)
            if a == b:
                continue
            if a is None or b is None:
                out.append('%s vs %s: arg%d dumped by only one of them' % (ref.level, r.level, idx))
                continue
            ta, tb = a[2].split(), b[2].split()
            diff = [k for k in range(min(len(ta), len(tb))) if ta[k] != tb[k]]
            shown = ', '.join('[%d] %s vs %s' % (k, ta[k], tb[k]) for k in diff[:4])
            out.append('%s vs %s: arg%d differs in %d of %d elements: %s' % (
                ref.level, r.level, idx, len(diff), len(ta), shown))
            if r.short == 'ok':
                r.short = 'DIFF'
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--spvsim')
    ap.add_argument('-k', metavar='REGEX', help='only the cases whose name matches')
    ap.add_argument('--levels', default=','.join(n for n, _ in LEVELS),
                    help='comma-separated, from O0,O1,O2,O3,O2g (default: all)')
    ap.add_argument('--jobs', type=int, default=2, help='spvsim processes at a time (2)')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('-v', '--verbose', action='store_true', help='show every command')
    ap.add_argument('--crosscheck', action='store_true',
                    help='check the models on PoCL instead (run_pyopencl.py --crosscheck)')
    opts = ap.parse_args()
    if opts.crosscheck:
        argv = ['/usr/bin/python3', os.path.join(HERE, 'run_pyopencl.py'), '--crosscheck']
        if opts.k:
            argv += ['-k', opts.k]
        os.execv(argv[0], argv)
    levels = parse_levels(opts.levels)
    selected = [c for c in corpus.CASES if not opts.k or re.search(opts.k, c.name)]
    if opts.list:
        for c in selected:
            print('%-32s %s%s' % (c.name, c.file, '  (icd)' if c.icd else ''))
        return 0
    if not selected:
        sys.exit('run_corpus.py: no case matches')
    names = [c.name for c in corpus.CASES]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit('run_corpus.py: duplicate case names: %s' % ' '.join(sorted(dup)))
    spvsim = find_spvsim(opts.spvsim)
    t0 = time.time()
    runs = {c.name: [Run(c, n, o) for n, o in levels] for c in selected}
    jobs = [r for c in selected for r in runs[c.name]]
    with tempfile.TemporaryDirectory(prefix='spvsim-cache-', dir=os.environ.get('TEST_TMPDIR')) as cache:
        env = dict(os.environ, SPVSIM_CACHE_DIR=cache)   # a fresh compile cache per run
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.jobs)) as pool:
            list(pool.map(lambda r: execute(r, spvsim, env), jobs))
    failed = []
    matrix = []
    for c in selected:
        try:
            expected = c.expected_buffers()
            model_error = None
        except Exception as e:   # a broken model is a failure of the case, not a crash
            expected, model_error = {}, '%s: %s' % (type(e).__name__, e)
        rs = runs[c.name]
        for r in rs:
            if model_error:
                r.problems.append('model failed: ' + model_error)
                r.short = 'MODEL'
            else:
                check_run(r, expected)
        level_problems = check_levels(rs) if not c.levels_may_differ else []
        ok = not level_problems and all(not r.problems for r in rs)
        print('%s %s  (%s)' % ('PASS' if ok else 'FAIL', c.name,
                               ' '.join('%s %.1fs' % (r.level, r.seconds) for r in rs)))
        if not ok or opts.verbose:
            if c.note:
                print('  note: %s' % c.note)
            for r in rs:
                if r.problems or opts.verbose:
                    print('  [%s] cd %s && %s' % (r.level, shlex.quote(HERE), ' '.join(
                        shlex.quote(x) for x in r.command(spvsim))))
                    for p in r.problems:
                        print('    ' + p)
                    if r.problems and r.stderr:
                        print('    stderr (%d lines):' % len(r.stderr))
                        for l in r.stderr[:8]:
                            print('      | ' + l[:300])
                        if len(r.stderr) > 8:
                            print('      | ...')
            for p in level_problems:
                print('  levels: ' + p)
        if not ok:
            failed.append(c.name)
        matrix.append((c.name, [r.short for r in rs]))
        sys.stdout.flush()
    print('\nsummary (ok; COMPILE/LOAD: exit 1; RUN: exit 2; DIAG: diagnostics; FALLBACK: the '
          'driver compiled at another level; WRONG: differs from the model; DIFF: differs '
          'from %s only):' % levels[0][0])
    print('  %-32s %s' % ('case', ' '.join('%-8s' % n for n, _ in levels)))
    for name, shorts in matrix:
        if any(s != 'ok' for s in shorts) or opts.verbose:
            print('  %-32s %s' % (name, ' '.join('%-8s' % s for s in shorts)))
    print('\n%d of %d cases passed at every level (%d spvsim runs, %.0f s)' % (
        len(selected) - len(failed), len(selected), len(jobs), time.time() - t0))
    if failed:
        print('failed: ' + ' '.join(failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
