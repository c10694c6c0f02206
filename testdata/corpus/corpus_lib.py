"""Shared pieces of the optimisation-level corpus (testdata/corpus/): types and values,
`--arg` specs, the Case class, and the comparison of buffers with a model.

The models themselves are in corpus.py. Everything here is plain Python written from the
OpenCL C specification and the spvsim `--arg`/`--dump` contract (README.md, src/DESIGN.md);
nothing is derived from spvsim's output. Reuses the helpers of testdata/cases.py.
"""

import math
import os
import re
import struct
import sys
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import cases  # noqa: E402  (testdata/cases.py)

# Re-exported for corpus.py's models.
from cases import (wrap, f32, u32, u64, s64, cdiv, crem, parse_number,  # noqa: E402,F401
                   sub_groups)

SCALARS = dict(cases.SCALARS)
SCALARS['half'] = ('float', 2, True)

LEVELS = [('O0', '-O0'), ('O1', '-O1'), ('O2', '-O2'), ('O3', '-O3'), ('O2g', '-O2 -g')]


def split_type(name):
    """'float4' -> ('float', 4); 'half' -> ('half', 1)."""
    m = re.fullmatch(r'([a-z]+?)(2|3|4|8|16)?', name)
    if not m or m.group(1) not in SCALARS:
        raise ValueError('unknown type %r' % name)
    return m.group(1), int(m.group(2) or 1)


def is_float(base):
    return SCALARS[base][0] == 'float'


def f16(x):
    """Rounds a Python float to the nearest half value (round to nearest even)."""
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack('<e', struct.pack('<e', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def round_to(x, base):
    if base == 'float':
        return f32(x)
    if base == 'half':
        return f16(x)
    return float(x)


def convert(v, base):
    """An integer or real value converted as a host would store it in a buffer of `base`."""
    if is_float(base):
        return round_to(float(v), base)
    return wrap(int(v), base)


# --- exact floating-point helpers ------------------------------------------------------

FMT = {'half': ('<e', '<H', 10, 5), 'float': ('<f', '<I', 23, 8), 'double': ('<d', '<Q', 52, 11)}


def bits_of(x, base):
    ff, fi, _, _ = FMT[base]
    return struct.unpack(fi, struct.pack(ff, x))[0]


def from_bits(b, base):
    ff, fi, _, _ = FMT[base]
    return struct.unpack(ff, struct.pack(fi, b))[0]


def round_fraction(q, base):
    """Rounds an exact rational to the nearest `base` value, ties to even (one rounding)."""
    if q == 0:
        return 0.0
    _, _, mbits, ebits = FMT[base]
    sign = -1.0 if q < 0 else 1.0
    q = abs(q)
    emin = 2 - (1 << (ebits - 1))          # smallest normal exponent
    emax = (1 << (ebits - 1)) - 1
    e = q.numerator.bit_length() - q.denominator.bit_length()
    if Fraction(2) ** e > q:
        e -= 1
    e = max(e, emin)
    scale = Fraction(2) ** (mbits - e)      # units in the last place at exponent e
    m = q * scale
    n = m.numerator // m.denominator
    rem = m - n
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and n & 1):
        n += 1
    val = Fraction(n) / scale
    if val >= Fraction(2) ** (emax + 1):
        return sign * math.inf
    return sign * float(val)


def fma(a, b, c, base='float'):
    """fma(a, b, c) correctly rounded (OpenCL C: fma is exact then rounded once)."""
    return round_fraction(Fraction(a) * Fraction(b) + Fraction(c), base)


def ulp_distance(a, b, base):
    """Distance in units in the last place between two values of `base` (monotonic order)."""
    if math.isnan(a) or math.isnan(b):
        return 0 if math.isnan(a) and math.isnan(b) else 1 << 62
    def key(x):
        bits = bits_of(x, base)
        sign = 1 << (8 * SCALARS[base][1] - 1)
        return -(bits & (sign - 1)) if bits & sign else bits
    return abs(key(a) - key(b))


# --- deterministic inputs (written into the command line with values(...)) -------------

def pattern(n, seed, lo, hi):
    """n pseudo-random integers in [lo, hi] from a fixed 64-bit LCG (Knuth's MMIX)."""
    x, out = seed * 2654435761 + 1, []
    for _ in range(n):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        out.append(lo + (x >> 33) % (hi - lo + 1))
    return out


def values_spec(type_name, vals):
    """'buffer:TYPE[N]=values(...)' for flat component values (vectors: components)."""
    base, lanes = split_type(type_name)
    flat = [c for v in vals for c in (v if isinstance(v, (tuple, list)) else (v,))]
    assert len(flat) % lanes == 0
    # Values are rounded to the element type here, so the text is exact (no decimal
    # rounding left to spvsim's parser).
    flat = [convert(v, base) for v in flat]
    return 'buffer:%s[%d]=values(%s)' % (type_name, len(flat) // lanes,
                                         ','.join(fmt_literal(v) for v in flat))


def fmt_literal(v):
    if isinstance(v, float):
        if math.isnan(v) or math.isinf(v):
            return {'nan': 'nan', 'inf': 'inf', '-inf': '-inf'}[str(v)]
        if v == int(v) and abs(v) < 1e15:
            return str(int(v)) if not (v == 0 and math.copysign(1, v) < 0) else '-0.0'
        return repr(v)
    return str(v)


# --- --arg specs ---------------------------------------------------------------------

class Arg:
    """One kernel argument, parsed from its --arg spec independently of spvsim.

    kind: 'scalar' (value), 'buffer' (type, base, lanes, count, values: a list of scalars,
    or of tuples for vectors), 'local' (bytes), 'null', 'struct' (fields, value: a list).
    """

    def __init__(self, spec):
        self.spec = spec
        head, _, rest = spec.partition(':')
        if spec == 'null':
            self.kind = 'null'
            return
        if head == 'local':
            self.kind, self.bytes = 'local', int(rest)
            return
        if head == 'struct':
            types, _, vals = rest.partition('=')
            self.kind = 'struct'
            self.fields = types.split(',')
            self.value = [convert(parse_number(t), split_type(f)[0])
                          for f, t in zip(self.fields, vals.split(','))]
            return
        if head == 'buffer':
            m = re.fullmatch(r'(\w+)\[(\d+)\](?:=(\w+)(?:\((.*)\))?)?', rest)
            if not m:
                raise ValueError('bad buffer spec %r' % spec)
            self.kind = 'buffer'
            self.type, self.count = m.group(1), int(m.group(2))
            self.base, self.lanes = split_type(self.type)
            self.values = self._init(m.group(3) or 'zero', m.group(4))
            return
        self.kind = 'scalar'
        self.type = head
        self.base, self.lanes = split_type(head)
        vals = [convert(parse_number(t), self.base) for t in rest.split(',')]
        if len(vals) == 1 and self.lanes > 1:
            vals = vals * self.lanes
        self.value = vals[0] if self.lanes == 1 else tuple(vals)

    def _init(self, how, params):
        n, base, lanes = self.count * self.lanes, self.base, self.lanes
        ps = [parse_number(t) for t in params.split(',')] if params else []
        if how == 'zero':
            flat = [convert(0, base)] * n
        elif how == 'fill':
            flat = [convert(ps[k % len(ps)], base) for k in range(n)]
        elif how == 'range':
            start, step = ps[0], (ps[1] if len(ps) > 1 else 1)
            flat = [convert(start + k * step, base) for k in range(n)]
        elif how == 'values':
            if len(ps) != n:
                raise ValueError('%s: values() needs exactly %d components' % (self.spec, n))
            flat = [convert(v, base) for v in ps]
        else:
            raise ValueError('init %r cannot be modelled' % how)
        if lanes == 1:
            return flat
        return [tuple(flat[k:k + lanes]) for k in range(0, n, lanes)]

    def flat(self):
        if self.lanes == 1:
            return list(self.values)
        return [c for v in self.values for c in v]

    def set_flat(self, flat):
        if self.lanes == 1:
            self.values = list(flat)
        else:
            self.values = [tuple(flat[k:k + self.lanes]) for k in range(0, len(flat), self.lanes)]


# --- cases ---------------------------------------------------------------------------

class Case:
    """One launch of one corpus kernel and its model.

    file: the .cl (or .sim) file in testdata/corpus/; kernel: the kernel's name;
    glob/local: the NDRange; sg: --sub-group-size (None: spvsim's default 16);
    reqd_sg: the kernel's intel_reqd_sub_group_size (the model's sub-group size);
    args: --arg specs; model(args, case) updates the buffers' values in place.
    ulps: {arg index: N} (or an int for every float buffer): allowed distance from the
      model, only where the spec allows that much error (math built-ins' ulp limits);
    levels_may_differ: '' or the reason why the spec lets levels differ (then the levels
      are only compared with the model, within `ulps`).
    pocl: the model can be checked on PoCL (no sub-groups, no cl_khr_fp16);
    icd: part of the PyOpenCL subset run through libspvsim-opencl.so.
    sim_buffers: for .sim cases, which arguments are buffers.
    """

    def __init__(self, name, file, kernel=None, glob=None, local=None, sg=None, reqd_sg=None,
                 args=(), model=None, ulps=None, levels_may_differ='', pocl=True, icd=False,
                 sim_buffers=(), note='', uses=()):
        self.name, self.file, self.kernel = name, file, kernel
        self.glob, self.local, self.sg, self.reqd_sg = glob, local, sg, reqd_sg
        self.arg_specs, self.model, self.ulps = list(args), model, ulps or {}
        self.levels_may_differ, self.pocl, self.icd, self.note = levels_may_differ, pocl, icd, note
        self.sim_buffers, self.uses = tuple(sim_buffers), tuple(uses)
        self.offset = None
        self.is_sim = file.endswith('.sim')
        if self.is_sim:
            _, kn, g, l, _ = cases.parse_sim(os.path.join(HERE, file), self.sim_buffers)
            self.kernel, self.glob, self.local = kn, g, l

    # the sub-group size the kernel runs with (for models)
    @property
    def sub_group_size(self):
        return self.reqd_sg or self.sg or 16

    def argv(self, path, build_options):
        if self.is_sim:
            cmd = ['run', path]
        else:
            cmd = ['run', path, '--kernel', self.kernel, '--global', ','.join(map(str, self.glob))]
            if self.local:
                cmd += ['--local', ','.join(map(str, self.local))]
            if self.sg:
                cmd += ['--sub-group-size', str(self.sg)]
            for a in self.arg_specs:
                cmd += ['--arg', a]
        return cmd + ['--build-options', build_options, '--dump']

    def initial_args(self):
        if self.is_sim:
            return cases.parse_sim(os.path.join(HERE, self.file), self.sim_buffers)[4]
        return [Arg(s) for s in self.arg_specs]

    def expected_buffers(self):
        """{arg index: (type, count, values)} after the model ran."""
        args = self.initial_args()
        self.model(args, self)
        return {i: (a.type, a.count, a.values) for i, a in enumerate(args) if a.kind == 'buffer'}

    def tolerance(self, idx):
        if isinstance(self.ulps, int):
            return self.ulps
        return self.ulps.get(idx, 0)


# --- comparison of buffers with the model ----------------------------------------------

def parse_scalar(tok, base):
    if is_float(base):
        # --dump prints the shortest text that reads back as the same float (half values
        # as floats): read it back at that precision.
        v = float(tok)
        return f16(f32(v)) if base == 'half' else round_to(v, base)
    return int(tok, 0) if tok.lower().lstrip('-').startswith('0x') else int(tok)


def parse_dump_values(text, base, lanes):
    """The values of one `--dump` line after '='; vectors as tuples."""
    out = []
    for t in text.split():
        if lanes == 1:
            out.append(parse_scalar(t, base))
        else:
            m = re.fullmatch(r'\((.*)\)', t)
            if not m:
                raise ValueError('not a vector: %r' % t)
            out.append(tuple(parse_scalar(c, base) for c in m.group(1).split(',')))
    return out


def scalar_ok(got, want, base, ulps):
    if not is_float(base):
        return got == want
    if math.isnan(want):
        return math.isnan(got)
    if ulps == 0:
        # exact, and the sign of zero counts
        return got == want and math.copysign(1, got) == math.copysign(1, want)
    return ulp_distance(got, want, base) <= ulps


def fmt_value(v, base):
    if isinstance(v, tuple):
        return '(' + ','.join(fmt_value(x, base) for x in v) + ')'
    if isinstance(v, float):
        return cases.shortest(v, 'double' if base == 'double' else 'float')
    return str(v)


def compare_buffer(idx, type_name, expected, actual, ulps, max_shown=6):
    """Problems (a list of strings) between a model's buffer and an actual one."""
    base, lanes = split_type(type_name)
    if len(actual) != len(expected):
        return ['arg%d: %d elements, expected %d' % (idx, len(actual), len(expected))]
    bad = []
    for i, (g, w) in enumerate(zip(actual, expected)):
        if lanes == 1:
            ok = scalar_ok(g, w, base, ulps)
        else:
            ok = len(g) == lanes and all(scalar_ok(a, b, base, ulps) for a, b in zip(g, w))
        if not ok:
            bad.append(i)
    if not bad:
        return []
    out = ['arg%d %s[%d]: %d of %d elements differ from the model%s' % (
        idx, type_name, len(expected), len(bad), len(expected),
        ' (allowed: %d ulp)' % ulps if ulps else '')]
    for i in bad[:max_shown]:
        out.append('  [%d] expected %s, got %s' % (i, fmt_value(expected[i], base),
                                                     fmt_value(actual[i], base)))
    if len(bad) > max_shown:
        out.append('  ... and %d more (elements %s)' % (
            len(bad) - max_shown, ','.join(map(str, bad[max_shown:max_shown + 20]))))
    return out
