// The access-chain handlers that the fused chain + access handlers
// (src/exec/ops/fused_access.cc) also run or compute from, for chains of one index
// (accessChain1) and of two or three indices of one type (accessChainNAvx2Of): their
// plain, affine and exact paths, as templates inline in both files, so that a fused
// handler computes its addresses exactly as the chain would and falls back to the very
// handler the chain has (the fusion recognises a chain by its handler's address). The
// rest of the chain handlers and their lowering are in src/exec/ops/access_chain.cc.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/exec/lowered.h"
#include "src/exec/memory.h"
#include "src/exec/ops/host_cpu.h"
#include "src/exec/register_shape.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops::chain {

// Access chains move a pointer within its object (src/exec/memory.h): the space and region
// bits never change, and offsets too far for the pointer saturate. The handlers add
// plainly per lane (the common case: a valid pointer moving a little) and check once per
// instruction, with plainSumsExact, that this equalled offsetPointer; otherwise they
// recompute every lane exactly, index times stride and sums clamped to kDeltaLimit.
//
// extra at in.aux: [count, (indexReg, indexBytes, strideLo, strideHi)*]; in.a: base;
// in.b, in.c: the low and high words of the constant byte offset (a clamped delta).
constexpr uint32_t kIndexWords = 4;
// A plain sum needs an exact delta below 2^63: the constant is within kDeltaLimit (2^61),
// and accessChain1 runs for strides below 2^31, where an index of up to 32 bits times
// the stride stays below 2^62 (64-bit indices are checked with the multiply's overflow).
constexpr uint64_t kPlainStrideLimit = uint64_t(1) << 31;

inline int64_t constantDelta(const Inst& in) {
  return int64_t(uint64_t(in.b) | (uint64_t(in.c) << 32));
}

// The slow path of every access chain: each active lane exactly.
void exactAccessChain(SubGroup& sg, const Inst& in, bool dynamic);

// The common shape: one dynamic index, e.g. OpInBoundsPtrAccessChain %p %i, with a
// stride below kPlainStrideLimit.
//
// With every lane active and 32- or 64-bit indices, two lanes per SSE2 operation
// (vector types: -O2 leaves loops of a run-time trip count scalar): a power-of-two stride
// is a shift. 64-bit indices of 2^31 or more in magnitude go the exact way (the plain
// product is then not known to be exact without the multiply's overflow flag).
using U64x2 = uint64_t __attribute__((vector_size(16)));
using I64x2 = int64_t __attribute__((vector_size(16)));

template <class I>
I64x2 loadIndices2(const I* p) {
  return I64x2{int64_t(p[0]), int64_t(p[1])};
}

// Returns whether every plain sum was exact (else the caller recomputes exactly).
template <class I, class Scale>
bool plainChainAllLanes(uint64_t* r, const uint64_t* base, const I* idx, uint32_t width,
                        uint64_t constant, Scale scale) {
  U64x2 moved = {}, big = {};
  uint32_t l = 0;
  for (; l + 2 <= width; l += 2) {
    const I64x2 i = loadIndices2(idx + l);
    U64x2 b;
    std::memcpy(&b, base + l, sizeof b);
    const U64x2 v = b + constant + U64x2(scale(i));
    moved |= b ^ v;
    if constexpr (sizeof(I) == 8) big |= (U64x2(i) + (uint64_t(1) << 31)) >> 32;
    std::memcpy(r + l, &v, sizeof v);
  }
  uint64_t movedAll = moved[0] | moved[1], bigAll = big[0] | big[1];
  for (; l < width; ++l) {
    const int64_t i = int64_t(idx[l]);
    const uint64_t v = base[l] + constant + uint64_t(scale(I64x2{i, 0})[0]);
    movedAll |= base[l] ^ v;
    if constexpr (sizeof(I) == 8) bigAll |= (uint64_t(i) + (uint64_t(1) << 31)) >> 32;
    r[l] = v;
  }
  return plainSumsExact(movedAll) && bigAll == 0;
}

// The same four lanes per AVX2 operation, on CPUs that have it (hostHasAvx2Fma; the
// sums, and so the pointers, are the same).
using U64x4 = uint64_t __attribute__((vector_size(32)));
using I64x4 = int64_t __attribute__((vector_size(32)));
using I32x4 = int32_t __attribute__((vector_size(16)));

// Four lanes' indices of type I, sign-extended to 64 bits.
template <class I>
SPVSIM_HOST_TARGET("avx2,fma")
inline I64x4 fourIndices(const I* idx) {
  if constexpr (sizeof(I) == 8) {
    I64x4 v;
    std::memcpy(&v, idx, sizeof v);
    return v;
  } else {
    // Spelled out: GCC ignores vector_size on a dependent type.
    using I8x4 = int8_t __attribute__((vector_size(4)));
    using I16x4 = int16_t __attribute__((vector_size(8)));
    using Narrow =
        std::conditional_t<sizeof(I) == 1, I8x4, std::conditional_t<sizeof(I) == 2, I16x4, I32x4>>;
    Narrow n;
    std::memcpy(&n, idx, sizeof n);
    return __builtin_convertvector(n, I64x4);
  }
}

template <class I, bool kShift>
SPVSIM_HOST_TARGET("avx2,fma")
bool plainChainAllLanesAvx2(uint64_t* r, const uint64_t* base, const I* idx, uint32_t width,
                            uint64_t constant, int64_t scale) {
  U64x4 moved = {}, big = {};
  uint32_t l = 0;
  for (; l + 4 <= width; l += 4) {
    const I64x4 i = fourIndices(idx + l);
    U64x4 b;
    std::memcpy(&b, base + l, sizeof b);
    const U64x4 v = b + constant + U64x4(kShift ? i << scale : i * scale);
    moved |= b ^ v;
    if constexpr (sizeof(I) == 8) big |= (U64x4(i) + (uint64_t(1) << 31)) >> 32;
    std::memcpy(r + l, &v, sizeof v);
  }
  uint64_t movedAll = moved[0] | moved[1] | moved[2] | moved[3];
  uint64_t bigAll = big[0] | big[1] | big[2] | big[3];
  for (; l < width; ++l) {
    const int64_t i = int64_t(idx[l]);
    const uint64_t v = base[l] + constant + uint64_t(kShift ? i << scale : i * scale);
    movedAll |= base[l] ^ v;
    if constexpr (sizeof(I) == 8) bigAll |= (uint64_t(i) + (uint64_t(1) << 31)) >> 32;
    r[l] = v;
  }
  return plainSumsExact(movedAll) && bigAll == 0;
}

template <class I>
bool plainChainAllLanes(SubGroup& sg, const Inst& in, uint64_t* r, const uint64_t* base,
                        const I* idx, int64_t stride, uint64_t constant) {
  const bool power = stride != 0 && (stride & (stride - 1)) == 0;
  const int shift = std::countr_zero(uint64_t(stride));
  if (ops::hostHasAvx2Fma())
    return power ? plainChainAllLanesAvx2<I, true>(r, base, idx, sg.width, constant, shift)
                 : plainChainAllLanesAvx2<I, false>(r, base, idx, sg.width, constant, stride);
  return power ? plainChainAllLanes(r, base, idx, sg.width, constant,
                                    [shift](I64x2 i) { return i << shift; })
               : plainChainAllLanes(r, base, idx, sg.width, constant,
                                    [stride](I64x2 i) { return i * stride; });
}

// r[l] = v0 + l * d for every lane (the pointers of an affine chain): two lanes per SSE2
// store, unrolled for the common widths.
inline void fillAffine(uint64_t* r, uint64_t v0, uint64_t d, uint32_t width) {
  using U64x2 = uint64_t __attribute__((vector_size(16)));
  U64x2 v = {v0, v0 + d};
  const U64x2 advance = {2 * d, 2 * d};
  uint32_t l = 0;
  if (width % 8 == 0) {
    for (; l < width; l += 8) {
#pragma GCC unroll 4
      for (uint32_t k = 0; k < 8; k += 2, v += advance) std::memcpy(r + l + k, &v, sizeof v);
    }
    return;
  }
  for (; l + 2 <= width; l += 2, v += advance) std::memcpy(r + l, &v, sizeof v);
  if (l < width) r[l] = v[0];
}

// A uniform base and an affine index (src/exec/register_shape.h): every lane's plain sum
// is lane 0's plus l times one step. The exact sums are linear in l, so when both end
// points stay in the base's object (plainSumsExact) and the index within +-2^31 (as the
// plain path requires), every lane's does. affineAddresses1 gives lane 0's pointer `p0`
// and the step `d` from the index's lane 0 value `first` and its step; false where that
// does not hold (or the base is not uniform, or shapes are not kept).
[[gnu::always_inline]] inline bool affineAddresses1(const SubGroup& sg, const Inst& in,
                                                    int64_t first, int64_t step, uint64_t& p0,
                                                    uint64_t& d) {
  if (sg.shapeOf(in.a) != RegShape::Uniform || !sg.keepsShapes()) return false;
  const int64_t stride = sg.extra[in.aux + 3];
  const int64_t limit = int64_t(kPlainStrideLimit);
  // |first| < 2^31 and |step| < 2^32 first (a 64-bit index may have any step), then at
  // most 127 steps: no product here overflows.
  if (first < -limit || first >= limit || step <= -2 * limit || step >= 2 * limit) return false;
  const int64_t last = first + step * (sg.width - 1);
  if (last < -limit || last >= limit) return false;
  // b + delta keeps b's bits from 39 up exactly when its biased offset stays in range;
  // |index * stride| < 2^62 and |constant| <= 2^61.
  const uint64_t b = sg.reg<uint64_t>(in.a)[0];
  const int64_t offset = int64_t(b & kBiasedMask), c = constantDelta(in);
  const int64_t at0 = offset + c + first * stride, atLast = offset + c + last * stride;
  const int64_t end = int64_t(kBiasedMask);
  if (at0 < 0 || at0 > end || atLast < 0 || atLast > end) return false;
  p0 = b + uint64_t(c + first * stride);
  d = uint64_t(step * stride);
  return true;
}

// affineAddresses1 of the index register `idx` (affine or uniform).
template <class I>
[[gnu::always_inline]] inline bool affineAddresses1Of(const SubGroup& sg, const Inst& in,
                                                      uint64_t& p0, uint64_t& d) {
  const uint32_t index = sg.extra[in.aux + 1];
  if (!affineOrUniform(sg.shapeOf(index)) || !sg.keepsShapes()) return false;
  const I* idx = sg.reg<I>(index);
  using U = std::make_unsigned_t<I>;
  return affineAddresses1(sg, in, idx[0], I(U(U(idx[1]) - U(idx[0]))), p0, d);
}

// The pointers written without reading the index register again, and affine. False:
// nothing written. Inlined into accessChain1, as when they shared a file.
template <class I>
[[gnu::always_inline]] inline bool affineChain1(SubGroup& sg, const Inst& in) {
  uint64_t p0, d;
  if (!affineAddresses1Of<I>(sg, in, p0, d)) return false;
  fillAffine(sg.reg<uint64_t>(in.r), p0, d, sg.width);
  sg.setShape(in, RegShape::Affine);
  return true;
}

template <class I>
void accessChain1(SubGroup& sg, const Inst& in) {
  uint64_t* r = sg.reg<uint64_t>(in.r);
  const uint64_t* base = sg.reg<uint64_t>(in.a);
  const uint32_t* p = sg.extra + in.aux;
  const I* idx = sg.reg<I>(p[1]);
  const int64_t stride = p[3];
  const uint64_t constant = uint64_t(constantDelta(in));
  if constexpr (sizeof(I) >= 4) {
    if (sg.allActive) {
      if (affineChain1<I>(sg, in)) return;
      if (!plainChainAllLanes(sg, in, r, base, idx, stride, constant)) [[unlikely]]
        exactAccessChain(sg, in, true);
      // The same base and index in every lane: the same pointer.
      return sg.setShape(in, [&] { return lanewiseShape(sg.shapeOf(in.a), sg.shapeOf(p[1])); });
    }
  }
  sg.setShape(in, RegShape::Unknown);
  uint64_t moved = 0;
  bool overflow = false;
  sg.forActive([&](uint32_t l) {
    const uint64_t b = base[l];
    int64_t scaled;
    if constexpr (sizeof(I) == 8) {
      if (__builtin_mul_overflow(int64_t(idx[l]), stride, &scaled)) [[unlikely]]
        overflow = true;
    } else {
      scaled = int64_t(idx[l]) * stride;  // exact: |idx| < 2^31, stride < kPlainStrideLimit
    }
    const uint64_t v = b + constant + uint64_t(scaled);
    moved |= b ^ v;
    r[l] = v;
  });
  if (!plainSumsExact(moved) || overflow) [[unlikely]]
    exactAccessChain(sg, in, true);
}

// Two to four dynamic indices, each lane's delta as a plain sum (access_chain.cc).
void accessChainN(SubGroup& sg, const Inst& in);

// affineChain1 for two to four indices (a chain that accessChainN takes: strides below
// 2^27, the constant below 2^60): a uniform base and affine indices, each within +-2^31
// and its own type's range at both end points, give exact sums linear in l.

// Whether -top <= v < top (top <= 2^32), as one unsigned comparison.
inline bool within(int64_t v, int64_t top) {
  return uint64_t(v) + uint64_t(top) < 2 * uint64_t(top);
}

// One index of type I: lanes 0 and 1 give lane 0's index and the step (modulo 2^bits);
// adds index * stride of lane 0 and of the last lane to `first` and `last`, and the
// step's to `step`. False where the index is not affine or leaves its range.
template <class I>
[[gnu::always_inline]] inline bool addAffineIndex(const SubGroup& sg, const uint32_t* q,
                                                  int64_t lanes, int64_t& first, int64_t& last,
                                                  int64_t& step) {
  if (!affineOrUniform(sg.shapeOf(q[0]))) return false;
  using U = std::make_unsigned_t<I>;
  const I* reg = sg.reg<I>(q[0]);
  const int64_t i0 = reg[0], di = I(U(U(reg[1]) - U(reg[0])));
  constexpr int64_t top =
      sizeof(I) >= 4 ? int64_t(kPlainStrideLimit) : int64_t(1) << (8 * sizeof(I) - 1);
  // Narrower indices are in range by their type, and so are their steps.
  if constexpr (sizeof(I) == 8)
    if (!within(i0, top) || !within(di, 2 * top)) return false;  // then |di| <= 2^32
  const int64_t iLast = i0 + di * lanes;                         // exact
  if (!within(iLast, top)) return false;
  const int64_t stride = int64_t(q[2]);
  first += i0 * stride, last += iLast * stride, step += di * stride;
  return true;
}

// Lane 0's pointer from its delta `first`, once both end points (`first` and the last
// lane's `last`) lie in the (uniform) base's object.
[[gnu::always_inline]] inline bool affineStart(const SubGroup& sg, const Inst& in, int64_t first,
                                               int64_t last, uint64_t& p0) {
  const uint64_t b = sg.reg<uint64_t>(in.a)[0];
  const int64_t offset = int64_t(b & kBiasedMask), end = int64_t(kBiasedMask);
  if (offset + first < 0 || offset + first > end || offset + last < 0 || offset + last > end)
    return false;
  p0 = b + uint64_t(first);
  return true;
}

// affineChainN's lane 0 pointer `p0` and step `d` for kCount indices of type I, without
// writing them.
template <uint32_t kCount, class I>
[[gnu::always_inline]] inline bool affineAddressesN(const SubGroup& sg, const Inst& in,
                                                    uint64_t& p0, uint64_t& d) {
  if (sg.shapeOf(in.a) != RegShape::Uniform || !sg.keepsShapes()) return false;
  const uint32_t* p = sg.extra + in.aux + 1;
  const int64_t lanes = sg.width - 1;
  int64_t first = constantDelta(in), last = first, step = 0;
  for (uint32_t k = 0; k < kCount; ++k)
    if (!addAffineIndex<I>(sg, p + kIndexWords * k, lanes, first, last, step)) return false;
  d = uint64_t(step);
  return affineStart(sg, in, first, last, p0);
}

// affineChainN for kCount indices of type I (lowering picks it where every index is one);
// inlined into its chain handler, as it was when the chains had a file of their own.
template <uint32_t kCount, class I>
[[gnu::always_inline]] inline bool affineChainNOf(SubGroup& sg, const Inst& in) {
  uint64_t p0, d;
  if (!affineAddressesN<kCount, I>(sg, in, p0, d)) return false;
  fillAffine(sg.reg<uint64_t>(in.r), p0, d, sg.width);
  sg.setShape(in, RegShape::Affine);
  return true;
}

// accessChainN for a full sub-group of a multiple of 4 lanes, built for AVX2
// (access_chain.cc); false: the exact path must redo the chain.
bool plainChainNAllLanesAvx2(SubGroup& sg, const Inst& in);

// accessChainNAvx2 after its affine attempt. Inline, as it was when the chains and their
// users shared one file: each specialised chain calls the AVX2 sums directly.
inline void plainChainNAvx2(SubGroup& sg, const Inst& in) {
  sg.setShape(in, RegShape::Unknown);
  if (!plainChainNAllLanesAvx2(sg, in)) [[unlikely]]
    exactAccessChain(sg, in, true);
}

template <uint32_t kCount, class I>
void accessChainNAvx2Of(SubGroup& sg, const Inst& in) {
  if (!sg.allActive || sg.width % 4 != 0) return accessChainN(sg, in);
  if (affineChainNOf<kCount, I>(sg, in)) return;
  plainChainNAvx2(sg, in);
}

}  // namespace spvsim::ops::chain
