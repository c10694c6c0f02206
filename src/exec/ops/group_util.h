// Shared by the sub-group and work-group op families (group_*.cc, intel_subgroup_*.cc):
// execution scopes, the uniformity check of collectives, and work-group collectives
// that complete once every sub-group of the work-group waits at them.
#pragma once

#include <fmt/core.h>

#include <spirv/unified1/spirv.hpp11>

#include "src/exec/lowering.h"
#include "src/exec/subgroup.h"

namespace spvsim::ops {

enum class GroupScope : uint8_t { Subgroup, Workgroup };

// The execution scope operand (a constant id) of a group instruction; only Subgroup
// and Workgroup exist for kernels (OpenCL SPIR-V environment spec, 2.1).
inline GroupScope groupScope(Lowerer& lw, const spirv::Instruction& inst, size_t operand = 0) {
  const auto scope = static_cast<spv::Scope>(lw.constantValue(Lowerer::operand(inst, operand)));
  if (scope == spv::Scope::Subgroup) return GroupScope::Subgroup;
  if (scope == spv::Scope::Workgroup) return GroupScope::Workgroup;
  lw.unsupported(inst, fmt::format("execution scope {}", static_cast<uint32_t>(scope)));
}

// A collective (OpGroup*, Intel block I/O, sub-group barrier) must be reached by every
// lane of the sub-group. Otherwise reports `non-uniform-collective` and returns false;
// the caller then goes on over the active lanes so later diagnostics still show.
inline bool checkCollective(SubGroup& sg, const Inst& in, const char* what) {
  if (sg.mask == sg.live) return true;
  sg.report(in, DiagnosticKind::NonUniformCollective,
            fmt::format("{} reached by {} of the sub-group's {} lanes ({} lanes took another "
                        "path)",
                        what, sg.activeCount, sg.liveLanes, sg.live.andNot(sg.mask).count()),
            sg.mask);
  return false;
}

// The handler of every work-group collective: like a work-group barrier, it parks the
// sub-group; src/exec/workgroup.cc calls the instruction's combiner when all have arrived.
// Reached by part of a sub-group, the other lanes can never arrive: the work-group
// stops.
inline void parkAtWorkGroupCollective(SubGroup& sg, const Inst& in) {
  if (!checkCollective(sg, in, "work-group collective")) {
    sg.wg->aborted = true;
    sg.state = SubGroupState::Done;
    return;
  }
  sg.state = SubGroupState::AtBarrier;
  sg.barrierPc = sg.pc - 1;
}

// Emits a work-group collective for `inst`; fill the operand fields of the result.
inline Inst& emitWorkGroupCollective(Lowerer& lw, const spirv::Instruction& inst,
                                     WorkGroupCombineFn combine) {
  lw.out.combiners.push_back(combine);
  Inst& in = lw.emit(inst, &parkAtWorkGroupCollective);
  in.combine = static_cast<uint32_t>(lw.out.combiners.size());
  return in;
}

// Non-uniform operations exist at Subgroup scope only in OpenCL.
inline void requireSubgroupScope(Lowerer& lw, const spirv::Instruction& inst) {
  if (groupScope(lw, inst) != GroupScope::Subgroup)
    lw.unsupported(inst, "Workgroup execution scope for a non-uniform group operation");
}

// Lane l's value of an unsigned integer register of `bytes` bytes per lane.
inline uint64_t laneUint(const SubGroup& sg, uint32_t reg, uint32_t l, uint32_t bytes) {
  switch (bytes) {
    case 1:
      return sg.reg<uint8_t>(reg)[l];
    case 2:
      return sg.reg<uint16_t>(reg)[l];
    case 4:
      return sg.reg<uint32_t>(reg)[l];
    default:
      return sg.reg<uint64_t>(reg)[l];
  }
}

// Lane `l`'s element `c` of a register whose lanes hold `stride` elements of T.
template <class T>
inline T& laneElement(const SubGroup& sg, uint32_t reg, uint32_t l, uint32_t stride,
                      uint32_t c = 0) {
  return sg.reg<T>(reg)[size_t(l) * stride + c];
}

}  // namespace spvsim::ops
