// Built-in variables: which SPIR-V BuiltIns spvsim provides and each lane's values.
#pragma once

#include "spirv/module.h"
#include "src/exec/lowered.h"
#include "src/exec/subgroup.h"

namespace spvsim {

// Fills `slot` for a BuiltIn variable whose pointee type is `type`; false if
// unsupported.
bool describeBuiltin(spv::BuiltIn builtin, const spirv::Type& type, BuiltinSlot& slot);

// Writes every built-in's value for every live lane into the lanes' private memory.
void writeBuiltins(SubGroup& sg, const LoweredKernel& kernel);

}  // namespace spvsim
