// Uniform group collectives (cl_khr_subgroups, the OpenCL 2.0 work-group functions,
// SPV_KHR_uniform_group_instructions): OpGroupAll/Any/Broadcast, OpGroup{I,F}Add,
// {S,U,F}Min/Max and the OpGroup*KHR arithmetic, at Subgroup and Workgroup scope.
// Every live lane must reach them: at Subgroup scope a partial active mask is reported
// (non-uniform-collective) and the op goes on over the active lanes; at Workgroup scope
// the instruction is a work-group collective (group_util.h) whose combiner sees every
// work-item of the work-group.
#include <fmt/core.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "src/exec/ops/group_arithmetic.h"

namespace spvsim {
namespace {

using namespace ops;
using spv::Op;

// ---- Reductions and scans --------------------------------------------------------

template <template <class> class OpT, Numbers K>
void lowerArithmetic(Lowerer& lw, const spirv::Instruction& inst) {
  const GroupScope scope = groupScope(lw, inst);
  const uint32_t g = groupOperationOperand(lw, inst, false);
  const Shape s = lw.shape(inst.resultType);
  checkWholeBytes(lw, inst, K, s);
  const uint32_t value = lw.reg(Lowerer::operand(inst, 2));
  Inst* in = nullptr;
  if (scope == GroupScope::Subgroup) {
    ExecFn fn = pickNumbers<GroupArithmetic<OpT>::template Uniform, K>(s.scalar);
    if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
    in = &lw.emit(inst, fn);
  } else {
    WorkGroupCombineFn fn = pickNumbers<GroupArithmetic<OpT>::template WorkGroup, K>(s.scalar);
    if (!fn) lw.unsupported(inst, lw.describeWithType(inst));
    in = &emitWorkGroupCollective(lw, inst, fn);
  }
  in->a = value;
  in->n = s.stride;
  in->aux = s.components;
  in->b = g;
}

// ---- OpGroupAll / OpGroupAny (Inst: r result, a predicate; booleans) --------------

template <bool All>
void subGroupVote(SubGroup& sg, const Inst& in) {
  if (sg.mask != sg.live) checkCollective(sg, in, All ? "sub_group_all" : "sub_group_any");
  const uint8_t* a = sg.reg<uint8_t>(in.a);
  uint8_t result = All ? 1 : 0;
  sg.forActive([&](uint32_t l) { result = All ? (result & a[l]) : (result | a[l]); });
  uint8_t* r = sg.reg<uint8_t>(in.r);
  sg.forActive([&](uint32_t l) { r[l] = result; });
}

template <bool All>
void workGroupVote(SubGroup* sgs, size_t count, const Inst& in) {
  uint8_t result = All ? 1 : 0;
  for (size_t k = 0; k < count; ++k) {
    const uint8_t* a = sgs[k].reg<uint8_t>(in.a);
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l)
      result = All ? (result & a[l]) : (result | a[l]);
  }
  for (size_t k = 0; k < count; ++k) {
    uint8_t* r = sgs[k].reg<uint8_t>(in.r);
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l) r[l] = result;
  }
}

template <bool All>
void lowerVote(Lowerer& lw, const spirv::Instruction& inst) {
  const GroupScope scope = groupScope(lw, inst);
  if (lw.shape(inst.resultType).scalar != Scalar::Bool ||
      lw.shapeOfValue(Lowerer::operand(inst, 1)).scalar != Scalar::Bool)
    lw.unsupported(inst, lw.describeWithType(inst));
  const uint32_t predicate = lw.reg(Lowerer::operand(inst, 1));
  Inst& in = scope == GroupScope::Subgroup ? lw.emit(inst, &subGroupVote<All>)
                                           : emitWorkGroupCollective(lw, inst, &workGroupVote<All>);
  in.a = predicate;
}

// ---- OpGroupBroadcast --------------------------------------------------------------
// Inst: r result, a value, b LocalId, n value bytes per lane, aux LocalId element bytes,
// aux2 LocalId components (1, 2 or 3; a 3-component register holds 4 a lane).

using LocalId = std::array<uint64_t, 3>;

LocalId localIdOf(const SubGroup& sg, const Inst& in, uint32_t lane) {
  const uint32_t stride = in.aux2 == 3 ? 4 : in.aux2;
  LocalId id{0, 0, 0};
  for (uint32_t k = 0; k < in.aux2; ++k)
    std::memcpy(&id[k], sg.regs + in.b + (size_t(lane) * stride + k) * in.aux, in.aux);
  return id;
}

std::string formatId(const LocalId& id, uint32_t components) {
  if (components == 1) return std::to_string(id[0]);
  if (components == 2) return fmt::format("({}, {})", id[0], id[1]);
  return fmt::format("({}, {}, {})", id[0], id[1], id[2]);
}

// Writes `bytes` bytes of `value` (or zeros when null) to `lanes` of the result.
void writeBroadcast(SubGroup& sg, const Inst& in, const uint8_t* value, const LaneMask& lanes) {
  lanes.forEach([&](uint32_t l) {
    uint8_t* dst = sg.regs + in.r + size_t(l) * in.n;
    if (value)
      std::memcpy(dst, value, in.n);
    else
      std::memset(dst, 0, in.n);
  });
}

// The id must be the same in every active lane (non-uniform-argument; the first active
// lane's wins) and name a live lane (shuffle-out-of-range: the value is undefined, so
// a Warning, result 0) that reached the broadcast (inactive-lane-read, likewise).
void subGroupBroadcast(SubGroup& sg, const Inst& in) {
  if (sg.mask != sg.live) checkCollective(sg, in, "sub_group_broadcast");
  const uint32_t first = sg.mask.first();
  const uint64_t id = localIdOf(sg, in, first)[0];
  LaneMask differ;
  uint32_t other = 0;
  sg.forActive([&](uint32_t l) {
    if (localIdOf(sg, in, l)[0] == id) return;
    if (differ.none()) other = l;
    differ.set(l);
  });
  if (differ.any())
    sg.report(in, DiagnosticKind::NonUniformArgument,
              fmt::format("sub_group_broadcast id differs across the sub-group: lane {} names "
                          "lane {}, lane {} names lane {}; lane {}'s id is used",
                          first, id, other, localIdOf(sg, in, other)[0], first),
              differ);
  if (id >= sg.liveLanes) {
    sg.report(in, DiagnosticKind::ShuffleOutOfRange,
              fmt::format("sub_group_broadcast reads lane {}, but the sub-group has {} lanes; "
                          "the result is 0",
                          id, sg.liveLanes),
              sg.mask, Severity::Warning);
    writeBroadcast(sg, in, nullptr, sg.mask);
    return;
  }
  if (!sg.active[id]) {
    sg.report(in, DiagnosticKind::InactiveLaneRead,
              fmt::format("sub_group_broadcast reads lane {}, which did not reach the "
                          "broadcast; the result is 0",
                          id),
              sg.mask, Severity::Warning);
    writeBroadcast(sg, in, nullptr, sg.mask);
    return;
  }
  std::vector<uint8_t> value(sg.regs + in.a + size_t(id) * in.n,
                             sg.regs + in.a + size_t(id + 1) * in.n);
  writeBroadcast(sg, in, value.data(), sg.mask);
}

// A scalar LocalId is (x, 0, 0), a 2-component one (x, y, 0). The source is the
// work-item at that local id of this work-group's actual local size.
void workGroupBroadcast(SubGroup* sgs, size_t count, const Inst& in) {
  const LocalId id = localIdOf(sgs[0], in, 0);
  for (size_t k = 0; k < count; ++k) {
    LaneMask differ;
    LocalId seen{};
    for (uint32_t l = 0; l < sgs[k].liveLanes; ++l)
      if (localIdOf(sgs[k], in, l) != id) {
        if (differ.none()) seen = localIdOf(sgs[k], in, l);
        differ.set(l);
      }
    if (differ.any())
      sgs[k].report(
          in, DiagnosticKind::NonUniformArgument,
          fmt::format("work_group_broadcast local id differs across the work-group: "
                      "work-item 0 names {}, lane {} of sub-group {} names {}; "
                      "work-item 0's id is used",
                      formatId(id, in.aux2), differ.first(), sgs[k].id, formatId(seen, in.aux2)),
          differ);
  }
  const auto& size = sgs[0].wg->localSize;
  if (id[0] >= size[0] || id[1] >= size[1] || id[2] >= size[2]) {
    sgs[0].report(in, DiagnosticKind::ShuffleOutOfRange,
                  fmt::format("work_group_broadcast reads local id {}, but the work-group's "
                              "local size is ({}, {}, {}); the result is 0",
                              formatId(id, in.aux2), size[0], size[1], size[2]),
                  sgs[0].mask, Severity::Warning);
    for (size_t k = 0; k < count; ++k) writeBroadcast(sgs[k], in, nullptr, sgs[k].live);
    return;
  }
  const uint64_t linear = id[0] + id[1] * size[0] + id[2] * size[0] * size[1];
  std::vector<uint8_t> value;
  for (size_t k = 0; k < count; ++k)
    if (linear >= sgs[k].firstLocalLinear && linear < sgs[k].firstLocalLinear + sgs[k].liveLanes) {
      const uint8_t* src = sgs[k].regs + in.a + (linear - sgs[k].firstLocalLinear) * in.n;
      value.assign(src, src + in.n);
    }
  for (size_t k = 0; k < count; ++k) writeBroadcast(sgs[k], in, value.data(), sgs[k].live);
}

void lowerBroadcast(Lowerer& lw, const spirv::Instruction& inst) {
  const GroupScope scope = groupScope(lw, inst);
  const spirv::Id localId = Lowerer::operand(inst, 2);
  const Shape id = lw.shapeOfValue(localId);
  const uint32_t limit = scope == GroupScope::Subgroup ? 1 : 3;
  if (!id.isInt() || id.components > limit)
    lw.unsupported(
        inst, fmt::format("{} with a {}-component LocalId at {} scope", lw.describeWithType(inst),
                          id.components, scope == GroupScope::Subgroup ? "Subgroup" : "Workgroup"));
  const uint32_t value = lw.reg(Lowerer::operand(inst, 1));
  const uint32_t idReg = lw.reg(localId);
  Inst& in = scope == GroupScope::Subgroup ? lw.emit(inst, &subGroupBroadcast)
                                           : emitWorkGroupCollective(lw, inst, &workGroupBroadcast);
  in.a = value;
  in.b = idReg;
  in.n = lw.shape(inst.resultType).bytes;
  in.aux = id.bytes / id.stride;
  in.aux2 = id.components;
}

}  // namespace

void registerGroupUniformOps(OpTable& t) {
  using N = Numbers;
  auto add = [&](Op op, LowerFn fn) { t.core[uint32_t(op)] = fn; };
  add(Op::OpGroupAll, &lowerVote<true>);
  add(Op::OpGroupAny, &lowerVote<false>);
  add(Op::OpGroupBroadcast, &lowerBroadcast);
  add(Op::OpGroupIAdd, &lowerArithmetic<AddOp, N::Unsigned>);
  add(Op::OpGroupFAdd, &lowerArithmetic<AddOp, N::Float>);
  add(Op::OpGroupSMin, &lowerArithmetic<MinOp, N::Signed>);
  add(Op::OpGroupUMin, &lowerArithmetic<MinOp, N::Unsigned>);
  add(Op::OpGroupFMin, &lowerArithmetic<MinOp, N::Float>);
  add(Op::OpGroupSMax, &lowerArithmetic<MaxOp, N::Signed>);
  add(Op::OpGroupUMax, &lowerArithmetic<MaxOp, N::Unsigned>);
  add(Op::OpGroupFMax, &lowerArithmetic<MaxOp, N::Float>);
  add(Op::OpGroupIMulKHR, &lowerArithmetic<MulOp, N::Unsigned>);
  add(Op::OpGroupFMulKHR, &lowerArithmetic<MulOp, N::Float>);
  add(Op::OpGroupBitwiseAndKHR, &lowerArithmetic<AndOp, N::Unsigned>);
  add(Op::OpGroupBitwiseOrKHR, &lowerArithmetic<OrOp, N::Unsigned>);
  add(Op::OpGroupBitwiseXorKHR, &lowerArithmetic<XorOp, N::Unsigned>);
  add(Op::OpGroupLogicalAndKHR, &lowerArithmetic<LogicalAndOp, N::Bool>);
  add(Op::OpGroupLogicalOrKHR, &lowerArithmetic<LogicalOrOp, N::Bool>);
  add(Op::OpGroupLogicalXorKHR, &lowerArithmetic<LogicalXorOp, N::Bool>);
}

}  // namespace spvsim
