// Building blocks for element-wise handlers: one loop over lanes (and components) of
// the active lanes, with a flat, vectorisable loop when every lane is active.
//
// Inst convention for element-wise ops: r = result, a/b/c = operands, n = elements per
// lane in the register (4 for vec3: the padding element is computed too, harmlessly,
// except by handlers that could trap, which use forEachActiveElement).
#pragma once

#include <cmath>
#include <limits>
#include <type_traits>

#include "src/exec/lowering.h"
#include "src/exec/ops/host_cpu.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

// Elements per block of the whole-register loops: GCC's -O2 vectoriser takes only loops
// of a known trip count, so each register is walked as blocks of kBlock, then the rest.
// Registers of different values never overlap (one register per value id), hence
// __restrict. A register of exactly one block (a scalar on 16 lanes, the default
// sub-group size) takes a straight-line path, without the loops' control.
constexpr uint32_t kBlock = 16;

template <class R, class A, class F>
inline void unaryAll(R* __restrict r, const A* __restrict a, uint32_t e, F& f) {
  if (e == kBlock) {
    for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i]);
    return;
  }
  for (; e >= kBlock; e -= kBlock, r += kBlock, a += kBlock)
    for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i]);
  for (uint32_t i = 0; i < e; ++i) r[i] = f(a[i]);
}

template <class R, class A, class B, class F>
inline void binaryAll(R* __restrict r, const A* __restrict a, const B* __restrict b, uint32_t e,
                      F& f) {
  if (e == kBlock) {
    for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i], b[i]);
    return;
  }
  for (; e >= kBlock; e -= kBlock, r += kBlock, a += kBlock, b += kBlock)
    for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i], b[i]);
  for (uint32_t i = 0; i < e; ++i) r[i] = f(a[i], b[i]);
}

template <class R, class A, class B, class C, class F>
inline void ternaryAll(R* __restrict r, const A* __restrict a, const B* __restrict b,
                       const C* __restrict c, uint32_t e, F& f) {
  if (e == kBlock) {
    for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i], b[i], c[i]);
    return;
  }
  for (; e >= kBlock; e -= kBlock, r += kBlock, a += kBlock, b += kBlock, c += kBlock)
    for (uint32_t i = 0; i < kBlock; ++i) r[i] = f(a[i], b[i], c[i]);
  for (uint32_t i = 0; i < e; ++i) r[i] = f(a[i], b[i], c[i]);
}

template <class R, class A, class F>
inline void unaryLoop(SubGroup& sg, const Inst& in, F f) {
  R* r = sg.reg<R>(in.r);
  const A* a = sg.reg<A>(in.a);
  const uint32_t n = in.n;
  if (sg.allActive) {
    unaryAll(r, a, n * sg.width, f);
  } else {
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.active[l])
        for (uint32_t c = 0; c < n; ++c) r[l * n + c] = f(a[l * n + c]);
  }
}

template <class R, class A, class B, class F>
inline void binaryLoop(SubGroup& sg, const Inst& in, F f) {
  R* r = sg.reg<R>(in.r);
  const A* a = sg.reg<A>(in.a);
  const B* b = sg.reg<B>(in.b);
  const uint32_t n = in.n;
  if (sg.allActive) {
    binaryAll(r, a, b, n * sg.width, f);
  } else {
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.active[l])
        for (uint32_t c = 0; c < n; ++c) r[l * n + c] = f(a[l * n + c], b[l * n + c]);
  }
}

template <class R, class A, class B, class C, class F>
inline void ternaryLoop(SubGroup& sg, const Inst& in, F f) {
  R* r = sg.reg<R>(in.r);
  const A* a = sg.reg<A>(in.a);
  const B* b = sg.reg<B>(in.b);
  const C* c3 = sg.reg<C>(in.c);
  const uint32_t n = in.n;
  if (sg.allActive) {
    ternaryAll(r, a, b, c3, n * sg.width, f);
  } else {
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.active[l])
        for (uint32_t c = 0; c < n; ++c) {
          uint32_t i = l * n + c;
          r[i] = f(a[i], b[i], c3[i]);
        }
  }
}

// H<T>::run compiled for x86-64-v3 (AVX2 + FMA): flatten inlines the element loops into
// it, so they take 32-byte vectors (and AVX2's variable shifts, compares, blends). The
// same C++ and the build's -ffp-contract=off, so the same results: only the instruction
// encoding differs. Chosen once, at lowering, where the CPU has them (pick*Fast below).
// Handlers' cold reporting paths are [[gnu::noinline]] so that they stay out of it.
template <ExecFn F>
SPVSIM_HOST_TARGET("avx2,fma")
[[gnu::flatten]] void onAvx2(SubGroup& sg, const Inst& in) {
  F(sg, in);
}
// `avx2` (an onAvx2 instance) where the CPU has AVX2 and FMA, else `plain`.
inline ExecFn fastest(ExecFn plain, ExecFn avx2) { return hostHasAvx2Fma() ? avx2 : plain; }

template <template <class> class H>
struct OnAvx2 {
  template <class T>
  struct Of {
    SPVSIM_HOST_TARGET("avx2,fma") [[gnu::flatten]] static void run(SubGroup& sg, const Inst& in) {
      H<T>::run(sg, in);
    }
  };
};

// pickUnsigned / pickSigned / pickBits / pickFloat, for the AVX2 + FMA build of the
// handler where the CPU has it. Half floats keep the plain build (their arithmetic goes
// through float conversions the target could change the choice of).
template <template <class> class H>
ExecFn pickUnsignedFast(Scalar s) {
  return hostHasAvx2Fma() ? pickUnsigned<OnAvx2<H>::template Of>(s) : pickUnsigned<H>(s);
}
template <template <class> class H>
ExecFn pickSignedFast(Scalar s) {
  return hostHasAvx2Fma() ? pickSigned<OnAvx2<H>::template Of>(s) : pickSigned<H>(s);
}
template <template <class> class H>
ExecFn pickBitsFast(Scalar s, bool bools = false) {
  return hostHasAvx2Fma() ? pickBits<OnAvx2<H>::template Of>(s, bools) : pickBits<H>(s, bools);
}
template <template <class> class H>
ExecFn pickFloatFast(Scalar s) {
  return hostHasAvx2Fma() && s != Scalar::F16 ? pickFloat<OnAvx2<H>::template Of>(s)
                                              : pickFloat<H>(s);
}

// Visits (lane, element index) of the real components only (no vec3 padding).
template <class F>
inline void forEachActiveElement(SubGroup& sg, const Inst& in, uint32_t components, F f) {
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < components; ++c) f(l, l * in.n + c);
  });
}

// Whether an affine register of n T elements per lane is affine as exact integers too
// (no lane's value wrapped around): then each element converts to a wider type
// affinely. Reads lanes 0 and 1: only where SubGroup::keepsShapes().
template <class T>
bool affineWithoutWrap(const SubGroup& sg, const T* r, uint32_t n) {
  using U = std::make_unsigned_t<T>;
  using S = std::make_signed_t<T>;
  using Wide = std::conditional_t<(sizeof(T) < 8), int64_t, __int128>;  // exact here
  const Wide lanes = sg.width - 1;
  for (uint32_t c = 0; c < n; ++c) {
    const S step = S(U(U(r[n + c]) - U(r[c])));
    const Wide last = Wide(r[c]) + Wide(step) * lanes;
    if (last < Wide(std::numeric_limits<T>::min()) || last > Wide(std::numeric_limits<T>::max()))
      return false;
  }
  return true;
}

// Fills the common fields of an element-wise instruction from SPIR-V operands.
inline Inst& emitElementwise(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn,
                             uint32_t operandCount, uint32_t firstOperand = 0) {
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, fn);
  Shape s = lw.shape(inst.resultType);
  in.n = s.stride;
  in.aux = s.components;
  uint32_t* slots[3] = {&in.a, &in.b, &in.c};
  for (uint32_t k = 0; k < operandCount && k < 3; ++k)
    *slots[k] = lw.reg(Lowerer::operand(inst, firstOperand + k));
  return in;
}

}  // namespace spvsim::ops
