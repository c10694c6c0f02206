// The one CFG builder: successors from the grammar's descriptors (the operands that
// spirv/instruction_info.h marks as successor labels), on the decoded Module (lowering,
// debugger) and on the loader's Binary (repairs). Dominators: spirv/dominators.h.
#pragma once

#include <cstdint>
#include <span>
#include <spirv/unified1/spirv.hpp11>
#include <vector>

#include "spirv/binary.h"
#include "spirv/dominators.h"
#include "spirv/instruction_info.h"
#include "spirv/module.h"

namespace spvsim::spirv {

// The labels a terminator branches to, in operand order (duplicates kept); empty for
// terminators that leave the function. `operands` are the words after the opcode word.
// OpSwitch case literals take one word for selectors of up to 32 bits, two above.
// Stops at a truncated operand list instead of reading past it.
std::vector<Id> branchTargets(spv::Op op, std::span<const uint32_t> operands,
                              uint32_t selectorBits);

// The CFG of one function: block k is the function's k-th block.
struct FunctionCfg {
  Graph successors;
  std::vector<bool> exits;  // blocks that leave the function (return, unreachable)
};

// OpSwitch selector widths come from the module's types. Throws
// Error(DiagnosticKind::InvalidModule) for a branch to a label that is not a block of the function.
FunctionCfg functionCfg(const Module& module, const Function& function);

// The same on words; nullopt for a branch that leaves the function's blocks.
std::optional<FunctionCfg> functionCfg(const Binary& binary, const FunctionSpan& function);

}  // namespace spvsim::spirv
