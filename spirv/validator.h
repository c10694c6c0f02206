// SPIRV-Tools validation of a module, tolerant of OpenCL.DebugInfo.100.
#pragma once

#include <cstdint>
#include <vector>

namespace spvsim::spirv {

// Throws Error("invalid-module") with the validator's message. SPIRV-Tools 2023.1
// rejects the OpenCL.DebugInfo.100 that llvm-spirv-15 emits for ordinary -g kernels,
// so a copy without those instructions is validated (line info is kept: OpLine).
void validate(const std::vector<uint32_t>& words);

// The words with odd-width integer types (SPV_INTEL_arbitrary_precision_integers)
// redeclared at an unused standard width of at most 32 bits, for validation only.
std::vector<uint32_t> withStandardIntWidths(std::vector<uint32_t> words);

// The words of a SPIR-V >= 1.4 module with OpAtomicCompareExchangeWeak (which 1.4
// removed, but llvm-spirv-15 still emits) rewritten to OpAtomicCompareExchange.
std::vector<uint32_t> withStrongCompareExchange(std::vector<uint32_t> words);

// The words minus every OpExtInst of an OpenCL.DebugInfo.100 import and the import.
std::vector<uint32_t> withoutDebugInfo(const std::vector<uint32_t>& words);

}  // namespace spvsim::spirv
