"""The ten benchmark kernels of tools/bench/kernels/: their launches, inputs and host models.

Each kernel has two launches: `full` (the benchmark: inputs from `range`/`fill`, written
to kernels/NAME.sim by `run.py --write-sims`) and `small` (the correctness check: a few
work-groups, seeded random inputs written inline, local sizes that leave partial
sub-groups where the kernel allows). `model(values)` recomputes the outputs on the host
with numpy, independently of any simulator; it returns {argument index: (expected,
rtol, atol)}. Float models whose operations are exact (small integers, or IEEE
operations in the same order with contraction off) compare with tolerance 0.

numpy is imported only by the models, the small launches and PoCL, so that the benchmark
and --scaling run where Python has nothing but its standard library.
"""

SIZES = {'char': 1, 'uchar': 1, 'short': 2, 'ushort': 2, 'int': 4, 'uint': 4, 'long': 8,
         'ulong': 8, 'float': 4, 'double': 8}


class _LazyNumpy:
    def __getattr__(self, name):
        import numpy
        return getattr(numpy, name)


np = _LazyNumpy()


def dtype(type):
    return np.dtype({'char': 'int8', 'uchar': 'uint8', 'short': 'int16', 'ushort': 'uint16',
                     'int': 'int32', 'uint': 'uint32', 'long': 'int64', 'ulong': 'uint64',
                     'float': 'float32', 'double': 'float64'}[type]).type


class Buf:
    """A buffer argument: `count` scalars of `type`, from `range(start, inc)`,
    `fill(value)` or explicit `values` (written inline in the .sim)."""

    def __init__(self, type, count, fill=None, range=None, values=None):
        self.type, self.count, self.fill, self.range = type, count, fill, range
        self.values = values

    def array(self):
        dt = dtype(self.type)
        if self.values is not None:
            return np.asarray(self.values, dtype=dt)
        if self.range is not None:
            start, inc = self.range
            return (start + inc * np.arange(self.count, dtype=np.float64)).astype(dt)
        return np.full(self.count, self.fill or 0, dtype=dt)

    def header(self):
        size = self.count * SIZES[self.type]
        h = '<size=%d %s' % (size, self.type)
        if self.values is not None:
            body = ' '.join(num(v) for v in self.values)
            return h + '>\n' + wrap_text(body)
        if self.range is not None:
            start, inc = self.range
            h += ' range=%s:%s:%s' % (num(start), num(inc), num(start + inc * (self.count - 1)))
        else:
            h += ' fill=%s' % num(self.fill or 0)
        return h + '>'


class Scalar:
    def __init__(self, type, value):
        self.type, self.value = type, value

    def array(self):
        return dtype(self.type)(self.value)

    def header(self):
        return '<size=%d %s>\n%s' % (SIZES[self.type], self.type, num(self.value))


class Local:
    def __init__(self, bytes):
        self.bytes = bytes

    def array(self):
        return None

    def header(self):
        return '<size=%d>' % self.bytes


def num(v):
    if not isinstance(v, int) and float(v) != int(v):
        return repr(float(v))
    return str(int(v))


def wrap_text(s, width=96):
    out, line = [], ''
    for tok in s.split():
        if line and len(line) + 1 + len(tok) > width:
            out.append(line)
            line = tok
        else:
            line = tok if not line else line + ' ' + tok
    out.append(line)
    return '\n'.join(out)


class Launch:
    def __init__(self, glob, local, args, note):
        self.glob, self.local, self.args, self.note = list(glob), list(local), args, note

    def values(self):
        return [a.array() for a in self.args]

    def sim_text(self, program, kernel, one_group=False):
        glob = self.local if one_group else self.glob
        pad = lambda v: ' '.join(str(x) for x in (v + [1, 1, 1])[:3])
        lines = ['# %s' % self.note, program, kernel, pad(glob), pad(self.local)]
        lines += [a.header() for a in self.args]
        return '\n'.join(lines) + '\n'


class Kernel:
    """name: also the kernel function and the kernels/NAME.cl file; bound: 'compute' or
    'memory' (which PoCL threshold of issue 16 applies)."""

    def __init__(self, name, bound, full, small, model, build='', pocl=True, note=''):
        self.name, self.bound, self.full, self.small = name, bound, full, small
        self.model, self.build, self.pocl, self.note = model, build, pocl, note

    def launch(self, size):
        return self.full() if size == 'full' else self.small()


def rng(seed):
    return np.random.default_rng(seed)


# ---------------------------------------------------------------------------------------
# Launches and models

def gemm_launch(n, a, b, note):
    return Launch((n, n), (16, 16), [a, b, Buf('float', n * n, fill=0),
                                     Scalar('int', n)], note)


def gemm_model(v):
    a, b, n = v[0].astype(np.float64), v[1].astype(np.float64), int(v[3])
    c = a.reshape(n, n) @ b.reshape(n, n)
    return {2: (c.ravel(), 1e-5, 0)}


def gemm_small():
    r, n = rng(1), 48
    return gemm_launch(n, Buf('float', n * n, values=r.integers(-8, 9, n * n)),
                       Buf('float', n * n, values=r.integers(-8, 9, n * n)),
                       '48 x 48 gemm of small integers (exact in float)')


def mandel_launch(w, h, max_iter, local, note):
    return Launch((w, h), local, [Buf('uint', w * h, fill=0), Scalar('int', w),
                                  Scalar('int', max_iter), Scalar('float', -2.0),
                                  Scalar('float', -1.25), Scalar('float', 2.5 / w)], note)


def mandel_model(v):
    out, w, max_iter = v[0], int(v[1]), int(v[2])
    h = out.size // w
    f = np.float32
    x0, y0, step = f(v[3]), f(v[4]), f(v[5])
    cr = (x0 + step * np.arange(w, dtype=f))[None, :].repeat(h, 0)
    ci = (y0 + step * np.arange(h, dtype=f))[:, None].repeat(w, 1)
    zr, zi = np.zeros_like(cr), np.zeros_like(ci)
    it = np.zeros(cr.shape, np.uint32)
    live = np.ones(cr.shape, bool)
    for _ in range(max_iter):  # the kernel's loop, all lanes at once, float32 throughout
        live &= (zr * zr + zi * zi) <= f(4)
        if not live.any():
            break
        t = zr * zr - zi * zi + cr
        nzi = f(2) * zr * zi + ci
        zr, zi = np.where(live, t, zr), np.where(live, nzi, zi)
        it += live
    return {0: (it.ravel(), 0, 0)}


def fmath_model(v):
    x, iters = v[0].astype(np.float64), int(v[2])
    acc = np.zeros_like(x)
    for _ in range(iters):
        t = x * 0.75 + 0.25
        acc += np.sqrt(t) * 0.5 + np.sin(t) * np.exp(-t)
        acc += np.cos(t) * 0.125 + np.log1p(t) * 0.0625
        x = t
    return {1: (acc, 2e-5, 1e-5)}


def fmath_launch(n, local, inp, iters, note):
    return Launch((n,), (local,), [inp, Buf('float', n, fill=0),
                                   Scalar('int', iters)], note)


def ihash_model(v):
    h = v[0].astype(np.uint64) ^ 0x9e3779b9
    acc = np.zeros_like(h)
    m = np.uint64(0xFFFFFFFF)
    for r in range(int(v[2])):
        h = (h ^ (h << np.uint64(13))) & m
        h ^= h >> np.uint64(17)
        h = (h ^ (h << np.uint64(5))) & m
        h = (h * np.uint64(0x85ebca6b)) & m
        s = np.uint64(r & 31)
        h = ((h << s) | (h >> ((np.uint64(32) - s) & np.uint64(31)))) & m if s else h
        acc = (acc + popcount32(h) + (h >> np.uint64(28))) & m
    return {1: ((h ^ acc).astype(np.uint32), 0, 0)}


def popcount32(h):
    c = np.zeros_like(h)
    for b in range(32):
        c += (h >> np.uint64(b)) & np.uint64(1)
    return c


def ihash_launch(n, local, inp, rounds, note):
    return Launch((n,), (local,), [inp, Buf('uint', n, fill=0),
                                   Scalar('int', rounds)], note)


def reduce_launch(n, local, inp, note):
    return Launch((n,), (local,), [inp, Buf('int', n // local, fill=0),
                                   Local(4 * local)], note)


def reduce_model(v):
    groups = v[1].size
    sums = v[0].astype(np.int64).reshape(groups, -1).sum(axis=1)
    return {1: (((sums + 2**31) % 2**32 - 2**31).astype(np.int32), 0, 0)}


def reduce_small():
    return reduce_launch(2048, 256, Buf('int', 2048, values=rng(4).integers(-2**31, 2**31, 2048)),
                         '2048 random ints (wrapping sums), 8 work-groups of 256')


def stencil_launch(w, h, local, inp, note):
    return Launch((w, h), local, [inp, Buf('float', w * h, fill=0),
                                  Scalar('int', w), Scalar('int', h)], note)


def stencil_model(v):
    w, h = int(v[2]), int(v[3])
    a = v[0].reshape(h, w)
    f = np.float32
    out = a.copy()
    out[1:-1, 1:-1] = f(0.5) * a[1:-1, 1:-1] + f(0.125) * (
        (a[1:-1, :-2] + a[1:-1, 2:]) + (a[:-2, 1:-1] + a[2:, 1:-1]))
    # Contraction may fuse 0.5f * c + 0.125f * (...): one rounding of difference at most.
    return {1: (out.ravel(), 1e-6, 0)}


def triad_launch(n, local, b, c, s, note):
    return Launch((n,), (local,), [Buf('float', n, fill=0), b, c,
                                   Scalar('float', s)], note)


def triad_model(v):
    f = np.float32
    # Contraction may fuse s * c + b: one rounding less, hence the absolute tolerance.
    return {0: (v[1] + f(v[3]) * v[2], 1e-6, 1e-6)}


def nbody_launch(n, local, pos, vel, note):
    return Launch((n,), (local,), [pos, vel, Buf('float', 4 * n, fill=0),
                                   Scalar('int', n), Scalar('float', 0.01),
                                   Scalar('float', 0.5)], note)


def nbody_model(v):
    pos, vel, n = v[0].astype(np.float64).reshape(-1, 4), v[1].astype(np.float64), int(v[3])
    dt, eps2 = float(v[4]), float(v[5])
    d = pos[None, :n, :3] - pos[:, None, :3]
    r2 = (d * d).sum(axis=2) + eps2
    a = (d * (pos[None, :n, 3] * r2 ** -1.5)[:, :, None]).sum(axis=1)
    acc = np.concatenate([a, np.zeros((len(a), 1))], axis=1)
    out = vel.reshape(-1, 4) + acc * dt
    scale = np.abs(acc * dt).max() + 1e-30  # rsqrt's few ulps, summed over n bodies
    return {2: (out.ravel(), 1e-4, 1e-4 * scale)}


def hist_launch(n, local, inp, note):
    return Launch((n,), (local,), [inp, Buf('uint', 256, fill=0)], note)


def hist_model(v):
    bins = ((v[0].astype(np.uint64) * 2654435761) & 0xFFFFFFFF) >> 24
    return {1: (np.bincount(bins.astype(np.int64), minlength=256).astype(np.uint32), 0, 0)}


KERNELS = [
    Kernel('gemm', 'compute',
           lambda: gemm_launch(256, Buf('float', 65536, range=(0, 1)),
                               Buf('float', 65536, fill=0.5),
                               '256 x 256 float matrix product, 16 x 16 tiles in local memory'),
           gemm_small, gemm_model),
    Kernel('mandel', 'compute',
           lambda: mandel_launch(512, 512, 128, (16, 16),
                                 '512 x 512 Mandelbrot, up to 128 iterations per pixel'),
           lambda: mandel_launch(80, 40, 64, (10, 4),
                                 '80 x 40 Mandelbrot, 10 x 4 work-groups (partial sub-groups)'),
           mandel_model),
    Kernel('fmath', 'compute',
           lambda: fmath_launch(65536, 256, Buf('float', 65536, range=(0, 0.25)), 64,
                                '64K work-items x 64 iterations of fma, sqrt, sin, exp, cos, log'),
           lambda: fmath_launch(1000, 40, Buf('float', 1000, values=rng(2).uniform(0, 4, 1000)
                                              .astype(np.float32)), 8,
                                '1000 work-items in groups of 40, 8 iterations'),
           fmath_model),
    Kernel('ihash', 'compute',
           lambda: ihash_launch(262144, 256, Buf('uint', 262144, range=(0, 1)), 32,
                                '256K work-items x 32 rounds of xorshift, multiply, rotate, popcount'),
           lambda: ihash_launch(1000, 40, Buf('uint', 1000, values=rng(3).integers(0, 2**32, 1000)),
                                40, '1000 random words in groups of 40, 40 rounds'),
           ihash_model),
    Kernel('lreduce', 'memory',
           lambda: reduce_launch(1048576, 256, Buf('int', 1048576, range=(0, 1)),
                                 '1M ints summed per 256-item work-group, tree in local memory'),
           reduce_small, reduce_model),
    Kernel('sgreduce', 'memory',
           lambda: reduce_launch(1048576, 256, Buf('int', 1048576, range=(0, 1)),
                                 'lreduce through sub_group_reduce_add (cl_khr_subgroups)'),
           reduce_small, reduce_model, pocl=False,
           note='needs cl_khr_subgroups: Oclgrind has none; PoCL only where it reports them'),
    Kernel('stencil', 'memory',
           lambda: stencil_launch(1024, 1024, (16, 16), Buf('float', 1048576, range=(0, 1)),
                                  '1024 x 1024 float grid, one 5-point Jacobi step'),
           lambda: stencil_launch(60, 36, (12, 6), Buf('float', 2160, values=rng(5).integers(
               -100, 100, 2160)), '60 x 36 grid of small integers, 12 x 6 work-groups'),
           stencil_model),
    Kernel('triad', 'memory',
           lambda: triad_launch(4194304, 256, Buf('float', 4194304, range=(0, 1)),
                                Buf('float', 4194304, fill=2), 3.0,
                                'STREAM triad a = b + s * c over 4M floats'),
           lambda: triad_launch(1000, 40, Buf('float', 1000, values=rng(6).uniform(-1, 1, 1000)
                                              .astype(np.float32)),
                                Buf('float', 1000, values=rng(7).uniform(-1, 1, 1000)
                                    .astype(np.float32)), 1.5,
                                '1000 random floats in groups of 40'),
           triad_model),
    Kernel('nbody', 'compute',
           lambda: nbody_launch(2048, 128, Buf('float', 8192, range=(0, 1)),
                                Buf('float', 8192, fill=0),
                                '2048 bodies, all pairs (float4 positions, rsqrt)'),
           lambda: nbody_launch(200, 40, Buf('float', 800, values=rng(8).uniform(0.5, 2, 800)
                                             .astype(np.float32)),
                                Buf('float', 800, values=rng(9).uniform(-1, 1, 800)
                                    .astype(np.float32)),
                                '200 random bodies in groups of 40'),
           nbody_model),
    Kernel('hist', 'memory',
           lambda: hist_launch(1048576, 256, Buf('uint', 1048576, range=(0, 1)),
                               '1M words into 256 bins with global atomic_inc'),
           lambda: hist_launch(3000, 40, Buf('uint', 3000, values=rng(10).integers(0, 2**32, 3000)),
                               '3000 random words in groups of 40'),
           hist_model),
]
