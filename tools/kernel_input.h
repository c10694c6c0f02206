// KERNEL files: .spv (binary), .spvasm (assembly) or .cl (OpenCL C), chosen by extension.
#pragma once

#include <string>
#include <string_view>

#include "tools/compile_cl.h"

namespace spvsim::tools {

// Returns the module's words (and, for .cl, the compiler's warnings). Throws
// Error("input") for an unknown extension or an unreadable file, Error("invalid-module")
// for bad SPIR-V or assembly, Error("compile") for OpenCL C that does not compile.
// `buildOptions` only applies to .cl; for the others it is reported in the log.
CompiledProgram readKernel(const std::string& path, std::string_view buildOptions);

}  // namespace spvsim::tools
