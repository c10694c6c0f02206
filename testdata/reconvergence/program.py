#!/usr/bin/python3
"""Random structured OpenCL C programs for the reconvergence corpus (issue 37), and their
models.

A program is a small tree of statements, in the spirit of VK-GL-CTS's `reconvergence/`
tests:

  ('ballot', ID, OP)                      record the active lanes (one record per lane)
  ('if', COND, THEN, ELSE)                ELSE may be [] (no else)
  ('for', L, TRIP, BODY)                  for (uint iL = 0; iL < TRIP; iL++) BODY
  ('break',) / ('continue',)              only as the last statement of an if's THEN arm
                                          inside a loop (never in an ELSE arm)

Conditions and trip counts depend on the lane (its id, bits of its input value v) and on
the counters of the enclosing loops. Each ballot appends to the lane's own slots of `out`
the record (ID, KEY, MASK): KEY packs the enclosing loops' counters (4 bits each, counter
+ 1, outermost lowest), MASK the lanes that executed this ballot together (the low word of
sub_group_ballot(1), or sub_group_non_uniform_reduce_or/add of 1 << lane: the same mask).
`cnt[lane]` is the number of records. No barriers and no uniform sub-group functions
(both undefined behaviour in non-uniform control flow).

Two models, independent of spvsim:

- `sequential(prog, lanes, inputs)`: each lane on its own, as C defines it: its list of
  (ID, KEY). Two lanes with the same (ID, KEY) executed the same *dynamic instance* of the
  ballot (KEY names every enclosing loop's iteration); `instance_sets` gives, per record,
  the lanes of that instance. Any reconvergence that never merges different iterations
  gives masks within these sets (maximal reconvergence gives exactly these sets).

- `ipdom(prog, lanes, inputs)`: what spvsim's `--reconvergence ipdom` (the default) must
  give for the module clang-15 makes at -O0. src/DESIGN.md, "Reconvergence": kernel
  SPIR-V has no structured control flow; divergent lanes reconverge at the immediate
  post-dominator of the branch, a SIMT stack of {pc, mask, rpc}. The model builds the
  control-flow graph clang emits at -O0 for these statements (for.cond / for.body /
  for.inc / for.end, if.then / if.else / if.end, break -> for.end, continue -> for.inc),
  computes post-dominators itself and runs the SIMT stack. This differs from maximal
  reconvergence exactly where an if whose arm breaks or continues sits inside another if
  of the same loop body: the outer if's immediate post-dominator is then for.end or
  for.inc, not its if.end, and its two sides stay apart for the rest of that iteration
  (break: for the rest of the loop).
"""

import random

# --------------------------------------------------------------------------------------
# Expressions: (C text, Python function of (lane, v, counters)).

def cond_text(c):
    k = c[0]
    if k == 'vbit':
        return '((v >> %du) & 1u) != 0u' % c[1]
    if k == 'lanelt':
        return 'lane < %du' % c[1]
    if k == 'lanebit':
        return '((lane >> %du) & 1u) != 0u' % c[1]
    if k == 'veqi':
        return '((v >> %du) & 3u) == i%d' % (c[1], c[2])
    if k == 'ieq':
        return 'i%d == %du' % (c[1], c[2])
    if k == 'vmod3':
        return '((v >> %du) %% 3u) == %du' % (c[1], c[2])
    raise ValueError(c)


def cond_value(c, lane, v, ctr):
    k = c[0]
    if k == 'vbit':
        return (v >> c[1]) & 1 != 0
    if k == 'lanelt':
        return lane < c[1]
    if k == 'lanebit':
        return (lane >> c[1]) & 1 != 0
    if k == 'veqi':
        return (v >> c[1]) & 3 == ctr[c[2]]
    if k == 'ieq':
        return ctr[c[1]] == c[2]
    if k == 'vmod3':
        return (v >> c[1]) % 3 == c[2]
    raise ValueError(c)


def trip_text(t):
    k = t[0]
    if k == 'vbits':
        return '((v >> %du) & 3u) + %du' % (t[1], t[2])
    if k == 'lane':
        return '((lane >> %du) & 3u) + %du' % (t[1], t[2])
    if k == 'const':
        return '%du' % t[1]
    if k == 'outer':
        return 'i%d + 1u' % t[1]
    raise ValueError(t)


def trip_value(t, lane, v, ctr):
    k = t[0]
    if k == 'vbits':
        return ((v >> t[1]) & 3) + t[2]
    if k == 'lane':
        return ((lane >> t[1]) & 3) + t[2]
    if k == 'const':
        return t[1]
    if k == 'outer':
        return ctr[t[1]] + 1
    raise ValueError(t)


def key_of(loops, ctr):
    key = 0
    for d, l in enumerate(loops):
        key |= (ctr[l] + 1) << (4 * d)
    return key


def key_text(loops):
    if not loops:
        return '0u'
    return ' | '.join('((i%d + 1u) << %du)' % (l, 4 * d) for d, l in enumerate(loops))


# --------------------------------------------------------------------------------------
# Generator.

BALLOT_OPS = ('ballot', 'reduce_or', 'reduce_add')
MAX_RECORDS = 48      # per lane; larger programs are drawn again
MAX_LOOP_DEPTH = 3


class Generator:
    def __init__(self, seed, lanes):
        self.rng = random.Random(seed)
        self.lanes = lanes
        self.next_ballot = 1
        self.next_loop = 0
        self.budget = 0

    def cond(self, loops):
        r = self.rng
        kinds = ['vbit'] * 4 + ['lanelt', 'lanebit', 'vmod3']
        if loops:
            kinds += ['veqi'] * 2 + ['ieq']
        k = r.choice(kinds)
        if k == 'vbit':
            return ('vbit', r.randrange(32))
        if k == 'lanelt':
            return ('lanelt', r.randrange(1, self.lanes))
        if k == 'lanebit':
            return ('lanebit', r.randrange(self.lanes.bit_length() - 1))
        if k == 'vmod3':
            return ('vmod3', r.randrange(30), r.randrange(3))
        if k == 'veqi':
            return ('veqi', r.randrange(31), r.choice(loops))
        return ('ieq', r.choice(loops), r.randrange(3))

    def trip(self, loops):
        r = self.rng
        kinds = ['vbits'] * 3 + ['lane', 'const']
        if loops:
            kinds.append('outer')
        k = r.choice(kinds)
        if k == 'vbits':
            return ('vbits', r.randrange(31), r.randrange(2))
        if k == 'lane':
            return ('lane', r.randrange(self.lanes.bit_length() - 2), r.randrange(2))
        if k == 'const':
            return ('const', r.randrange(1, 4))
        return ('outer', r.choice(loops))

    def ballot(self):
        b = ('ballot', self.next_ballot, self.rng.choice(BALLOT_OPS))
        self.next_ballot += 1
        return b

    def block(self, loops, depth, min_len=1):
        """A statement list; may end (when in a loop and asked by the caller) elsewhere."""
        r = self.rng
        n = r.randrange(min_len, 4)
        out = []
        for _ in range(n):
            self.budget -= 1
            if depth >= 4 or self.budget <= 0:
                out.append(self.ballot())
                continue
            choices = ['ballot'] * (3 + depth) + ['if'] * 3
            if len(loops) < MAX_LOOP_DEPTH:
                choices += ['for'] * 2
            k = r.choice(choices)
            if k == 'ballot':
                out.append(self.ballot())
            elif k == 'if':
                c = self.cond(loops)
                then = self.block(loops, depth + 1)
                if loops and r.random() < 0.45:
                    then.append((r.choice(['break', 'continue']),))
                els = self.block(loops, depth + 1) if r.random() < 0.5 else []
                out.append(('if', c, then, els))
            else:
                lid = self.next_loop
                self.next_loop += 1
                t = self.trip(loops)
                body = self.block(loops + [lid], depth + 1)
                out.append(('for', lid, t, body))
        return out


def generate(seed, lanes):
    """The program of `seed` (its statements, loop count) and the inputs of its lanes."""
    attempt = 0
    while True:
        g = Generator(seed * 1000 + attempt, lanes)
        g.budget = 16
        prog = g.block([], 0, min_len=2)
        inputs = [g.rng.getrandbits(32) for _ in range(lanes)]
        recs = sequential(prog, lanes, inputs)
        most = max(len(x) for x in recs)
        if 1 <= most <= MAX_RECORDS:
            return prog, inputs, most
        attempt += 1


# The reproducer kept as nested_break.cl (program 0 of the corpus, sub-group size 8):
# an if whose arm breaks, inside another if of the loop body. Under ipdom the outer if's
# immediate post-dominator is for.end (its then side may break), so the odd lanes that
# stay (1, 5) and the even lanes run ballot 1 apart in both iterations (masks 0x22 and
# 0x55), where maximal reconvergence (SPV_KHR_maximal_reconvergence) runs them together
# at the outer if's end (0x77): ipdom is not maximal reconvergence for structured code.
NESTED_BREAK = [
    ('for', 0, ('const', 2), [
        ('if', ('lanebit', 0), [
            ('if', ('lanebit', 1), [('break',)], []),
        ], []),
        ('ballot', 1, 'ballot'),
    ]),
    ('ballot', 2, 'ballot'),
]
NESTED_BREAK_LANES = 8


# --------------------------------------------------------------------------------------
# OpenCL C.

def kernel_source(name, prog, max_records):
    lines = ['kernel void %s(global const uint *in, global uint *out, global uint *cnt) {' % name,
             '  uint lane = get_sub_group_local_id();',
             '  uint v = in[lane];',
             '  uint n = 0u;']

    def emit(stmts, loops, ind):
        pad = '  ' * ind
        for s in stmts:
            k = s[0]
            if k == 'ballot':
                _, bid, op = s
                if op == 'ballot':
                    m = 'sub_group_ballot(1).x'
                elif op == 'reduce_or':
                    m = 'sub_group_non_uniform_reduce_or(1u << lane)'
                else:
                    m = 'sub_group_non_uniform_reduce_add(1u << lane)'
                lines.append(pad + '{ uint m = %s; uint o = (lane * %du + n) * 3u; '
                             'out[o] = %du; out[o + 1u] = %s; out[o + 2u] = m; n++; }'
                             % (m, max_records, bid, key_text(loops)))
            elif k == 'if':
                _, c, then, els = s
                lines.append(pad + 'if (%s) {' % cond_text(c))
                emit(then, loops, ind + 1)
                if els:
                    lines.append(pad + '} else {')
                    emit(els, loops, ind + 1)
                lines.append(pad + '}')
            elif k == 'for':
                _, l, t, body = s
                lines.append(pad + 'for (uint i%d = 0u; i%d < %s; i%d++) {' % (l, l, trip_text(t), l))
                emit(body, loops + [l], ind + 1)
                lines.append(pad + '}')
            else:
                lines.append(pad + k + ';')

    emit(prog, [], 1)
    lines.append('  cnt[lane] = n;')
    lines.append('}')
    return '\n'.join(lines) + '\n'


# --------------------------------------------------------------------------------------
# Model 1: each lane on its own (C semantics).

class _Escape(Exception):
    def __init__(self, kind):
        self.kind = kind


def sequential(prog, lanes, inputs):
    """Per lane, its records (ID, KEY) in program order."""
    result = []
    for lane in range(lanes):
        v = inputs[lane]
        ctr = {}
        recs = []

        def run(stmts, loops):
            for s in stmts:
                k = s[0]
                if k == 'ballot':
                    recs.append((s[1], key_of(loops, ctr)))
                elif k == 'if':
                    run(s[2] if cond_value(s[1], lane, v, ctr) else s[3], loops)
                elif k == 'for':
                    _, l, t, body = s
                    ctr[l] = 0
                    while ctr[l] < trip_value(t, lane, v, ctr):
                        try:
                            run(body, loops + [l])
                        except _Escape as e:
                            if e.kind == 'break':
                                break
                        ctr[l] += 1
                else:
                    raise _Escape(k)

        run(prog, [])
        result.append(recs)
    return result


def instance_sets(seq):
    """(ID, KEY) -> mask of the lanes that executed that dynamic instance."""
    sets = {}
    for lane, recs in enumerate(seq):
        for r in recs:
            sets[r] = sets.get(r, 0) | (1 << lane)
    return sets


# --------------------------------------------------------------------------------------
# Model 2: the SIMT stack at immediate post-dominators over clang's -O0 CFG.

EXIT = -1


class _Block:
    def __init__(self, name):
        self.name = name
        self.ops = []        # ('ballot', ID, loops) | ('set', L) | ('inc', L)
        self.term = None     # ('jump', B) | ('br', kind, X, loops?, BT, BF) | ('exit',)


def build_cfg(prog):
    blocks = []

    def new(name):
        blocks.append(_Block(name))
        return len(blocks) - 1

    def build(stmts, cur, loops, brk, cont):
        """Returns the block control falls through to, or None after break/continue."""
        for s in stmts:
            k = s[0]
            if k == 'ballot':
                blocks[cur].ops.append(('ballot', s[1], tuple(loops)))
            elif k == 'if':
                _, c, then, els = s
                t = new('if.then')
                e = new('if.else') if els else None
                end = new('if.end')
                blocks[cur].term = ('br', ('cond', c), t, e if els else end)
                tf = build(then, t, loops, brk, cont)
                if tf is not None:
                    blocks[tf].term = ('jump', end)
                if els:
                    ef = build(els, e, loops, brk, cont)
                    assert ef is not None
                    blocks[ef].term = ('jump', end)
                cur = end
            elif k == 'for':
                _, l, trip, body = s
                cond = new('for.cond')
                bod = new('for.body')
                inc = new('for.inc')
                end = new('for.end')
                blocks[cur].ops.append(('set', l))
                blocks[cur].term = ('jump', cond)
                blocks[cond].term = ('br', ('trip', trip, l), bod, end)
                bf = build(body, bod, loops + [l], end, inc)
                if bf is not None:
                    blocks[bf].term = ('jump', inc)
                blocks[inc].ops.append(('inc', l))
                blocks[inc].term = ('jump', cond)
                cur = end
            elif k == 'break':
                blocks[cur].term = ('jump', brk)
                return None
            else:
                blocks[cur].term = ('jump', cont)
                return None
        return cur

    entry = new('entry')
    last = build(prog, entry, [], None, None)
    blocks[last].term = ('exit',)
    return blocks, entry


def successors(b):
    t = b.term
    if t[0] == 'jump':
        return [t[1]]
    if t[0] == 'br':
        return [t[2], t[3]]
    return [EXIT]


def immediate_post_dominators(blocks):
    """Block -> its immediate post-dominator (EXIT for the virtual exit)."""
    n = len(blocks)
    everything = frozenset(range(n)) | {EXIT}
    pdom = {EXIT: frozenset([EXIT])}
    for b in range(n):
        pdom[b] = everything
    changed = True
    while changed:
        changed = False
        for b in reversed(range(n)):
            succ = successors(blocks[b])
            new = frozenset.intersection(*[pdom[s] for s in succ]) | {b}
            if new != pdom[b]:
                pdom[b] = new
                changed = True
    ipdom = {}
    for b in range(n):
        strict = pdom[b] - {b}
        # The nearest strict post-dominator is the one with the most post-dominators.
        ipdom[b] = max(strict, key=lambda d: len(pdom[d]))
    return ipdom


def ipdom(prog, lanes, inputs):
    """Per lane, its records (ID, KEY, MASK) under a SIMT stack reconverging at immediate
    post-dominators, over the CFG clang emits at -O0."""
    blocks, entry = build_cfg(prog)
    ip = immediate_post_dominators(blocks)
    ctr = [dict() for _ in range(lanes)]
    recs = [[] for _ in range(lanes)]
    stack = [[entry, (1 << lanes) - 1, None]]     # [pc, mask, rpc]
    steps = 0
    while stack:
        steps += 1
        assert steps < 10 ** 6, 'model does not terminate'
        top = stack[-1]
        pc, mask, rpc = top
        if pc == rpc or pc == EXIT:
            stack.pop()
            continue
        act = [l for l in range(lanes) if mask >> l & 1]
        blk = blocks[pc]
        for op in blk.ops:
            for l in act:
                if op[0] == 'ballot':
                    recs[l].append((op[1], key_of(op[2], ctr[l]), mask))
                elif op[0] == 'set':
                    ctr[l][op[1]] = 0
                else:
                    ctr[l][op[1]] += 1
        t = blk.term
        if t[0] == 'jump':
            top[0] = t[1]
            continue
        if t[0] == 'exit':
            top[0] = EXIT
            continue
        groups = {}
        for l in act:
            what = t[1]
            if what[0] == 'cond':
                taken = cond_value(what[1], l, inputs[l], ctr[l])
            else:
                taken = ctr[l][what[2]] < trip_value(what[1], l, inputs[l], ctr[l])
            tgt = t[2] if taken else t[3]
            groups[tgt] = groups.get(tgt, 0) | (1 << l)
        if len(groups) == 1:
            top[0] = next(iter(groups))
            continue
        r = ip[pc]
        top[0] = r
        for tgt, m in groups.items():
            if tgt != r:
                stack.append([tgt, m, r])
    return recs


if __name__ == '__main__':
    import sys
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    lanes = int(sys.argv[2]) if len(sys.argv) > 2 else 16
    prog, inputs, most = generate(seed, lanes)
    sys.stdout.write(kernel_source('p%d' % seed, prog, most))
    print('// inputs: ' + ','.join(str(x) for x in inputs))
    for lane, r in enumerate(ipdom(prog, lanes, inputs)):
        print('// lane %d: %s' % (lane, ' '.join('(%d,%#x,%#x)' % x for x in r)))
