// Access chains (OpAccessChain, OpPtrAccessChain and their InBounds forms): the handlers
// for constant, one-index, multi-index and other dynamic chains, each with a plain path
// checked once per instruction and an exact one, and the lowering that picks one per
// chain. The handler templates the fused chain + access handlers share are in
// src/exec/ops/access_chain.h.
#include "src/exec/ops/access_chain.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "src/exec/ops/array_bounds.h"
#include "src/exec/ops/host_cpu.h"
#include "src/exec/ops/memory_ops.h"

namespace spvsim::ops::chain {
namespace {

// Index `k`'s register value of lane `l`, sign-extended (indices are signed).
int64_t indexValue(const SubGroup& sg, const uint32_t* q, uint32_t l) {
  return ops::signedIndex(sg.regs + q[0] + size_t(l) * q[1], q[1]);
}

// The exact byte delta of lane `l`'s dynamic indices plus the constant.
int64_t exactDelta(const SubGroup& sg, const Inst& in, uint32_t l) {
  const uint32_t* p = sg.extra + in.aux;
  int64_t delta = constantDelta(in);
  for (uint32_t k = 0; k < p[0]; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    const int64_t stride = int64_t(q[2] | (uint64_t(q[3]) << 32));
    delta = addDeltas(delta, scaledIndex(indexValue(sg, q, l), stride));
  }
  return delta;
}

}  // namespace

// The slow path of every access chain: each active lane exactly.
void exactAccessChain(SubGroup& sg, const Inst& in, bool dynamic) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint64_t* base = sg.reg<uint64_t>(in.a);
  sg.forActive([&](uint32_t l) {
    r[l] = offsetPointer(base[l], dynamic ? exactDelta(sg, in, l) : constantDelta(in));
  });
}

namespace {

// Constant indices only (struct members, constant array indices).
void constantAccessChain(SubGroup& sg, const Inst& in) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint64_t* base = sg.reg<uint64_t>(in.a);
  const uint64_t constant = uint64_t(constantDelta(in));
  uint64_t moved = 0;
  sg.forActive([&](uint32_t l) {
    const uint64_t b = base[l], v = b + constant;
    moved |= b ^ v;
    r[l] = v;
  });
  const RegShape s = sg.shapeOf(in.a);
  if (plainSumsExact(moved)) [[likely]]
    return sg.setShape(in, s);  // each lane's pointer plus one constant
  exactAccessChain(sg, in, false);
  sg.setShape(in, lanewiseShape(s));
}

// Several dynamic indices, or a stride too large for accessChain1.
void dynamicAccessChain(SubGroup& sg, const Inst& in) {
  exactAccessChain(sg, in, true);
  sg.setShape(in, RegShape::Unknown);
}

// Two to kMaxPlainIndices dynamic indices (a 2-D array `As[ly][k]` at -O0..-O3): each
// lane's delta as a plain sum. Lowering admits a chain only when the sum cannot reach
// kDeltaLimit: |constant| < kPlainMultiConstant and every stride < kPlainMultiStride, so
// with 32-bit indices (64-bit ones checked here) no partial sum saturates and the plain
// delta is the exact one; plainSumsExact then checks the pointer as accessChain1 does.
constexpr uint32_t kMaxPlainIndices = 4;
constexpr int64_t kPlainMultiConstant = int64_t(1) << 60;
constexpr uint64_t kPlainMultiStride = uint64_t(1) << 27;

// Adds index * stride to every lane's delta, in blocks of 16 that the compiler
// vectorises (unsigned: inactive lanes' registers may hold anything); returns nonzero
// when a 64-bit index of any lane is 2^31 or more in magnitude (then the caller goes the
// exact way, which only looks at active lanes).
constexpr uint32_t kLaneBlock = 16;  // blocks of a known trip count vectorise at -O2

// GCC's -O2 cost model ("very cheap") leaves loops that reduce (the `moved` and `big`
// bits) scalar; the multi-index access chain's loops are built with the cheap model
// (gemm: 1.33x at --threads 1). Integer loops only: results do not change.
#if defined(__clang__)
#define SPVSIM_VECTORISE_REDUCTIONS  // clang's own cost model vectorises them
#else
#define SPVSIM_VECTORISE_REDUCTIONS [[gnu::optimize("vect-cost-model=cheap")]]
#endif

// Whether every lane's index equals lane 0's (inactive lanes included: a mismatch there
// only costs the per-lane sum).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool uniformIndex(const I* __restrict idx, uint32_t width) {
  const I first = idx[0];
  I diff = 0;
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) diff |= idx[i] ^ first;
  for (uint32_t i = 0; i < width; ++i) diff |= idx[i] ^ first;
  return diff == 0;
}

// Adds index * stride to every lane's delta (unsigned: inactive lanes' registers may
// hold anything).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS void addScaledIndices(const I* __restrict idx, uint64_t stride,
                                                  uint64_t* __restrict delta, uint32_t width) {
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock, delta += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) delta[i] += uint64_t(int64_t(idx[i])) * stride;
  for (uint32_t i = 0; i < width; ++i) delta[i] += uint64_t(int64_t(idx[i])) * stride;
}

// Whether a 64-bit index of an active lane is 2^31 or more in magnitude (the plain sum is
// then not known to be exact: the caller goes the exact way).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool bigIndex(const SubGroup& sg, const I* idx) {
  if constexpr (sizeof(I) < 8) {
    return false;
  } else {
    uint64_t big = 0;
    sg.forActive([&](uint32_t l) { big |= (uint64_t(idx[l]) + (uint64_t(1) << 31)) >> 32; });
    return big != 0;
  }
}

// One dynamic index of accessChainN: folded into `constant` when uniform, else added to
// the lanes' deltas (`perLane` says some were). Returns false for a big index.
// With every lane active, bigIndex and uniformIndex in one pass over whole blocks:
// returns false for a big index, and says whether every index equals the first.
template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool scanAllIndices(const I* __restrict idx, uint32_t width,
                                                bool& uniform) {
  const I first = idx[0];
  I diff = 0;
  uint64_t big = 0;
  auto scan = [&](I v) {
    diff |= v ^ first;
    if constexpr (sizeof(I) == 8) big |= (uint64_t(v) + (uint64_t(1) << 31)) >> 32;
  };
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) scan(idx[i]);
  for (uint32_t i = 0; i < width; ++i) scan(idx[i]);
  uniform = diff == 0;
  return big == 0;
}

// addScaledIndices for a power-of-two stride: a shift (x86 has no 64-bit vector multiply
// before AVX-512).
template <class I>
SPVSIM_VECTORISE_REDUCTIONS void addShiftedIndices(const I* __restrict idx, unsigned shift,
                                                   uint64_t* __restrict delta, uint32_t width) {
  for (; width >= kLaneBlock; width -= kLaneBlock, idx += kLaneBlock, delta += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) delta[i] += uint64_t(int64_t(idx[i])) << shift;
  for (uint32_t i = 0; i < width; ++i) delta[i] += uint64_t(int64_t(idx[i])) << shift;
}

template <class I>
SPVSIM_VECTORISE_REDUCTIONS bool addIndex(const SubGroup& sg, const uint32_t* q, uint64_t& constant,
                                          uint64_t* delta, bool& perLane) {
  const I* idx = sg.reg<I>(q[0]);
  bool uniform;
  if (sg.allActive) {
    if (!scanAllIndices(idx, sg.width, uniform)) return false;
  } else {
    if (bigIndex(sg, idx)) return false;
    uniform = uniformIndex(idx, sg.width);
  }
  const uint64_t stride = q[2];
  if (uniform) {
    constant += uint64_t(int64_t(idx[0])) * stride;
    return true;
  }
  if (!perLane) std::fill_n(delta, sg.width, uint64_t(0));
  perLane = true;
  if ((stride & (stride - 1)) == 0)
    addShiftedIndices(idx, unsigned(std::countr_zero(stride | (uint64_t(1) << 63))), delta,
                      sg.width);
  else
    addScaledIndices(idx, stride, delta, sg.width);
  return true;
}

// Each active lane's pointer moved by `constant` plus its delta (none: `delta` null);
// returns the bits the moves changed.
SPVSIM_VECTORISE_REDUCTIONS uint64_t movePointers(const SubGroup& sg,
                                                  const uint64_t* __restrict base,
                                                  uint64_t constant,
                                                  const uint64_t* __restrict delta,
                                                  uint64_t* __restrict r) {
  uint64_t moved = 0;
  if (!sg.allActive) {
    sg.forActive([&](uint32_t l) {
      r[l] = base[l] + constant + (delta ? delta[l] : 0);
      moved |= base[l] ^ r[l];
    });
    return moved;
  }
  uint32_t width = sg.width;
  if (!delta) {
    for (; width >= kLaneBlock; width -= kLaneBlock, base += kLaneBlock, r += kLaneBlock)
      for (uint32_t i = 0; i < kLaneBlock; ++i) {
        r[i] = base[i] + constant;
        moved |= base[i] ^ r[i];
      }
    for (uint32_t i = 0; i < width; ++i) {
      r[i] = base[i] + constant;
      moved |= base[i] ^ r[i];
    }
    return moved;
  }
  for (; width >= kLaneBlock;
       width -= kLaneBlock, base += kLaneBlock, delta += kLaneBlock, r += kLaneBlock)
    for (uint32_t i = 0; i < kLaneBlock; ++i) {
      r[i] = base[i] + constant + delta[i];
      moved |= base[i] ^ r[i];
    }
  for (uint32_t i = 0; i < width; ++i) {
    r[i] = base[i] + constant + delta[i];
    moved |= base[i] ^ r[i];
  }
  return moved;
}

bool affineChainN(SubGroup& sg, const Inst& in);

}  // namespace

SPVSIM_VECTORISE_REDUCTIONS void accessChainN(SubGroup& sg, const Inst& in) {
  if (sg.allActive && affineChainN(sg, in)) return;
  sg.setShape(in, RegShape::Unknown);
  const uint32_t* p = sg.extra + in.aux;
  uint64_t delta[kMaxSubGroupSize];
  uint64_t constant = uint64_t(constantDelta(in));
  bool perLane = false, plain = true;
  for (uint32_t k = 0; k < p[0] && plain; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    switch (q[1]) {
      case 1:
        plain = addIndex<int8_t>(sg, q, constant, delta, perLane);
        break;
      case 2:
        plain = addIndex<int16_t>(sg, q, constant, delta, perLane);
        break;
      case 4:
        plain = addIndex<int32_t>(sg, q, constant, delta, perLane);
        break;
      default:
        plain = addIndex<int64_t>(sg, q, constant, delta, perLane);
        break;
    }
  }
  if (plain) {
    const uint64_t moved = movePointers(sg, sg.reg<uint64_t>(in.a), constant,
                                        perLane ? delta : nullptr, sg.reg<uint64_t>(in.r));
    if (plainSumsExact(moved)) [[likely]]
      return;
  }
  exactAccessChain(sg, in, true);
}

namespace {

using U64Block = uint64_t __attribute__((vector_size(32), aligned(8)));  // may be unaligned

// Adds each lane's index times `stride` to its sum, 4 lanes a block; a 64-bit index of 2^31
// or more in magnitude sets `big` (as accessChainN's bigIndex).

template <class I>
SPVSIM_HOST_TARGET("avx2,fma")
inline void addIndexBlocks(U64x4* sum, const I* idx, uint64_t stride, uint32_t blocks, U64x4& big) {
  const bool power = stride != 0 && (stride & (stride - 1)) == 0;
  const int shift = std::countr_zero(stride | (uint64_t(1) << 63));
  for (uint32_t b = 0; b < blocks; ++b) {
    const I64x4 i = fourIndices(idx + 4 * b);
    sum[b] += power ? U64x4(i << shift) : U64x4(i) * stride;
    if constexpr (sizeof(I) == 8) big |= (U64x4(i) + (uint64_t(1) << 31)) >> 32;
  }
}

// The pointers from lane 0's delta `first`, the last lane's `last` and the step.
[[gnu::always_inline]] inline bool fillAffineChain(SubGroup& sg, const Inst& in, int64_t first,
                                                   int64_t last, int64_t step) {
  uint64_t p0;
  if (!affineStart(sg, in, first, last, p0)) return false;
  fillAffine(sg.reg<uint64_t>(in.r), p0, uint64_t(step), sg.width);
  sg.setShape(in, RegShape::Affine);
  return true;
}

bool affineChainN(SubGroup& sg, const Inst& in) {
  if (sg.shapeOf(in.a) != RegShape::Uniform || !sg.keepsShapes()) return false;
  const uint32_t* p = sg.extra + in.aux;
  const int64_t lanes = sg.width - 1;
  int64_t first = constantDelta(in), last = first, step = 0;
  for (uint32_t k = 0; k < p[0]; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    const bool ok = q[1] == 1   ? addAffineIndex<int8_t>(sg, q, lanes, first, last, step)
                    : q[1] == 2 ? addAffineIndex<int16_t>(sg, q, lanes, first, last, step)
                    : q[1] == 4 ? addAffineIndex<int32_t>(sg, q, lanes, first, last, step)
                                : addAffineIndex<int64_t>(sg, q, lanes, first, last, step);
    if (!ok) return false;
  }
  return fillAffineChain(sg, in, first, last, step);
}

}  // namespace

// accessChainN for a full sub-group of a multiple of 4 lanes, built for AVX2: each lane's
// sum (base + constant + each index times its stride) in 4-lane vectors, without the
// uniformity scan (the sums are the same), with accessChainN's big-index and exactness
// tests. False: the exact path must redo the chain.
SPVSIM_HOST_TARGET("avx2,fma")
bool plainChainNAllLanesAvx2(SubGroup& sg, const Inst& in) {
  const uint32_t* p = sg.extra + in.aux;
  const uint32_t blocks = sg.width / 4;
  const U64Block* base = reinterpret_cast<const U64Block*>(sg.reg<uint64_t>(in.a));
  const uint64_t constant = uint64_t(constantDelta(in));
  U64x4 sum[kMaxSubGroupSize / 4];
  for (uint32_t b = 0; b < blocks; ++b) sum[b] = base[b] + constant;
  U64x4 big = {};
  for (uint32_t k = 0; k < p[0]; ++k) {
    const uint32_t* q = p + 1 + kIndexWords * k;
    switch (q[1]) {
      case 1:
        addIndexBlocks(sum, sg.reg<int8_t>(q[0]), q[2], blocks, big);
        break;
      case 2:
        addIndexBlocks(sum, sg.reg<int16_t>(q[0]), q[2], blocks, big);
        break;
      case 4:
        addIndexBlocks(sum, sg.reg<int32_t>(q[0]), q[2], blocks, big);
        break;
      default:
        addIndexBlocks(sum, sg.reg<int64_t>(q[0]), q[2], blocks, big);
        break;
    }
  }
  U64Block* r = reinterpret_cast<U64Block*>(sg.reg<uint64_t>(in.r));
  U64x4 moved = {};
  for (uint32_t b = 0; b < blocks; ++b) {
    moved |= base[b] ^ sum[b];
    r[b] = sum[b];
  }
  return plainSumsExact(moved[0] | moved[1] | moved[2] | moved[3]) &&
         (big[0] | big[1] | big[2] | big[3]) == 0;
}

namespace {

void accessChainNAvx2(SubGroup& sg, const Inst& in) {
  if (!sg.allActive || sg.width % 4 != 0) return accessChainN(sg, in);
  if (affineChainN(sg, in)) return;
  plainChainNAvx2(sg, in);
}

// accessChainNAvx2, specialised where every index has one type of 4 or 8 bytes and there
// are two or three of them (2-D and 3-D arrays); nullptr otherwise.
ExecFn specialisedChainNAvx2(const std::vector<uint32_t>& dynamic) {
  const uint32_t count = dynamic[0], bytes = dynamic[2];
  for (uint32_t k = 0; k < count; ++k)
    if (dynamic[2 + kIndexWords * k] != bytes) return nullptr;
  if (bytes == 4)
    return count == 2   ? &accessChainNAvx2Of<2, int32_t>
           : count == 3 ? &accessChainNAvx2Of<3, int32_t>
                        : nullptr;
  if (bytes == 8)
    return count == 2   ? &accessChainNAvx2Of<2, int64_t>
           : count == 3 ? &accessChainNAvx2Of<3, int64_t>
                        : nullptr;
  return nullptr;
}

// Whether accessChainN computes this chain exactly (see there).
bool fitsPlainMultiIndex(const std::vector<uint32_t>& dynamic, int64_t constant) {
  if (dynamic[0] < 2 || dynamic[0] > kMaxPlainIndices) return false;
  if (constant <= -kPlainMultiConstant || constant >= kPlainMultiConstant) return false;
  for (uint32_t k = 0; k < dynamic[0]; ++k) {
    const uint32_t* q = dynamic.data() + 1 + kIndexWords * k;
    const uint32_t size = q[1];
    if (q[3] != 0 || q[2] >= kPlainMultiStride) return false;
    if (size != 1 && size != 2 && size != 4 && size != 8) return false;
  }
  return true;
}

// `F`, or `F` followed by the array index check (src/exec/ops/array_bounds.h).
template <ExecFn F>
ExecFn withChecks(bool checked) {
  return checked ? &ops::checkedAccessChain<F> : F;
}

ExecFn pickAccessChain(const std::vector<uint32_t>& dynamic, int64_t constant, bool checked) {
  if (dynamic[0] == 0) return withChecks<&constantAccessChain>(checked);
  if (fitsPlainMultiIndex(dynamic, constant)) {
    if (!ops::hostHasAvx2Fma()) return withChecks<&accessChainN>(checked);
    if (ExecFn f = specialisedChainNAvx2(dynamic); f && !checked) return f;
    return withChecks<&accessChainNAvx2>(checked);
  }
  const uint64_t stride = dynamic[3] | (uint64_t(dynamic[4]) << 32);
  if (dynamic[0] > 1 || stride >= kPlainStrideLimit)
    return withChecks<&dynamicAccessChain>(checked);
  switch (dynamic[2]) {
    case 1:
      return withChecks<&accessChain1<int8_t>>(checked);
    case 2:
      return withChecks<&accessChain1<int16_t>>(checked);
    case 4:
      return withChecks<&accessChain1<int32_t>>(checked);
    case 8:
      return withChecks<&accessChain1<int64_t>>(checked);
    default:
      return withChecks<&dynamicAccessChain>(checked);
  }
}

}  // namespace
}  // namespace spvsim::ops::chain

namespace spvsim::ops {

using spirv::Id;
using spirv::TypeKind;

// Walks the indices of (Ptr)AccessChain: constant indices fold into one offset. Indices
// into arrays (not the Element operand, whose base may be any element of an array the
// chain cannot see) are checked against the array's length (src/exec/ops/array_bounds.h).
void lowerAccessChain(Lowerer& lw, const spirv::Instruction& inst, bool hasElement) {
  Id base = inst.operands.at(0);
  Id type = lw.type(lw.typeIdOfValue(base)).element;
  int64_t constant = 0;
  std::vector<uint32_t> dynamic{0};
  ops::ArrayIndexChecks checks;
  auto addIndex = [&](Id index, uint64_t stride) {
    checks.moved(!lw.isConstant(index) || lw.constantValue(index) != 0);
    if (lw.isConstant(index)) {
      const spirv::Type& it = lw.typeOfValue(index);
      uint64_t v = lw.constantValue(index);
      int64_t s = it.size == 4   ? int32_t(v)
                  : it.size == 2 ? int16_t(v)
                  : it.size == 1 ? int8_t(v)
                                 : int64_t(v);
      constant = addDeltas(constant, scaledIndex(s, int64_t(stride)));
      return;
    }
    dynamic.insert(dynamic.end(), {lw.reg(index), uint32_t(lw.typeOfValue(index).size),
                                   uint32_t(stride), uint32_t(stride >> 32)});
    ++dynamic[0];
  };
  size_t first = 1;
  if (hasElement) {
    addIndex(inst.operands.at(1), lw.type(type).size);
    first = 2;
  }
  for (size_t k = first; k < inst.operands.size(); ++k) {
    const spirv::Type& t = lw.type(type);
    if (t.kind == TypeKind::Struct) {
      uint64_t member = lw.constantValue(inst.operands[k]);
      checks.moved(t.memberOffsets.at(member) != 0);
      constant = addDeltas(constant, int64_t(t.memberOffsets.at(member)));
      type = t.members.at(member);
    } else {
      const Id array = t.kind == TypeKind::Array ? type : 0;
      type = t.element;
      addIndex(inst.operands[k], lw.type(type).size);
      if (array) checks.add(lw, inst.operands[k], array);
    }
  }
  uint32_t b = lw.reg(base);
  uint32_t at = dynamic[0] ? lw.addExtra(dynamic) : 0;
  // Only a chain of one array index (after the Element operand) is a source subscript
  // `a[i]` as clang emits it at -O0; LLVM's optimisers merge pointer arithmetic into the
  // last index of longer chains (a byte view of a struct becomes an index into its first
  // char array), where the index may validly exceed that array's length.
  const bool subscript = inst.operands.size() == first + 1;
  const std::optional<uint32_t> checked =
      checks.empty() || !subscript ? std::nullopt : checks.emit(lw, inst.result);
  Inst& in = lw.emit(inst, chain::pickAccessChain(dynamic, constant, checked.has_value()));
  lw.keepsShape(in, inst.result);  // every chain handler records its result's shape
  in.a = b;
  in.b = uint32_t(uint64_t(constant));
  in.c = uint32_t(uint64_t(constant) >> 32);
  in.aux = at;
  in.aux2 = checked.value_or(0);
}

}  // namespace spvsim::ops
