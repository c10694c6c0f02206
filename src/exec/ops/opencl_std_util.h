// Helpers shared by the OpenCL.std families (math, common, geometric, relational):
// lowering of OpenCL.std arguments, reductions over components, and writes through a
// kernel pointer (fract, frexp, modf, sincos, remquo, lgamma_r).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "src/exec/ops/elementwise.h"

namespace spvsim::ops {

// The type a floating-point function of element type T is evaluated in: double for
// half and float (exact conversions, results then rounded once), long double for
// double (the host's 64-bit-mantissa extended type).
template <class T>
using Wide = std::conditional_t<std::is_same_v<T, double>, long double, double>;

// Evaluation type for operations that are exact or correctly rounded in double
// (sqrt, division, rounding functions, fmod, remainder, ...): double for every element type, so a
// double result is rounded only once.
template <class T>
using Exact = double;

// Evaluation type for sqrt: float and double themselves (IEEE sqrt is correctly rounded
// in every format; a double sqrt rounded to float gives the same float, as 53 >= 2*24+2),
// so that float registers take the CPU's 8-lane single-precision instruction; half
// through double.
template <class T>
using Own = std::conditional_t<std::is_same_v<T, _Float16>, double, T>;

// Emits an element-wise OpenCL.std instruction whose arguments 0..count-1 go to
// a, b, c. The first `sameShape` arguments must have the result's component count
// (the validator demands it; clang splats scalars of mixed calls such as
// fmax(float4, float)); anything else is refused rather than read out of bounds.
inline Inst& emitStd(Lowerer& lw, const spirv::Instruction& inst, ExecFn fn, uint32_t count,
                     uint32_t sameShape = 3) {
  const uint32_t components = lw.shape(inst.resultType).components;
  for (uint32_t k = 0; k < count && k < sameShape; ++k)
    if (lw.shapeOfValue(Lowerer::extArg(inst, k)).components != components)
      lw.unsupported(inst,
                     lw.describeWithType(inst) + " with arguments of different component counts");
  return emitElementwise(lw, inst, fn, count, 2);
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

  // Like OpStore: a misaligned address is reported, and the write still happens.
  void store(uint32_t lane, const void* data) {
    const uint64_t p = ptrs_[lane];
    AccessError error = AccessError::Ok;
    uint8_t* dst = sg_.resolve(p, lane, bytes_, /*write=*/true, error);
    if (!dst) {
      failed_[static_cast<size_t>(error)].set(lane);
      return;
    }
    if (pointerOffset(p) % align_ != 0)
      failed_[static_cast<size_t>(AccessError::Misaligned)].set(lane);
    std::memcpy(dst, data, bytes_);
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
