// Bytes -> validated, decoded Module.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/module.h"

namespace spvsim::spirv {

struct LoadOptions {
  bool validate = true;
  // Refuse a module whose entry point reaches a cycle of calls (spirv/call_graph.h). The
  // compile driver checks that itself, to refuse the source rather than the module.
  bool refuseRecursion = true;
};

// Repairs what real producers get wrong (spirv/normalize.h; Module::repairs lists what
// was repaired), validates (unless disabled) and decodes a SPIR-V binary, in either byte
// order (a module of the other order is byte-swapped first; Module::words is then in
// host order). Throws Error
// with kind "invalid-module" (bad magic, truncation, validator message, recursion) or
// "unsupported" (a capability, integer width or addressing model spvsim does not
// execute).
Module loadModule(std::vector<uint32_t> words, const LoadOptions& options = {});

// Reads a .spv file into words; throws Error(DiagnosticKind::InvalidModule) for a size that is not
// a whole number of words or a file that cannot be read.
std::vector<uint32_t> readBinaryFile(const std::string& path);
// The words of a .spv file's bytes, read by the caller; `path` names it in the error
// readBinaryFile would throw for a size that is not a whole number of words.
std::vector<uint32_t> wordsFromBytes(std::string_view bytes, const std::string& path);

// Assembles SPIR-V assembly text (SPIRV-Tools syntax); throws Error(DiagnosticKind::InvalidModule)
// with the assembler's message and line.
std::vector<uint32_t> assemble(const std::string& text);

// The SPIR-V environment the validator uses for a module of this version word
// ("SPIR-V 1.0" ... "SPIR-V 1.6": the universal environments).
std::string targetEnvironmentName(uint32_t version);

}  // namespace spvsim::spirv
