// Bitwise and logical operations, OpSelect, OpAny/OpAll, OpBitCount (shifts: shift.cc).
#include <bit>
#include <cstring>

#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/host_cpu.h"

namespace spvsim {
namespace {

using ops::binaryLoop;
using ops::emitElementwise;
using ops::unaryLoop;
using spv::Op;

template <class T>
struct And {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a & b); });
  }
};
template <class T>
struct Or {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a | b); });
  }
};
template <class T>
struct Xor {
  static void run(SubGroup& sg, const Inst& in) {
    binaryLoop<T, T, T>(sg, in, [](T a, T b) { return T(a ^ b); });
  }
};
template <class T>
struct Not {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<T, T>(sg, in, [](T a) { return T(~a); });
  }
};
// With every lane active, through the CPU's POPCNT where it has one (host_cpu.h).
template <class T>
struct BitCount {
  static void run(SubGroup& sg, const Inst& in) {
    if (sg.allActive && ops::hostHasPopcnt())
      return ops::popcountWithPopcnt<T>(sg.reg<T>(in.r), sg.reg<T>(in.a), in.n * sg.width);
    unaryLoop<T, T>(sg, in, [](T a) { return T(std::popcount(a)); });
  }
};
template <class T>
struct BitReverse {
  static void run(SubGroup& sg, const Inst& in) {
    unaryLoop<T, T>(sg, in, [](T a) {
      T r = 0;
      for (unsigned k = 0; k < sizeof(T) * 8; ++k)
        r = T(r | (((a >> k) & 1) << (sizeof(T) * 8 - 1 - k)));
      return r;
    });
  }
};

// Booleans are one byte, 0 or 1.
void logicalAnd(SubGroup& sg, const Inst& in) {
  binaryLoop<uint8_t, uint8_t, uint8_t>(sg, in,
                                        [](uint8_t a, uint8_t b) { return uint8_t(a & b); });
}
void logicalOr(SubGroup& sg, const Inst& in) {
  binaryLoop<uint8_t, uint8_t, uint8_t>(sg, in,
                                        [](uint8_t a, uint8_t b) { return uint8_t(a | b); });
}
void logicalEqual(SubGroup& sg, const Inst& in) {
  binaryLoop<uint8_t, uint8_t, uint8_t>(sg, in,
                                        [](uint8_t a, uint8_t b) { return uint8_t(a == b); });
}
void logicalNotEqual(SubGroup& sg, const Inst& in) {
  binaryLoop<uint8_t, uint8_t, uint8_t>(sg, in,
                                        [](uint8_t a, uint8_t b) { return uint8_t(a != b); });
}
void logicalNot(SubGroup& sg, const Inst& in) {
  unaryLoop<uint8_t, uint8_t>(sg, in, [](uint8_t a) { return uint8_t(!a); });
}

// OpSelect of scalars and vectors with a condition of one bool per component (in.aux2 ==
// 0: an element-wise loop) or, from SPIR-V 1.4 on, one per lane (in.aux2 == 1). T: the
// element's bits.
template <class T>
struct Select {
  static void run(SubGroup& sg, const Inst& in) {
    if (!in.aux2)
      return ops::ternaryLoop<T, uint8_t, T, T>(sg, in,
                                                [](uint8_t c, T x, T y) { return c ? x : y; });
    const uint8_t* cond = sg.reg<uint8_t>(in.a);
    T* r = sg.reg<T>(in.r);
    const T* x = sg.reg<T>(in.b);
    const T* y = sg.reg<T>(in.c);
    const uint32_t n = in.n;
    sg.forActive([&](uint32_t l) {
      for (uint32_t c = 0; c < n; ++c) r[l * n + c] = (cond[l] ? x : y)[l * n + c];
    });
  }
};

// OpSelect of a whole struct or array (SPIR-V 1.4): one bool per lane picks all in.n
// bytes of the lane's object.
void selectWhole(SubGroup& sg, const Inst& in) {
  const uint8_t* cond = sg.reg<uint8_t>(in.a);
  uint8_t* r = sg.reg<uint8_t>(in.r);
  const uint8_t* x = sg.reg<uint8_t>(in.b);
  const uint8_t* y = sg.reg<uint8_t>(in.c);
  const size_t n = in.n;
  sg.forActive([&](uint32_t l) { std::memcpy(r + l * n, (cond[l] ? x : y) + l * n, n); });
}

// OpAny / OpAll over the components of a bool vector.
template <bool All>
void anyAll(SubGroup& sg, const Inst& in) {
  uint8_t* r = sg.reg<uint8_t>(in.r);
  const uint8_t* a = sg.reg<uint8_t>(in.a);
  sg.forActive([&](uint32_t l) {
    bool v = All;
    for (uint32_t c = 0; c < in.aux; ++c) v = All ? (v && a[l * in.n + c]) : (v || a[l * in.n + c]);
    r[l] = v;
  });
}

template <template <class> class H, uint32_t Arity>
void lowerInt(Lowerer& lw, const spirv::Instruction& inst) {
  emitElementwise(lw, inst, pickUnsigned<H>(lw.shape(inst.resultType).scalar), Arity);
}
// AVX2 builds where the CPU has them (ops::OnAvx2).
template <template <class> class H, uint32_t Arity>
void lowerIntFast(Lowerer& lw, const spirv::Instruction& inst) {
  emitElementwise(lw, inst, ops::pickUnsignedFast<H>(lw.shape(inst.resultType).scalar), Arity);
}

void lowerSelect(Lowerer& lw, const spirv::Instruction& inst) {
  Shape s = lw.shape(inst.resultType);
  Shape c = lw.shapeOfValue(inst.operands.at(0));
  if (s.scalar == Scalar::Other) {  // struct or array: a scalar condition picks it whole
    if (c.components != 1) lw.unsupported(inst, lw.describeWithType(inst));
    Inst& in = emitElementwise(lw, inst, &selectWhole, 3);
    in.n = s.bytes;
    return;
  }
  const uint32_t elementBytes = s.bytes / s.stride;
  const Scalar bits = elementBytes == 1   ? Scalar::U8
                      : elementBytes == 2 ? Scalar::U16
                      : elementBytes == 4 ? Scalar::U32
                      : elementBytes == 8 ? Scalar::U64
                                          : Scalar::Other;
  ExecFn fn = ops::pickUnsignedFast<Select>(bits);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  Inst& in = emitElementwise(lw, inst, fn, 3);
  in.aux2 = (c.components == 1 && s.components > 1) ? 1 : 0;
}

}  // namespace

void registerBitwiseOps(OpTable& t) {
  t.core[uint32_t(Op::OpBitwiseAnd)] = &lowerIntFast<And, 2>;
  t.core[uint32_t(Op::OpBitwiseOr)] = &lowerIntFast<Or, 2>;
  t.core[uint32_t(Op::OpBitwiseXor)] = &lowerIntFast<Xor, 2>;
  t.core[uint32_t(Op::OpNot)] = &lowerIntFast<Not, 1>;
  t.core[uint32_t(Op::OpBitCount)] = &lowerInt<BitCount, 1>;
  t.core[uint32_t(Op::OpBitReverse)] = &lowerInt<BitReverse, 1>;
  t.core[uint32_t(Op::OpLogicalAnd)] = [](Lowerer& lw, const spirv::Instruction& i) {
    emitElementwise(lw, i, &logicalAnd, 2);
  };
  t.core[uint32_t(Op::OpLogicalOr)] = [](Lowerer& lw, const spirv::Instruction& i) {
    emitElementwise(lw, i, &logicalOr, 2);
  };
  t.core[uint32_t(Op::OpLogicalEqual)] = [](Lowerer& lw, const spirv::Instruction& i) {
    emitElementwise(lw, i, &logicalEqual, 2);
  };
  t.core[uint32_t(Op::OpLogicalNotEqual)] = [](Lowerer& lw, const spirv::Instruction& i) {
    emitElementwise(lw, i, &logicalNotEqual, 2);
  };
  t.core[uint32_t(Op::OpLogicalNot)] = [](Lowerer& lw, const spirv::Instruction& i) {
    emitElementwise(lw, i, &logicalNot, 1);
  };
  t.core[uint32_t(Op::OpSelect)] = &lowerSelect;
  t.core[uint32_t(Op::OpAny)] = [](Lowerer& lw, const spirv::Instruction& i) {
    Inst& in = emitElementwise(lw, i, &anyAll<false>, 1);
    Shape s = lw.shapeOfValue(i.operands[0]);
    in.n = s.stride;
    in.aux = s.components;
  };
  t.core[uint32_t(Op::OpAll)] = [](Lowerer& lw, const spirv::Instruction& i) {
    Inst& in = emitElementwise(lw, i, &anyAll<true>, 1);
    Shape s = lw.shapeOfValue(i.operands[0]);
    in.n = s.stride;
    in.aux = s.components;
  };
}

}  // namespace spvsim
