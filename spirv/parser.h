// Decodes validated words into a Module (no validation here).
#pragma once

#include "spirv/module.h"

namespace spvsim::spirv {

// Throws Error(DiagnosticKind::InvalidModule) for words SPIRV-Tools cannot parse and
// Error(DiagnosticKind::Unsupported) for constructs the decoder does not handle (named).
Module parseModule(std::vector<uint32_t> words);

}  // namespace spvsim::spirv
