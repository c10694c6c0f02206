// The repair rules behind spirv/normalize.h, one file each (repair_*.cc).
#pragma once

#include <cstdint>
#include <span>

#include "spirv/binary.h"

namespace spvsim::spirv {

struct RepairRule {
  const char* name;
  // Repairs `binary` in place and returns how many places it repaired. Returns 0, with
  // `binary` unchanged, for a module without the defect or one it does not understand.
  uint32_t (*apply)(Binary& binary);
};

// In the order applied.
std::span<const RepairRule> repairRules();

uint32_t repairMergeInstructions(Binary& binary);
uint32_t repairBlockOrder(Binary& binary);
uint32_t repairFunctionVariables(Binary& binary);
uint32_t repairVectorSelect(Binary& binary);
uint32_t repairEntryPointInterfaces(Binary& binary);
uint32_t repairPhiPredecessors(Binary& binary);
uint32_t repairConstantVariablePointers(Binary& binary);

}  // namespace spvsim::spirv
