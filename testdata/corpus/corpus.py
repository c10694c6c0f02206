"""The optimisation-level corpus: OpenCL C kernels (one per .cl file in this folder), their
launches, and Python models of what each must leave in its buffers.

Every kernel must give the same buffers at -O0, -O1, -O2, -O3 and -O2 -g, equal to its
model. The models are re-implementations of the kernels written from the OpenCL C
specification (integer wrap-around, C division, conversion and rounding rules, the
sub-group functions' definitions); they are never derived from spvsim's output. Inputs
are chosen so that results are exact (no signed overflow, float values whose sums and
products are exact), except where a case states a tolerance the spec allows.

run_corpus.py runs them; run_pyopencl.py runs a subset through the ICD and checks the
models that PoCL can run.
"""

import functools
import math
import operator
import zlib

from fractions import Fraction

from corpus_lib import (Case, bits_of, cdiv, crem, f16, f32, fma, from_bits, pattern,
                        round_fraction, s64, sub_groups, u32, u64, values_spec, wrap)


def ints(n, seed, lo, hi):
    """n deterministic pseudo-random integers in [lo, hi] (inputs given with values())."""
    return pattern(n, seed, lo, hi)


def gid_range(c):
    return range(c.glob[0])


CASES = []

# ========================================================================================
# Loops


def model_sum_to_n(args, c):
    n, sums, sq = args[0].values, args[1].values, args[2].values
    for i, k in enumerate(n):
        sums[i] = u32(k * (k - 1) // 2)
        sq[i] = u32(sum(j * j for j in range(k)))


def model_sum_range_ulong(args, c):
    first, last, out = (a.values for a in args)
    for i in range(len(out)):
        a, b = first[i], last[i]
        out[i] = u64((b - a) * (a + b - 1) // 2) if b > a else 0


def model_nested_triangle(args, c):
    a, out, n = args[0].values, args[1].values, args[2].value
    for i in range(c.glob[0]):
        s = 0
        for r in range(i % n + 1):
            for col in range(r + 1):
                s += a[col] * (r - col + 1)
        out[i] = wrap(s, 'int')


def model_first_above(args, c):
    data, pos, seen = args[0].values, args[1].values, args[2].values
    width, thr = args[3].value, args[4].value
    for row in range(c.glob[0]):
        found, count = -1, 0
        for j in range(width):
            v = data[row * width + j]
            if v < 0:
                continue
            count += 1
            if v > thr:
                found = j
                break
        pos[row], seen[row] = found, count


def model_lcg(args, c):
    seed, state, high, steps = args[0].values, args[1].values, args[2].values, args[3].value
    for i in range(c.glob[0]):
        x, h = seed[i], 0
        for _ in range(steps):
            x = u32(x * 1664525 + 1013904223)
            h += x >> 31
        state[i], high[i] = x, h


def matmul_ref(a, b, n):
    return [float(sum(a[r * n + k] * b[k * n + col] for k in range(n)))
            for r in range(n) for col in range(n)]


def model_matmul(args, c):
    n = args[3].value
    args[2].values = [f32(v) for v in matmul_ref(args[0].values, args[1].values, n)]


def model_matmul_int(args, c):
    n = args[4].value
    args[2].values = [wrap(int(v), 'int') for v in matmul_ref(args[0].values, args[1].values, n)]


def model_private_sort(args, c):
    inp, out = args[0].values, args[1].values
    for i in range(c.glob[0]):
        out[8 * i:8 * i + 8] = sorted(inp[8 * i:8 * i + 8])


def model_private_histogram(args, c):
    data, mode, count = args[0].values, args[1].values, args[2].values
    for i in range(c.glob[0]):
        bins = [0] * 16
        for v in data[32 * i:32 * i + 32]:
            bins[v >> 4] += 1
        best = max(range(16), key=lambda b: (bins[b], -b))
        mode[i], count[i] = best, bins[best]


def model_group_sums(args, c):
    inp, out = args[0].values, args[1].values
    for g, first, n in cases_groups(c):
        out[g] = wrap(sum(inp[first:first + n]), 'int')


def cases_groups(c):
    """1-D uniform work-groups: (group id, first global id, size)."""
    g, l = c.glob[0], c.local[0]
    for gid in range(g // l):
        yield gid, gid * l, l


def model_reduce_max_float(args, c):
    inp, out = args[0].values, args[1].values
    for g, first, n in cases_groups(c):
        out[g] = max(inp[first:first + n])


def model_scan_inclusive_u32(args, c):
    inp, out = args[0].values, args[1].values
    for g, first, n in cases_groups(c):
        s = 0
        for k in range(n):
            s = u32(s + inp[first + k])
            out[first + k] = s


def model_scan_blelloch(args, c):
    inp, out, totals = args[0].values, args[1].values, args[2].values
    n = 2 * c.local[0]
    for g in range(c.glob[0] // c.local[0]):
        s = 0
        for k in range(n):
            out[g * n + k] = s
            s = wrap(s + inp[g * n + k], 'int')
        totals[g] = s


def model_collatz(args, c):
    start, steps, peak, limit = args[0].values, args[1].values, args[2].values, args[3].value
    for i in range(c.glob[0]):
        x = top = start[i]
        n = 0
        while True:                       # do { ... } while (++n < limit)
            if x <= 1:
                break
            x = 3 * x + 1 if x & 1 else x >> 1
            top = max(top, x)
            n = (n + 1) & 0xFFFF
            if not n < limit:
                break
        steps[i], peak[i] = n, top


def model_pair_count(args, c):
    a, pairs, last_j = args[0].values, args[1].values, args[2].values
    n, m, cap = args[3].value, args[4].value, args[5].value
    for i in range(c.glob[0]):
        count, lastj = 0, -1
        for j in range(i % 5, n):
            if a[j] == 0:
                continue
            row = 0
            for k in range(j + 1, n):
                if crem(a[j] + a[k], m) != 0:
                    continue
                row += 1
                if row == cap:
                    break
            count += row
            lastj = j
            if count > 3 * cap + i:
                break
        pairs[i], last_j[i] = count, lastj


def model_strided_short_sum(args, c):
    x, total, low = args[0].values, args[1].values, args[2].values
    stride, count = args[3].value, args[4].value
    for i in range(c.glob[0]):
        s = sum(x[i + k * stride] for k in range(count))
        total[i], low[i] = wrap(s, 'int'), wrap(s, 'short')


def model_ushort_countdown(args, c):
    n, acc, trips = args[0].values, args[1].values, args[2].values
    for i in range(c.glob[0]):
        a, t = i & 0xFF, 0
        for cnt in range(n[i], 0, -1):
            a = (a * 3 + (cnt & 0xFF)) & 0xFF
            t += 1
        acc[i], trips[i] = a, t


def model_horner_ulong(args, c):
    coef, degree, x, y = args[0].values, args[1].value, args[2].values, args[3].values
    for i in range(c.glob[0]):
        acc = 0
        for k in range(degree, -1, -1):
            acc = u64(acc * x[i] + coef[k])
        y[i] = acc


SUM_N = [0, 1, 2, 3, 10, 100, 1000, 65535, 65536, 92681, 92682, 92683, 100000, 7, 5, 0]

CASES += [
    # --- loops ----------------------------------------------------------------------
    Case('sum_to_n', 'sum_to_n.cl', 'sum_to_n', [16], [16],
         args=[values_spec('uint', SUM_N), 'buffer:uint[16]=fill(7)', 'buffer:uint[16]=zero'],
         model=model_sum_to_n, icd=True,
         note='n up to 100000: the sums wrap modulo 2^32'),
    Case('sum_range_ulong', 'sum_range_ulong.cl', 'sum_range_ulong', [8], [8],
         args=[values_spec('ulong', [0, 5, 4294967290, 18446744073709551000, 9, 1 << 40,
                                     3000000000, 17]),
               values_spec('ulong', [1000, 5, 4294967400, 18446744073709551615, 3,
                                     (1 << 40) + 2000, 3000004000, 17017]),
               'buffer:ulong[8]=zero'],
         model=model_sum_range_ulong),
    Case('nested_triangle', 'nested_triangle.cl', 'nested_triangle', [48], [16],
         args=[values_spec('int', ints(16, 1, -50, 50)), 'buffer:int[48]=zero', 'int:13'],
         model=model_nested_triangle),
    Case('first_above', 'first_above.cl', 'first_above', [32], [8],
         args=[values_spec('int', ints(32 * 24, 2, -40, 100)), 'buffer:int[32]=fill(-9)',
               'buffer:int[32]=zero', 'int:24', 'int:90'],
         model=model_first_above),
    Case('lcg', 'lcg.cl', 'lcg', [64], [32],
         args=['buffer:uint[64]=range(1,2654435761)', 'buffer:uint[64]=zero',
               'buffer:uint[64]=zero', 'uint:1000'],
         model=model_lcg),
    Case('matmul', 'matmul.cl', 'matmul', [16, 16], [8, 8],
         args=['buffer:float[256]=range(-128,1)', 'buffer:float[256]=range(40,-0.5)',
               'buffer:float[256]=zero', 'int:16'],
         model=model_matmul,
         note='values are multiples of 0.5 below 2^8: every sum is exact in float'),
    Case('matmul_tiled', 'matmul_tiled.cl', 'matmul_tiled', [24, 24], [8, 8],
         args=['buffer:float[576]=range(-100,0.5)', 'buffer:float[576]=range(30,-0.25)',
               'buffer:float[576]=zero', 'int:24'],
         model=model_matmul, icd=True),
    Case('matmul_int_local', 'matmul_int_local.cl', 'matmul_int_local', [20 * 20], [20],
         args=[values_spec('int', ints(400, 3, -1000, 1000)),
               values_spec('int', ints(400, 4, -1000, 1000)),
               'buffer:int[400]=zero', 'local:80', 'int:20'],
         model=model_matmul_int),
    Case('private_sort', 'private_sort.cl', 'private_sort', [32], [16],
         args=[values_spec('int', ints(256, 5, -99, 99)), 'buffer:int[256]=zero'],
         model=model_private_sort),
    Case('private_histogram', 'private_histogram.cl', 'private_histogram', [24], [8],
         args=[values_spec('uchar', ints(24 * 32, 6, 0, 255)), 'buffer:uchar[24]=zero',
               'buffer:uchar[24]=zero'],
         model=model_private_histogram),
    Case('reduce_tree', 'reduce_tree.cl', 'reduce_tree', [1024], [128],
         args=[values_spec('int', ints(1024, 7, -100000, 100000)), 'buffer:int[8]=fill(-1)',
               'local:512'],
         model=model_group_sums),
    Case('reduce_max_float', 'reduce_max_float.cl', 'reduce_max_float', [512], [64],
         args=[values_spec('float', [x / 8 for x in ints(512, 8, -100000, 100000)]),
               'buffer:float[8]=zero'],
         model=model_reduce_max_float),
    Case('scan_hillis_steele', 'scan_hillis_steele.cl', 'scan_hillis_steele', [384], [128],
         args=[values_spec('uint', ints(384, 9, 0, 4000000000)), 'buffer:uint[384]=zero'],
         model=model_scan_inclusive_u32),
    Case('scan_blelloch', 'scan_blelloch.cl', 'scan_blelloch', [128], [32],
         args=[values_spec('int', ints(256, 10, -1000, 1000)), 'buffer:int[256]=zero',
               'buffer:int[4]=zero', 'local:256'],
         model=model_scan_blelloch),
    Case('collatz', 'collatz.cl', 'collatz', [64], [16],
         args=['buffer:uint[64]=range(1,37)', 'buffer:ushort[64]=zero', 'buffer:ulong[64]=zero',
               'ushort:100'],
         model=model_collatz),
    Case('pair_count', 'pair_count.cl', 'pair_count', [40], [8],
         args=[values_spec('short', ints(50, 11, -30, 30)), 'buffer:int[40]=zero',
               'buffer:int[40]=zero', 'int:50', 'int:7', 'int:4'],
         model=model_pair_count),
    Case('strided_short_sum', 'strided_short_sum.cl', 'strided_short_sum', [32], [32],
         args=[values_spec('short', ints(32 + 31 * 11, 12, -32768, 32767)),
               'buffer:int[32]=zero', 'buffer:short[32]=zero', 'int:11', 'int:31'],
         model=model_strided_short_sum),
    Case('ushort_countdown', 'ushort_countdown.cl', 'ushort_countdown', [32], [16],
         args=['buffer:ushort[32]=range(0,97)', 'buffer:uchar[32]=zero', 'buffer:uint[32]=zero'],
         model=model_ushort_countdown),
    Case('horner_ulong', 'horner_ulong.cl', 'horner_ulong', [16], [16],
         args=[values_spec('ulong', [7, 0xFFFFFFFFFFFF, 3, 1 << 63, 12345678901234567, 99]),
               'int:5', 'buffer:ulong[16]=range(0,1234567890123)', 'buffer:ulong[16]=zero'],
         model=model_horner_ulong),
]

# ========================================================================================
# Switches, division, logic, bits, integer built-ins


def model_switch_dense(args, c):
    op, a, b, out = (x.values for x in args)
    for i in gid_range(c):
        x, y = a[i], b[i]
        r = {0: lambda: x + y, 1: lambda: x - y, 2: lambda: x * y,
             3: lambda: cdiv(x, y) if y else 0, 4: lambda: x & y, 5: lambda: x | y,
             6: lambda: x ^ y, 7: lambda: u32(x) << (y & 31), 8: lambda: x >> (y & 31),
             9: lambda: min(x, y)}.get(op[i], lambda: -1)()
        out[i] = wrap(r, 'int')


SPARSE_CASES = {-5: 500, 1: 1, 10: 10, 100: -100, 1000: 1000, 0x7fff: 32767, 123456: -32768}


def model_switch_sparse(args, c):
    code, out = args[0].values, args[1].values
    for i in gid_range(c):
        out[i] = SPARSE_CASES.get(code[i], wrap(code[i] & 0xFF, 'short'))


def model_switch_fallthrough(args, c):
    a, text, tail, cls = (x.values for x in args)
    for i in gid_range(c):
        tail[i] = wrap(sum(a[i:i + (i & 3) + 1]), 'int')
        ch = chr(text[i])
        if ch in 'aeiou':
            k = 1
        elif ch in ' \t\n':
            k = 2
        elif ch.isdigit():
            k = 3
        else:
            k = 4 if 'a' <= ch <= 'z' else 0
        cls[i] = k


AND7_TABLE = [10, 20, 35, 41, 59, 61, 77, 80]


def model_switch_and7(args, c):
    inp, out = args[0].values, args[1].values
    for i in gid_range(c):
        out[i] = AND7_TABLE[inp[i] & 7]


def model_switch_and7_ops(args, c):
    inp, out = args[0].values, args[1].values
    for i in gid_range(c):
        x = inp[i]
        out[i] = u32({0: lambda: x + 1, 1: lambda: x * 3, 2: lambda: x ^ 0x55,
                      3: lambda: x >> 2, 5: lambda: x - 9, 6: lambda: ~x}.get(x & 7, lambda: 42)())


def model_tokenizer(args, c):
    text, words, numbers, dsum = (x.values for x in args)
    for i in gid_range(c):
        state, nw, nn, ds = 'space', 0, 0, 0
        for ch in text[32 * i:32 * i + 32]:
            digit = ord('0') <= ch <= ord('9')
            alpha = ord('a') <= (ch | 0x20) <= ord('z')
            if state == 'space':
                if digit:
                    state, nn, ds = 'number', nn + 1, ds + ch - ord('0')
                elif alpha:
                    state, nw = 'word', nw + 1
            elif state == 'word':
                if not alpha and not digit:
                    state = 'space'
            else:
                if digit:
                    ds += ch - ord('0')
                elif alpha:
                    state, nw = 'word', nw + 1
                else:
                    state = 'space'
        words[i], numbers[i], dsum[i] = nw & 0xFFFF, nn & 0xFFFF, u32(ds)


def model_divrem_u32(args, c):
    inp, q, r, k = args[0].values, args[1].values, args[2].values, args[3].value
    for i in gid_range(c):
        q[i], r[i] = inp[i] // k, inp[i] % k


def model_divrem_s32(args, c):
    a, b, qr = (x.values for x in args)
    for i in gid_range(c):
        assert b[i] and not (a[i] == -(1 << 31) and b[i] == -1), 'undefined division'
        qr[i] = (cdiv(a[i], b[i]), crem(a[i], b[i]))


def model_divrem_s64(args, c):
    a, b, q, r, uq, ur = (x.values for x in args[:6])
    m = args[6].value
    for i in gid_range(c):
        assert b[i] and not (a[i] == -(1 << 63) and b[i] == -1), 'undefined division'
        q[i], r[i] = cdiv(a[i], b[i]), crem(a[i], b[i])
        uq[i], ur[i] = u64(a[i]) // m, u64(a[i]) % m


def model_divrem_vec(args, c):
    a, b, q, r, h, hq = (x.values for x in args[:6])
    d = args[6].value
    for i in gid_range(c):
        q[i] = tuple(cdiv(x, y) for x, y in zip(a[i], b[i]))
        r[i] = tuple(crem(x, y) for x, y in zip(a[i], b[i]))
        hq[i] = (h[i] // d + h[i] % d) & 0xFFFF


def model_digit_sum(args, c):
    inp, s, nd, rev = (x.values for x in args)
    for i in gid_range(c):
        digits = str(inp[i])
        s[i] = sum(int(ch) for ch in digits)
        nd[i] = len(digits)
        rev[i] = int(digits[::-1])


def model_logic_scalar(args, c):
    x, flags, out = args[0].values, args[1].values, args[2].values
    lo, hi = args[3].value, args[4].value
    for i in gid_range(c):
        v, f, r = x[i], flags[i], 0
        if v < lo or v > hi or (f & 1) == 0:
            r |= 1
        if (v > 0 and f & 2) or (v < 0 and f & 4) or v == 0:
            r |= 2
        if f == 0 or (f & (f - 1)) == 0:
            r |= 4
        if not (v & 1) and crem(v, 3) == 0 and f > 3:
            r |= 8
        out[i] = r


def model_logic_vector(args, c):
    a, b, out = (x.values for x in args)
    for i in gid_range(c):
        v, w, r = a[i], b[i], 0
        if any(t > 0 for t in v):
            r |= 1
        if all(t != 0 for t in v):
            r |= 2
        if any(t < 0.0 for t in w):
            r |= 4
        if any(t < -5 for t in v) and all(t != 0.0 for t in w):
            r |= 8
        out[i] = r


def model_any_equal8(args, c):
    a, inp, out = (x.values for x in args)
    for i in gid_range(c):
        # in[i] * 0.5 is exact, so a contracted fma rounds as the separate operations do.
        out[i] = inp[i] if 3 in a[i] else f32(inp[i] * 0.5 + inp[i + 1])


def model_faces3d(args, c):
    inp, out = args[0].values, args[1].values
    w, h = args[2].value, args[3].value
    for z in range(c.glob[2]):
        for y in range(c.glob[1]):
            for x in range(c.glob[0]):
                i = (z * h + y) * w + x
                face = x in (0, w - 1, 5) or y in (0, h - 1, 9) or z in (0, 7)
                out[i] = inp[i] if face else f32(f32(inp[i] * 0.5 + inp[i + 1]) + inp[i - 1])


def model_ternary_vector(args, c):
    a, b, x, imax, fsel, s8 = (y.values for y in args)
    q = (1, -2, 3, -4, 5, -6, 7, -8)
    for i in gid_range(c):
        imax[i] = tuple(max(p, r) for p, r in zip(a[i], b[i]))
        fsel[i] = tuple(-w if w < 0.0 else f32(w * 2.0) for w in x[i])
        p = tuple(wrap(t, 'short') for t in a[i] + b[i])
        s8[i] = tuple(qq if pp < qq else pp for pp, qq in zip(p, q))   # select(p, q, p < q)


def popcount(v):
    return bin(v).count('1')


def clz(v, bits):
    return bits - v.bit_length()


def ctz(v, bits):
    return (v & -v).bit_length() - 1 if v else bits


def rotl(v, n, bits):
    n %= bits
    m = (1 << bits) - 1
    return ((v << n) | (v >> (bits - n))) & m


def model_bit_tricks(args, c):
    x, y, u8, u16, u32o, u64o = (a.values for a in args)
    for i in gid_range(c):
        v, w = x[i], y[i]
        ch, h = v & 0xFF, (v >> 8) & 0xFFFF
        u8[4 * i:4 * i + 4] = [popcount(ch), clz(ch, 8), rotl(ch, i & 7, 8), ctz(ch, 8)]
        u16[2 * i:2 * i + 2] = [clz(h, 16), rotl(h, 5, 16)]
        u32o[4 * i:4 * i + 4] = [popcount(v), clz(v, 32), rotl(v, i, 32), v ^ 0x0F0F0F0F]
        u64o[3 * i:3 * i + 3] = [popcount(w), clz(w, 64) + ctz(w, 64), rotl(w, 64 - i, 64)]


def model_signed_unsigned(args, c):
    a, b, ch, out = (x.values for x in args)
    for i in gid_range(c):
        x, y, z = a[i], b[i], ch[i]
        r = 0
        if u32(x) < y:
            r |= 1
        if x < y:
            r |= 2
        if z < 0:
            r |= 4
        if (z & 0xFF) > 127:
            r |= 8
        if wrap(y, 'short') < 0:
            r |= 16
        out[4 * i:4 * i + 4] = [r, x >> 3, wrap(u32(x) >> 3, 'int'),
                                wrap(z * (z & 0xFF) + y % 1000 - (x & 0xFFFF), 'int')]


def sat(v, base):
    from corpus_lib import SCALARS
    _, size, signed = SCALARS[base]
    lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1) if signed else (0, (1 << (8 * size)) - 1)
    return min(max(v, lo), hi)


def model_saturate(args, c):
    a, b, c8, h, g, u16, x, y, i32, p, q, i64 = (z.values for z in args)
    for i in gid_range(c):
        c8[2 * i:2 * i + 2] = [sat(a[i] + b[i], 'char'), sat(a[i] - b[i], 'char')]
        u16[2 * i:2 * i + 2] = [sat(h[i] + g[i], 'ushort'), sat(h[i] - g[i], 'ushort')]
        i32[3 * i:3 * i + 3] = [sat(x[i] + y[i], 'int'), sat(x[i] - y[i], 'int'),
                                sat(x[i] * 3 + y[i], 'int')]
        i64[2 * i:2 * i + 2] = [sat(p[i] + q[i], 'long'), sat(p[i] - q[i], 'long')]


def model_mad_hadd(args, c):
    x, y, u, v, si, ui, l = (z.values for z in args)
    for i in gid_range(c):
        a, b, cc, d = x[i], y[i], u[i], v[i]
        si[4 * i:4 * i + 4] = [(a + b) >> 1, (a + b + 1) >> 1, (a * b) >> 32,
                               (a >> 9) * ((b >> 9) & 63) + 7]
        ui[4 * i:4 * i + 4] = [abs(a - b), u32(((cc * d) >> 32) + 12345),
                               u32((cc & 0xFFFFFF) * (d & 0xFF)), min(max(cc, 1000), 3000000000)]
        l[i] = s64((a << 32) | d)


def model_convert_sat(args, c):
    f, n, ch, uc, s, r = (z.values for z in args)
    for i in gid_range(c):
        v = f[i]
        ch[i] = sat(n[i], 'char')
        uc[i] = 0 if math.isnan(v) else sat(round(v), 'uchar')
        s[i] = sat(n[i] * 3, 'short')
        big = f32(v * 1e8)
        r[4 * i:4 * i + 4] = [math.trunc(v), math.ceil(v), math.floor(v), sat(round(big), 'int')]


TEXT = (b'the 3 quick foxes jump 0ver 12 lazy dogs\tand 7 cats;\n'
        b'hello world 2024 x9 OpenCL 3.0 is fun, isnt it? 42 + 58 = 100 ok\n'
        b'a e i o u y 0 1 2 3 4 5 6 7 8 9 ZZZ zzz')
TEXT = (TEXT * 4)[:192]
OPS = ints(64, 20, 0, 11)

CASES += [
    Case('switch_dense', 'switch_dense.cl', 'switch_dense', [64], [16],
         args=[values_spec('uchar', OPS), values_spec('int', ints(64, 21, -40000, 40000)),
               values_spec('int', [v if v else 3 for v in ints(64, 22, -40000, 40000)]),
               'buffer:int[64]=zero'],
         model=model_switch_dense, icd=True),
    Case('switch_sparse', 'switch_sparse.cl', 'switch_sparse', [32], [16],
         args=[values_spec('int', [-5, 1, 10, 100, 1000, 0x7fff, 123456, 0, 2, -1, 11, 99,
                                   1001, 32766, 123455, -6] + ints(16, 23, -70000, 70000)),
               'buffer:short[32]=fill(9)'],
         model=model_switch_sparse),
    Case('switch_fallthrough', 'switch_fallthrough.cl', 'switch_fallthrough', [64], [32],
         args=[values_spec('int', ints(67, 24, -1000, 1000)),
               values_spec('uchar', list(TEXT[:64])), 'buffer:int[64]=zero',
               'buffer:uchar[64]=fill(99)'],
         model=model_switch_fallthrough),
    Case('switch_and7', 'switch_and7.cl', 'switch_and7', [32], [16],
         args=['buffer:int[32]=range(-50,3)', 'buffer:int[32]=zero'],
         model=model_switch_and7, icd=True,
         note='clang narrows the switch to i4 at -O2; llvm-spirv-15 crashes on it'),
    Case('switch_and7_ops', 'switch_and7_ops.cl', 'switch_and7_ops', [32], [16],
         args=['buffer:uint[32]=range(4294967200,7)', 'buffer:uint[32]=zero'],
         model=model_switch_and7_ops),
    Case('tokenizer', 'tokenizer.cl', 'tokenizer', [6], [6],
         args=[values_spec('uchar', list(TEXT)), 'buffer:ushort[6]=zero',
               'buffer:ushort[6]=zero', 'buffer:uint[6]=zero'],
         model=model_tokenizer),
    Case('divrem_u32', 'divrem_u32.cl', 'divrem_u32', [64], [16],
         args=['buffer:uint[64]=range(100,67108859)', 'buffer:uint[64]=zero',
               'buffer:uint[64]=zero', 'uint:9'],
         model=model_divrem_u32, icd=True, note='LLVM DivRemPairs emits freeze at -O2'),
    Case('divrem_s32', 'divrem_s32.cl', 'divrem_s32', [64], [16],
         args=[values_spec('int', ints(64, 25, -2147483647, 2147483647)),
               values_spec('int', [v or 1 for v in ints(64, 26, -50000, 50000)]),
               'buffer:int2[64]=zero'],
         model=model_divrem_s32),
    Case('divrem_s64', 'divrem_s64.cl', 'divrem_s64', [32], [16],
         args=[values_spec('long', ints(32, 27, -(1 << 62), 1 << 62)),
               values_spec('long', [v or 7 for v in ints(32, 28, -(1 << 33), 1 << 33)]),
               'buffer:long[32]=zero', 'buffer:long[32]=zero', 'buffer:ulong[32]=zero',
               'buffer:ulong[32]=zero', 'ulong:1000000007'],
         model=model_divrem_s64),
    Case('divrem_vec', 'divrem_vec.cl', 'divrem_vec', [16], [8],
         args=[values_spec('int4', ints(64, 29, -100000, 100000)),
               values_spec('int4', [v or -1 for v in ints(64, 30, -300, 300)]),
               'buffer:int4[16]=zero', 'buffer:int4[16]=zero',
               'buffer:ushort[16]=range(1,4099)', 'buffer:ushort[16]=zero', 'ushort:37'],
         model=model_divrem_vec),
    Case('digit_sum', 'digit_sum.cl', 'digit_sum', [32], [16],
         args=[values_spec('uint', [0, 9, 10, 4294967295, 1000000000] + ints(27, 31, 0, 4294967295)),
               'buffer:uint[32]=zero', 'buffer:uchar[32]=zero', 'buffer:ulong[32]=zero'],
         model=model_digit_sum),
    Case('logic_scalar', 'logic_scalar.cl', 'logic_scalar', [64], [16],
         args=[values_spec('int', ints(64, 32, -60, 60)),
               values_spec('uint', ints(64, 33, 0, 17)), 'buffer:uchar[64]=zero',
               'int:-40', 'int:45'],
         model=model_logic_scalar),
    Case('logic_vector', 'logic_vector.cl', 'logic_vector', [32], [16],
         args=[values_spec('int4', [v if v % 5 else 0 for v in ints(128, 34, -9, 9)]),
               values_spec('float4', [v / 4 if v % 7 else (-0.0 if v & 1 else 0.0)
                                      for v in ints(128, 35, -9, 20)]),
               'buffer:int[32]=zero'],
         model=model_logic_vector, icd=True,
         note='|| chains on components: SLP vectorisation gives freeze <4 x i1> at -O2'),
    Case('any_equal8', 'any_equal8.cl', 'any_equal8', [64], [16],
         args=[values_spec('int8', ints(512, 41, 0, 12)), 'buffer:float[65]=range(-8,0.25)',
               'buffer:float[64]=zero'],
         model=model_any_equal8,
         note='|| of eight compares: an <8 x i1> bitcast to i8 at -O2'),
    Case('faces3d', 'faces3d.cl', 'faces3d', [16, 12, 8], [8, 4, 2],
         args=['buffer:float[1536]=range(-100,0.25)', 'buffer:float[1536]=zero', 'int:16',
               'int:12'],
         model=model_faces3d,
         note='3-D border tests: two <4 x i1> bitcasts to i4 at -O2'),
    Case('ternary_vector', 'ternary_vector.cl', 'ternary_vector', [16], [8],
         args=[values_spec('int4', ints(64, 36, -30000, 30000)),
               values_spec('int4', ints(64, 37, -30000, 30000)),
               values_spec('float4', [v / 8 if v != 3 else -0.0 for v in ints(64, 38, -50, 50)]),
               'buffer:int4[16]=zero', 'buffer:float4[16]=zero', 'buffer:short8[16]=zero'],
         model=model_ternary_vector),
    Case('bit_tricks', 'bit_tricks.cl', 'bit_tricks', [32], [16],
         args=[values_spec('uint', [0, 1, 0x80000000, 0xFFFFFFFF] + ints(28, 39, 0, 0xFFFFFFFF)),
               values_spec('ulong', [0, 1 << 63, 1, 0xFFFFFFFFFFFFFFFF] +
                           ints(28, 40, 0, 0xFFFFFFFFFFFFFFFF)),
               'buffer:uchar[128]=zero', 'buffer:ushort[64]=zero', 'buffer:uint[128]=zero',
               'buffer:ulong[96]=zero'],
         model=model_bit_tricks),
    Case('signed_unsigned', 'signed_unsigned.cl', 'signed_unsigned', [32], [16],
         args=[values_spec('int', ints(32, 41, -2147483648, 2147483647)),
               values_spec('uint', ints(32, 42, 0, 4294967295)),
               values_spec('char', ints(32, 43, -128, 127)), 'buffer:int[128]=zero'],
         model=model_signed_unsigned),
    Case('saturate', 'saturate.cl', 'saturate', [32], [16],
         args=[values_spec('char', ints(32, 44, -128, 127)),
               values_spec('char', ints(32, 45, -128, 127)), 'buffer:char[64]=zero',
               values_spec('ushort', ints(32, 46, 0, 65535)),
               values_spec('ushort', ints(32, 47, 0, 65535)), 'buffer:ushort[64]=zero',
               values_spec('int', ints(32, 48, -2147483648, 2147483647)),
               values_spec('int', ints(32, 49, -2147483648, 2147483647)), 'buffer:int[96]=zero',
               values_spec('long', ints(32, 50, -(1 << 63), (1 << 63) - 1)),
               values_spec('long', ints(32, 51, -(1 << 63), (1 << 63) - 1)),
               'buffer:long[64]=zero'],
         model=model_saturate),
    Case('mad_hadd', 'mad_hadd.cl', 'mad_hadd', [32], [16],
         args=[values_spec('int', [2147483647, -2147483648] + ints(30, 52, -(1 << 24), 1 << 24)),
               values_spec('int', [2147483647, -2147483648] + ints(30, 53, -(1 << 24), 1 << 24)),
               values_spec('uint', ints(32, 54, 0, 4294967295)),
               values_spec('uint', ints(32, 55, 0, 4294967295)),
               'buffer:int[128]=zero', 'buffer:uint[128]=zero', 'buffer:long[32]=zero'],
         model=model_mad_hadd,
         note='mad24 operands stay within 24 bits and their product within 31 bits'),
    Case('convert_sat', 'convert_sat.cl', 'convert_sat', [32], [16],
         args=[values_spec('float', [0.5, 1.5, 2.5, -0.5, -1.5, 254.5, 255.5, 300.0, -3.75,
                                     21.5, -21.5, 21.25] + [v / 4 for v in ints(20, 56, -1300, 1300)]),
               values_spec('int', ints(32, 57, -100000, 100000)), 'buffer:char[32]=zero',
               'buffer:uchar[32]=zero', 'buffer:short[32]=zero', 'buffer:int[128]=zero'],
         model=model_convert_sat),
]

# ========================================================================================
# Floating point (float, double, half) and vectors


def exact_op(op, a, b, base):
    """a op b computed exactly and rounded once to `base` (IEEE +, -, *)."""
    fa, fb = Fraction(a), Fraction(b)
    q = {'+': fa + fb, '-': fa - fb, '*': fa * fb}[op]
    if q == 0:    # IEEE sign of an exact zero result (round to nearest)
        if op == '*':
            return math.copysign(0.0, a) * math.copysign(1.0, b)
        return -0.0 if (math.copysign(1, a) < 0 and
                        math.copysign(1, b if op == '+' else -b) < 0) else 0.0
    return round_fraction(q, base)


def add32(a, b):
    return exact_op('+', a, b, 'float')


def zsign(r, x):
    """C rounding functions keep the sign of x on a zero result."""
    return math.copysign(0.0, x) if r == 0 else float(r)


def cfloor(x):
    return zsign(math.floor(x), x)


def cceil(x):
    return zsign(math.ceil(x), x)


def ctrunc(x):
    return zsign(math.trunc(x), x)


def cround(x):
    """C round(): halfway cases away from zero (abs(x) + 0.5 is exact in double)."""
    return math.copysign(float(math.floor(abs(x) + 0.5)), x)


def crint(x):
    return zsign(round(x), x)


def model_float_exact(args, c):
    x, y, out = (a.values for a in args)
    for i in gid_range(c):
        v, s = x[i], y[i]
        out[5 * i] = tuple(cfloor(t) for t in v)
        out[5 * i + 1] = tuple(cceil(t) + ctrunc(t) for t in v)
        out[5 * i + 2] = tuple(cround(t) - crint(t) for t in v)
        out[5 * i + 3] = tuple(min(abs(t), s) for t in v)
        out[5 * i + 4] = tuple(math.copysign(max(t, s), -t) + math.fmod(t, 1.5) for t in v)


def model_float_sqrt_fma(args, c):
    a, b, cc, root, inv, fused, hyp = (x.values for x in args)
    for i in gid_range(c):
        x, y, z = a[i], b[i], cc[i]
        root[i] = f32(math.sqrt(x))
        inv[i] = f32(1.0 / math.sqrt(x)) if x else math.inf
        fused[i] = fma(x, y, z, 'float')
        hyp[i] = f32(math.hypot(y, z))


def model_float_exp_log(args, c):
    x, e, l, s, co, p = (a.values for a in args)
    for i in gid_range(c):
        v = x[i]
        e[i] = f32(math.exp(v))
        l[i] = f32(math.log(f32(abs(v) + 1.0)))
        s[i] = f32(math.sin(v))
        co[i] = f32(math.cos(v))
        p[i] = f32(abs(v) ** 1.75)


def model_double_math(args, c):
    a, b, out = (x.values for x in args)
    for i in gid_range(c):
        x, y = a[i], b[i]
        s = x + y
        out[6 * i:6 * i + 6] = [s, x - y, x * y, x / y, math.sqrt(abs(x)), fma(x, y, s, 'double')]


def model_double_kahan(args, c):
    x, total, naive = args[0].values, args[1].values, args[2].values
    rows, cols = args[3].value, args[4].value
    for col in range(cols):
        s = cc = n = 0.0
        for r in range(rows):
            v = x[r * cols + col]
            y = v - cc
            t = s + y
            cc = (t - s) - y
            s = t
            n += v
        total[col], naive[col] = s, n


def f16_rtz(x):
    r = f16(x)
    if math.isinf(r) and not math.isinf(x):
        return math.copysign(65504.0, x)
    if abs(r) > abs(x):            # rounded away from zero: take the neighbour toward zero
        r = from_bits(bits_of(r, 'half') - 1, 'half')
    return r


def model_half_convert(args, c):
    inp, rte, rtz, back = (a.values for a in args)
    for i in range(len(inp)):
        rte[i] = f16(inp[i])
        rtz[i] = f16_rtz(inp[i])
        back[i] = rte[i] * 0.5


def model_half_arith(args, c):
    a, b, sm, prod, v4, wide, cmp = (x.values for x in args)
    for i in gid_range(c):
        x, y = a[i], b[i]
        sm[i] = f16(x + y)
        p = f16(x * y)
        prod[i] = p
        v = (x, y, f16(x - y), -x)
        v4[i] = tuple((t if t > 0 else 0.0) - abs(t) for t in v)
        wide[i] = f32(x * y)
        cmp[i] = int(x < y) | (int(x == y) << 1) | (int(p > 1.0) << 2)


def model_float_int_convert(args, c):
    n, u, l, f, d, back = (a.values for a in args)
    for i in gid_range(c):
        f[3 * i:3 * i + 3] = [f32(float(n[i])), f32(float(u[i])),
                              round_fraction(Fraction(l[i]), 'float')]
        d[i] = float(l[i])
        back[i] = math.trunc(f32(float(n[i])) * 0.25)


def model_float_sum_order(args, c):
    x, y, s4, s8 = (a.values for a in args)
    for i in gid_range(c):
        acc = x[i][0]
        for t in x[i][1:]:
            acc = add32(acc, t)
        s4[i] = acc
        acc = y[i][0]
        for t in y[i][1:]:
            acc = add32(acc, t)
        s8[i] = acc


def model_vec_sum(args, c):
    a, b, cc, d, sa, sb, sc, sd = (x.values for x in args)
    for i in gid_range(c):
        sa[i] = wrap(sum(a[i]), 'int')
        sb[i] = u32(sum(b[i]))
        sc[i] = u64(sum(cc[i]))
        sd[i] = sum(d[i])


def model_vec_swizzle(args, c):
    inp, rev, parts, mixed = (x.values for x in args)
    for i in gid_range(c):
        v = inp[i]
        rev[i] = tuple(reversed(v))
        a, b = v[:4], v[4:]
        parts[2 * i] = tuple(wrap(p + q, 'int') for p, q in zip(a[::-1], b))
        parts[2 * i + 1] = (v[1], v[3], v[4], v[6])
        mixed[i] = (b[3] - v[1], a[0] - v[0], b[1] - v[6], v[3] - v[7])


def model_vec_shuffle(args, c):
    inp, picked, mixed, out = (x.values for x in args)
    for i in gid_range(c):
        v = inp[i]
        a, b = v[:4], v[4:]
        picked[i] = (a[3], a[1])
        ab = a + b
        mixed[i] = (ab[7], ab[0], ab[5], ab[i & 7])
        by = [(v[k] >> (8 * j)) & 0xFF for k in range(4) for j in range(4)]   # little endian
        out[i] = tuple(by[((15 - j) ^ (i & 15)) & 15] for j in range(16))


def model_vec_char16(args, c):
    a, b, out, mag = (x.values for x in args)
    for i in gid_range(c):
        x, y = a[i], b[i]
        out[2 * i] = tuple(wrap(p + q, 'char') ^ (-1 if p > q else 0) for p, q in zip(x, y))
        out[2 * i + 1] = tuple(wrap(p * 3 - (q >> 2), 'char') for p, q in zip(x, y))
        mag[i] = tuple((abs(p) + (255 if q == 0 else 0)) & 0xFF for p, q in zip(x, y))


def model_vec_dot_cross(args, c):
    a, b, d, cr = (x.values for x in args)
    for i in gid_range(c):
        p, q = a[i], b[i]
        d[i] = f32(sum(s * t for s, t in zip(p, q)))
        cr[i] = (p[1] * q[2] - p[2] * q[1], p[2] * q[0] - p[0] * q[2],
                 p[0] * q[1] - p[1] * q[0], 0.0)


def model_vec3_load_store(args, c):
    p, q, h, g, w = (x.values for x in args)
    for i in gid_range(c):
        v = p[3 * i:3 * i + 3]
        zxy = (v[2], v[0], v[1])
        q[3 * i:3 * i + 3] = [wrap(t * 2 - k, 'int') for t, k in zip(zxy, (1, 2, 3))]
        s = h[3 * i:3 * i + 3]
        g[3 * i:3 * i + 3] = [(s[k] + s[(k + 1) % 3]) & 0xFFFF for k in range(3)]
        w[3 * i:3 * i + 3] = [u64(u64(t) * 0x100000001) for t in v]


def model_vec_convert(args, c):
    a, b, f, wide, narrow, bits, fl = (x.values for x in args)
    for i in gid_range(c):
        wide[i] = tuple(wrap(p * q, 'int') for p, q in zip(a[i], b[i]))
        narrow[i] = tuple(sat(q, 'uchar') for q in b[i])
        bits[i] = tuple(bits_of(t, 'float') ^ m for t, m in zip(f[i], (0x80000000, 0, 0x80000000, 0)))
        fl[i] = tuple(add32(float(p), abs(t)) for p, t in zip(a[i], f[i]))


def eighths(n, seed, lo, hi):
    return [v / 8 for v in ints(n, seed, 8 * lo, 8 * hi)]


def floats_wide(n, seed):
    """Floats of very different magnitudes (exact float values)."""
    out = []
    for k, v in enumerate(ints(n, seed, -(1 << 23), 1 << 23)):
        out.append(f32(v * 2.0 ** ((k * 7) % 40 - 20)))
    return out


CASES += [
    Case('float_exact', 'float_exact.cl', 'float_exact', [16], [8],
         args=[values_spec('float4', [0.5, -0.5, 1.5, -2.5, 2.5, -0.25, 0.0, -0.0] +
                           eighths(56, 60, -10, 10)),
               values_spec('float', [v or 1.25 for v in eighths(16, 61, -6, 6)]),
               'buffer:float4[80]=zero'],
         model=model_float_exact),
    Case('float_sqrt_fma', 'float_sqrt_fma.cl', 'float_sqrt_fma', [32], [16],
         args=[values_spec('float', [abs(v) for v in floats_wide(32, 62)]),
               values_spec('float', floats_wide(32, 63)), values_spec('float', floats_wide(32, 64)),
               'buffer:float[32]=zero', 'buffer:float[32]=zero', 'buffer:float[32]=zero',
               'buffer:float[32]=zero'],
         model=model_float_sqrt_fma, ulps={3: 3, 4: 2, 6: 4},
         note='sqrt 3 ulp, rsqrt 2 ulp, hypot 4 ulp (OpenCL C full profile); fma exact'),
    Case('float_exp_log', 'float_exp_log.cl', 'float_exp_log', [64], [16],
         args=['buffer:float[64]=range(-10,0.3125)', 'buffer:float[64]=zero',
               'buffer:float[64]=zero', 'buffer:float[64]=zero', 'buffer:float[64]=zero',
               'buffer:float[64]=zero'],
         model=model_float_exp_log, ulps={1: 3, 2: 3, 3: 4, 4: 4, 5: 16},
         note='exp/log 3 ulp, sin/cos 4 ulp, pow 16 ulp; the levels must still agree exactly'),
    Case('double_math', 'double_math.cl', 'double_math', [32], [16],
         args=[values_spec('double', [v * 1.000001 ** k for k, v in
                                      enumerate(ints(32, 65, -10 ** 9, 10 ** 9))]),
               values_spec('double', [(v or 3) / 7.0 for v in ints(32, 66, -10 ** 6, 10 ** 6)]),
               'buffer:double[192]=zero'],
         model=model_double_math),
    Case('double_kahan', 'double_kahan.cl', 'double_kahan', [8], [8],
         args=[values_spec('double', [v / 3.0 * 10.0 ** ((k % 9) - 4)
                                      for k, v in enumerate(ints(8 * 50, 67, -10 ** 6, 10 ** 6))]),
               'buffer:double[8]=zero', 'buffer:double[8]=zero', 'int:50', 'int:8'],
         model=model_double_kahan),
    Case('half_convert', 'half_convert.cl', 'half_convert', [16], [8],
         args=[values_spec('float', [1.0, 0.1, -0.1, 65504.0, 65520.0, -70000.0, 1e-5, -6e-8,
                                     2049.0, 2051.0, 0.33333334, -0.0, 3.0e-8, 1.00048828125,
                                     1.00146484375, 100000.0] + floats_wide(48, 68)),
               'buffer:half[64]=zero', 'buffer:half[64]=zero', 'buffer:float[64]=zero'],
         model=model_half_convert, icd=True,
         note='ties (2049, 1.00048828125) round to even; rtz keeps 65504 for overflow'),
    Case('half_arith', 'half_arith.cl', 'half_arith', [32], [16],
         args=[values_spec('half', [v or 0.5 for v in eighths(32, 69, -40, 40)]),
               values_spec('half', [(v or 3) / 3 for v in ints(32, 70, -300, 300)]),
               'buffer:half[32]=zero', 'buffer:half[32]=zero', 'buffer:half4[32]=zero',
               'buffer:float[32]=zero', 'buffer:uchar[32]=zero'],
         model=model_half_arith, pocl=False, note='PoCL has no cl_khr_fp16'),
    Case('float_int_convert', 'float_int_convert.cl', 'float_int_convert', [16], [16],
         args=[values_spec('int', [16777217, -16777219, 2147483647, -2147483648] +
                           ints(12, 71, -2147483648, 2147483647)),
               values_spec('uint', [4294967295, 16777217, 33554435, 0] + ints(12, 72, 0, 4294967295)),
               values_spec('long', [9223372036854775807, -9223372036854775808, (1 << 53) + 1,
                                    (1 << 24) + 1] + ints(12, 73, -(1 << 63), (1 << 63) - 1)),
               'buffer:float[48]=zero', 'buffer:double[16]=zero', 'buffer:int[16]=zero'],
         model=model_float_int_convert),
    Case('float_sum_order', 'float_sum_order.cl', 'float_sum_order', [16], [16],
         args=[values_spec('float4', [1e8, 1.0, -1e8, 1.0, 0.1, 0.2, 0.3, -0.6] + floats_wide(56, 74)),
               values_spec('float8', [3e7, 1.5, 1.5, -3e7, 1.0, 1e-3, -1.0, 7.0] +
                           floats_wide(120, 75)),
               'buffer:float[16]=zero', 'buffer:float[16]=zero'],
         model=model_float_sum_order, icd=True,
         note='(((x + y) + z) + w): any reassociation changes these sums'),
    Case('vec_sum', 'vec_sum.cl', 'vec_sum', [32], [16],
         args=[values_spec('int4', ints(128, 76, -(1 << 28), 1 << 28)),
               values_spec('uint8', ints(256, 77, 0, 4294967295)),
               values_spec('ulong2', ints(64, 78, 0, (1 << 64) - 1)),
               values_spec('short4', ints(128, 79, -32768, 32767)),
               'buffer:int[32]=zero', 'buffer:uint[32]=zero', 'buffer:ulong[32]=zero',
               'buffer:int[32]=zero'],
         model=model_vec_sum),
    Case('vec_swizzle', 'vec_swizzle.cl', 'vec_swizzle', [16], [8],
         args=[values_spec('int8', ints(128, 80, 1 - (1 << 30), (1 << 30) - 1)), 'buffer:int8[16]=zero',
               'buffer:int4[32]=zero', 'buffer:int4[16]=zero'],
         model=model_vec_swizzle),
    Case('vec_shuffle', 'vec_shuffle.cl', 'vec_shuffle', [16], [8],
         args=[values_spec('int8', ints(128, 90, -(1 << 31), (1 << 31) - 1)),
               'buffer:int2[16]=zero', 'buffer:int4[16]=zero', 'buffer:uchar16[16]=zero'],
         model=model_vec_shuffle),
    Case('vec_char16', 'vec_char16.cl', 'vec_char16', [8], [8],
         args=[values_spec('char16', [-35, 35, 0, -1] + ints(124, 81, -35, 35)),
               values_spec('char16', [0, 1, 0, -80] + [v if v % 5 else 0 for v in ints(124, 82, -80, 80)]),
               'buffer:char16[16]=zero', 'buffer:uchar16[8]=zero'],
         model=model_vec_char16),
    Case('vec_dot_cross', 'vec_dot_cross.cl', 'vec_dot_cross', [16], [16],
         args=[values_spec('float4', ints(64, 83, -100, 100)),
               values_spec('float4', ints(64, 84, -100, 100)),
               'buffer:float[16]=zero', 'buffer:float4[16]=zero'],
         model=model_vec_dot_cross),
    Case('vec3_load_store', 'vec3_load_store.cl', 'vec3_load_store', [16], [8],
         args=[values_spec('int', ints(48, 85, -(1 << 29), 1 << 29)), 'buffer:int[48]=zero',
               values_spec('ushort', ints(48, 86, 0, 65535)), 'buffer:ushort[48]=zero',
               'buffer:ulong[48]=zero'],
         model=model_vec3_load_store),
    Case('vec_convert', 'vec_convert.cl', 'vec_convert', [16], [8],
         args=[values_spec('uchar4', ints(64, 87, 0, 255)),
               values_spec('int4', ints(64, 88, -100000, 100000)),
               values_spec('float4', floats_wide(64, 89)),
               'buffer:int4[16]=zero', 'buffer:uchar4[16]=zero', 'buffer:uint4[16]=zero',
               'buffer:float4[16]=zero'],
         model=model_vec_convert),
]

# ========================================================================================
# Sub-groups (cl_khr_subgroups, cl_khr_subgroup_* extensions, cl_intel_subgroups*)
#
# sg_lanes(c) gives, per sub-group, the global ids of its lanes in lane order (1-D
# NDRanges), and the work-group id, using cases.sub_groups (linear local id order).


def sg_lanes(c):
    out = []
    for (grp, sgid), lanes in sorted(sub_groups(c, c.sub_group_size).items()):
        out.append((grp[0], sgid, [w.global_id[0] for w in lanes]))
    return out


def clusters(n, k):
    """Cluster start of each lane (clusters of k consecutive lane ids)."""
    return [l - l % k for l in range(n)]


def model_sg_clustered_switch(args, c):
    x, out, which = args[0].values, args[1].values, args[2].value
    k = {0: 2, 1: 4}.get(which, 8)
    for g, sg, ids in sg_lanes(c):
        xs = [x[i] for i in ids]
        for l, i in enumerate(ids):
            s = l - l % k
            out[i] = wrap(sum(xs[s:s + k]), 'int')


def model_sg_broadcast_if(args, c):
    x, out, nu = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        src, nsrc = (1, 6) if g & 1 else (3, 2)
        for l, i in enumerate(ids):
            out[i] = f32(x[ids[src]] + x[i])
            nu[i] = u32(ids[nsrc] * 7)


LONG_MAX = (1 << 63) - 1


def model_sg_reduce_modes(args, c):
    x, out = args[0].values, args[1].values
    for g, sg, ids in sg_lanes(c):
        xs = [x[i] for i in ids]
        for l, i in enumerate(ids):
            mode = g % 4
            if mode == 0:
                r = wrap(sum(xs), 'long')
            elif mode == 1:
                r = max(xs[:l + 1])
            elif mode == 2:
                r = min(xs[:l]) if l else LONG_MAX
            else:
                r = wrap(max(xs) - min(xs), 'long')
            out[i] = r


def model_sg_ballot_switch(args, c):
    x, out = args[0].values, args[1].values
    for g, sg, ids in sg_lanes(c):
        xs = [x[i] for i in ids]
        mode = g % 3
        if mode == 0:
            bits = [int(v > 0) for v in xs]
        elif mode == 1:
            bits = [v & 1 for v in xs]
        else:
            bits = [int(v < 10) for v in xs]
        assert any(bits), 'find_lsb/msb of an empty ballot is undefined: change the input'
        bx = sum(b << l for l, b in enumerate(bits) if l < 32)
        for l, i in enumerate(ids):
            if mode == 0:
                r = sum(bits) + 1000 * sum(bits[:l + 1])
            elif mode == 1:
                r = bits.index(1) + 100 * sum(bits[:l]) + 10000 * bits[5]
            else:
                r = max(k for k, b in enumerate(bits) if b) + 100 * bx
            out[i] = u32(r)


def model_sg_shuffle_branch(args, c):
    x, ox, oy = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        xs = [x[i] for i in ids]
        n = len(ids)
        for l, i in enumerate(ids):
            ox[i] = xs[l ^ 1] if g % 2 == 0 else xs[l ^ 6]
            oy[i] = [xs[(l + 1) % n], xs[n - 1 - l], xs[l // 2]][g % 3]


def model_sg_rotate_branch(args, c):
    x, rot, crot = (a.values for a in args)
    S = c.sub_group_size
    for g, sg, ids in sg_lanes(c):
        assert len(ids) == S
        xs = [x[i] for i in ids]
        d, cd, ck = (1, 1, 4) if g & 1 else (5, 3, 8)
        for l, i in enumerate(ids):
            rot[i] = xs[(l + d) % S]
            crot[i] = xs[l - l % ck + (l % ck + cd) % ck]


def model_sg_intel_char_short(args, c):
    s, ch, os_, oc = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        src, d = (2, 1) if g & 1 else (13, 3)
        for l, i in enumerate(ids):
            os_[i] = s[ids[src]]
            oc[i] = ch[ids[(l + d) & 15]]


def model_sg_intel_block_rw(args, c):
    us, uc, ul, ous, ouc, oul = (a.values for a in args)
    nsg = c.local[0] // 8
    for g, sg, ids in sg_lanes(c):
        b = (g * nsg + sg) * 16
        for l in range(8):
            if g % 3 == 0:
                vx, vy = us[b + l], us[b + l + 8]
                ous[b + l], ous[b + l + 8] = (vy + l) & 0xFFFF, (vx + l) & 0xFFFF
            elif g % 3 == 1:
                ouc[b + l], ouc[b + l + 8] = (uc[b + l] * 3) & 0xFF, (uc[b + l + 8] * 5) & 0xFF
            else:
                v, w = ul[b + l], ul[b + l + 8]
                oul[b + l], oul[b + l + 8] = u64(w - v), v ^ w


def model_sg_intel_shuffle_updown(args, c):
    x, out, ox = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        base = ids[0]               # 8 * (global sub-group index)
        dd, du, m = (1, 1, 3) if g & 1 else (3, 2, 4)
        for l, i in enumerate(ids):
            cur = x[base + 8 + l]
            r = x[base + 8 + l + dd] + x[base + 8 + l - du]
            out[i] = f32(r - cur)
            ox[i] = bits_of(x[base + 8 + (l ^ m)], 'float')


def model_sg_non_uniform_divergent(args, c):
    x, out, scan = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        odd = [i for i in ids if x[i] & 1]
        even = [i for i in ids if not x[i] & 1]
        for k, i in enumerate(odd):
            out[i] = wrap(sum(x[j] for j in odd), 'int')
            scan[i] = wrap(sum(x[j] for j in odd[:k + 1]), 'int')
        for k, i in enumerate(even):
            out[i] = max(x[j] for j in even)
            scan[i] = wrap(sum(x[j] for j in even[:k]), 'int')


def model_sg_vote(args, c):
    x, out, t = args[0].values, args[1].values, args[2].value
    for g, sg, ids in sg_lanes(c):
        xs = [x[i] for i in ids]
        if g & 1:
            r = int(any(v > t for v in xs)) + 2 * int(all(v > -t for v in xs))
        else:
            r = 4 * int(any(v < -t for v in xs)) + 8 * int(all(v != 0 for v in xs))
        r += 16 * int(len({cdiv(v, 1000) for v in xs}) == 1)
        for i in ids:
            out[i] = r


def model_sg_extended_types(args, c):
    ch, h, s2, oc, oh, os_ = (a.values for a in args[:6])
    mode = args[6].value
    for g, sg, ids in sg_lanes(c):
        for l, i in enumerate(ids):
            if mode == 0:
                oc[i] = wrap(sum(ch[j] for j in ids), 'char')
                oh[i] = sum(h[j] for j in ids[:l + 1]) & 0xFFFF
                os_[i] = s2[ids[7]]
            else:
                oc[i] = max(ch[j] for j in ids)
                oh[i] = max([h[j] for j in ids[:l]], default=0)
                os_[i] = s2[ids[0]]


def model_sg_elect_first(args, c):
    x, first, elected = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        act = [i for i in ids if crem(x[i], 3) != 0]
        for k, i in enumerate(act):
            first[i] = x[act[0]]
            elected[i] = int(k == 0)
        for i in ids:
            if i not in act:
                first[i] = elected[i] = -1


def model_sg_block_read_uint(args, c):
    x, out, rows = args[0].values, args[1].values, args[2].value
    for g, sg, ids in sg_lanes(c):
        s = ids[0] // 8
        p = s * 8 * rows
        for l in range(8):
            acc = 0
            for r in range(0, rows, 2):
                acc = u32(acc + x[p + r * 8 + l] * (r + 1) + x[p + r * 8 + l + 8])
            out[s * 8 + l] = acc


def model_sg_reduce_double_long(args, c):
    d, u, od, ou = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        for l, i in enumerate(ids):
            if g & 1:
                od[i] = float(sum(d[j] for j in ids))     # integers below 2^45: exact
                ou[i] = min(u[j] for j in ids)
            else:
                od[i] = max(d[j] for j in ids[:l + 1])
                ou[i] = u64(sum(u[j] for j in ids[:l + 1]))


def model_sg_broadcast_loop(args, c):
    m, x, y = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        n = len(ids)
        for l, i in enumerate(ids):
            y[i] = wrap(sum(m[i * n + k] * x[ids[k]] for k in range(n)), 'int')


def model_sg_clustered_ops(args, c):
    x, out, op = args[0].values, args[1].values, args[2].value
    fn, k = [(min, 4), (max, 2), (lambda v: functools.reduce(operator.and_, v), 8),
             (lambda v: functools.reduce(operator.or_, v), 4),
             (lambda v: functools.reduce(operator.xor, v), 2)][min(op, 4)]
    for g, sg, ids in sg_lanes(c):
        xs = [x[i] for i in ids]
        for l, i in enumerate(ids):
            s = l - l % k
            out[i] = fn(xs[s:s + k])


def vote_input(n):
    """Sub-groups of 16 with different vote outcomes: some all-equal (v / 1000), some with
    zeros, some all positive."""
    out = []
    for sg in range(n // 16):
        kind = sg % 4
        if kind == 0:
            out += [1000 + 37 * k for k in range(16)]              # all equal /1000, positive
        elif kind == 1:
            out += pattern(16, 100 + sg, -3000, 3000)
        elif kind == 2:
            out += [0 if k == 5 else -k - 1 for k in range(16)]
        else:
            out += pattern(16, 200 + sg, 1, 99)
    return out


CASES += [
    Case('sg_clustered_switch_0', 'sg_clustered_switch.cl', 'sg_clustered_switch', [64], [32],
         args=[values_spec('int', ints(64, 101, -1000, 1000)), 'buffer:int[64]=zero', 'int:0'],
         model=model_sg_clustered_switch, pocl=False, icd=True,
         note='SimplifyCFG merges the three calls into one with a phi cluster size'),
    Case('sg_clustered_switch_1', 'sg_clustered_switch.cl', 'sg_clustered_switch', [64], [32],
         args=[values_spec('int', ints(64, 102, -1000, 1000)), 'buffer:int[64]=zero', 'int:1'],
         model=model_sg_clustered_switch, pocl=False),
    Case('sg_clustered_switch_2_sg8', 'sg_clustered_switch.cl', 'sg_clustered_switch', [64],
         [24], sg=8,
         args=[values_spec('int', ints(64, 103, -1000, 1000)), 'buffer:int[64]=zero', 'int:7'],
         model=model_sg_clustered_switch, pocl=False,
         note='work-groups of 24 and a last one of 16'),
    Case('sg_broadcast_if', 'sg_broadcast_if.cl', 'sg_broadcast_if', [128], [32],
         args=[values_spec('float', ints(128, 104, -5000, 5000)), 'buffer:float[128]=zero',
               'buffer:uint[128]=zero'],
         model=model_sg_broadcast_if, pocl=False, icd=True),
    Case('sg_reduce_modes', 'sg_reduce_modes.cl', 'sg_reduce_modes', [256], [40],
         args=[values_spec('long', ints(256, 105, -(1 << 58), 1 << 58)), 'buffer:long[256]=zero'],
         model=model_sg_reduce_modes, pocl=False,
         note='work-groups of 40: sub-groups of 16, 16 and 8; the last work-group has 16'),
    Case('sg_ballot_switch', 'sg_ballot_switch.cl', 'sg_ballot_switch', [192], [32],
         args=[values_spec('int', ints(192, 106, -50, 50)), 'buffer:uint[192]=zero'],
         model=model_sg_ballot_switch, pocl=False),
    Case('sg_shuffle_branch', 'sg_shuffle_branch.cl', 'sg_shuffle_branch', [192], [32],
         args=[values_spec('uint', ints(192, 107, 0, 4294967295)), 'buffer:uint[192]=zero',
               'buffer:uint[192]=zero'],
         model=model_sg_shuffle_branch, pocl=False),
    Case('sg_rotate_branch', 'sg_rotate_branch.cl', 'sg_rotate_branch', [128], [32],
         args=['buffer:int[128]=range(1000,-7)', 'buffer:int[128]=zero', 'buffer:int[128]=zero'],
         model=model_sg_rotate_branch, pocl=False),
    Case('sg_intel_char_short', 'sg_intel_char_short.cl', 'sg_intel_char_short', [128], [32],
         reqd_sg=16,
         args=[values_spec('short', ints(128, 108, -32768, 32767)),
               values_spec('char', ints(128, 109, -128, 127)), 'buffer:short[128]=zero',
               'buffer:char[128]=zero'],
         model=model_sg_intel_char_short, pocl=False),
    Case('sg_intel_block_rw', 'sg_intel_block_rw.cl', 'sg_intel_block_rw', [96], [16],
         reqd_sg=8,
         args=[values_spec('ushort', ints(192, 110, 0, 65535)),
               values_spec('uchar', ints(192, 111, 0, 255)),
               values_spec('ulong', ints(192, 112, 0, (1 << 64) - 1)),
               'buffer:ushort[192]=zero', 'buffer:uchar[192]=zero', 'buffer:ulong[192]=zero'],
         model=model_sg_intel_block_rw, pocl=False),
    Case('sg_intel_shuffle_updown', 'sg_intel_shuffle_updown.cl', 'sg_intel_shuffle_updown',
         [64], [16], reqd_sg=8,
         args=[values_spec('float', ints(80, 113, -1000, 1000)), 'buffer:float[64]=zero',
               'buffer:uint[64]=zero'],
         model=model_sg_intel_shuffle_updown, pocl=False, icd=True),
    Case('sg_non_uniform_divergent', 'sg_non_uniform_divergent.cl', 'sg_non_uniform_divergent',
         [96], [48],
         args=[values_spec('int', ints(96, 114, -10000, 10000)), 'buffer:int[96]=zero',
               'buffer:int[96]=zero'],
         model=model_sg_non_uniform_divergent, pocl=False),
    Case('sg_vote', 'sg_vote.cl', 'sg_vote', [256], [32],
         args=[values_spec('int', vote_input(256)), 'buffer:int[256]=zero', 'int:2500'],
         model=model_sg_vote, pocl=False),
    Case('sg_extended_types_0', 'sg_extended_types.cl', 'sg_extended_types', [64], [32],
         args=[values_spec('char', ints(64, 115, -128, 127)),
               values_spec('ushort', ints(64, 116, 0, 65535)),
               values_spec('short2', ints(128, 117, -32768, 32767)), 'buffer:char[64]=zero',
               'buffer:ushort[64]=zero', 'buffer:short2[64]=zero', 'int:0'],
         model=model_sg_extended_types, pocl=False),
    Case('sg_extended_types_1', 'sg_extended_types.cl', 'sg_extended_types', [64], [32],
         args=[values_spec('char', ints(64, 118, -128, 127)),
               values_spec('ushort', ints(64, 119, 0, 65535)),
               values_spec('short2', ints(128, 120, -32768, 32767)), 'buffer:char[64]=zero',
               'buffer:ushort[64]=zero', 'buffer:short2[64]=zero', 'int:1'],
         model=model_sg_extended_types, pocl=False),
    Case('sg_elect_first', 'sg_elect_first.cl', 'sg_elect_first', [64], [32],
         args=[values_spec('int', ints(64, 121, -100, 100)), 'buffer:int[64]=zero',
               'buffer:int[64]=zero'],
         model=model_sg_elect_first, pocl=False),
    Case('sg_block_read_uint', 'sg_block_read_uint.cl', 'sg_block_read_uint', [64], [32],
         reqd_sg=8,
         args=[values_spec('uint', ints(256, 122, 0, 4294967295)), 'buffer:uint[64]=zero',
               'int:4'],
         model=model_sg_block_read_uint, pocl=False, icd=True),
    Case('sg_reduce_double_long', 'sg_reduce_double_long.cl', 'sg_reduce_double_long',
         [128], [32],
         args=[values_spec('double', ints(128, 123, -(1 << 40), 1 << 40)),
               values_spec('ulong', ints(128, 124, 0, (1 << 64) - 1)),
               'buffer:double[128]=zero', 'buffer:ulong[128]=zero'],
         model=model_sg_reduce_double_long, pocl=False),
    Case('sg_broadcast_loop', 'sg_broadcast_loop.cl', 'sg_broadcast_loop', [64], [32],
         args=[values_spec('int', ints(64 * 16, 125, -100, 100)),
               values_spec('int', ints(64, 126, -100, 100)), 'buffer:int[64]=zero'],
         model=model_sg_broadcast_loop, pocl=False),
    Case('sg_clustered_ops_min', 'sg_clustered_ops.cl', 'sg_clustered_ops', [64], [32],
         reqd_sg=8, args=[values_spec('uint', ints(64, 127, 0, 4294967295)),
                          'buffer:uint[64]=zero', 'int:0'],
         model=model_sg_clustered_ops, pocl=False),
    Case('sg_clustered_ops_and', 'sg_clustered_ops.cl', 'sg_clustered_ops', [64], [32],
         reqd_sg=8, args=[values_spec('uint', ints(64, 128, 0, 4294967295)),
                          'buffer:uint[64]=zero', 'int:2'],
         model=model_sg_clustered_ops, pocl=False),
    Case('sg_clustered_ops_xor', 'sg_clustered_ops.cl', 'sg_clustered_ops', [64], [32],
         reqd_sg=8, args=[values_spec('uint', ints(64, 129, 0, 4294967295)),
                          'buffer:uint[64]=zero', 'int:9'],
         model=model_sg_clustered_ops, pocl=False),
]

# ========================================================================================
# Atomics: every result below is independent of the order in which work-items run


def model_sg_intel_char_shuffle(args, c):
    ch, s, oc, os_ = (a.values for a in args)
    for g, sg, ids in sg_lanes(c):
        for l, i in enumerate(ids):
            if g & 1:
                oc[i], os_[i] = ch[ids[15 - l]], s[ids[l ^ 5]]
            else:
                oc[i], os_[i] = ch[ids[l ^ 9]], s[ids[(l * 3) & 15]]


def model_atomic_histogram(args, c):
    data, count, weight, nbins = args[0].values, args[1].values, args[2].values, args[3].value
    for i in gid_range(c):
        b = data[i] % nbins
        count[b] = u32(count[b] + 1)
        weight[b] = wrap(weight[b] + (data[i] & 0xFF) - 128, 'int')


def model_atomic_counter_slots(args, c):
    x, counter, taken, total, t = args[0].values, args[1].values, args[2].values, \
        args[3].values, args[4].value
    sel = [v for v in x[:c.glob[0]] if v > t]
    for k in range(len(sel)):
        taken[counter[0] + k] = 1
    counter[0] = u32(counter[0] + len(sel))
    total[0] = wrap(total[0] + sum(sel), 'int')


def model_atomic_minmax(args, c):
    x, gmin_, gmax_, gmin, gmaxu = (a.values for a in args)
    for g, first, n in cases_groups(c):
        lo, hi = min(x[first:first + n]), max(x[first:first + n])
        gmin_[g], gmax_[g] = lo, hi
        gmin[0] = min(gmin[0], lo)
        gmaxu[0] = max(gmaxu[0], u32(hi) ^ 0x80000000)


def model_atomic_cmpxchg_float(args, c):
    x, sums, n = args[0].values, args[1].values, args[2].value
    for i in gid_range(c):
        sums[i % n] = f32(sums[i % n] + x[i])       # integers: exact in any order


def model_atom_long(args, c):
    x, total, counter, ext = (a.values for a in args)
    for i in gid_range(c):
        v = x[i]
        total[0] = s64(total[0] + v)
        counter[0] = u64(counter[0] + 1)
        ext[0], ext[1] = min(ext[0], v), max(ext[1], v)
        ext[2] = s64(ext[2] ^ v)


def model_atomic_fetch_device(args, c):
    x, total, maxv, wide, bits = (a.values for a in args)
    for i in gid_range(c):
        v = x[i]
        total[0] = wrap(total[0] + v, 'int')
        maxv[0] = max(maxv[0], u32(v))
        wide[0] = s64(wide[0] + v * 1048576)
        bits[i % 2] |= 1 << (v & 31)


def model_atomic_loop(args, c):
    bins, nbins, k = args[0].values, args[1].value, args[2].value
    for i in gid_range(c):
        for j in range(k):
            b = (7 * i + j) % nbins
            bins[b] = u32(bins[b] + j + 1)


def model_atomic_local_histogram(args, c):
    data, hist = args[0].values, args[1].values
    for i in gid_range(c):
        for b in (data[i] >> 4, data[i] & 15):
            hist[b] = u32(hist[b] + 1)


def model_atomic_bitops(args, c):
    x, acc, down = args[0].values, args[1].values, args[2].values
    for i in gid_range(c):
        v = x[i]
        acc[0] |= v & 0x0F0F0F0F
        acc[1] &= u32(~(1 << (v & 31)))
        acc[2] ^= v
        down[0] = wrap(down[0] - (v & 0xFFFF), 'int')
        down[1] = wrap(down[1] - 1, 'int')


CASES += [
    Case('sg_intel_char_shuffle', 'sg_intel_char_shuffle.cl', 'sg_intel_char_shuffle',
         [128], [32], reqd_sg=16,
         args=[values_spec('char', ints(128, 130, -128, 127)),
               values_spec('short', ints(128, 131, -32768, 32767)), 'buffer:char[128]=zero',
               'buffer:short[128]=zero'],
         model=model_sg_intel_char_shuffle, pocl=False),
    Case('atomic_histogram', 'atomic_histogram.cl', 'atomic_histogram', [2048], [64],
         args=[values_spec('uint', ints(2048, 140, 0, 4294967295)), 'buffer:uint[13]=fill(5)',
               'buffer:int[13]=fill(-3)', 'uint:13'],
         model=model_atomic_histogram, icd=True,
         note='32 work-groups; OpenCL 1.x global atomics are device-wide'),
    Case('atomic_counter_slots', 'atomic_counter_slots.cl', 'atomic_counter_slots', [512],
         [64], args=[values_spec('int', ints(512, 141, -1000, 1000)), 'buffer:uint[1]=values(3)',
                     'buffer:uchar[520]=zero', 'buffer:int[1]=values(-17)', 'int:250'],
         model=model_atomic_counter_slots),
    Case('atomic_minmax', 'atomic_minmax.cl', 'atomic_minmax', [1024], [128],
         args=[values_spec('int', ints(1024, 142, -(1 << 31), (1 << 31) - 1)),
               'buffer:int[8]=zero', 'buffer:int[8]=zero', 'buffer:int[1]=values(2147483647)',
               'buffer:uint[1]=zero'],
         model=model_atomic_minmax),
    Case('atomic_cmpxchg_float', 'atomic_cmpxchg_float.cl', 'atomic_cmpxchg_float', [1024],
         [128], args=[values_spec('float', ints(1024, 143, -1000, 1000)),
                      'buffer:float[5]=fill(0.5)', 'uint:5'],
         model=model_atomic_cmpxchg_float),
    Case('atom_long', 'atom_long.cl', 'atom_long', [512], [64],
         args=[values_spec('long', ints(512, 144, -(1 << 50), 1 << 50)), 'buffer:long[1]=zero',
               'buffer:ulong[1]=values(4294967290)',
               'buffer:long[3]=values(9223372036854775807,-9223372036854775808,0)'],
         model=model_atom_long, icd=True),
    Case('atomic_fetch_device', 'atomic_fetch_device.cl', 'atomic_fetch_device', [512], [128],
         args=[values_spec('int', ints(512, 145, -100000, 100000)), 'buffer:int[1]=zero',
               'buffer:uint[1]=zero', 'buffer:long[1]=zero', 'buffer:uint[2]=zero'],
         model=model_atomic_fetch_device),
    Case('atomic_loop', 'atomic_loop.cl', 'atomic_loop', [256], [64],
         args=['buffer:uint[11]=zero', 'uint:11', 'uint:23'], model=model_atomic_loop),
    Case('atomic_local_histogram', 'atomic_local_histogram.cl', 'atomic_local_histogram',
         [1024], [128], args=[values_spec('uchar', ints(1024, 146, 0, 255)),
                              'buffer:uint[16]=fill(1)', 'local:64'],
         model=model_atomic_local_histogram),
    Case('atomic_bitops', 'atomic_bitops.cl', 'atomic_bitops', [256], [64],
         args=[values_spec('uint', ints(256, 147, 0, 4294967295)),
               'buffer:uint[3]=values(0,4294967295,0)', 'buffer:int[2]=values(0,100000)'],
         model=model_atomic_bitops),
]

# ========================================================================================
# Pointers, structs, functions, constant tables


def model_null_pointer(args, c):
    x, bias, out, flags = args[0].values, args[1], args[2].values, args[3].values
    for i in gid_range(c):
        v = x[i]
        if bias.kind != 'null':
            v = wrap(v + bias.values[i % 4], 'int')
        p_null = not (i & 1)
        flags[i] = int(p_null) + 2 * int(bias.kind == 'null') + 4 * int(not p_null and x[i] == v)
        out[i] = v


PARTICLE_WORDS = 6     # float2 pos, float2 vel, int id, uint flags: 24 bytes


def particles(n, seed):
    vals = ints(6 * n, seed, -(1 << 20), 1 << 20)
    words = []
    for k in range(n):
        v = vals[6 * k:6 * k + 6]
        pos = [f32(v[0] / 1024.0 + v[1] * 1e-3), f32(v[1] / 3.0)]
        vel = [v[2] / 65536.0 * 8 // 1 / 8, v[3] / 65536.0 * 8 // 1 / 8]   # multiples of 1/8
        words += [bits_of(pos[0], 'float'), bits_of(pos[1], 'float'),
                  bits_of(vel[0], 'float'), bits_of(vel[1], 'float'),
                  u32(v[4]), u32(v[5] * 977)]
    return words


def model_struct_buffer(args, c):
    inp, out, energy, dt = args[0].values, args[1].values, args[2].values, args[3].value
    for i in gid_range(c):
        w = inp[6 * i:6 * i + 6]
        pos = [from_bits(w[0], 'float'), from_bits(w[1], 'float')]
        vel = [from_bits(w[2], 'float'), from_bits(w[3], 'float')]
        pid, flags = wrap(w[4], 'int'), w[5]
        step = [f32(v * dt) for v in vel]
        pos = [add32(p, s) for p, s in zip(pos, step)]
        if flags & 1:
            vel = [-v for v in vel]
        flags = u32((flags >> 1) | (u32(pid) << 16))
        pid = wrap(-pid, 'int')
        out[6 * i:6 * i + 6] = [bits_of(pos[0], 'float'), bits_of(pos[1], 'float'),
                                bits_of(vel[0], 'float'), bits_of(vel[1], 'float'),
                                u32(pid), flags]
        energy[i] = f32(vel[0] * vel[0] + vel[1] * vel[1])   # exact: multiples of 1/8


def model_struct_by_value(args, c):
    (n, scale, offset), x, out = args[0].value, args[1].values, args[2].values
    for i in gid_range(c):
        out[i] = add32(f32(x[i] * scale), float(offset + n)) if i < n else x[i]


def model_byval_copies(args, c):
    """C semantics: every by-value parameter is the callee's own copy."""
    (pa, pb0, pb1, pb2, pc), inp, out = args[0].value, args[1].values, args[2].values

    def scramble(w):                         # w: the union's int
        low = (u32(w) & 0xff) ^ 0xff         # b[0] is the low byte (little-endian)
        changed = wrap((u32(w) & ~0xff) | low, 'int')
        return wrap(w * 3 + wrap(changed + 1, 'int'), 'int')

    def bump(rec, k):                        # rec: (a, [b0, b1, b2], c), copied
        a, b, cc = rec[0], list(rec[1]), rec[2]
        b = [b[j] + k * (j + 1) for j in range(3)]
        return a - k + sum(b) + int(cc * 2.0)

    def nested(o, k):                        # o: (rec, word, tag), copied
        (a, b, cc), w, tag = o
        a, tag = a * 2, wrap(tag + k, 'short')
        x, y = bump((a, b, cc), k), scramble(w)
        return x + y + a + b[1] + w + tag

    p = (pa, [pb0, pb1, pb2], pc)
    for i in gid_range(c):
        v = inp[i]
        r = (i, [v, 2 * v, -v], 1.5)
        o = (r, v, i - 4)
        res = [scramble(v), bump(r, 3), nested(o, i), bump(p, i),
               v, i + 2 * v + int(1.5 * 2.0), i, 0, v, i - 4,
               pa + pb0 + pb1 + pb2, int(pc * 4.0)]
        out[12 * i:12 * i + 12] = [wrap(x, 'int') for x in res]


def model_private_array_func(args, c):
    x, med, rng, n = args[0].values, args[1].values, args[2].values, args[3].value
    for i in gid_range(c):
        w = [x[min(max(i + k - 2, 0), n - 1)] for k in range(5)]
        med[i] = sorted(w)[2]
        rng[i] = (min(w), max(w))


def model_crc32_table(args, c):
    data, crc = args[0].values, args[1].values
    for i in gid_range(c):
        crc[i] = zlib.crc32(bytes(data[16 * i:16 * i + 16]))


def model_generic_pointers(args, c):
    x, out = args[0].values, args[1].values
    def weighted(p):
        return sum((k + 1) * v for k, v in enumerate(p))
    for i in gid_range(c):
        a = weighted([x[i] - k for k in range(4)])
        b = weighted([2 * x[j] for j in range((i & ~3), (i & ~3) + 4)])
        cc = weighted(x[(i & ~7):(i & ~7) + 8])
        out[i] = wrap(a + 3 * b + 5 * cc, 'int')


CASES += [
    Case('null_pointer_null', 'null_pointer.cl', 'null_pointer', [32], [16],
         args=['buffer:int[32]=range(-16,3)', 'null', 'buffer:int[32]=zero',
               'buffer:int[32]=zero'],
         model=model_null_pointer, icd=False),
    Case('null_pointer_bias', 'null_pointer.cl', 'null_pointer', [32], [16],
         args=['buffer:int[32]=range(-16,3)', 'buffer:int[4]=values(0,5,0,-7)',
               'buffer:int[32]=zero', 'buffer:int[32]=zero'],
         model=model_null_pointer),
    Case('struct_buffer', 'struct_buffer.cl', 'struct_buffer', [32], [16],
         args=[values_spec('uint', particles(32, 150)), 'buffer:uint[192]=zero',
               'buffer:float[32]=zero', 'float:0.5'],
         model=model_struct_buffer, icd=True,
         note='particle buffers are passed as raw uint words (24-byte structs)'),
    Case('struct_by_value', 'struct_by_value.cl', 'struct_by_value', [32], [16],
         args=['struct:int,float,short=20,1.25,-3', 'buffer:float[32]=range(-4,0.75)',
               'buffer:float[32]=zero'],
         model=model_struct_by_value, icd=True,
         note='uses the struct:TYPE,...=V,... argument form of the src/DESIGN.md contract'),
    Case('byval_copies', 'byval_copies.cl', 'byval_copies', [48], [16],
         args=['struct:int,int,int,int,float=7,-2,5,11,0.25',
               values_spec('int', ints(48, 154, -(1 << 20), 1 << 20)), 'buffer:int[576]=zero'],
         model=model_byval_copies, icd=True,
         note='callees change their by-value copies; callers read their own objects after'),
    Case('private_array_func', 'private_array_func.cl', 'private_array_func', [48], [16],
         args=[values_spec('int', ints(48, 151, -500, 500)), 'buffer:int[48]=zero',
               'buffer:int2[48]=zero', 'int:48'],
         model=model_private_array_func),
    Case('crc32_table', 'crc32_table.cl', 'crc32_table', [32], [16],
         args=[values_spec('uchar', ints(512, 152, 0, 255)), 'buffer:uint[32]=zero'],
         model=model_crc32_table, note='checked against zlib.crc32'),
    Case('generic_pointers', 'generic_pointers.cl', 'generic_pointers', [128], [64],
         args=[values_spec('int', ints(128, 153, -10000, 10000)), 'buffer:int[128]=zero'],
         model=model_generic_pointers, pocl=False,
         note='PoCL 3.1 has no generic address space (__opencl_c_generic_address_space)'),
]

# ========================================================================================
# The same kernels through Oclgrind's .sim files (`spvsim run FILE.sim --build-options ...`)

CASES += [
    Case('sim_matmul_tiled', 'matmul_tiled.sim', sim_buffers=(0, 1, 2), model=model_matmul),
    Case('sim_reduce_tree', 'reduce_tree.sim', sim_buffers=(0, 1), model=model_group_sums),
    Case('sim_divrem_u32', 'divrem_u32.sim', sim_buffers=(0, 1, 2), model=model_divrem_u32),
    Case('sim_switch_and7', 'switch_and7.sim', sim_buffers=(0, 1), model=model_switch_and7),
]
