// Pointers to program-scope variables inside constants and initial values
// (spirv::Relocation), filled in where the simulator places the variables.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "spirv/module.h"
#include "spirv/module_facts.h"

namespace spvsim {

// The kernel pointer of a program-scope variable: CrossWorkgroup variables are global
// regions 1, 2, ... and UniformConstant ones constant regions 1, 2, ..., in declaration
// order (as Program stores them). nullopt for other variables.
std::optional<uint64_t> programVariablePointer(const spirv::Module& module, spirv::Id variable);

// c.bytes with each relocation's pointer, pointerOf(variable) + offset, written in. Throws
// Error(DiagnosticKind::Unsupported) for a variable pointerOf does not place.
std::vector<uint8_t> resolvedBytes(
    const spirv::ModuleFacts& facts, const spirv::Constant& c,
    const std::function<std::optional<uint64_t>(spirv::Id)>& pointerOf);

}  // namespace spvsim
