// cl_khr_subgroup_non_uniform_arithmetic and cl_khr_subgroup_clustered_reduce:
// OpGroupNonUniform{IAdd,FAdd,IMul,FMul,SMin,UMin,FMin,SMax,UMax,FMax,Bitwise*,Logical*}
// with Reduce, InclusiveScan, ExclusiveScan and ClusteredReduce over the active lanes
// only (group_arithmetic.h). Scalars and vectors (componentwise).
#include <fmt/core.h>

#include <algorithm>
#include <cstdint>

#include "src/exec/ops/group_arithmetic.h"

namespace spvsim {
namespace {

using namespace ops;
using spv::Op;

// A ClusterSize above the sub-group size makes clusters of lanes the sub-group does not
// have: undefined behaviour ("executing this instruction results in undefined
// behavior"), reported each time it executes; the op then runs with the whole
// sub-group as one cluster.
template <template <class> class H>
struct OversizedCluster {
  template <class T>
  struct With {
    static void run(SubGroup& sg, const Inst& in) {
      sg.report(in, DiagnosticKind::ShuffleOutOfRange,
                fmt::format("sub-group clustered reduction with ClusterSize {}, but the "
                            "sub-group size is {} (undefined behaviour); reducing over the "
                            "whole sub-group",
                            in.aux2, sg.width),
                sg.mask);
      H<T>::run(sg, in);
    }
  };
};

template <template <class> class OpT, Numbers K>
void lowerNonUniform(Lowerer& lw, const spirv::Instruction& inst) {
  if (groupScope(lw, inst) != GroupScope::Subgroup)
    lw.unsupported(inst, fmt::format("{} at Workgroup scope (OpenCL has no work-group "
                                     "non-uniform operations)",
                                     lw.describeWithType(inst)));
  const uint32_t g = groupOperationOperand(lw, inst, true);
  const Shape s = lw.shape(inst.resultType);
  checkWholeBytes(lw, inst, K, s);
  ExecFn fn = pickNumbers<GroupArithmetic<OpT>::template NonUniform, K>(s.scalar);
  if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
  uint32_t cluster = 0, requested = 0;
  if (g == uint32_t(GroupOperation::ClusteredReduce)) {
    if (inst.operands.size() < 4 || !lw.isConstant(Lowerer::operand(inst, 3)))
      lw.unsupported(inst, "ClusteredReduce without a constant ClusterSize");
    const uint64_t size = lw.constantValue(Lowerer::operand(inst, 3));
    if (size == 0 || (size & (size - 1)) != 0)
      lw.unsupported(inst, fmt::format("ClusterSize {} (not a power of two)", size));
    cluster = static_cast<uint32_t>(std::min<uint64_t>(size, lw.width));
    requested = static_cast<uint32_t>(std::min<uint64_t>(size, UINT32_MAX));
    if (size > lw.width)
      fn = pickNumbers<OversizedCluster<GroupArithmetic<OpT>::template NonUniform>::template With,
                       K>(s.scalar);
  }
  const uint32_t value = lw.reg(Lowerer::operand(inst, 2));
  Inst& in = lw.emit(inst, fn);
  in.a = value;
  in.n = s.stride;
  in.aux = s.components;
  in.b = g;
  in.c = cluster;
  in.aux2 = requested;
}

}  // namespace

void registerGroupNonUniformArithmeticOps(OpTable& t) {
  using N = Numbers;
  auto add = [&](Op op, LowerFn fn) { t.core[uint32_t(op)] = fn; };
  add(Op::OpGroupNonUniformIAdd, &lowerNonUniform<AddOp, N::Unsigned>);
  add(Op::OpGroupNonUniformFAdd, &lowerNonUniform<AddOp, N::Float>);
  add(Op::OpGroupNonUniformIMul, &lowerNonUniform<MulOp, N::Unsigned>);
  add(Op::OpGroupNonUniformFMul, &lowerNonUniform<MulOp, N::Float>);
  add(Op::OpGroupNonUniformSMin, &lowerNonUniform<MinOp, N::Signed>);
  add(Op::OpGroupNonUniformUMin, &lowerNonUniform<MinOp, N::Unsigned>);
  add(Op::OpGroupNonUniformFMin, &lowerNonUniform<MinOp, N::Float>);
  add(Op::OpGroupNonUniformSMax, &lowerNonUniform<MaxOp, N::Signed>);
  add(Op::OpGroupNonUniformUMax, &lowerNonUniform<MaxOp, N::Unsigned>);
  add(Op::OpGroupNonUniformFMax, &lowerNonUniform<MaxOp, N::Float>);
  add(Op::OpGroupNonUniformBitwiseAnd, &lowerNonUniform<AndOp, N::Unsigned>);
  add(Op::OpGroupNonUniformBitwiseOr, &lowerNonUniform<OrOp, N::Unsigned>);
  add(Op::OpGroupNonUniformBitwiseXor, &lowerNonUniform<XorOp, N::Unsigned>);
  add(Op::OpGroupNonUniformLogicalAnd, &lowerNonUniform<LogicalAndOp, N::Bool>);
  add(Op::OpGroupNonUniformLogicalOr, &lowerNonUniform<LogicalOrOp, N::Bool>);
  add(Op::OpGroupNonUniformLogicalXor, &lowerNonUniform<LogicalXorOp, N::Bool>);
}

}  // namespace spvsim
