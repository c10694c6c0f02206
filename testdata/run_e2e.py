#!/usr/bin/python3
"""Runs spvsim end to end on every case of testdata/cases.py.

For each case it runs `spvsim run KERNEL ... --dump` and checks the exit status, the
diagnostics on stderr, printf output and every `argN TYPE[N] = ...` dump line against the
case's Python host model (integers exactly, floats exactly or within the case's relative
tolerance).

  /usr/bin/python3 testdata/run_e2e.py [--spvsim PATH] [-k REGEX] [--list] [-v]

Without --spvsim it uses $SPVSIM, then tools/spvsim under the working directory (the
Bazel runfiles tree), then bazel-bin/tools/spvsim of the repository.
"""

import argparse
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402

DUMP_RE = re.compile(r'^arg(\d+) (\w+)\[(\d+)\] = ?(.*)$')
TIMEOUT_S = 180
MAX_SHOWN = 6          # mismatching elements listed per buffer
MAX_LINE = 400         # characters of a dump line shown in messages


def find_spvsim(explicit):
    for p in (explicit, os.environ.get('SPVSIM'), os.path.join(os.getcwd(), 'tools', 'spvsim'),
              os.path.join(HERE, '..', 'bazel-bin', 'tools', 'spvsim')):
        if p and os.path.isfile(p) and os.access(p, os.X_OK):
            return os.path.abspath(p)
    sys.exit('run_e2e.py: no spvsim binary (build //tools:spvsim or pass --spvsim)')


def parse_elements(text, lanes):
    toks = text.split()
    if lanes == 1:
        return toks
    out = []
    for t in toks:
        m = re.fullmatch(r'\((.*)\)', t)
        out.append(tuple(m.group(1).split(',')) if m else ('<not a vector: %s>' % t,))
    return out


def scalar_equal(tok, exp, base, rtol):
    """Compares one printed scalar with the model's value; returns (ok, why)."""
    kind = cases.SCALARS[base][0]
    try:
        if kind == 'int':
            got = int(tok, 0) if tok.lower().startswith(('0x', '-0x')) else int(tok)
            return got == exp, ''
        got = float(tok)
    except ValueError:
        return False, 'not a number'
    want = cases.f32(exp) if base == 'float' else exp
    if math.isnan(want):
        return math.isnan(got), ''
    if rtol == 0:
        return got == want, ''
    return abs(got - want) <= rtol * abs(want) + 1e-30, ''


def format_elem(v, base):
    if isinstance(v, tuple):
        return '(' + ','.join(cases.shortest(x, base) for x in v) + ')'
    return cases.shortest(v, base)


def clip(line):
    return line if len(line) <= MAX_LINE else line[:MAX_LINE] + ' ...(%d chars)' % len(line)


def compare_dumps(case, actual_lines, errors):
    expected = case.expected_buffers()
    actual = {}
    for line in actual_lines:
        m = DUMP_RE.match(line)
        idx = int(m.group(1))
        if idx in actual:
            errors.append('arg%d dumped twice' % idx)
        actual[idx] = (m.group(2), int(m.group(3)), m.group(4), line)
    for idx in sorted(set(expected) | set(actual)):
        if idx not in actual:
            errors.append('missing dump line for buffer arg%d' % idx)
            continue
        if idx not in expected:
            errors.append('unexpected dump line (arg%d is not a buffer): %s' % (idx, clip(actual[idx][3])))
            continue
        etype, ecount, evals = expected[idx]
        atype, acount, atext, aline = actual[idx]
        base, lanes = cases.split_type(etype)
        eline = 'arg%d %s[%d] = %s' % (idx, etype, ecount,
                                       ' '.join(format_elem(v, base) for v in evals))
        problems = []
        if (atype, acount) != (etype, ecount):
            problems.append('type/count %s[%d], expected %s[%d]' % (atype, acount, etype, ecount))
        elems = parse_elements(atext, lanes)
        if len(elems) != len(evals):
            problems.append('%d values, expected %d' % (len(elems), len(evals)))
        bad = []
        for i, (got, want) in enumerate(zip(elems, evals)):
            if lanes == 1:
                ok = scalar_equal(got, want, base, case.rtol)[0]
            else:
                ok = len(got) == lanes and all(
                    scalar_equal(g, w, base, case.rtol)[0] for g, w in zip(got, want))
            if not ok:
                bad.append(i)
        if bad:
            problems.append('%d of %d values differ%s' % (
                len(bad), len(evals), ' (rtol %g)' % case.rtol if case.rtol else ''))
            for i in bad[:MAX_SHOWN]:
                got = elems[i] if lanes == 1 else '(' + ','.join(elems[i]) + ')'
                problems.append('  [%d] expected %s, got %s' % (i, format_elem(evals[i], base), got))
        if problems:
            text = 'arg%d: %s\n    expected: %s\n    actual:   %s' % (
                idx, '\n    '.join(problems), clip(eline), clip(aline))
            if bad and len(eline) > MAX_LINE and bad[0] > 10:
                lo, hi = max(0, bad[0] - 4), bad[0] + 12
                text += '\n    expected[%d:%d]: %s\n    actual[%d:%d]:   %s' % (
                    lo, hi, ' '.join(format_elem(v, base) for v in evals[lo:hi]),
                    lo, hi, ' '.join(e if lanes == 1 else '(' + ','.join(e) + ')'
                                     for e in elems[lo:hi]))
            errors.append(text)


def run_case(case, spvsim, tmpdir, verbose):
    """Returns (passed, report text)."""
    if case.make_file:
        kernel = os.path.join(tmpdir, case.kernel)
        case.make_file(kernel)
    else:
        kernel = case.kernel        # relative: commands run in testdata/ (.sim paths)
    cmd = [spvsim] + case.argv(kernel)
    shown = 'cd %s && %s' % (shlex.quote(HERE), ' '.join(shlex.quote(c) for c in cmd))
    try:
        p = subprocess.run(cmd, cwd=HERE, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return False, 'command: %s\n  timed out after %d s' % (shown, TIMEOUT_S)
    out = p.stdout.decode('utf-8', 'replace').splitlines()
    err = p.stderr.decode('utf-8', 'replace').splitlines()
    errors = []
    if p.returncode != case.rc:
        errors.append('exit status %d, expected %d' % (p.returncode, case.rc))
    error_lines = [l for l in err if l.startswith('error:')]
    if case.rc == 0 and error_lines:
        errors.append('error diagnostics on a successful run')
    for pat in case.stderr_has:
        if not re.search(pat, '\n'.join(err), re.M):
            errors.append('stderr does not match /%s/' % pat)
    if case.one_error_line:
        lines = [l for l in err if l.strip()]
        if len(lines) != 1 or not lines[0].startswith('error:'):
            errors.append('expected exactly one stderr line starting with "error:", got %d line(s)'
                          % len(lines))
    if case.rc == 0 and p.returncode == 0:
        dump_lines = [l for l in out if DUMP_RE.match(l)]
        other = [l for l in out if not DUMP_RE.match(l)]
        if case.dump:
            compare_dumps(case, dump_lines, errors)
        elif dump_lines:
            errors.append('dump lines printed without --dump')
        exp_other = sorted(case.stdout) if case.stdout_sorted else case.stdout
        got_other = sorted(other) if case.stdout_sorted else other
        if got_other != exp_other:
            msg = ['stdout (other than dump lines)%s differs:' % (
                ', sorted,' if case.stdout_sorted else '')]
            for i in range(max(len(exp_other), len(got_other))):
                e = exp_other[i] if i < len(exp_other) else '<none>'
                g = got_other[i] if i < len(got_other) else '<none>'
                msg.append('  %s line %d expected: %r\n  %s line %d actual:   %r'
                           % ('  ' if e == g else '!!', i + 1, e, '  ' if e == g else '!!', i + 1, g))
            errors.append('\n'.join(msg))
    report = ['command: %s' % shown]
    if case.note:
        report.append('note: %s' % case.note)
    if errors or verbose:
        report += ['  ' + e.replace('\n', '\n  ') for e in errors]
        if err:
            report.append('  stderr (%d lines):' % len(err))
            report += ['    | ' + l for l in err[:20]]
            if len(err) > 20:
                report.append('    | ...')
    return not errors, '\n'.join(report)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--spvsim')
    ap.add_argument('-k', metavar='REGEX', help='only the cases whose name matches')
    ap.add_argument('--list', action='store_true')
    ap.add_argument('-v', '--verbose', action='store_true')
    opts = ap.parse_args()
    selected = [c for c in cases.CASES if not opts.k or re.search(opts.k, c.name)]
    if opts.list:
        for c in selected:
            print(c.name)
        return 0
    if not selected:
        sys.exit('run_e2e.py: no case matches')
    spvsim = find_spvsim(opts.spvsim)
    failed = []
    with tempfile.TemporaryDirectory(dir=os.environ.get('TEST_TMPDIR')) as tmpdir:
        for c in selected:
            ok, report = run_case(c, spvsim, tmpdir, opts.verbose)
            print('%s %s' % ('PASS' if ok else 'FAIL', c.name))
            if not ok or opts.verbose:
                print('  ' + report.replace('\n', '\n  '))
            sys.stdout.flush()
            if not ok:
                failed.append(c.name)
    print('\n%d of %d cases passed' % (len(selected) - len(failed), len(selected)))
    if failed:
        print('failed: ' + ' '.join(failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
