// Repairs of what real producers emit before validation: defects that SPIR-V drivers
// accept (llvm-spirv-15 at -O1..-O3 and -g lays blocks out before their dominators,
// declares variables outside the first block, ...) and that the validator refuses.
// Each rule detects its defect cheaply, so a clean module comes back unchanged and
// with no repair. Semantics never change: what a rule cannot repair exactly it leaves
// to the validator, as it does with words SPIRV-Tools cannot parse.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

struct NormalizedModule {
  std::vector<uint32_t> words;
  std::vector<Repair> repairs;  // one per rule applied, in order
};

NormalizedModule normalizeModule(std::vector<uint32_t> words);

// The rule names, in the order they are applied (each Repair::rule is one of them).
std::vector<std::string> repairRuleNames();

// The module with every module-scope variable that each entry point's call tree uses
// (directly or through constants and initializers) listed in its interface, as the
// module's version requires: Input/Output variables before SPIR-V 1.4, all module-scope
// variables from 1.4 on. Unchanged when nothing is missing or the words do not parse.
// `added` (optional) receives the number of interface entries added.
std::vector<uint32_t> withEntryPointInterfaces(const std::vector<uint32_t>& words,
                                               uint32_t* added = nullptr);

}  // namespace spvsim::spirv
