// Pointers to program-scope variables inside constants and initial values
// (spirv::Relocation), filled in where the simulator places the variables.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "spirv/module.h"
#include "spirv/module_facts.h"
#include "src/exec/address32.h"

namespace spvsim {

// The kernel pointer of a program-scope variable: CrossWorkgroup variables are global
// regions 1, 2, ... and UniformConstant ones constant regions 1, 2, ..., in declaration
// order (as Program stores them). nullopt for other variables.
std::optional<uint64_t> programVariablePointer(const spirv::Module& module, spirv::Id variable);

// c.bytes with each relocation's pointer, pointerOf(variable) + offset, written in: 8
// bytes, or with `addresses32` (a Physical32 module) its 4-byte address. Throws
// Error(DiagnosticKind::Unsupported) for a variable pointerOf does not place, or one
// without a 32-bit address.
std::vector<uint8_t> resolvedBytes(
    const spirv::ModuleFacts& facts, const spirv::Constant& c,
    const std::function<std::optional<uint64_t>(spirv::Id)>& pointerOf,
    const Address32Map* addresses32 = nullptr);

// A relocation's pointer: pointerOf(variable) + offset (throws as resolvedBytes).
uint64_t relocatedPointer(const spirv::ModuleFacts& facts, const spirv::Constant& c,
                          const spirv::Relocation& r,
                          const std::function<std::optional<uint64_t>(spirv::Id)>& pointerOf);

// The 32-bit addresses of the program-scope variables (global and constant regions 1, 2,
// ..., as programVariablePointer numbers them), as every launch places them.
Address32Map programVariableAddresses32(const spirv::Module& module);

}  // namespace spvsim
