// Integer and floating-point arithmetic: OpIAdd ... OpFMod, negation, VectorTimesScalar.
#include <fmt/core.h>

#include <cmath>
#include <limits>

#include "src/exec/ops/elementwise.h"

namespace spvsim {
namespace {

using ops::binaryLoop;
using ops::emitElementwise;
using ops::unaryLoop;
using spv::Op;

// Wrapping integer arithmetic on unsigned containers (SPIR-V integer ops are
// two's-complement and sign-agnostic). They keep their results' shapes (modulo 2^bits,
// as the values are): src/exec/register_shape.h.
template <class T>
struct IAdd {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a + b); });
    sg.setShape(in, [&] { return sumShape(sg.shapeOf(in.a), sg.shapeOf(in.b)); });
  }
};
template <class T>
struct ISub {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a - b); });
    sg.setShape(in, [&] { return sumShape(sg.shapeOf(in.a), sg.shapeOf(in.b)); });
  }
};
template <class T>
struct IMul {
  static void run(SubGroup& sg, const Inst& in) {
    using W = std::conditional_t<(sizeof(T) < 4), uint32_t, T>;  // avoid int promotion UB
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(W(a) * W(b)); });
    sg.setShape(in, [&] { return productShape(sg.shapeOf(in.a), sg.shapeOf(in.b)); });
  }
};
template <class T>
struct SNegate {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<T, T>(sg, in, [](T a) { return T(T(0) - a); });
    sg.setShape(in, [&] { return sg.shapeOf(in.a); });
  }
};

template <class T>
struct FAdd {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a + b); });
  }
};
template <class T>
struct FSub {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a - b); });
  }
};
template <class T>
struct FMul {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a * b); });
  }
};
template <class T>
struct FDiv {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a / b); });
  }
};
template <class T>
struct FNegate {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<T, T>(sg, in, [](T a) { return T(-a); });
  }
};
// OpFRem: sign of the dividend (C fmod). OpFMod: sign of the divisor.
template <class T>
struct FRem {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(std::fmod(double(a), double(b))); });
  }
};
template <class T>
struct FMod {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) {
      double r = std::fmod(double(a), double(b));
      if (r != 0 && (r < 0) != (double(b) < 0)) r += double(b);
      return T(r);
    });
  }
};

// Division and remainder: division by zero (and INT_MIN / -1) is undefined behaviour in
// OpenCL C; it is reported and the lane's result is 0.
enum class DivKind { UDiv, SDiv, UMod, SRem, SMod };

template <class T, DivKind K>
T divide(T a, T b) {
  if constexpr (K == DivKind::UDiv) return a / b;
  if constexpr (K == DivKind::UMod) return a % b;
  if constexpr (K == DivKind::SDiv) return T(a / b);
  if constexpr (K == DivKind::SRem) return T(a % b);
  if constexpr (K == DivKind::SMod) {
    T r = T(a % b);
    if (r != 0 && ((r < 0) != (b < 0))) r = T(r + b);
    return r;
  }
}

template <class T, DivKind K>
struct Divide {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    const T* b = sg.reg<T>(in.b);
    LaneMask zero, overflow;
    ops::forEachActiveElement(sg, in, in.aux, [&](uint32_t l, uint32_t i) {
      if (b[i] == 0) {
        zero.set(l);
        r[i] = 0;
      } else if (std::is_signed_v<T> && a[i] == std::numeric_limits<T>::min() && b[i] == T(-1)) {
        overflow.set(l);
        r[i] = K == DivKind::SDiv ? a[i] : T(0);
      } else {
        r[i] = divide<T, K>(a[i], b[i]);
      }
    });
    if (zero.any())
      sg.report(in, DiagnosticKind::DivisionByZero, "integer division by zero (result taken as 0)",
                zero);
    if (overflow.any())
      sg.report(in, DiagnosticKind::DivisionByZero,
                "signed integer division overflow (minimum value divided by -1)", overflow);
  }
};
template <class T>
using UDivOp = Divide<T, DivKind::UDiv>;
template <class T>
using UModOp = Divide<T, DivKind::UMod>;
template <class T>
using SDivOp = Divide<T, DivKind::SDiv>;
template <class T>
using SRemOp = Divide<T, DivKind::SRem>;
template <class T>
using SModOp = Divide<T, DivKind::SMod>;

// OpVectorTimesScalar: b is a scalar register (one element per lane).
template <class T>
struct VectorTimesScalar {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    const T* b = sg.reg<T>(in.b);
    sg.forActive([&](uint32_t l) {
      for (uint32_t c = 0; c < in.n; ++c) r[l * in.n + c] = T(a[l * in.n + c] * b[l]);
    });
  }
};

template <template <class> class H>
void lowerUnsigned(Lowerer& lw, const spirv::Instruction& inst, uint32_t arity) {
  emitElementwise(lw, inst, pickUnsigned<H>(lw.shape(inst.resultType).scalar), arity);
}
template <template <class> class H>
void lowerSigned(Lowerer& lw, const spirv::Instruction& inst, uint32_t arity) {
  emitElementwise(lw, inst, pickSigned<H>(lw.shape(inst.resultType).scalar), arity);
}
template <template <class> class H>
void lowerFloat(Lowerer& lw, const spirv::Instruction& inst, uint32_t arity) {
  emitElementwise(lw, inst, pickFloat<H>(lw.shape(inst.resultType).scalar), arity);
}
// The handlers that never report: AVX2 builds where the CPU has them (ops::OnAvx2).
template <template <class> class H>
void lowerUnsignedFast(Lowerer& lw, const spirv::Instruction& inst, uint32_t arity) {
  emitElementwise(lw, inst, ops::pickUnsignedFast<H>(lw.shape(inst.resultType).scalar), arity);
}
// The integer ops whose handlers keep their results' shapes.
template <template <class> class H>
void lowerShapedFast(Lowerer& lw, const spirv::Instruction& inst, uint32_t arity) {
  Inst& in =
      emitElementwise(lw, inst, ops::pickUnsignedFast<H>(lw.shape(inst.resultType).scalar), arity);
  lw.keepsShape(in, inst.result);
}
template <template <class> class H>
void lowerFloatFast(Lowerer& lw, const spirv::Instruction& inst, uint32_t arity) {
  emitElementwise(lw, inst, ops::pickFloatFast<H>(lw.shape(inst.resultType).scalar), arity);
}

}  // namespace

void registerArithmeticOps(OpTable& t) {
  t.core[uint32_t(Op::OpIAdd)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerShapedFast<IAdd>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpISub)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerShapedFast<ISub>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpIMul)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerShapedFast<IMul>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpSNegate)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerShapedFast<SNegate>(lw, i, 1);
  };
  t.core[uint32_t(Op::OpUDiv)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerUnsigned<UDivOp>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpUMod)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerUnsigned<UModOp>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpSDiv)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerSigned<SDivOp>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpSRem)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerSigned<SRemOp>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpSMod)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerSigned<SModOp>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFAdd)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloatFast<FAdd>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFSub)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloatFast<FSub>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFMul)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloatFast<FMul>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFDiv)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloatFast<FDiv>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFRem)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloat<FRem>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFMod)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloat<FMod>(lw, i, 2);
  };
  t.core[uint32_t(Op::OpFNegate)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloatFast<FNegate>(lw, i, 1);
  };
  t.core[uint32_t(Op::OpVectorTimesScalar)] = [](Lowerer& lw, const spirv::Instruction& i) {
    lowerFloatFast<VectorTimesScalar>(lw, i, 2);
  };
}

}  // namespace spvsim
