// OpenCL.std relational instructions: bitselect and select. (isnan, isgreater,
// signbit, any, all, ... come from clang as core ops: OpIsNan, OpFOrd*, OpSignBitSet,
// OpAny, OpAll.) Both work on the bits of any integer or floating-point element type,
// so handlers are picked by element size on unsigned containers.
#include <spirv/unified1/OpenCL.std.h>

#include "src/exec/ops/opencl_std_util.h"

namespace spvsim {
namespace {

using spirv::Instruction;
namespace cl = OpenCLLIB;

// bitselect(a, b, c): each result bit is b's where c's is 1, else a's.
template <class U>
struct Bitselect {
  static void run(SubGroup& sg, const Inst& in) {
    ops::ternaryLoop<U, U, U, U>(sg, in, [](U a, U b, U c) { return U((a & ~c) | (b & c)); });
  }
};

// select(a, b, c): scalar c: c != 0 ? b : a; vectors: the most significant bit of each
// component of c decides.
template <class U>
struct Select {
  static void run(SubGroup& sg, const Inst& in) {
    constexpr U kMsb = U(U(1) << (sizeof(U) * 8 - 1));
    if (in.aux == 1)
      ops::ternaryLoop<U, U, U, U>(sg, in, [](U a, U b, U c) { return c != 0 ? b : a; });
    else
      ops::ternaryLoop<U, U, U, U>(sg, in, [](U a, U b, U c) { return (c & kMsb) ? b : a; });
  }
};

uint32_t elementBytes(const Shape& s) { return s.bytes / s.stride; }

void lowerBitselect(Lowerer& lw, const Instruction& inst) {
  ops::emitStd(lw, inst, pickBits<Bitselect>(lw.shape(inst.resultType).scalar), 3);
}

// c must be an integer type with elements of a's size (and, for vectors, a's count).
void lowerSelect(Lowerer& lw, const Instruction& inst) {
  Shape r = lw.shape(inst.resultType), c = lw.shapeOfValue(Lowerer::extArg(inst, 2));
  bool ok = c.isInt() && elementBytes(c) == elementBytes(r) && c.components == r.components;
  ops::emitStd(lw, inst, ok ? pickBits<Select>(r.scalar) : nullptr, 3);
}

}  // namespace

void registerOpenclRelationalOps(OpTable& t) {
  t.openclStd[cl::Bitselect] = &lowerBitselect;
  t.openclStd[cl::Select] = &lowerSelect;
}

}  // namespace spvsim
