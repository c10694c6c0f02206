// Non-uniform votes (cl_khr_subgroup_non_uniform_vote): OpGroupNonUniformElect, All,
// Any and AllEqual over the active lanes of the sub-group. No undefined values here,
// so no diagnostics.
#include <fmt/core.h>

#include "src/exec/lowering.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using spv::Op;

void writeBool(SubGroup& sg, uint32_t reg, bool v) {
  uint8_t* r = sg.reg<uint8_t>(reg);
  sg.forActive([&](uint32_t l) { r[l] = v; });
}

void elect(SubGroup& sg, const Inst& in) {
  uint8_t* r = sg.reg<uint8_t>(in.r);
  const uint32_t first = sg.mask.first();
  sg.forActive([&](uint32_t l) { r[l] = l == first; });
}

template <bool All>
void vote(SubGroup& sg, const Inst& in) {
  const uint8_t* p = sg.reg<uint8_t>(in.a);
  bool any = false, all = true;
  sg.forActive([&](uint32_t l) {
    any |= p[l] != 0;
    all &= p[l] != 0;
  });
  writeBool(sg, in.r, All ? all : any);
}

// Integers (unsigned containers) compare bitwise; floats with an ordered == (OpenCL C:
// "Floating-point types use an ordered floating-point test for equality"), so a NaN in
// any active lane makes the result false and +0 equals -0.
template <class T>
struct AllEqual {
  static void run(SubGroup& sg, const Inst& in) {
    const T* a = sg.reg<T>(in.a);
    const uint32_t n = in.n, first = sg.mask.first();
    bool equal = true;
    sg.forActive([&](uint32_t l) {
      for (uint32_t c = 0; c < in.aux; ++c) equal &= a[l * n + c] == a[first * n + c];
    });
    writeBool(sg, in.r, equal);
  }
};

void lowerElect(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  lw.emit(inst, &elect);
}

template <bool All>
void lowerVote(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  const uint32_t predicate = lw.reg(Lowerer::operand(inst, 1));
  lw.emit(inst, &vote<All>).a = predicate;
}

void lowerAllEqual(Lowerer& lw, const spirv::Instruction& inst) {
  ops::requireSubgroupScope(lw, inst);
  const spirv::Id value = Lowerer::operand(inst, 1);
  const Shape s = lw.shapeOfValue(value);
  ExecFn fn = s.isFloat()                ? pickFloat<AllEqual>(s.scalar)
              : s.scalar == Scalar::Bool ? &AllEqual<uint8_t>::run
                                         : pickUnsigned<AllEqual>(s.scalar);
  if (!fn)
    lw.unsupported(inst, fmt::format("OpGroupNonUniformAllEqual on a value of type {}",
                                     lw.facts.idName(lw.typeIdOfValue(value))));
  const uint32_t a = lw.reg(value);
  Inst& in = lw.emit(inst, fn);
  in.a = a;
  in.n = s.stride;
  in.aux = s.components;
}

}  // namespace

void registerGroupNonUniformVoteOps(OpTable& t) {
  t.core[uint32_t(Op::OpGroupNonUniformElect)] = &lowerElect;
  t.core[uint32_t(Op::OpGroupNonUniformAll)] = &lowerVote<true>;
  t.core[uint32_t(Op::OpGroupNonUniformAny)] = &lowerVote<false>;
  t.core[uint32_t(Op::OpGroupNonUniformAllEqual)] = &lowerAllEqual;
}

}  // namespace spvsim
