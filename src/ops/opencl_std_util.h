// Helpers shared by the OpenCL.std families (math, common, geometric, relational):
// element loops where a scalar argument of a vector result is broadcast, lowering of
// OpenCL.std arguments, reductions over components, and writes through a kernel
// pointer (fract, frexp, modf, sincos, remquo, lgamma_r).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/ops/elementwise.h"

namespace spvsim::ops {

// The type a floating-point function of element type T is evaluated in: double for
// half and float (exact conversions, results then rounded once), long double for
// double (the host's 64-bit-mantissa extended type).
template <class T>
using Wide = std::conditional_t<std::is_same_v<T, double>, long double, double>;

// Evaluation type for operations that are exact or correctly rounded in double
// (sqrt, division, fma, rounding functions): double for every element type, so a
// double result is rounded only once.
template <class T>
using Exact = double;

// Bit k of Inst::aux2: argument k holds one element per lane, applied to every
// component of a vector result (e.g. ldexp(float4, int)).
constexpr uint32_t kBroadcast = 1;

// Index of element c of lane l of the operand in slot k (0: a, 1: b, 2: c).
struct OperandIndex {
  uint32_t lane, comp;
  OperandIndex(const Inst& in, uint32_t k) {
    bool scalar = (in.aux2 >> k) & kBroadcast;
    lane = scalar ? 1 : in.n;
    comp = scalar ? 0 : 1;
  }
  uint32_t operator()(uint32_t l, uint32_t c) const { return l * lane + c * comp; }
};

template <class R, class A, class B, class F>
inline void map2(SubGroup& sg, const Inst& in, F f) {
  if (in.aux2 == 0) return binaryLoop<R, A, B>(sg, in, f);
  R* r = sg.reg<R>(in.r);
  const A* a = sg.reg<A>(in.a);
  const B* b = sg.reg<B>(in.b);
  const OperandIndex ia(in, 0), ib(in, 1);
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = f(a[ia(l, c)], b[ib(l, c)]);
  });
}

template <class R, class A, class B, class C, class F>
inline void map3(SubGroup& sg, const Inst& in, F f) {
  if (in.aux2 == 0) return ternaryLoop<R, A, B, C>(sg, in, f);
  R* r = sg.reg<R>(in.r);
  const A* a = sg.reg<A>(in.a);
  const B* b = sg.reg<B>(in.b);
  const C* c3 = sg.reg<C>(in.c);
  const OperandIndex ia(in, 0), ib(in, 1), ic(in, 2);
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = f(a[ia(l, c)], b[ib(l, c)], c3[ic(l, c)]);
  });
}

// Emits an element-wise OpenCL.std instruction whose arguments 0..count-1 go to
// a, b, c; scalar arguments of a vector result are marked for broadcast.
inline Inst& emitStd(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn, uint32_t count) {
  Inst& in = emitElementwise(lw, inst, fn, count, 2);
  if (lw.shape(inst.resultType).components == 1) return in;
  for (uint32_t k = 0; k < count; ++k)
    if (lw.shapeOfValue(Lowerer::extArg(inst, k)).components == 1) in.aux2 |= kBroadcast << k;
  return in;
}

// Emits a reduction over the components of `count` vector operands starting at
// operand `first` (a, b): n and aux describe the operands, r is one element per lane.
inline Inst& emitReduction(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn, uint32_t count,
                           uint32_t first) {
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = lw.emit(inst, fn);
  Shape s = lw.shapeOfValue(Lowerer::operand(inst, first));
  in.n = s.stride;
  in.aux = s.components;
  in.a = lw.reg(Lowerer::operand(inst, first));
  if (count > 1) in.b = lw.reg(Lowerer::operand(inst, first + 1));
  return in;
}

// The float element type of an operand, for handlers picked by argument type.
inline Scalar argScalar(Lowerer& lw, const spirv::Instruction& inst, size_t k) {
  return lw.shapeOfValue(Lowerer::extArg(inst, k)).scalar;
}

// Writes of one instruction through a per-lane kernel pointer register: each lane
// stores `bytes` bytes; failures are collected per error and reported once.
class PointerWrites {
 public:
  PointerWrites(SubGroup& sg, const Inst& in, uint32_t ptrReg, uint32_t bytes, uint32_t align)
      : sg_(sg), in_(in), ptrs_(sg.reg<uint64_t>(ptrReg)), bytes_(bytes), align_(align) {}

  void store(uint32_t lane, const void* data) {
    const uint64_t p = ptrs_[lane];
    AccessError error = AccessError::Ok;
    uint8_t* dst = nullptr;
    if (p != 0 && pointerOffset(p) % align_ != 0)
      error = AccessError::Misaligned;
    else
      dst = sg_.resolve(p, lane, bytes_, /*write=*/true, error);
    if (dst)
      std::memcpy(dst, data, bytes_);
    else
      failed_[static_cast<size_t>(error)].set(lane);
  }

  void finish() const {
    for (size_t e = 1; e < kErrors; ++e)
      if (failed_[e].any())
        sg_.reportAccess(in_, AccessError(e), failed_[e], ptrs_, bytes_, /*write=*/true);
  }

 private:
  static constexpr size_t kErrors = static_cast<size_t>(AccessError::InvalidSpace) + 1;
  SubGroup& sg_;
  const Inst& in_;
  const uint64_t* ptrs_;
  uint32_t bytes_, align_;
  LaneMask failed_[kErrors];
};

}  // namespace spvsim::ops
