"""End-to-end test cases for spvsim and the host-side Python models that give their
expected results.

Every case names a kernel file in testdata/, the launch, and the `--arg` specs; its model
is a plain Python re-implementation of the kernel (per work-item, or per work-group where
barriers make that clearer). The expected `--dump` output is what the model leaves in the
buffers: it is never copied from spvsim's output. `crosscheck.py` runs the same cases on
PoCL (PyOpenCL) and Oclgrind to check the models themselves.

Only the standard library is used, so the runner needs nothing but /usr/bin/python3.
"""

import math
import os
import re
import struct

HERE = os.path.dirname(os.path.abspath(__file__))

# ----------------------------------------------------------------------------------------
# Types and values

SCALARS = {
    # name: (kind, bytes, signed)
    'char': ('int', 1, True), 'uchar': ('int', 1, False),
    'short': ('int', 2, True), 'ushort': ('int', 2, False),
    'int': ('int', 4, True), 'uint': ('int', 4, False),
    'long': ('int', 8, True), 'ulong': ('int', 8, False),
    'float': ('float', 4, True), 'double': ('float', 8, True),
}


def split_type(name):
    """'float4' -> ('float', 4); 'int' -> ('int', 1)."""
    m = re.fullmatch(r'([a-z]+?)(2|3|4|8|16)?', name)
    if not m or m.group(1) not in SCALARS:
        raise ValueError('unknown type %r' % name)
    return m.group(1), int(m.group(2) or 1)


def f32(x):
    """Rounds a Python float to the nearest float32 value."""
    if math.isnan(x) or math.isinf(x):
        return x
    return struct.unpack('<f', struct.pack('<f', x))[0]


def wrap(v, base):
    """Wraps an integer to the range of the scalar type `base` (two's complement)."""
    kind, size, signed = SCALARS[base]
    bits = 8 * size
    v &= (1 << bits) - 1
    if signed and v >> (bits - 1):
        v -= 1 << bits
    return v


def convert(v, base):
    kind = SCALARS[base][0]
    if kind == 'float':
        return f32(float(v)) if base == 'float' else float(v)
    return wrap(int(v), base)


def shortest(v, base='float'):
    """Shortest decimal that reads back as the same value (for messages only)."""
    if isinstance(v, int):
        return str(v)
    if math.isnan(v) or math.isinf(v):
        return str(v)
    if v == int(v) and abs(v) < 1e16:
        return str(int(v))
    for p in range(1, 18):
        s = '%.*g' % (p, v)
        if (f32(float(s)) if base == 'float' else float(s)) == v:
            return s
    return repr(v)


def u32(v):
    return v & 0xFFFFFFFF


def u64(v):
    return v & 0xFFFFFFFFFFFFFFFF


def s64(v):
    return wrap(v, 'long')


def cdiv(a, b):
    """C integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def crem(a, b):
    """C remainder: sign of the dividend."""
    return a - cdiv(a, b) * b


# ----------------------------------------------------------------------------------------
# --arg specs (the spvsim contract in src/DESIGN.md), parsed independently of spvsim

class Arg:
    """One kernel argument: `kind` is 'scalar', 'buffer' or 'local'."""

    def __init__(self, spec):
        self.spec = spec
        head, _, rest = spec.partition(':')
        if head == 'local':
            self.kind, self.bytes = 'local', int(rest)
            return
        if head == 'buffer':
            m = re.fullmatch(r'(\w+)\[(\d+)\]=(\w+)(?:\((.*)\))?', rest)
            if not m:
                raise ValueError('bad buffer spec %r' % spec)
            self.kind = 'buffer'
            self.type, self.count = m.group(1), int(m.group(2))
            self.base, self.lanes = split_type(self.type)
            self.values = self._init(m.group(3), m.group(4))
            return
        self.kind = 'scalar'
        self.type = head
        self.base, self.lanes = split_type(head)
        vals = [convert(parse_number(t), self.base) for t in rest.split(',')]
        if len(vals) != self.lanes:
            raise ValueError('%r: %d values for %s' % (spec, len(vals), head))
        self.value = vals[0] if self.lanes == 1 else tuple(vals)

    def _init(self, how, params):
        n, base = self.count, self.base
        ps = [parse_number(t) for t in params.split(',')] if params else []
        if how == 'zero':
            elem = [convert(0, base) for _ in range(n)]
        elif how == 'fill':
            elem = [convert(ps[0], base) for _ in range(n)]
        elif how == 'range':
            start, step = ps[0], (ps[1] if len(ps) > 1 else 1)
            if self.lanes != 1:
                raise ValueError('range() of vectors is not used by these tests')
            return [convert(start + i * step, base) for i in range(n)]
        elif how == 'values':
            if self.lanes != 1 or len(ps) != n:
                raise ValueError('%s: values() needs exactly %d scalars' % (self.spec, n))
            return [convert(v, base) for v in ps]
        else:
            raise ValueError('init %r cannot be modelled' % how)
        if self.lanes != 1:
            return [tuple([e] * self.lanes) for e in elem]
        return elem


def parse_number(tok):
    tok = tok.strip()
    if re.fullmatch(r'[-+]?(0[xX][0-9a-fA-F]+|\d+)', tok):
        return int(tok, 0)
    return float(tok)


# ----------------------------------------------------------------------------------------
# NDRange model: the OpenCL work-item functions, written from the OpenCL C spec

class WorkItem:
    pass


def pad3(v, fill):
    v = list(v)
    return v + [fill] * (3 - len(v))


def work_items(glob, local, offset=None, sub_group_size=16):
    """Yields every work-item of the NDRange with all its built-in values.

    Sub-groups: the work-group is cut by linear local id x + y*Lx + z*Lx*Ly into
    sub-groups of `sub_group_size`, all full except possibly the last.
    """
    dims = len(glob)
    G, L, O = pad3(glob, 1), pad3(local, 1), pad3(offset or [0] * dims, 0)
    ng = [(G[d] + L[d] - 1) // L[d] for d in range(3)]
    S = sub_group_size
    enq_wg = L[0] * L[1] * L[2]
    for gz in range(ng[2]):
        for gy in range(ng[1]):
            for gx in range(ng[0]):
                grp = [gx, gy, gz]
                ls = [min(L[d], G[d] - grp[d] * L[d]) for d in range(3)]
                wg = ls[0] * ls[1] * ls[2]
                for lz in range(ls[2]):
                    for ly in range(ls[1]):
                        for lx in range(ls[0]):
                            w = WorkItem()
                            w.work_dim = dims
                            w.local_id = [lx, ly, lz]
                            w.group_id = grp
                            w.local_size = ls
                            w.enqueued_local_size = L
                            w.num_groups = ng
                            w.global_size = G
                            w.global_offset = O
                            w.global_id = [O[d] + grp[d] * L[d] + w.local_id[d] for d in range(3)]
                            r = [w.global_id[d] - O[d] for d in range(3)]
                            w.global_linear_id = r[0] + r[1] * G[0] + r[2] * G[0] * G[1]
                            w.local_linear_id = lx + ly * ls[0] + lz * ls[0] * ls[1]
                            w.sub_group_id = w.local_linear_id // S
                            w.sub_group_local_id = w.local_linear_id % S
                            w.sub_group_size = min(S, wg - w.sub_group_id * S)
                            w.max_sub_group_size = S
                            w.num_sub_groups = (wg + S - 1) // S
                            w.enqueued_num_sub_groups = (enq_wg + S - 1) // S
                            yield w


def groups(glob, local):
    """1-D only: yields (group id, first global id, actual local size)."""
    g, l = glob[0], local[0]
    for gid in range((g + l - 1) // l):
        yield gid, gid * l, min(l, g - gid * l)


# ----------------------------------------------------------------------------------------
# Models. Each takes (args, case) and updates the buffers' `values` in place.

def model_saxpy(args, c):
    a, x, y = args[0].value, args[1].values, args[2].values
    for w in work_items(c.glob, c.local or [1], c.offset):
        i = w.global_id[0]
        y[i] = f32(a * x[i] + y[i])   # exact for the inputs used: fma or not agree


def model_window(args, c):
    inp, coef, out, k = args[0].values, args[2].values, args[3].values, args[4].value
    for gid0, first, n in groups(c.glob, c.local):
        tmp = [inp[first + l] for l in range(n)]
        for l in range(n):
            out[first + l] = wrap(tmp[l] + k * tmp[(l + 1) % n] - coef[l % 4], 'int')


def model_transpose(args, c):
    inp, out = args[0].values, args[1].values
    W, H = c.glob
    for r in range(H):
        for col in range(W):
            out[col * H + r] = inp[r * W + col]


def model_reduce(args, c):
    inp, sums = args[0].values, args[1].values
    for g, first, n in groups(c.glob, c.local):
        sums[g] = wrap(sum(inp[first:first + n]), 'int')


def mix(a, b):
    return u32(a * 31) ^ u32(b + 7)


def classify(v, m):
    r = v % m
    if r == 0:
        return v // 2
    if r == 1:
        return u32(v * 3 + 1)
    if r == 2:
        return mix(v, 2)
    if r == 3:
        s = 0
        for k in range(v & 3):
            s = u32((s ^ v) + k * 7)
        return s
    return 17


def model_diverge(args, c):
    inp, out, trips, m = args[0].values, args[1].values, args[2].values, args[3].value
    for w in work_items(c.glob, c.local):
        i = w.global_id[0]
        x = inp[i]
        acc = count = 0
        for a in range(i % 7):
            if (a + i) & 1:
                continue
            for b in range(a, x % m + a):
                acc = u32(acc + classify(u32(x + a * 3 + b), m))
                count += 1
                if acc > 1000 and (i & 2):
                    break
            if i % 11 == 3 and a == 2:
                break
        sel = u32(i + x) % m
        if sel == 0:
            acc = mix(acc, i)
        elif sel in (1, 2):
            if sel == 1:
                acc = u32(acc + 5)
            acc ^= 0x55
        out[i] = acc
        trips[i] = count


def clampf(v, lo, hi):
    return min(max(v, lo), hi)


def model_vectors(args, c):
    inp, out4, outv, outs, outi = (a.values for a in args[:5])
    scale, bias = args[5].value, args[6].value
    add = (1.0, -2.0, 0.5, 0.0)
    for w in work_items(c.glob, c.local):
        i = w.global_id[0]
        v = inp[4 * i:4 * i + 4]
        out4[i] = tuple(f32(clampf(v[j] * scale[j] + add[j], -4.0, 40.0)) for j in range(4))
        for j in range(4):
            outv[4 * i + j] = f32(math.sqrt(v[j]) + math.exp(v[j] * -0.125))
        outs[i] = f32(sum(v[j] * scale[j] for j in range(4)) + math.sqrt(v[3]))
        outi[i] = tuple(int(clampf(wrap(i * bias[j] - j, 'int'), -20, 100)) for j in range(8))


def model_int64(args, c):
    a, b, s, u = (x.values for x in args[:4])
    k, m = args[4].value, args[5].value
    for w in work_items(c.glob, c.local):
        i = w.global_id[0]
        x, y = a[i], b[i]
        s[8 * i:8 * i + 8] = [
            cdiv(x, k),
            crem(x, k - 3),
            x >> 3,                        # Python >> on negative ints is arithmetic
            s64(u64(x) << 5),
            cdiv(x, 1024) * k,
            -1 if x < k else (0 if x == k else 1),
            (x > 0) - (x < 0),
            x ^ (x >> 63),
        ]
        u[8 * i:8 * i + 8] = [
            u64(y * m),
            u64(y + m),
            u64(y - m),
            y >> 7,
            u64(y << 13),
            y // m if m else 0,
            y % (m | 1),
            (y > m) + 2 * (y >= u64(x)) + 4 * (s64(y) < 0),
        ]


def model_direct_recursion(args, c):
    n, sums = (a.values for a in args)
    for i in range(c.glob[0]):
        sums[i] = n[i] * (n[i] + 1) // 2


def model_mutual_recursion(args, c):
    n, even = (a.values for a in args)
    for i in range(c.glob[0]):
        even[i] = int(n[i] % 2 == 0)


def model_phi_select(args, c):
    out, n = args[0].values, args[1].value
    for w in work_items(c.glob, c.local):
        i = w.global_id[0]
        s = 0
        for k in range(u32(i + n)):
            s = u32(s * 3 + k)
        out[i] = s if i & 1 else u32(~s)


ND_FIELDS = ['global_id', 'local_id', 'group_id', 'local_size', 'enqueued_local_size',
             'num_groups', 'global_size', 'global_offset']


def model_ndrange(args, c):
    out = args[0].values
    for w in work_items(c.glob, c.local, c.offset):
        o = w.global_linear_id * 28
        # Dimensions >= get_work_dim() read as global/local/group id 0, sizes 1, offset 0:
        # work_items() pads them that way.
        for d in range(3):
            for j, f in enumerate(ND_FIELDS):
                out[o + d * 8 + j] = u32(getattr(w, f)[d])
        out[o + 24] = w.global_linear_id
        out[o + 25] = w.local_linear_id
        out[o + 26] = w.work_dim
        out[o + 27] = 0xC0FFEE


def model_subgroups(args, c):
    out = args[0].values
    S = c.reqd_sub_group_size or c.sub_group_size or 16
    for w in work_items(c.glob, c.local, c.offset, S):
        o = w.global_linear_id * 8
        g = w.group_id
        out[o:o + 8] = [w.sub_group_size, w.max_sub_group_size, w.num_sub_groups,
                        w.enqueued_num_sub_groups, w.sub_group_id, w.sub_group_local_id,
                        w.local_linear_id, g[0] + 100 * g[1] + 10000 * g[2]]


def model_print_one(args, c):
    args[0].values[0] = wrap(args[0].values[0] * 2, 'int')


def model_print_each(args, c):
    pass   # x is only read


def model_shift_left(args, c):
    pass


def model_window_sum(args, c):
    # out[i] = sum of the work-group's tile[l .. l + width - 1]; never-written tile
    # elements read as 0 (spvsim zeroes local memory per work-group).
    src, out, width = args[0].values, args[1].values, args[2].value
    for g in range(0, len(out), 16):
        tile = src[g:g + 16] + [0] * 16
        for l in range(16):
            out[g + l] = wrap(sum(tile[l:l + width]), 'int')


def model_tree_sum(args, c):
    # out[g] = the sum of work-group g's inputs (work-groups of c.local[0]).
    src, out, n = args[0].values, args[1].values, c.local[0]
    for g in range(len(out)):
        out[g] = wrap(sum(src[g * n:(g + 1) * n]), 'int')


def model_publish_same_group(args, c):
    # Work-item 0 publishes 42 to the last work-item of the same work-group.
    args[0].values[0] = 42
    args[1].values[0] = 1
    args[2].values[0] = 42


def model_histogram(args, c):
    # Both kernels: one count per work-item in bin data[i] % nbins, on top of the
    # buffer's initial counts (atomics make the order irrelevant).
    data, bins, nbins = args[0].values, args[1].values, args[2].value
    for w in work_items(c.glob, c.local):
        b = data[w.global_id[0]] % nbins
        bins[b] = u32(bins[b] + 1)


# --- sub-group families (issue 3) ---------------------------------------------------------

def sub_groups(c, S):
    """{(work-group, sub-group id): [work-items in lane order]} of the case's NDRange."""
    out = {}
    for w in work_items(c.glob, c.local, c.offset, S):
        out.setdefault((tuple(w.group_id), w.sub_group_id), []).append(w)
    for lanes in out.values():
        lanes.sort(key=lambda w: w.sub_group_local_id)
    return out


def work_groups(c):
    """{work-group: [work-items in linear local id order]}."""
    out = {}
    for w in work_items(c.glob, c.local, c.offset, 1):
        out.setdefault(tuple(w.group_id), []).append(w)
    for items in out.values():
        items.sort(key=lambda w: w.local_linear_id)
    return out


def model_sub_group_collectives(args, c):
    x, out = args[0].values, args[1].values
    for lanes in sub_groups(c, c.sub_group_size).values():
        xs = [x[w.global_linear_id] for w in lanes]
        for l, w in enumerate(lanes):
            o = 4 * w.global_linear_id
            out[o] = wrap(sum(xs[:l]), 'int')
            out[o + 1] = max(xs)
            out[o + 2] = xs[1]
            out[o + 3] = int(any(v < 0 for v in xs)) + 2 * int(all(v > 0 for v in xs))


def model_work_group_collectives(args, c):
    x, out = args[0].values, args[1].values
    for items in work_groups(c).values():
        xs = [x[w.global_linear_id] for w in items]
        lx = items[0].local_size[0]
        for k, w in enumerate(items):
            o = 3 * w.global_linear_id
            out[o] = wrap(sum(xs), 'int')
            out[o + 1] = min(xs[:k + 1])
            out[o + 2] = xs[2 + 1 * lx]


def model_odd_lanes(args, c):
    x, out = args[0].values, args[1].values
    for lanes in sub_groups(c, c.sub_group_size).values():
        act = [(l, x[w.global_linear_id], w) for l, w in enumerate(lanes)
               if x[w.global_linear_id] & 1]
        if not act:
            continue
        for k, (l, v, w) in enumerate(act):
            o = 6 * w.global_linear_id
            out[o] = wrap(sum(a[1] for a in act), 'int')
            out[o + 1] = wrap(sum(a[1] for a in act[:k]), 'int')
            out[o + 2] = int(k == 0)
            out[o + 3] = sum(1 for a in act if a[1] > 20)
            out[o + 4] = act[0][1]
            out[o + 5] = max(a[1] for a in act if a[0] // 4 == l // 4)


def model_shuffles(args, c):
    x, out = args[0].values, args[1].values
    for lanes in sub_groups(c, c.sub_group_size).values():
        xs = [x[w.global_linear_id] for w in lanes]
        n = len(xs)
        for l, w in enumerate(lanes):
            o = 4 * w.global_linear_id
            out[o] = f32(sum(xs))          # small integers: exact in any order
            out[o + 1] = xs[n - 1 - l]
            out[o + 2] = xs[l - l % 4 + (l + 3) % 4]
            out[o + 3] = f32(xs[l - 1] - xs[l]) if l else 0.0


def model_block_shuffle(args, c):
    x, out = args[0].values, args[1].values
    S = 8
    for (grp, sg), lanes in sub_groups(c, S).items():
        base = (grp[0] * (c.local[0] // S) + sg)
        row = x[16 * base:16 * base + 16]        # row[k*8 + l] is v.x (k=0) / v.y (k=1) of lane l
        for l in range(S):
            vals = [row[7 - l], row[l + 3], row[6 + l], row[8 + (l ^ 1)]]
            for k in range(4):
                out[32 * base + l + 8 * k] = vals[k]


def model_ub_reduce_in_branch(args, c):
    pass   # exit 2 before --dump matters


# Expected printf output, worked out by hand from the C printf rules (data[0] = 42).
PRINT_ONE_STDOUT = [
    'int 42 neg -42 uint 4000000000 hex ff HEX BEEF oct 10',
    'pad [   42] [42   ] [00042] [+42]',
    'long -1234567890123 ulong 18446744073709551615',
    'float 1.500000 3.14 1.250000e+03 0.0001 100000',
    'string [hello] [     right] char ok',
    'int4 1,-2,3,-4',
    'float4 0.500000,1.000000,-2.250000,8.000000',
    'uchar2 7,250 percent %',
]

# x[i] = 0.25 * i; one line per work-item, in any order.
PRINT_EACH_STDOUT = [
    'wi 0: x=0.000 sq=0 even', 'wi 1: x=0.250 sq=1 odd', 'wi 2: x=0.500 sq=4 even',
    'wi 3: x=0.750 sq=9 odd', 'wi 4: x=1.000 sq=16 even', 'wi 5: x=1.250 sq=25 odd',
    'wi 6: x=1.500 sq=36 even', 'wi 7: x=1.750 sq=49 odd',
]


# ----------------------------------------------------------------------------------------
# .sim files (Oclgrind's format), parsed for the model's inputs

def parse_sim(path, buffer_args):
    """Returns (program, kernel, global, local, [Arg-like]) for a .sim file.

    `buffer_args` lists the argument indices that are pointers (the .sim format itself
    leaves that to the kernel's signature)."""
    lines = []
    with open(path) as f:
        for line in f:
            line = line.split('#', 1)[0].strip()
            if line:
                lines.append(line)
    program, kernel = lines[0], lines[1]
    glob = [int(t) for t in lines[2].split()]
    local = [int(t) for t in lines[3].split()]
    toks = ' '.join(lines[4:])
    args = []
    for m in re.finditer(r'<([^>]*)>([^<]*)', toks):
        hdr, inline = m.group(1).split(), m.group(2).split()
        opts = dict(t.split('=', 1) if '=' in t else (t, True) for t in hdr)
        size = int(opts['size'])
        base = next((t for t in hdr if t in SCALARS), None)
        a = Arg.__new__(Arg)
        idx = len(args)
        if base is None:
            a.kind, a.bytes = 'local', size
            args.append(a)
            continue
        n = size // SCALARS[base][1]
        if 'fill' in opts:
            vals = [convert(parse_number(opts['fill']), base)] * n
        elif 'range' in opts:
            start, inc, end = (parse_number(t) for t in opts['range'].split(':'))
            vals = [convert(start + i * inc, base) for i in range(n)]
            assert vals[-1] == convert(end, base), 'range end does not match size'
        else:
            vals = [convert(parse_number(t), base) for t in inline]
            assert len(vals) == n, '%s: %d inline values, expected %d' % (path, len(vals), n)
        a.base, a.lanes, a.type, a.count = base, 1, base, n
        if idx in buffer_args:
            a.kind, a.values = 'buffer', vals
        else:
            assert n == 1
            a.kind, a.value = 'scalar', vals[0]
        args.append(a)
    dims = 3
    while dims > 1 and glob[dims - 1] == 1 and local[dims - 1] == 1:
        dims -= 1
    return program, kernel, glob[:dims], local[:dims], args


# ----------------------------------------------------------------------------------------
# Cases

class Case:
    def __init__(self, name, kernel, kernel_name=None, glob=None, local=None, offset=None,
                 sub_group_size=None, args=(), model=None, rc=0, stderr_has=(),
                 one_error_line=False, stdout=None, stdout_sorted=False, rtol=0.0,
                 dump=True, sim_buffers=(), reqd_sub_group_size=None, extra_argv=(),
                 make_file=None, pocl=True, note=''):
        self.name, self.kernel, self.kernel_name = name, kernel, kernel_name
        self.glob, self.local, self.offset = glob, local, offset
        self.sub_group_size, self.reqd_sub_group_size = sub_group_size, reqd_sub_group_size
        self.arg_specs, self.model = list(args), model
        self.rc, self.stderr_has, self.one_error_line = rc, list(stderr_has), one_error_line
        self.stdout, self.stdout_sorted, self.rtol = stdout or [], stdout_sorted, rtol
        self.dump, self.sim_buffers, self.extra_argv = dump, sim_buffers, list(extra_argv)
        self.make_file, self.pocl, self.note = make_file, pocl, note
        self.is_sim = kernel.endswith('.sim')
        if self.is_sim:
            _, kn, g, l, _ = parse_sim(os.path.join(HERE, kernel), sim_buffers)
            self.kernel_name, self.glob, self.local = kn, g, l

    def argv(self, kernel_path):
        """spvsim's command line, after the program name."""
        if self.is_sim:
            cmd = ['run', kernel_path]
        else:
            cmd = ['run', kernel_path, '--kernel', self.kernel_name,
                   '--global', ','.join(map(str, self.glob))]
            if self.local:
                cmd += ['--local', ','.join(map(str, self.local))]
            if self.offset:
                cmd += ['--global-offset', ','.join(map(str, self.offset))]
            if self.sub_group_size:
                cmd += ['--sub-group-size', str(self.sub_group_size)]
            for a in self.arg_specs:
                cmd += ['--arg', a]
        cmd += self.extra_argv
        if self.dump:
            cmd.append('--dump')
        return cmd

    def initial_args(self):
        if self.is_sim:
            return parse_sim(os.path.join(HERE, self.kernel), self.sim_buffers)[4]
        return [Arg(s) for s in self.arg_specs]

    def expected_buffers(self):
        """{arg index: (type, count, values)} after the model ran."""
        args = self.initial_args()
        if self.model:
            self.model(args, self)
        return {i: (a.type, a.count, a.values) for i, a in enumerate(args)
                if a.kind == 'buffer'}


def garbage_file(path):
    # 256 deterministic pseudo-random bytes (a fixed LCG), starting with no SPIR-V magic.
    x, out = 12345, bytearray()
    for _ in range(256):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        out.append((x >> 16) & 0xFF)
    with open(path, 'wb') as f:
        f.write(bytes(out))


def truncated_file(fraction, extra_bytes=0):
    def make(path):
        data = open(os.path.join(HERE, 'saxpy.spv'), 'rb').read()
        n = (int(len(data) * fraction) // 4) * 4 + extra_bytes
        with open(path, 'wb') as f:
            f.write(data[:n])
    return make


def empty_file(path):
    open(path, 'wb').close()



def VALUES_INT(n, odd_mix=False):
    """A buffer of n ints with a fixed irregular pattern of signs (and parities)."""
    if odd_mix:
        vals = [(i * i * 7 + 3 * i + 1) % 41 for i in range(n)]
    else:
        vals = [(i * 37) % 23 - 11 for i in range(n)]
    return 'buffer:int[%d]=values(%s)' % (n, ','.join(map(str, vals)))


SAXPY_ARGS_SMALL = ['float:2', 'buffer:float[8]=range(0)', 'buffer:float[8]=zero']
ND_OUT = lambda g: 'buffer:uint[%d]=fill(7)' % (28 * math.prod(g))
SG_OUT = lambda g: 'buffer:uint[%d]=fill(7)' % (8 * math.prod(g))

# saxpy.spv was made from saxpy.cl with:
#   clang-15 -cl-std=CL3.0 -target spir64 -Xclang -no-opaque-pointers -cl-no-stdinc \
#     -Xclang -finclude-default-header -O2 -emit-llvm -c saxpy.cl -o /tmp/k.bc
#   llvm-spirv-15 /tmp/k.bc -o saxpy.spv && spirv-val saxpy.spv
RECURSION_N = 'buffer:int[40]=range(0,5)'

CASES = [
    # --- saxpy: OpenCL C, precompiled SPIR-V, Oclgrind .sim ---------------------------
    Case('saxpy_cl', 'saxpy.cl', 'saxpy', [1000], [125],
         args=['float:2.5', 'buffer:float[1000]=range(0,1)', 'buffer:float[1000]=fill(10)'],
         model=model_saxpy),
    Case('saxpy_offset_nonuniform', 'saxpy.cl', 'saxpy', [1000], [64], offset=[24],
         args=['float:-0.75', 'buffer:float[1024]=range(-512,1)',
               'buffer:float[1024]=range(3,0.5)'],
         model=model_saxpy, note='y[0..23] must stay untouched'),
    Case('saxpy_spv', 'saxpy.spv', 'saxpy', [64], [16], sub_group_size=8,
         args=['float:-0.5', 'buffer:float[64]=range(1,2)', 'buffer:float[64]=range(0,0.25)'],
         model=model_saxpy),
    Case('saxpy_sim', 'saxpy.sim', sim_buffers=(1, 2), model=model_saxpy, pocl=False),
    Case('window_sim', 'window.sim', sim_buffers=(0, 2, 3), model=model_window, pocl=False),

    # --- local memory + barriers -------------------------------------------------------
    Case('transpose_64x48', 'transpose.cl', 'transpose', [64, 48], [16, 16],
         args=['buffer:uint[3072]=range(0,1)', 'buffer:uint[3072]=fill(4294967295)'],
         model=model_transpose),
    Case('transpose_64x48_sg32', 'transpose.cl', 'transpose', [64, 48], [16, 16],
         sub_group_size=32,
         args=['buffer:uint[3072]=range(100,3)', 'buffer:uint[3072]=zero'],
         model=model_transpose),
    Case('reduce_4096', 'reduce.cl', 'reduce', [4096], [256],
         args=['buffer:int[4096]=range(-1000,1)', 'buffer:int[16]=fill(-7)', 'local:1024'],
         model=model_reduce),
    Case('reduce_nonuniform_sg8', 'reduce.cl', 'reduce', [1000], [128], sub_group_size=8,
         args=['buffer:int[1000]=range(5,3)', 'buffer:int[8]=zero', 'local:512'],
         model=model_reduce, pocl=False, note='last work-group has 104 work-items'),

    # --- divergence --------------------------------------------------------------------
    Case('diverge_sg16', 'diverge.cl', 'diverge', [64], [32], sub_group_size=16,
         args=['buffer:uint[64]=range(3,7)', 'buffer:uint[64]=zero',
               'buffer:uint[64]=fill(99)', 'uint:5'],
         model=model_diverge),
    Case('diverge_sg5', 'diverge.cl', 'diverge', [64], [32], sub_group_size=5,
         args=['buffer:uint[64]=range(11,5)', 'buffer:uint[64]=fill(1)',
               'buffer:uint[64]=zero', 'uint:5'],
         model=model_diverge, note='sub-groups of 5: the last one of each work-group has 2 lanes'),
    Case('diverge_sg8_nonuniform', 'diverge.cl', 'diverge', [77], [24], sub_group_size=8,
         args=['buffer:uint[77]=range(1000,13)', 'buffer:uint[77]=zero',
               'buffer:uint[77]=zero', 'uint:5'],
         model=model_diverge),

    # --- vectors and math --------------------------------------------------------------
    Case('vectors', 'vectors.cl', 'vectors', [16], [8],
         args=['buffer:float[64]=range(0,0.5)', 'buffer:float4[16]=zero',
               'buffer:float[64]=zero', 'buffer:float[16]=zero', 'buffer:int8[16]=zero',
               'float4:1.5,-0.5,2,0.25', 'int8:1,-2,3,-4,5,-6,7,-8'],
         model=model_vectors, rtol=2e-6),

    # --- 64-bit integers ---------------------------------------------------------------
    Case('int64', 'int64.cl', 'int64', [10], [5],
         args=['buffer:long[10]=values(-9223372036854775807,-98765432109876,-7,-5,-1,0,1,7,'
               '123456789012345,9223372036854775807)',
               'buffer:ulong[10]=values(18446744073709551615,0,1,42,999,4294967296,'
               '9223372036854775808,12345678901234567890,18446744073709551557,3)',
               'buffer:long[80]=zero', 'buffer:ulong[80]=zero',
               'long:-7', 'ulong:1000000007'],
         model=model_int64),

    # --- hand-written SPIR-V assembly --------------------------------------------------
    Case('phi_select_spvasm', 'phi_select.spvasm', 'phi_select', [40], [8],
         args=['buffer:uint[40]=fill(1)', 'uint:3'], model=model_phi_select, pocl=False),

    # --- work-item built-ins: offsets, non-uniform last work-groups, 1/2/3 dims ---------
    Case('ndrange_1d', 'ndrange.cl', 'ndrange', [100], [16], offset=[5],
         args=[ND_OUT([100])], model=model_ndrange, pocl=False),
    Case('ndrange_2d', 'ndrange.cl', 'ndrange', [20, 13], [8, 4], offset=[3, 7],
         args=[ND_OUT([20, 13])], model=model_ndrange, pocl=False),
    Case('ndrange_3d', 'ndrange.cl', 'ndrange', [6, 5, 7], [4, 2, 3], offset=[1, 2, 3],
         args=[ND_OUT([6, 5, 7])], model=model_ndrange, pocl=False),
    Case('ndrange_3d_uniform', 'ndrange.cl', 'ndrange', [8, 4, 2], [4, 2, 2],
         args=[ND_OUT([8, 4, 2])], model=model_ndrange),
    Case('ndrange_2d_uniform_offset', 'ndrange.cl', 'ndrange', [16, 12], [8, 4],
         offset=[3, 7], args=[ND_OUT([16, 12])], model=model_ndrange),
    Case('ndrange_3d_uniform_offset', 'ndrange.cl', 'ndrange', [4, 6, 4], [2, 3, 2],
         offset=[11, 0, 5], args=[ND_OUT([4, 6, 4])], model=model_ndrange),

    # --- sub-group built-ins (cl_khr_subgroups) ----------------------------------------
    Case('subgroups_3d_sg16', 'subgroups.cl', 'subgroups', [6, 5, 7], [4, 2, 3],
         offset=[1, 2, 3], sub_group_size=16,
         args=[SG_OUT([6, 5, 7])], model=model_subgroups, pocl=False),
    Case('subgroups_3d_sg8', 'subgroups.cl', 'subgroups', [6, 5, 7], [4, 2, 3],
         offset=[1, 2, 3], sub_group_size=8,
         args=[SG_OUT([6, 5, 7])], model=model_subgroups, pocl=False),
    Case('subgroups_1d_sg16', 'subgroups.cl', 'subgroups', [100], [40], offset=[9],
         sub_group_size=16, args=[SG_OUT([100])], model=model_subgroups, pocl=False),
    Case('subgroups_2d_sg8', 'subgroups.cl', 'subgroups', [10, 7], [5, 3],
         sub_group_size=8, args=[SG_OUT([10, 7])], model=model_subgroups, pocl=False),
    Case('subgroups_sg1', 'subgroups.cl', 'subgroups', [6, 4], [3, 4], sub_group_size=1,
         args=[SG_OUT([6, 4])], model=model_subgroups, pocl=False),
    Case('subgroups_sg128_3d', 'subgroups.cl', 'subgroups', [20, 10, 3], [10, 10, 2],
         offset=[0, 4, 1], sub_group_size=128, args=[SG_OUT([20, 10, 3])],
         model=model_subgroups, pocl=False,
         note='work-groups of 200 (128 + 72) and, last in z, 100 (one partial sub-group)'),
    Case('subgroups_default_size', 'subgroups.cl', 'subgroups', [64], [48],
         args=[SG_OUT([64])], model=model_subgroups, pocl=False,
         note='no --sub-group-size: the default is 16'),
    Case('subgroups_reqd8_over_sg16', 'subgroups.cl', 'subgroups_reqd8', [20, 6], [6, 4],
         sub_group_size=16, reqd_sub_group_size=8,
         args=[SG_OUT([20, 6])], model=model_subgroups, pocl=False),


    # --- sub-group and work-group collectives (issue 3) ----------------------------------
    Case('sub_group_collectives', 'subgroup_collectives.cl', 'sub_group_collectives', [20],
         [20], sub_group_size=8, args=['buffer:int[20]=range(-5,3)', 'buffer:int[80]=zero'],
         model=model_sub_group_collectives, pocl=False),
    Case('sub_group_collectives_sg4_2d', 'subgroup_collectives.cl', 'sub_group_collectives',
         [6, 4], [3, 4], sub_group_size=4,
         args=[VALUES_INT(24), 'buffer:int[96]=zero'], model=model_sub_group_collectives,
         pocl=False),
    Case('work_group_collectives_2d', 'subgroup_collectives.cl', 'work_group_collectives',
         [8, 6], [4, 3], sub_group_size=8, args=[VALUES_INT(48), 'buffer:int[144]=zero'],
         model=model_work_group_collectives, pocl=False,
         note='PoCL (CL3.0 without the feature) and Oclgrind lack work_group_* functions'),
    Case('non_uniform_odd_lanes', 'subgroup_non_uniform.cl', 'odd_lanes', [40], [20],
         sub_group_size=8, args=[VALUES_INT(40, odd_mix=True), 'buffer:int[240]=fill(-1)'],
         model=model_odd_lanes, pocl=False),
    Case('shuffles_full', 'subgroup_shuffle.cl', 'shuffles', [32], [16], sub_group_size=8,
         args=['buffer:float[32]=range(1)', 'buffer:float[128]=zero'], model=model_shuffles,
         pocl=False),
    Case('shuffles_partial_sub_group', 'subgroup_shuffle.cl', 'shuffles', [24], [12],
         sub_group_size=8, args=['buffer:float[24]=range(-4,0.5)', 'buffer:float[96]=zero'],
         model=model_shuffles, pocl=False),
    Case('intel_block_shuffle', 'intel_subgroups.cl', 'block_shuffle', [32], [16],
         sub_group_size=16, reqd_sub_group_size=8,
         args=['buffer:uint[64]=range(100)', 'buffer:uint[128]=zero'],
         model=model_block_shuffle, pocl=False),
    Case('ub_non_uniform_collective', 'subgroup_ub.cl', 'reduce_in_branch', [16], [16],
         sub_group_size=8, args=[VALUES_INT(16)], rc=2, dump=False,
         stderr_has=[r'^error: non-uniform-collective:', r'reduce_in_branch'], pocl=False),
    Case('ub_non_uniform_broadcast_id', 'subgroup_ub.cl', 'broadcast_varying_id', [16], [16],
         sub_group_size=8, args=[VALUES_INT(16)], rc=2, dump=False,
         stderr_has=[r'^error: non-uniform-argument:'], pocl=False),
    Case('ub_shuffle_out_of_range_warns', 'subgroup_ub.cl', 'shuffle_past_end', [16], [16],
         sub_group_size=8, args=[VALUES_INT(16)], rc=0, dump=False,
         stderr_has=[r'^warning: shuffle-out-of-range:'], pocl=False),
    Case('ub_misaligned_block_read', 'subgroup_ub.cl', 'misaligned_block_read', [16], [16],
         sub_group_size=8, args=['buffer:uint[40]=range(0)'], rc=2, dump=False,
         stderr_has=[r'^error: misaligned-block-io:'], pocl=False),

    # --- atomics (issue 5): histograms in global memory and via local memory --------
    Case('atomics_histogram_global', 'atomics.cl', 'histogram_global', [1000], [100],
         args=['buffer:uint[1000]=range(3,7)', 'buffer:uint[16]=fill(5)', 'uint:16'],
         model=model_histogram),
    Case('atomics_histogram_global_3_threads', 'atomics.cl', 'histogram_global', [4096], [64],
         sub_group_size=32, args=['buffer:uint[4096]=range(0,13)', 'buffer:uint[10]=zero',
                                  'uint:10'],
         model=model_histogram, extra_argv=['--threads', '3']),
    Case('atomics_histogram_local', 'atomics.cl', 'histogram_local', [1024], [64],
         sub_group_size=8, args=['buffer:uint[1024]=range(1,3)', 'buffer:uint[16]=fill(2)',
                                 'uint:16', 'local:64'],
         model=model_histogram),

    # --- printf -----------------------------------------------------------------------
    Case('printf_one', 'printf.cl', 'print_one', [1], [1], args=['buffer:int[1]=values(42)'],
         model=model_print_one, stdout=PRINT_ONE_STDOUT),
    Case('printf_each', 'printf.cl', 'print_each', [8], [8],
         args=['buffer:float[8]=range(0,0.25)'], model=model_print_each,
         stdout=PRINT_EACH_STDOUT, stdout_sorted=True),

    # --- uninitialised-read checker (issue 5): local reads past what the group stored ----
    Case('uninitialized_clean', 'uninitialized.cl', 'window_sum', [64], [16],
         args=['buffer:int[64]=range(3,2)', 'buffer:int[64]=zero', 'int:1'],
         model=model_window_sum, extra_argv=['--check-uninitialized']),
    Case('uninitialized_local_read', 'uninitialized.cl', 'window_sum', [64], [16],
         args=['buffer:int[64]=range(3,2)', 'buffer:int[64]=zero', 'int:3'], rc=2, dump=False,
         stderr_has=[r'^error: uninitialized-read:', r'local variable', r'window_sum'],
         extra_argv=['--check-uninitialized'], pocl=False),

    # --- race checker (issue 5): Oclgrind's categories --------------------------------
    Case('races_tree_sum_clean', 'races.cl', 'tree_sum', [64], [16], sub_group_size=8,
         args=['buffer:int[64]=range(-20,3)', 'buffer:int[4]=zero', 'local:64', 'int:1'],
         model=model_tree_sum, extra_argv=['--check-races']),
    Case('races_tree_sum_missing_barrier', 'races.cl', 'tree_sum', [64], [16],
         sub_group_size=8,
         args=['buffer:int[64]=range(-20,3)', 'buffer:int[4]=zero', 'local:64', 'int:0'],
         rc=2, dump=False, extra_argv=['--check-races'], pocl=False,
         stderr_has=[r'^error: data-race: (read|write) of 4 bytes at byte offset \d+ of '
                     r'argument 2 \(tile\) \(local memory\)', r'conflicts with an earlier',
                     r'tree_sum']),
    Case('races_publish_same_group', 'races.cl', 'publish', [32], [32], sub_group_size=16,
         args=['buffer:int[1]=zero', 'buffer:int[1]=zero', 'buffer:int[1]=zero'],
         model=model_publish_same_group, extra_argv=['--check-races'], pocl=False),
    Case('races_publish_across_groups', 'races.cl', 'publish', [32], [16], sub_group_size=16,
         args=['buffer:int[1]=zero', 'buffer:int[1]=zero', 'buffer:int[1]=zero'], rc=2,
         dump=False, extra_argv=['--check-races'], pocl=False,
         stderr_has=[r'^error: insufficient-scope: atomic read', r'work_group']),
    Case('barrier_divergence_half', 'races.cl', 'half_barrier', [16], [16], sub_group_size=8,
         args=['buffer:int[16]=zero'], rc=2, dump=False, pocl=False,
         stderr_has=[r'^error: barrier-divergence:', r'half_barrier']),

    # --- kernel errors: exit 2 ----------------------------------------------------------
    Case('oob_read_past_end', 'oob.cl', 'shift_left', [32], [16],
         args=['buffer:int[32]=range(0)', 'buffer:int[32]=zero'], rc=2, dump=False,
         stderr_has=[r'^error: out-of-bounds:', r'shift_left'], pocl=False),

    # --- recursion: refused where the module has a call cycle ---------------------------
    # (OpenCL C 6.11; the OpenCL SPIR-V environment's validation rules); at -O2 clang
    # turns tail recursion into loops, and that module runs.
    Case('recursion_direct_O2', 'recursion_direct.cl', 'direct_recursion', [40], [8],
         args=[RECURSION_N, 'buffer:int[40]=zero'], model=model_direct_recursion,
         extra_argv=['--build-options', '-cl-std=CL3.0 -O2'], pocl=False),
    Case('recursion_mutual_O2', 'recursion_mutual.cl', 'mutual_recursion', [40], [8],
         args=[RECURSION_N, 'buffer:int[40]=zero'], model=model_mutual_recursion,
         extra_argv=['--build-options', '-cl-std=CL3.0 -O2'], pocl=False),
    Case('recursion_direct_O0', 'recursion_direct.cl', 'direct_recursion', [40], [8],
         args=[RECURSION_N, 'buffer:int[40]=zero'], rc=1, dump=False, one_error_line=True,
         extra_argv=['--build-options', '-cl-std=CL3.0 -O0'],
         stderr_has=[r'^error: .*recursion is not allowed \(OpenCL C 6\.11',
                     r': %sum -> %sum \(kernel direct_recursion\)$'], pocl=False),
    Case('recursion_mutual_O0', 'recursion_mutual.cl', 'mutual_recursion', [40], [8],
         args=[RECURSION_N, 'buffer:int[40]=zero'], rc=1, dump=False, one_error_line=True,
         extra_argv=['--build-options', '-cl-std=CL3.0 -O0'],
         stderr_has=[r'recursion is not allowed',
                     r': %is_even -> %is_odd -> %is_even \(kernel mutual_recursion\)$'],
         pocl=False),
    Case('recursion_tree_O2', 'recursion_tree.cl', 'tree_recursion', [40], [8],
         args=[RECURSION_N, 'buffer:int[40]=zero'], rc=1, dump=False, one_error_line=True,
         extra_argv=['--build-options', '-cl-std=CL3.0 -O2'],
         stderr_has=[r'recursion is not allowed', r': %fib -> %fib \(kernel tree_recursion\)$'],
         pocl=False),
    Case('recursion_mutual_spvasm', 'recursion.spvasm', 'plain', [8], [8],
         args=['buffer:uint[1]=zero'], rc=1, dump=False, one_error_line=True,
         stderr_has=[r'^error: invalid-module: recursion is not allowed \(OpenCL C 6\.11: '
                     r'"Recursion is not supported"; OpenCL SPIR-V Environment 4, Validation '
                     r'Rules: "The static function call graph for an entry point must not '
                     r'contain cycles"\): %is_even -> %is_odd -> %is_even \(kernel mutual\)$'],
         pocl=False),

    # --- input errors: exit 1, exactly one diagnostic line -----------------------------
    Case('malformed_random_bytes', 'garbage.spv', 'saxpy', [8], [8], args=SAXPY_ARGS_SMALL,
         rc=1, dump=False, one_error_line=True, make_file=garbage_file, pocl=False),
    Case('malformed_truncated', 'truncated.spv', 'saxpy', [8], [8], args=SAXPY_ARGS_SMALL,
         rc=1, dump=False, one_error_line=True, make_file=truncated_file(0.6), pocl=False),
    Case('malformed_truncated_odd_length', 'truncated_odd.spv', 'saxpy', [8], [8],
         args=SAXPY_ARGS_SMALL, rc=1, dump=False, one_error_line=True,
         make_file=truncated_file(0.9, 2), pocl=False),
    Case('malformed_header_only', 'header_only.spv', 'saxpy', [8], [8],
         args=SAXPY_ARGS_SMALL, rc=1, dump=False, one_error_line=True,
         make_file=truncated_file(0.0, 20), pocl=False),
    Case('malformed_empty', 'empty.spv', 'saxpy', [8], [8], args=SAXPY_ARGS_SMALL,
         rc=1, dump=False, one_error_line=True, make_file=empty_file, pocl=False),
    Case('usage_unknown_kernel', 'saxpy.spv', 'no_such_kernel', [8], [8],
         args=SAXPY_ARGS_SMALL, rc=1, dump=False, stderr_has=[r'^error: '], pocl=False),
    Case('usage_missing_arg', 'saxpy.spv', 'saxpy', [8], [8], args=SAXPY_ARGS_SMALL[:2],
         rc=1, dump=False, stderr_has=[r'^error: '], pocl=False),
]
