// OpenCL 1.x atomics in modules from llvm-spirv: the translator maps atomic_inc,
// atomic_add, atom_* ... on global memory to atomics with Workgroup scope and memory
// semantics 0 (SPIRV-LLVM-Translator issue 934), although OpenCL 1.2 makes them
// device-wide. A Workgroup-scope, semantics-0 atomic cannot tell its origin (C11
// atomic_*_explicit with memory_scope_work_group looks the same), so the loader only
// marks such atomics as possibly legacy, and only in llvm-spirv modules without the
// marker below, which a front end adds after mapping those built-ins to Device scope
// itself. Checkers then treat them as Device scope, with a warning.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

// OpSourceExtension text: "this module's OpenCL 1.x atomics are already Device scope".
inline constexpr std::string_view kLegacyAtomicsMarker = "spvsim:legacy-atomics=device";

// The module with kLegacyAtomicsMarker at the start of its debug section (unchanged if
// the words do not parse: the loader reports them).
std::vector<uint32_t> withLegacyAtomicsMarker(const std::vector<uint32_t>& words);

// Fills module.possiblyLegacyAtomics: Workgroup-scope atomics with constant semantics 0
// (both, for a compare-exchange) on a CrossWorkgroup or Generic pointer, in a module
// that llvm-spirv made and that lacks kLegacyAtomicsMarker.
void markPossiblyLegacyAtomics(Module& module);

}  // namespace spvsim::spirv
