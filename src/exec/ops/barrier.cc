// OpControlBarrier and OpMemoryBarrier. A work-group barrier parks the sub-group until
// every sub-group of the work-group reaches it (src/exec/workgroup.cc); a sub-group barrier
// only checks uniformity (non-uniform-collective), since the lanes of a sub-group run in
// lockstep.
#include <fmt/core.h>

#include <atomic>

#include "src/exec/ops/elementwise.h"
#include "src/exec/ops/group_util.h"

namespace spvsim {
namespace {

using spv::Op;
using spv::Scope;

// Reached by only part of the sub-group: undefined behaviour, reported; the work-group
// stops because no choice of continuation would be faithful.
bool checkUniform(SubGroup& sg, const Inst& in, const char* what) {
  if (sg.mask == sg.live) return true;
  sg.report(in, DiagnosticKind::BarrierDivergence,
            fmt::format("{} reached by {} of the sub-group's {} lanes ({} lanes took "
                        "another path)",
                        what, sg.activeCount, sg.liveLanes, sg.live.andNot(sg.mask).count()),
            sg.mask);
  sg.wg->aborted = true;
  sg.state = SubGroupState::Done;
  return false;
}

void workGroupBarrier(SubGroup& sg, const Inst& in) {
  if (!checkUniform(sg, in, "work-group barrier")) return;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  // The barrier's release: each work-item's stores reach memory as it arrives.
  if (sg.wg->relaxed) [[unlikely]]
    sg.wg->relaxed->fence(sg, in.aux2);
  sg.state = SubGroupState::AtBarrier;
  sg.barrierPc = sg.pc - 1;
}

void subGroupBarrier(SubGroup& sg, const Inst& in) {
  if (!ops::checkCollective(sg, in, "sub-group barrier")) return;
  if (sg.wg->relaxed) [[unlikely]]
    sg.wg->relaxed->fence(sg, in.aux2);
  sg.wg->observers.each([&](ExecutionObserver& o) { o.subGroupBarrier(sg, in.aux, in.aux2); });
}

void memoryFence(SubGroup& sg, const Inst& in) {
  // Host threads run whole work-groups; device-scope fences must order their memory.
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (sg.wg->relaxed) [[unlikely]]
    sg.wg->relaxed->fence(sg, in.aux2);
  sg.wg->observers.each([&](ExecutionObserver& o) { o.fence(sg, in.aux, in.aux2); });
}

// Inst::aux = memory scope (Device when not a constant), aux2 = memory semantics.
void setScopeAndSemantics(Lowerer& lw, Inst& in, spirv::Id scope, spirv::Id semantics) {
  in.aux = lw.isConstant(scope) ? uint32_t(lw.constantValue(scope)) : uint32_t(Scope::Device);
  in.aux2 = memorySemantics(lw, semantics);
}

void lowerControlBarrier(Lowerer& lw, const spirv::Instruction& inst) {
  auto scope = static_cast<Scope>(lw.constantValue(inst.operands.at(0)));
  switch (scope) {
    case Scope::Workgroup:
      setScopeAndSemantics(lw, lw.emit(inst, &workGroupBarrier), inst.operands.at(1),
                           inst.operands.at(2));
      return;
    case Scope::Subgroup:
      setScopeAndSemantics(lw, lw.emit(inst, &subGroupBarrier), inst.operands.at(1),
                           inst.operands.at(2));
      return;
    default:
      lw.unsupported(inst, fmt::format("OpControlBarrier with execution scope {}",
                                       static_cast<uint32_t>(scope)));
  }
}

}  // namespace

void registerBarrierOps(OpTable& t) {
  t.core[uint32_t(Op::OpControlBarrier)] = &lowerControlBarrier;
  t.core[uint32_t(Op::OpMemoryBarrier)] = [](Lowerer& lw, const spirv::Instruction& inst) {
    setScopeAndSemantics(lw, lw.emit(inst, &memoryFence), inst.operands.at(0), inst.operands.at(1));
  };
}

}  // namespace spvsim
