// Integer and floating-point comparisons and classification; results are bools
// (one byte per component).
#include <cmath>

#include "src/exec/ops/elementwise.h"

namespace spvsim {
namespace {

using ops::binaryLoop;
using ops::unaryLoop;
using spv::Op;

template <class F>
struct Cmp {
  template <class T>
  struct On {
    static void run(SubGroup& sg, const Inst& in) {
      binaryLoop<uint8_t, T, T>(sg, in,
                                [](T a, T b) { return uint8_t(F::template apply<T>(a, b)); });
    }
  };
};

#define SPVSIM_CMP(Name, expr)    \
  struct Name {                   \
    template <class T>            \
    static bool apply(T a, T b) { \
      return expr;                \
    }                             \
  };
SPVSIM_CMP(Eq, a == b)
SPVSIM_CMP(Ne, a != b)
SPVSIM_CMP(Lt, a < b)
SPVSIM_CMP(Le, a <= b)
SPVSIM_CMP(Gt, a > b)
SPVSIM_CMP(Ge, a >= b)
// Unordered forms are true when either operand is NaN.
SPVSIM_CMP(UEq, a == b || a != a || b != b)
SPVSIM_CMP(UNe, a != b)
SPVSIM_CMP(ONe, a != b && a == a && b == b)
SPVSIM_CMP(ULt, !(a >= b))
SPVSIM_CMP(ULe, !(a > b))
SPVSIM_CMP(UGt, !(a <= b))
SPVSIM_CMP(UGe, !(a < b))
SPVSIM_CMP(Ordered, a == a && b == b)
SPVSIM_CMP(Unordered, a != a || b != b)
SPVSIM_CMP(LessOrGreater, a<b || a> b)
#undef SPVSIM_CMP

template <class F>
struct Classify {
  template <class T>
  struct On {
    static void run(SubGroup& sg, const Inst& in) {
      unaryLoop<uint8_t, T>(sg, in, [](T a) { return uint8_t(F::apply(double(a), a)); });
    }
  };
};
struct IsNan {
  template <class T>
  static bool apply(double d, T) {
    return std::isnan(d);
  }
};
struct IsInf {
  template <class T>
  static bool apply(double d, T) {
    return std::isinf(d);
  }
};
struct IsFinite {
  template <class T>
  static bool apply(double d, T) {
    return std::isfinite(d);
  }
};
struct SignBit {
  template <class T>
  static bool apply(double d, T) {
    return std::signbit(d);
  }
};
// Normality depends on the operand's own format (a float denormal is a normal double).
struct IsNormal {
  template <class T>
  static bool apply(double d, T) {
    if (!std::isfinite(d) || d == 0) return false;
    double minNormal = sizeof(T) == 2   ? 6.103515625e-05
                       : sizeof(T) == 4 ? double(std::numeric_limits<float>::min())
                                        : std::numeric_limits<double>::min();
    return std::fabs(d) >= minNormal;
  }
};

enum class Domain { Unsigned, Signed, Float };

// AVX2 builds where the CPU has them (ops::OnAvx2): comparisons never report.
template <template <class> class H>
ExecFn pick(Domain d, Scalar s) {
  switch (d) {
    case Domain::Unsigned:
      return ops::pickUnsignedFast<H>(s);
    case Domain::Signed:
      return ops::pickSignedFast<H>(s);
    case Domain::Float:
      return ops::pickFloatFast<H>(s);
  }
  return nullptr;
}

// The operand's shape picks the instance; the bool result has the same stride.
template <template <class> class H, uint32_t Arity>
void lowerCompare(Lowerer& lw, const spirv::Instruction& inst, Domain d) {
  Shape s = lw.shapeOfValue(inst.operands.at(0));
  ExecFn fn =
      s.scalar == Scalar::Bool && d == Domain::Unsigned ? &H<uint8_t>::run : pick<H>(d, s.scalar);
  ops::emitElementwise(lw, inst, fn, Arity);
}

template <class F, Domain D>
void lowerCmp(Lowerer& lw, const spirv::Instruction& inst) {
  lowerCompare<Cmp<F>::template On, 2>(lw, inst, D);
}
template <class F>
void lowerClassify(Lowerer& lw, const spirv::Instruction& inst) {
  lowerCompare<Classify<F>::template On, 1>(lw, inst, Domain::Float);
}

}  // namespace

void registerComparisonOps(OpTable& t) {
  constexpr auto U = Domain::Unsigned, S = Domain::Signed, F = Domain::Float;
  t.core[uint32_t(Op::OpIEqual)] = &lowerCmp<Eq, U>;
  t.core[uint32_t(Op::OpINotEqual)] = &lowerCmp<Ne, U>;
  t.core[uint32_t(Op::OpUGreaterThan)] = &lowerCmp<Gt, U>;
  t.core[uint32_t(Op::OpUGreaterThanEqual)] = &lowerCmp<Ge, U>;
  t.core[uint32_t(Op::OpULessThan)] = &lowerCmp<Lt, U>;
  t.core[uint32_t(Op::OpULessThanEqual)] = &lowerCmp<Le, U>;
  t.core[uint32_t(Op::OpSGreaterThan)] = &lowerCmp<Gt, S>;
  t.core[uint32_t(Op::OpSGreaterThanEqual)] = &lowerCmp<Ge, S>;
  t.core[uint32_t(Op::OpSLessThan)] = &lowerCmp<Lt, S>;
  t.core[uint32_t(Op::OpSLessThanEqual)] = &lowerCmp<Le, S>;
  t.core[uint32_t(Op::OpFOrdEqual)] = &lowerCmp<Eq, F>;
  t.core[uint32_t(Op::OpFUnordEqual)] = &lowerCmp<UEq, F>;
  t.core[uint32_t(Op::OpFOrdNotEqual)] = &lowerCmp<ONe, F>;
  t.core[uint32_t(Op::OpFUnordNotEqual)] = &lowerCmp<UNe, F>;
  t.core[uint32_t(Op::OpFOrdLessThan)] = &lowerCmp<Lt, F>;
  t.core[uint32_t(Op::OpFUnordLessThan)] = &lowerCmp<ULt, F>;
  t.core[uint32_t(Op::OpFOrdGreaterThan)] = &lowerCmp<Gt, F>;
  t.core[uint32_t(Op::OpFUnordGreaterThan)] = &lowerCmp<UGt, F>;
  t.core[uint32_t(Op::OpFOrdLessThanEqual)] = &lowerCmp<Le, F>;
  t.core[uint32_t(Op::OpFUnordLessThanEqual)] = &lowerCmp<ULe, F>;
  t.core[uint32_t(Op::OpFOrdGreaterThanEqual)] = &lowerCmp<Ge, F>;
  t.core[uint32_t(Op::OpFUnordGreaterThanEqual)] = &lowerCmp<UGe, F>;
  t.core[uint32_t(Op::OpOrdered)] = &lowerCmp<Ordered, F>;
  t.core[uint32_t(Op::OpUnordered)] = &lowerCmp<Unordered, F>;
  t.core[uint32_t(Op::OpLessOrGreater)] = &lowerCmp<LessOrGreater, F>;
  t.core[uint32_t(Op::OpIsNan)] = &lowerClassify<IsNan>;
  t.core[uint32_t(Op::OpIsInf)] = &lowerClassify<IsInf>;
  t.core[uint32_t(Op::OpIsFinite)] = &lowerClassify<IsFinite>;
  t.core[uint32_t(Op::OpIsNormal)] = &lowerClassify<IsNormal>;
  t.core[uint32_t(Op::OpSignBitSet)] = &lowerClassify<SignBit>;
}

}  // namespace spvsim
