// Finds a kernel's reduction targets (src/exec/reduction.h) in its SPIR-V: lowering marks
// their read-modify-writes, a launch may then privatise the buffers bound to them.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_set>
#include <vector>

#include "spirv/module.h"
#include "spirv/module_facts.h"
#include "src/exec/reduction.h"

namespace spvsim {

struct ReductionAnalysis {
  std::vector<ReductionTarget> targets;  // by parameter, ascending
  // spirv::Instruction::index of each read-modify-write whose pointer may be a target's.
  std::unordered_set<uint32_t> rmws;
};

// `body` is the function lowering starts at (parameter k is the kernel's parameter k),
// `kernel` the entry point's call tree. Instructions `isDebugInfo` accepts do not
// execute and are not uses. A parameter is a target when:
//  - it points to CrossWorkgroup memory;
//  - every use of it and of every pointer derived from it (access chains, pointer
//    bitcasts and casts, copies, phis and selects) derives another pointer or is the
//    pointer operand of an OpAtomic{IAdd,ISub,IIncrement,IDecrement,SMin,SMax,UMin,UMax,
//    And,Or,Xor} with constant memory semantics and a result that nothing uses;
//  - those atomics share one ReductionOp and one element size (4 or 8 bytes);
// and no instruction of the call tree makes a global or generic pointer from anything
// else (a load, an integer, a call's result): such a pointer could reach the buffer
// without the analysis seeing it. ReductionTarget::unordered as it says there.
ReductionAnalysis findReductionTargets(
    const spirv::ModuleFacts& facts, const spirv::KernelFacts& kernel, const spirv::Function& body,
    const std::function<bool(const spirv::Instruction&)>& isDebugInfo);

}  // namespace spvsim
