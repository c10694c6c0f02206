// SPIRV-Tools validation of a module, tolerant of what spvsim executes but SPIRV-Tools
// 2023.1 refuses: the validator sees a copy with three validation-only edits.
#pragma once

#include <cstdint>
#include <vector>

#include "spirv/binary.h"

namespace spvsim::spirv {

// Throws Error(DiagnosticKind::InvalidModule) with the validator's message (one line), or
// Error(DiagnosticKind::Unsupported) for integers wider than 64 bits.
void validate(const std::vector<uint32_t>& words);

// What validate() hands to SPIRV-Tools: the words with the edits below (unchanged when
// they do not parse; the validator then reports why).
std::vector<uint32_t> validationCopy(const std::vector<uint32_t>& words);
std::vector<uint32_t> validationCopy(Binary binary);

// SPIRV-Tools 2023.1 rejects the OpenCL.DebugInfo.100 that llvm-spirv-15 emits for
// ordinary -g kernels: every OpExtInst of that set goes, and its import (OpLine stays).
void dropDebugInfo(Binary& binary);

// SPIRV-Tools rejects integer widths other than 8/16/32/64 even with
// SPV_INTEL_arbitrary_precision_integers (clang narrows switches to i4, closed forms of
// loops use i33): each odd-width OpTypeInt becomes an unused standard width with the same
// literal size (<= 32 bits: one word; 33..64: two), or, when all are declared, an alias
// of the narrowest declared one, with the duplicate types and same-width conversions
// that the alias creates merged (spirv/standard_int_widths.cc).
void useStandardIntWidths(Binary& binary);

// llvm-spirv-15 emits OpAtomicCompareExchangeWeak (same operands as the strong form) in
// SPIR-V 1.4 modules, where SPIRV-Tools no longer accepts it: it is validated as the
// strong form, which is also how it executes (a strong exchange is a valid weak one).
void useStrongCompareExchange(Binary& binary);

}  // namespace spvsim::spirv
