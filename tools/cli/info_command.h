// `spvsim info`: what a module contains, for people choosing --kernel and --arg.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "spirv/module.h"

namespace spvsim::tools {

// SPIR-V version, capabilities, extensions, then each kernel (or only `kernel`, which
// must exist: Error(DiagnosticKind::Usage) otherwise) with its execution modes and a parameter
// table (index, name, type, address space, access).
std::string formatModuleInfo(const spirv::Module& module, std::string_view kernel);

// Capability and execution-mode names come from the disassembler (SPIRV-Tools, which
// reads them from the grammar): "OpCapability Kernel", "OpExecutionMode %5 LocalSize 8 1 1".
struct ModuleText {
  std::vector<std::string> capabilities;
  std::vector<std::pair<std::string, std::string>> modes;  // function id "%5", mode text
};
ModuleText scanDisassembly(const spirv::Module& module);

// The execution modes of one kernel, as the disassembler spells them ("LocalSize 8 1 1").
std::vector<std::string> kernelModes(const spirv::Module& module, const spirv::EntryPoint& ep,
                                     const ModuleText& text);

// How a parameter takes its argument: "value, 4 bytes", "buffer", "local memory", ...
std::string passedAs(const spirv::ParamSignature& p);

// The names of the module's kernels, comma-separated, for messages.
std::string kernelList(const spirv::Module& module);

}  // namespace spvsim::tools
