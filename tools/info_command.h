// `spvsim info`: what a module contains, for people choosing --kernel and --arg.
#pragma once

#include <string>
#include <string_view>

#include "spirv/module.h"

namespace spvsim::tools {

// SPIR-V version, capabilities, extensions, then each kernel (or only `kernel`, which
// must exist: Error(DiagnosticKind::Usage) otherwise) with its execution modes and a parameter
// table (index, name, type, address space, access).
std::string formatModuleInfo(const spirv::Module& module, std::string_view kernel);

// The names of the module's kernels, comma-separated, for messages.
std::string kernelList(const spirv::Module& module);

}  // namespace spvsim::tools
