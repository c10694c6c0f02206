#include "spirv/normalize.h"

#include <exception>

#include "spirv/producer.h"
#include "spirv/repair.h"

namespace spvsim::spirv {

std::span<const RepairRule> repairRules() {
  static constexpr RepairRule kRules[] = {
      {"merge instructions: misplaced or conflicting OpLoopMerge/OpSelectionMerge (hints in "
       "kernels) dropped",
       &repairMergeInstructions},
      {"block order: blocks laid out before their dominator", &repairBlockOrder},
      {"function variables: OpVariable not at the start of the first block",
       &repairFunctionVariables},
      {"vector OpSelect with a scalar condition before SPIR-V 1.4: condition splatted",
       &repairVectorSelect},
      {"entry-point interfaces: module-scope variables missing from OpEntryPoint",
       &repairEntryPointInterfaces},
      {"phi entries: one predecessor block listed several times (one entry per switch "
       "edge, as in LLVM)",
       &repairPhiPredecessors},
      {"constant composites: a module-scope variable as a constituent (a pointer "
       "initialiser) becomes a constant Bitcast of it",
       &repairConstantVariablePointers},
  };
  return kRules;
}

std::vector<std::string> repairRuleNames() {
  std::vector<std::string> out;
  for (const RepairRule& rule : repairRules()) out.emplace_back(rule.name);
  return out;
}

NormalizedModule normalizeModule(std::vector<uint32_t> words) {
  NormalizedModule out;
  std::optional<Binary> binary = parseBinary(words);
  for (const RepairRule& rule : repairRules()) {
    if (!binary) break;  // unparsable: the validator reports it
    Binary edited = *binary;
    uint32_t count = 0;
    try {
      count = rule.apply(edited);
    } catch (const std::exception&) {
      count = 0;  // a rule that meets something unexpected repairs nothing
    }
    if (!count) continue;
    words = edited.encode();
    out.repairs.push_back({rule.name, producerName(edited.generator()), count});
    binary = parseBinary(words);
  }
  out.words = std::move(words);
  return out;
}

}  // namespace spvsim::spirv
