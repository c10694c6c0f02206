// Merge instructions: kernel SPIR-V has no structured control flow, so OpLoopMerge and
// OpSelectionMerge are only hints there (spvsim reconverges at immediate
// post-dominators and ignores them). llvm-spirv-15 at -O1 emits some that SPIRV-Tools
// refuses even in kernels: an OpLoopMerge that is not the second-to-last instruction of
// its block, or a block that is the merge block of two headers. Such merges are dropped,
// the valid ones kept (Kernel modules only; in shaders they carry meaning).
#include <unordered_set>

#include "spirv/opcode.h"
#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

struct FunctionMerges {
  std::unordered_set<Id> debugSets;  // OpenCL.DebugInfo.100 imports
  std::unordered_set<Id> labels;
  std::unordered_set<Id> mergeBlocks;  // of the merges kept so far
};

// Whether the merge at `at` immediately precedes a terminator it may precede (debug
// info between them does not count: the validator does not see it).
bool precedesTerminator(const Binary& b, const BlockSpan& block, size_t at,
                        const FunctionMerges& f) {
  const Op term = b.code[block.terminator].op;
  size_t next = at + 1;
  while (next < block.terminator && isExtInstOf(b.code[next], f.debugSets)) ++next;
  if (next != block.terminator) return false;
  if (b.code[at].op == Op::OpLoopMerge)
    return term == Op::OpBranch || term == Op::OpBranchConditional;
  return term == Op::OpBranchConditional || term == Op::OpSwitch;
}

// Loop controls that SPIRV-Tools refuses together.
bool conflictingLoopControls(uint32_t control) {
  const auto has = [&](spv::LoopControlMask m) { return (control & uint32_t(m)) != 0; };
  using M = spv::LoopControlMask;
  return has(M::DontUnroll) && (has(M::Unroll) || has(M::PeelCount) || has(M::PartialCount));
}

bool validMerge(const Binary& b, const BlockSpan& block, size_t at, FunctionMerges& f) {
  const BinaryInstruction& inst = b.code[at];
  const Id merge = inst.word(1);
  if (!precedesTerminator(b, block, at, f) || !f.labels.count(merge) ||
      merge == b.code[block.label].result || f.mergeBlocks.count(merge))
    return false;
  if (inst.op == Op::OpLoopMerge) {
    const Id cont = inst.word(2);
    if (!f.labels.count(cont) || cont == merge || conflictingLoopControls(inst.word(3)))
      return false;
  }
  f.mergeBlocks.insert(merge);
  return true;
}

// Marks the invalid merges of one function in `drop`; returns how many.
uint32_t markFunction(const Binary& b, const FunctionSpan& fn,
                      const std::unordered_set<Id>& debugSets, std::vector<char>& drop) {
  FunctionMerges f;
  f.debugSets = debugSets;
  for (const BlockSpan& block : fn.blocks) f.labels.insert(b.code[block.label].result);
  uint32_t n = 0;
  for (const BlockSpan& block : fn.blocks)
    for (size_t at = block.label + 1; at < block.terminator; ++at)
      if (isMergeInstruction(b.code[at].op) && !validMerge(b, block, at, f)) {
        drop[at] = 1;
        ++n;
      }
  return n;
}

}  // namespace

uint32_t repairMergeInstructions(Binary& b) {
  if (!b.hasCapability(spv::Capability::Kernel) || b.hasCapability(spv::Capability::Shader))
    return 0;
  std::optional<std::vector<FunctionSpan>> functions = functionSpans(b);
  if (!functions) return 0;
  std::vector<char> drop(b.code.size(), 0);
  // Once per module (a walk of every instruction), not once per function.
  const std::unordered_set<Id> debugSets = extInstImports(b, kOpenclDebugInfo);
  uint32_t n = 0;
  for (const FunctionSpan& fn : *functions) n += markFunction(b, fn, debugSets, drop);
  if (!n) return 0;
  std::vector<BinaryInstruction> code;
  code.reserve(b.code.size() - n);
  for (size_t at = 0; at < b.code.size(); ++at)
    if (!drop[at]) code.push_back(std::move(b.code[at]));
  b.code = std::move(code);
  return n;
}

}  // namespace spvsim::spirv
