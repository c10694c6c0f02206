// Control-flow facts shared by the loader's repairs (on words) and the simulator's
// lowering (on the decoded Module): branch targets, orders and dominators.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <spirv/unified1/spirv.hpp11>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// Instructions that end a block (OpBranch, OpReturn, OpUnreachable, ...).
bool isBlockTerminator(spv::Op op);

// The labels a terminator branches to, in operand order (duplicates kept); empty for
// terminators that leave the function. `operands` are the words after the opcode word.
// OpSwitch case literals take one word for selectors of up to 32 bits and two above.
// Stops at a truncated operand list instead of reading past it.
std::vector<Id> branchTargets(spv::Op op, std::span<const uint32_t> operands,
                              uint32_t selectorBits);

// successors[n] lists the nodes that node n branches to.
using Graph = std::vector<std::vector<int>>;

// The nodes reachable from `root` in post-order (depth-first, successors in order).
std::vector<int> postOrder(const Graph& successors, int root);
std::vector<int> reversePostOrder(const Graph& successors, int root);

// Immediate dominators (Cooper, Harvey and Kennedy): idom[root] == root, -1 for nodes
// that `root` does not reach.
std::vector<int> immediateDominators(const Graph& successors, int root);

// The CFG of a decoded function: block k is function.blocks[k].
struct FunctionCfg {
  Graph successors;
  std::vector<bool> exits;  // blocks that leave the function (return, unreachable)
};

// `selectorBits(id)` is the width of an OpSwitch selector. Throws
// Error(DiagnosticKind::InvalidModule) for a branch to a label that is not a block of the function.
FunctionCfg functionCfg(const Function& function, const std::function<uint32_t(Id)>& selectorBits);

}  // namespace spvsim::spirv
