#include "src/exec/subgroup_independence.h"

#include "spirv/opcode.h"
#include "src/exec/lowering.h"

namespace spvsim {
namespace {

using spv::Op;

// A volatile load or store: how OpenCL 1.x code passes a flag between work-items with
// plain accesses, which the work-group's scheduler hands off between its sub-groups
// (src/exec/workgroup.cc); apart, the waiting sub-group could only be a deadlock.
bool isVolatileAccess(const Lowerer& lw, const spirv::Instruction& inst) {
  size_t mask = 0;  // index of the memory-access operand
  switch (inst.opcode) {
    case Op::OpLoad:
      mask = 1;
      break;
    case Op::OpStore:
    case Op::OpCopyMemory:
      mask = 2;
      break;
    case Op::OpCopyMemorySized:
      mask = 3;
      break;
    default:
      return false;
  }
  const bool flagged = inst.operands.size() > mask &&
                       (inst.operands[mask] & uint32_t(spv::MemoryAccessMask::Volatile));
  const size_t pointers = inst.opcode == Op::OpLoad || inst.opcode == Op::OpStore ? 1 : 2;
  bool decorated = false;
  for (size_t k = 0; k < pointers && k < inst.operands.size(); ++k)
    decorated = decorated || lw.module.hasDecoration(inst.operands[k], spv::Decoration::Volatile);
  return flagged || decorated;
}

}  // namespace

bool tiesSubGroups(const Lowerer& lw, const spirv::Instruction& inst) {
  // Pipes (their packets go to work-groups in order), device-side enqueue (commands are
  // ordered per work-group) and named barriers.
  if (spirv::ordersAcrossWorkItems(inst.opcode) || isVolatileAccess(lw, inst)) return true;
  // Atomics: their results depend on the order of the sub-groups, and a sub-group may
  // wait on another through them (a spin the work-group's scheduler hands off).
  if (spirv::isAtomic(inst.opcode)) return true;
  // Barriers and group operations, whose first operand is the execution scope: only
  // a constant Subgroup scope stays within one sub-group. Async copies and their events
  // belong to the work-group whatever the scope.
  if (!spirv::hasExecutionScope(inst.opcode)) return false;
  if (inst.opcode == Op::OpGroupAsyncCopy || inst.opcode == Op::OpGroupWaitEvents) return true;
  if (inst.operands.empty() || !lw.isConstant(inst.operands[0])) return true;
  return lw.constantValue(inst.operands[0]) != uint64_t(spv::Scope::Subgroup);
}

}  // namespace spvsim
