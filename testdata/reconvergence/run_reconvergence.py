#!/usr/bin/python3
"""The reconvergence corpus (issue 37): random structured kernels with ballots in
divergent code (program.py), run by `spvsim run --dump` and checked against models.

  /usr/bin/python3 testdata/reconvergence/run_reconvergence.py [--spvsim PATH]
      [--programs N] [--first-seed S] [--levels O0,O2] [--random-seeds 1,2,3]
      [--batch K] [--jobs J] [--out-dir DIR] [-v]

Program 0 is nested_break.cl (program.NESTED_BREAK, sub-group size 8), then seeds
S..S+N-1; even seeds run with sub-group size 16 (--global 16 --local 16),
odd ones with 8. K kernels share one .cl file, compiled once per level with `spvsim
compile`; each kernel is then one `spvsim run` of the .spv per mode. Checks:

  every level, every mode: each lane's records (ballot id, iteration key), in order, are
    the ones C gives (program.sequential); each mask contains the lane; lanes agree:
    b in mask(a) => b recorded this ballot with the same mask;
  -O0, every mode: each mask lies within the lanes of that dynamic instance (same
    ballot, same iterations of every enclosing loop), and lanes agree per (id, key):
    b in mask(a) => mask(b) == mask(a) for the record of b with a's (id, key);
  -O0, ipdom (no flag): each mask equals program.ipdom's, the SIMT stack at immediate
    post-dominators over clang's -O0 control flow;
  -O1..-O3: clang if-converts, rotates loops and drops exits (check_common says how
    that merges iterations), so the -O0 CFG the ipdom model walks is not the module's:
    the ipdom model is not compared there (the summary counts the records where it
    differs), only the properties above and below;
  --reconvergence random:SEED (every seed at the first level, the first seed at the
    others): each mask is a subset of the same record's mask in that level's ipdom
    run; a mask that is the whole sub-group under ipdom stays whole (uniform control
    flow is never split); and over all random runs at least one mask differs from
    ipdom (the mode splits). Without the option in `spvsim run --help`
    these checks are skipped with a message naming it.

Kernel sources stay in DIR ($TEST_UNDECLARED_OUTPUTS_DIR under Bazel, else a temporary
directory kept on failure); failures name the program seed, the file, the lane and the
record. Many more by hand, e.g.:

  bazel build //tools:spvsim && /usr/bin/python3 testdata/reconvergence/run_reconvergence.py \
      --programs 5000 --levels O0,O1,O2,O3 --out-dir /tmp/reconv
"""

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import program as P  # noqa: E402

DUMP_RE = re.compile(r'^arg(\d+) (\w+)\[(\d+)\] = ?(.*)$')
TIMEOUT_S = 120
MAX_REPORTED = 30


def find_spvsim(explicit):
    for p in (explicit, os.environ.get('SPVSIM'), os.path.join(os.getcwd(), 'tools', 'spvsim'),
              os.path.join(HERE, '..', '..', 'bazel-bin', 'tools', 'spvsim')):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.abspath(p)
    sys.exit('run_reconvergence.py: no spvsim binary (build //tools:spvsim or pass --spvsim)')


class Prog:
    def __init__(self, seed):
        self.seed = seed
        if seed == 0:    # the reproducer kept as nested_break.cl
            self.lanes = P.NESTED_BREAK_LANES
            self.name = 'nested_break'
            self.stmts, self.inputs = P.NESTED_BREAK, [0] * self.lanes
            self.max_records = max(len(x) for x in P.sequential(self.stmts, self.lanes,
                                                                  self.inputs))
        else:
            self.lanes = 16 if seed % 2 == 0 else 8
            self.name = 'p%d' % seed
            self.stmts, self.inputs, self.max_records = P.generate(seed, self.lanes)
        self.seq = P.sequential(self.stmts, self.lanes, self.inputs)
        self.sets = P.instance_sets(self.seq)
        self.ipdom = P.ipdom(self.stmts, self.lanes, self.inputs)
        self.file = None       # the .cl holding it
        # The model's self-check: both models give each lane the same (id, key) list.
        assert [[r[:2] for r in x] for x in self.ipdom] == self.seq, self.seed

    def argv(self):
        L = self.lanes
        return ['--kernel', self.name, '--global', str(L), '--local', str(L),
                '--sub-group-size', str(L),
                '--arg', 'buffer:uint[%d]=values(%s)' % (L, ','.join(map(str, self.inputs))),
                '--arg', 'buffer:uint[%d]=zero' % (L * self.max_records * 3),
                '--arg', 'buffer:uint[%d]=zero' % L, '--dump']


def run(cmd):
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return 124, '', 'timed out after %d s' % TIMEOUT_S
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def parse_records(prog, stdout):
    """Per lane, its records (id, key, mask) from the dump; or an error string."""
    bufs = {}
    for line in stdout.splitlines():
        m = DUMP_RE.match(line)
        if m:
            bufs[int(m.group(1))] = [int(t, 0) for t in m.group(4).split()]
    L, M = prog.lanes, prog.max_records
    if 1 not in bufs or 2 not in bufs or len(bufs[1]) != L * M * 3 or len(bufs[2]) != L:
        return 'dump lines for arg1 (uint[%d]) and arg2 (uint[%d]) missing or malformed' % (
            L * M * 3, L)
    out, cnt = bufs[1], bufs[2]
    recs = []
    for lane in range(L):
        n = min(cnt[lane], M)
        base = lane * M * 3
        recs.append([tuple(out[base + 3 * k: base + 3 * k + 3]) for k in range(n)]
                    + ([None] * (cnt[lane] - n)))
    return recs


def fmt(r):
    return '(id %d, key %#x, mask %#x)' % r if r else '<none>'


def check_common(prog, recs, where, strict, errors):
    """The checks of every level and mode. `strict` (-O0): a mask lies within its dynamic
    instance (same ballot, same iteration of every enclosing loop) and lanes agree per
    (id, key). Optimised code need not keep iterations apart where a ballot sits in a
    loop exit: for `for (i = 0; i < x + 1; i++) if (x == i) { BALLOT; break; }` LLVM
    drops the `i < x + 1` exit (the loop always breaks), so the break arm becomes the
    loop's only exit, the immediate post-dominator of the branch into it, and lanes that
    break in different iterations run it together (seed 161, -O2; also SPIR-V's rule:
    a block outside the loop is not part of any iteration). There lanes agree per
    (id, mask): b in mask(a) => b has a record of that ballot with the same mask."""
    L = prog.lanes
    full = (1 << L) - 1
    for lane in range(L):
        want = prog.seq[lane]
        got = recs[lane]
        if [r[:2] if r else None for r in got] != want:
            k = next((i for i in range(max(len(got), len(want)))
                      if i >= len(got) or i >= len(want) or got[i] is None or got[i][:2] != want[i]),
                     0)
            errors.append('%s lane %d: %d records, expected %d; record %d is %s, expected (id %s, key %s)'
                          % (where, lane, len(got), len(want), k,
                             fmt(got[k]) if k < len(got) else '<none>',
                             want[k][0] if k < len(want) else '-',
                             hex(want[k][1]) if k < len(want) else '-'))
            continue
        for k, (bid, key, mask) in enumerate(got):
            inst = prog.sets[(bid, key)]
            if not mask >> lane & 1:
                errors.append('%s lane %d record %d %s: mask lacks the lane itself'
                              % (where, lane, k, fmt(got[k])))
            elif mask & ~full:
                errors.append('%s lane %d record %d %s: mask has lanes beyond the sub-group'
                              % (where, lane, k, fmt(got[k])))
            elif strict and mask & ~inst:
                errors.append('%s lane %d record %d %s: mask has lanes outside this dynamic '
                              'instance (%#x)' % (where, lane, k, fmt(got[k]), inst))
    if errors:
        return
    index = {}
    for lane in range(L):
        for k, r in enumerate(recs[lane]):
            index[(lane, r[0], r[1] if strict else r[2])] = (k, r[2])
    for lane in range(L):
        for k, (bid, key, mask) in enumerate(recs[lane]):
            for b in range(L):
                if b != lane and mask >> b & 1:
                    other = index.get((b, bid, key if strict else mask))
                    if other is None or other[1] != mask:
                        errors.append('%s lane %d record %d %s includes lane %d, which has no '
                                      'record of this ballot %s' % (
                                          where, lane, k, fmt((bid, key, mask)), b,
                                          'and key' if strict else 'with this mask')
                                      + ('' if other is None else ' (its mask: %#x)' % other[1]))


def check_ipdom_model(prog, recs, where, errors):
    for lane in range(prog.lanes):
        for k, (r, e) in enumerate(zip(recs[lane], prog.ipdom[lane])):
            if r != e:
                errors.append('%s lane %d record %d: %s, the ipdom model gives %s'
                              % (where, lane, k, fmt(r), fmt(e)))


def check_random(prog, recs, base, where, errors):
    """Returns how many records differ from the ipdom run `base`."""
    full = (1 << prog.lanes) - 1
    differ = 0
    for lane in range(prog.lanes):
        for k, (r, b) in enumerate(zip(recs[lane], base[lane])):
            if r[2] & ~b[2]:
                errors.append('%s lane %d record %d: %s is not within the ipdom mask %#x'
                              % (where, lane, k, fmt(r), b[2]))
            elif b[2] == full and r[2] != full:
                errors.append('%s lane %d record %d: %s split a whole sub-group (uniform '
                              'control flow under ipdom)' % (where, lane, k, fmt(r)))
            differ += r[2] != b[2]
    return differ


def self_test(progs):
    """The checkers must reject broken records: the model's own records pass, and each
    corruption below is reported (a check that cannot fail proves nothing)."""
    p = next((p for p in progs
              if any(r[2] != (1 << p.lanes) - 1 for x in p.ipdom for r in x)), None)
    if p is None:
        return None      # no divergent ballot among so few programs: nothing to corrupt
    good = [list(x) for x in p.ipdom]
    lane, k = next((l, k) for l, x in enumerate(good) for k, r in enumerate(x)
                   if r[2] != (1 << p.lanes) - 1)
    bid, key, mask = good[lane][k]
    other = next(b for b in range(p.lanes) if not mask >> b & 1)
    cases = {
        'model': (good, None),
        'mask without its lane': (lane, (bid, key, mask & ~(1 << lane))),
        'mask with a lane of another instance': (lane, (bid, key, mask | (1 << other))),
        'wrong ballot id': (lane, (bid + 1000, key, mask)),
    }
    for name, (where, rec) in cases.items():
        recs = good if rec is None else [list(x) for x in good]
        if rec is not None:
            recs[where][k] = rec
        for strict in (True, False):
            errs = []
            check_common(p, recs, 'self-test', strict, errs)
            if strict:
                check_ipdom_model(p, recs, 'self-test', errs)
            if bool(errs) != (rec is not None):
                return 'self-test: %s (strict %s) gave %s' % (name, strict, errs or 'no error')
    errs = []
    split = [list(x) for x in good]
    split[lane][k] = (bid, key, mask | (1 << other))    # "random" wider than ipdom
    check_random(p, split, good, 'self-test', errs)
    if not errs:
        return 'self-test: a random mask beyond ipdom passed'
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--spvsim')
    ap.add_argument('--programs', type=int, default=200)
    ap.add_argument('--first-seed', type=int, default=1)
    ap.add_argument('--levels', default='O0,O2')
    ap.add_argument('--random-seeds', default='1,2,3')
    ap.add_argument('--batch', type=int, default=10, help='kernels per .cl file')
    ap.add_argument('--jobs', type=int, default=os.cpu_count() or 2)
    ap.add_argument('--out-dir')
    ap.add_argument('-v', '--verbose', action='store_true')
    opts = ap.parse_args()
    if opts.first_seed < 1 or opts.programs < 1:
        sys.exit('run_reconvergence.py: --first-seed and --programs must be at least 1 '
                 '(program 0 is nested_break.cl)')
    t0 = time.time()
    spvsim = find_spvsim(opts.spvsim)
    levels = [l for l in opts.levels.split(',') if l]
    for l in levels:
        if l not in ('O0', 'O1', 'O2', 'O3'):
            sys.exit('run_reconvergence.py: unknown level %s' % l)
    rseeds = [int(s) for s in opts.random_seeds.split(',') if s]

    out_dir = opts.out_dir or os.environ.get('TEST_UNDECLARED_OUTPUTS_DIR')
    temp = None
    if not out_dir:
        temp = out_dir = tempfile.mkdtemp(prefix='reconvergence.')
    os.makedirs(out_dir, exist_ok=True)

    rc, help_text, _ = run([spvsim, 'run', '--help'])
    has_random = '--reconvergence' in help_text
    if not has_random:
        print('SKIP random-mode checks: `spvsim run --help` has no --reconvergence option '
              '(--reconvergence ipdom|random[:SEED], issue 37); ipdom checks only')
        rseeds = []

    # Program 0, nested_break.cl (ipdom is not maximal reconvergence), then the seeds.
    progs = [Prog(0)] + [Prog(s) for s in range(opts.first_seed, opts.first_seed + opts.programs)]
    kept = os.path.join(HERE, 'nested_break.cl')
    if os.path.exists(kept):
        text = open(kept).read()
        if P.kernel_source('nested_break', progs[0].stmts, progs[0].max_records) not in text:
            print('FAIL: %s no longer holds program.py\'s kernel_source(NESTED_BREAK)' % kept)
            return 1
    why = self_test(progs)
    if why:
        print(why)
        return 1
    files = []
    for i in range(0, len(progs), opts.batch):
        chunk = progs[i:i + opts.batch]
        path = os.path.join(out_dir, 'reconv_%d_%d.cl' % (chunk[0].seed, chunk[-1].seed))
        with open(path, 'w') as f:
            f.write('// Generated by testdata/reconvergence/program.py (seeds %d..%d); '
                    'inputs in each kernel\'s comment.\n' % (chunk[0].seed, chunk[-1].seed))
            for p in chunk:
                f.write('\n// seed %d, sub-group size %d, in = values(%s)\n' % (
                    p.seed, p.lanes, ','.join(map(str, p.inputs))))
                f.write(P.kernel_source(p.name, p.stmts, p.max_records))
                p.file = path
        files.append(path)
    t_gen = time.time()

    pool = concurrent.futures.ThreadPoolExecutor(opts.jobs)
    spv = {}
    failures = []

    def compile_one(path, level):
        target = path[:-3] + '_%s.spv' % level
        return (path, level, target,
                run([spvsim, 'compile', path, '-o', target, '--build-options', '-' + level]))
    for path, level, target, (crc, _, cerr) in pool.map(lambda a: compile_one(*a),
                                                        [(f, l) for f in files for l in levels]):
        if crc != 0:
            failures.append('compiling %s at -%s failed (exit %d):\n  %s'
                            % (path, level, crc, cerr.strip().replace('\n', '\n  ')))
        spv[(path, level)] = target
    t_compile = time.time()
    if failures:
        print('\n'.join(failures))
        return 1

    # Every random seed at the first level; the first seed only at the others (time).
    modes_of = {l: [None] + (rseeds if i == 0 else rseeds[:1]) for i, l in enumerate(levels)}
    jobs = [(p, l, m) for p in progs for l in levels for m in modes_of[l]]

    def run_one(job):
        p, level, mode = job
        cmd = [spvsim, 'run', spv[(p.file, level)]] + p.argv()
        if mode is not None:
            cmd += ['--reconvergence', 'random:%d' % mode]
        return job, cmd, run(cmd)

    results = {}
    for job, cmd, res in pool.map(run_one, jobs):
        results[(job[0].seed, job[1], job[2])] = (cmd, res)
    t_run = time.time()

    differ_total = 0
    level_differ = {}
    records_total = 0
    ipdom_vs_maximal = 0
    failed_progs = []
    for p in progs:
        ipdom_vs_maximal += any(r[2] != p.sets[r[:2]] for x in p.ipdom for r in x)
        errors = []
        for level in levels:
            base = None
            for mode in modes_of[level]:
                cmd, (prc, out, err) = results[(p.seed, level, mode)]
                where = '-%s %s' % (level, 'ipdom' if mode is None else 'random:%d' % mode)
                errs = []
                if prc != 0 or re.search(r'^(error|warning):', err, re.M):
                    errs.append('%s: exit %d, stderr: %s' % (where, prc, err.strip()[:600]))
                    recs = None
                else:
                    recs = parse_records(p, out)
                    if isinstance(recs, str):
                        errs.append('%s: %s' % (where, recs))
                        recs = None
                if recs is not None:
                    check_common(p, recs, where, level == 'O0', errs)
                if recs is not None and not errs:
                    if mode is None:
                        records_total += sum(len(x) for x in recs)
                        if level == 'O0':
                            check_ipdom_model(p, recs, where, errs)
                        level_differ[level] = level_differ.get(level, 0) + sum(
                            r != e for x, y in zip(recs, p.ipdom) for r, e in zip(x, y))
                        base = recs
                    elif base is not None:
                        differ_total += check_random(p, recs, base, where, errs)
                if errs:
                    errs.insert(0, 'command: %s' % ' '.join(
                        "'%s'" % c if re.search(r'[^\w/.,:=+-]', c) else c for c in cmd))
                errors += errs
        if errors:
            failed_progs.append(p.seed)
            print('FAIL seed %d (sub-group size %d, kernel %s in %s):' % (
                p.seed, p.lanes, p.name, p.file))
            for e in errors[:MAX_REPORTED]:
                print('  ' + e.replace('\n', '\n    '))
            if len(errors) > MAX_REPORTED:
                print('  ... %d more' % (len(errors) - MAX_REPORTED))
        elif opts.verbose:
            print('PASS seed %d' % p.seed)

    print('%d programs (nested_break.cl, seeds %d..%d; sub-group sizes 16 and 8), %s: '
          '%d spvsim runs, %d ipdom records' % (
              len(progs), progs[1].seed, progs[-1].seed, '; '.join(
                  '-%s ipdom%s' % (l, ''.join(', random:%d' % s for s in modes_of[l][1:]))
                  for l in levels), len(jobs), records_total))
    print('%d programs where ipdom differs from maximal reconvergence (model)' % ipdom_vs_maximal)
    print('ipdom records that differ from the -O0 ipdom model: %s' % ', '.join(
        '-%s %d' % (l, level_differ.get(l, 0)) for l in levels))
    if rseeds:
        print('random modes: %d records differ from ipdom' % differ_total)
        if differ_total == 0:
            print('FAIL: no random run split any ballot (--reconvergence random never splits)')
            failed_progs.append('random')
    print('time: generate %.1f s, compile %.1f s, run %.1f s, total %.1f s'
          % (t_gen - t0, t_compile - t_gen, t_run - t_compile, time.time() - t0))
    if failed_progs:
        print('FAILED: %d programs: %s; kernel sources in %s'
              % (len(failed_progs), ' '.join(map(str, failed_progs[:50])), out_dir))
        return 1
    print('PASSED')
    if temp:
        shutil.rmtree(temp)
    return 0


if __name__ == '__main__':
    sys.exit(main())
