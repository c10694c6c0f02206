// Building blocks for element-wise handlers: one loop over lanes (and components) of
// the active lanes, with a flat, vectorisable loop when every lane is active.
//
// Inst convention for element-wise ops: r = result, a/b/c = operands, n = elements per
// lane in the register (4 for vec3: the padding element is computed too, harmlessly,
// except by handlers that could trap, which use forEachActiveElement).
#pragma once

#include <cmath>
#include <type_traits>

#include "src/exec/lowering.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

template <class R, class A, class F>
inline void unaryLoop(SubGroup& sg, const Inst& in, F f) {
  R* r = sg.reg<R>(in.r);
  const A* a = sg.reg<A>(in.a);
  const uint32_t n = in.n;
  if (sg.allActive) {
    for (uint32_t i = 0, e = n * sg.width; i < e; ++i) r[i] = f(a[i]);
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
    for (uint32_t i = 0, e = n * sg.width; i < e; ++i) r[i] = f(a[i], b[i]);
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
    for (uint32_t i = 0, e = n * sg.width; i < e; ++i) r[i] = f(a[i], b[i], c3[i]);
  } else {
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.active[l])
        for (uint32_t c = 0; c < n; ++c) {
          uint32_t i = l * n + c;
          r[i] = f(a[i], b[i], c3[i]);
        }
  }
}

// Visits (lane, element index) of the real components only (no vec3 padding).
template <class F>
inline void forEachActiveElement(SubGroup& sg, const Inst& in, uint32_t components, F f) {
  sg.forActive([&](uint32_t l) {
    for (uint32_t c = 0; c < components; ++c) f(l, l * in.n + c);
  });
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
