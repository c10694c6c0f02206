// OpShiftLeftLogical, OpShiftRightLogical, OpShiftRightArithmetic.
//
// SPIR-V leaves the result undefined when Shift >= the bit width of Base's components.
// OpenCL C defines `<<` and `>>` with the count taken modulo the width, and clang emits
// that as an explicit `and` before the shift, so such a count in SPIR-V is a genuine
// error of the module (or of its producer): it is reported as `shift-out-of-range` (an
// error, like division by zero) and the lane gets the OpenCL C result, the count modulo
// the container width. Base and Shift may have different integer widths.
//
// Inst: r, a = Base, b = Shift, n = elements per lane, aux = components, aux2 = Base's
// bit width (odd widths such as i24 live in a wider container). A scalar constant Shift
// below the width has a handler of its own, with b the count itself (ShiftByConstant).
#include <fmt/core.h>

#include "src/exec/ops/elementwise.h"

namespace spvsim {
namespace {

using spv::Op;

enum class ShiftKind { Left, RightLogical, RightArithmetic };

template <ShiftKind K, class T>
T shiftBy(T a, uint64_t count) {
  const unsigned c = unsigned(count & (sizeof(T) * 8 - 1));
  using W = std::conditional_t<(sizeof(T) < 4), uint32_t, T>;  // no int promotion UB
  if constexpr (K == ShiftKind::Left) return T(W(a) << c);
  if constexpr (K == ShiftKind::RightLogical) return T(a >> c);
  return T(std::make_signed_t<T>(a) >> c);
}

// The active lanes whose real components (not vec3 padding) shift by >= the width, and
// the first such count.
template <class S>
LaneMask lanesOutOfRange(SubGroup& sg, const Inst& in, uint64_t& firstCount) {
  const S* b = sg.reg<S>(in.b);
  LaneMask lanes;
  ops::forEachActiveElement(sg, in, in.aux, [&](uint32_t l, uint32_t i) {
    if (b[i] < in.aux2) return;
    if (lanes.none()) firstCount = b[i];
    lanes.set(l);
  });
  return lanes;
}

// Every element of a register (blocks of ops::kBlock, which the compiler vectorises);
// returns the OR of the counts.
template <ShiftKind K, class T, class S>
S shiftAll(T* __restrict r, const T* __restrict a, const S* __restrict b, uint32_t e) {
  S counts = 0;
  for (; e >= ops::kBlock; e -= ops::kBlock, r += ops::kBlock, a += ops::kBlock, b += ops::kBlock)
    for (uint32_t i = 0; i < ops::kBlock; ++i) {
      r[i] = shiftBy<K>(a[i], b[i]);
      counts |= b[i];
    }
  for (uint32_t i = 0; i < e; ++i) {
    r[i] = shiftBy<K>(a[i], b[i]);
    counts |= b[i];
  }
  return counts;
}

template <ShiftKind K, class T, class S>
struct Shift {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    const S* b = sg.reg<S>(in.b);
    const uint32_t n = in.n;
    // The OR of the counts is below a power-of-two width exactly when every count is, and
    // at least the largest count: one OR per element here, the exact scan only when it
    // may have found something (odd widths such as i24 may scan in vain).
    S counts = 0;
    if (sg.allActive) {
      counts = shiftAll<K>(r, a, b, n * sg.width);
    } else {
      for (uint32_t l = 0; l < sg.width; ++l)
        if (sg.active[l])
          for (uint32_t i = l * n; i < (l + 1) * n; ++i) {
            const S c = b[i];
            r[i] = shiftBy<K>(a[i], c);
            counts |= c;
          }
    }
    if (counts >= in.aux2) [[unlikely]]
      report(sg, in);
  }

  [[gnu::noinline]] static void report(SubGroup& sg, const Inst& in) {
    uint64_t count = 0;
    const LaneMask lanes = lanesOutOfRange<S>(sg, in, count);
    if (lanes.none()) return;  // only vec3 padding
    sg.report(in, DiagnosticKind::ShiftOutOfRange,
              fmt::format("shift by {} is not less than the {}-bit width of the shifted value "
                          "(undefined; the count is taken modulo {})",
                          count, in.aux2, sizeof(T) * 8),
              lanes);
  }
};

// Every element of a register shifted by one count (blocks of ops::kBlock).
template <ShiftKind K, class T>
void shiftAllBy(T* __restrict r, const T* __restrict a, unsigned count, uint32_t e) {
  for (; e >= ops::kBlock; e -= ops::kBlock, r += ops::kBlock, a += ops::kBlock)
    for (uint32_t i = 0; i < ops::kBlock; ++i) r[i] = shiftBy<K>(a[i], count);
  for (uint32_t i = 0; i < e; ++i) r[i] = shiftBy<K>(a[i], count);
}

// A constant count below the width, known at lowering (`x << 2`, and clang's `shl 32`
// then `ashr 32` that sign-extends an int index): no count register to read and nothing
// to report. Inst: b = the count itself.
template <ShiftKind K, class T>
struct ShiftByConstant {
  static void run(SubGroup& sg, const Inst& in) {
    T* r = sg.reg<T>(in.r);
    const T* a = sg.reg<T>(in.a);
    const uint32_t n = in.n;
    sg.setShape(in, [&] { return shape(sg, in); });
    if (sg.allActive) return shiftAllBy<K>(r, a, in.b, n * sg.width);
    for (uint32_t l = 0; l < sg.width; ++l)
      if (sg.active[l])
        for (uint32_t i = l * n; i < (l + 1) * n; ++i) r[i] = shiftBy<K>(a[i], in.b);
  }

  // x << c is x * 2^c. x >> c stays affine where the stride is a multiple of 2^c and no
  // lane wrapped around (as signed numbers for the arithmetic shift): clang's
  // `shl 32; ashr 32` sign extension of an index.
  static RegShape shape(const SubGroup& sg, const Inst& in) {
    const RegShape s = sg.shapeOf(in.a);
    if (K == ShiftKind::Left || s != RegShape::Affine || !sg.keepsShapes()) return s;
    using V = std::conditional_t<K == ShiftKind::RightArithmetic, std::make_signed_t<T>, T>;
    const T* a = sg.reg<T>(in.a);
    for (uint32_t c = 0; c < in.n; ++c)
      if (T(a[in.n + c] - a[c]) & ((T(1) << in.b) - 1)) return RegShape::Unknown;
    return ops::affineWithoutWrap(sg, reinterpret_cast<const V*>(a), in.n) ? s : RegShape::Unknown;
  }
};

// r = a sign-extended from its low width - c bits, on e elements (ops::unaryAll's
// blocks, so that each case vectorises).
template <class T>
void signExtendAll(T* r, const T* a, unsigned c, uint32_t e) {
  using S = std::make_signed_t<T>;
  if constexpr (sizeof(T) == 8)
    if (c == 32) {  // (long)(int)x: vpmovsxdq where the CPU has it
      auto fromInt = [](T x) { return T(int64_t(int32_t(uint32_t(x)))); };
      return ops::unaryAll(r, a, e, fromInt);
    }
  auto fromLowBits = [c](T x) { return T(S(shiftBy<ShiftKind::Left>(x, c)) >> c); };
  ops::unaryAll(r, a, e, fromLowBits);
}

// A constant `shl c` whose only use is the `ashr c` right after it: clang's sign
// extension of an integer's low bits at -O1 and above (`(long)(int)x` is `shl 32; ashr
// 32`, where x is 64-bit). Where the work-group fuses and the stretch has room for both
// (SubGroup::fuseBefore; src/DESIGN.md, "Fused chain and access"), it writes the ashr's
// result straight from the shl's operand, with the shape the two would give, and counts
// both; the shl's register, which nothing else reads, is not written. Otherwise it is
// the shl alone, and the ashr runs next.
template <class T>
struct SignExtendPair {
  using S = std::make_signed_t<T>;

  static void run(SubGroup& sg, const Inst& in) {
    if (sg.steps >= sg.fuseBefore) return ShiftByConstant<ShiftKind::Left, T>::run(sg, in);
    const Inst& ashr = sg.code[sg.pc];
    ++sg.pc;  // first: the next dispatch reads it (see fusedAccess in fused_access.cc)
    ++sg.steps;
    T* r = sg.reg<T>(ashr.r);
    const T* a = sg.reg<T>(in.a);
    const unsigned c = in.b;
    sg.setShape(ashr, [&] { return shape(sg, in); });
    if (sg.allActive) {
      signExtendAll(r, a, c, sg.width);
    } else {
      sg.forActive([&](uint32_t l) { signExtendAll(r + l, a + l, c, 1); });
    }
  }

  // ShiftByConstant's shape of the ashr, whose operand a << c has a's shape: affine
  // where a << c as signed numbers does not wrap across the lanes (lanes 0 and 1 say).
  static RegShape shape(const SubGroup& sg, const Inst& in) {
    const RegShape s = sg.shapeOf(in.a);
    if (s != RegShape::Affine || !sg.keepsShapes()) return s;
    const T* a = sg.reg<T>(in.a);
    const S shifted[2] = {S(shiftBy<ShiftKind::Left>(a[0], in.b)),
                          S(shiftBy<ShiftKind::Left>(a[1], in.b))};
    return ops::affineWithoutWrap(sg, shifted, 1) ? s : RegShape::Unknown;
  }
};

template <ShiftKind K>
ExecFn pickConstantCount(Scalar base) {
  switch (base) {
    case Scalar::U8:
      return ops::fastest(&ShiftByConstant<K, uint8_t>::run,
                          &ops::onAvx2<&ShiftByConstant<K, uint8_t>::run>);
    case Scalar::U16:
      return ops::fastest(&ShiftByConstant<K, uint16_t>::run,
                          &ops::onAvx2<&ShiftByConstant<K, uint16_t>::run>);
    case Scalar::U32:
      return ops::fastest(&ShiftByConstant<K, uint32_t>::run,
                          &ops::onAvx2<&ShiftByConstant<K, uint32_t>::run>);
    case Scalar::U64:
      return ops::fastest(&ShiftByConstant<K, uint64_t>::run,
                          &ops::onAvx2<&ShiftByConstant<K, uint64_t>::run>);
    default:
      return nullptr;
  }
}

template <ShiftKind K, class T>
ExecFn pickCount(Scalar shift) {
  switch (shift) {
    case Scalar::U8:
      return ops::fastest(&Shift<K, T, uint8_t>::run, &ops::onAvx2<&Shift<K, T, uint8_t>::run>);
    case Scalar::U16:
      return ops::fastest(&Shift<K, T, uint16_t>::run, &ops::onAvx2<&Shift<K, T, uint16_t>::run>);
    case Scalar::U32:
      return ops::fastest(&Shift<K, T, uint32_t>::run, &ops::onAvx2<&Shift<K, T, uint32_t>::run>);
    case Scalar::U64:
      return ops::fastest(&Shift<K, T, uint64_t>::run, &ops::onAvx2<&Shift<K, T, uint64_t>::run>);
    default:
      return nullptr;
  }
}

template <ShiftKind K>
ExecFn pickShift(Scalar base, Scalar shift) {
  switch (base) {
    case Scalar::U8:
      return pickCount<K, uint8_t>(shift);
    case Scalar::U16:
      return pickCount<K, uint16_t>(shift);
    case Scalar::U32:
      return pickCount<K, uint32_t>(shift);
    case Scalar::U64:
      return pickCount<K, uint64_t>(shift);
    default:
      return nullptr;
  }
}

// Where the ashr by `count` being lowered shifts the result of a `shl` by the same count,
// emitted last, in this block, for this ashr alone: makes that shl a SignExtendPair.
void fuseSignExtendPair(Lowerer& lw, const spirv::Instruction& ashr, uint64_t count,
                        const Shape& base) {
  auto& code = lw.out.code;
  const spirv::Id value = Lowerer::operand(ashr, 0);
  const spirv::Instruction* shl = lw.definitionInCurrentBlock(value);
  if (!shl || shl->opcode != Op::OpShiftLeftLogical || code.empty() || !lw.usedOnce(value)) return;
  Inst& in = code.back();
  if (in.r != lw.reg(value) || in.src != shl->index || in.b != count ||
      in.fn != pickConstantCount<ShiftKind::Left>(base.scalar) || base.bits != base.bytes * 8)
    return;
  if (const ExecFn fused = ops::pickUnsignedFast<SignExtendPair>(base.scalar)) {
    lw.out.noteFusion(code.size() - 1, in.fn, 1);
    in.fn = fused;
  }
}

template <ShiftKind K>
void lowerShift(Lowerer& lw, const spirv::Instruction& inst) {
  const Shape base = lw.shape(inst.resultType);
  const spirv::Id count = Lowerer::operand(inst, 1);
  const Shape shift = lw.shapeOfValue(count);
  if (shift.components == 1 && lw.isConstant(count) && lw.constantValue(count) < base.bits)
    if (ExecFn fn = pickConstantCount<K>(base.scalar)) {
      if constexpr (K == ShiftKind::RightArithmetic)
        fuseSignExtendPair(lw, inst, lw.constantValue(count), base);
      Inst& in = ops::emitElementwise(lw, inst, fn, 1);
      in.b = static_cast<uint32_t>(lw.constantValue(count));
      in.aux2 = base.bits;
      lw.keepsShape(in, inst.result);
      return;
    }
  Inst& in = ops::emitElementwise(lw, inst, pickShift<K>(base.scalar, shift.scalar), 2);
  in.aux2 = base.bits;
}

}  // namespace

void registerShiftOps(OpTable& t) {
  t.core[uint32_t(Op::OpShiftLeftLogical)] = &lowerShift<ShiftKind::Left>;
  t.core[uint32_t(Op::OpShiftRightLogical)] = &lowerShift<ShiftKind::RightLogical>;
  t.core[uint32_t(Op::OpShiftRightArithmetic)] = &lowerShift<ShiftKind::RightArithmetic>;
}

}  // namespace spvsim
