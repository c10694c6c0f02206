// KERNEL files: .spv (binary), .spvasm (assembly) or .cl (OpenCL C, compiled by the
// compile driver, src/compiler/compile_driver.h), chosen by extension; a capture bundle
// (tools/bundle.h) stands for its module.spv.
#pragma once

#include <string>
#include <string_view>

#include "spirv/module.h"
#include "src/compiler/compile_driver.h"

namespace spvsim::tools {

// The module's words and, for .cl, what the compile driver did (its log, commands and
// notes). Throws Error(DiagnosticKind::Input) for an unknown extension or an unreadable file,
// Error(DiagnosticKind::InvalidModule) for bad SPIR-V or assembly, Error(DiagnosticKind::Compile)
// for OpenCL C that does not compile. `buildOptions` only applies to .cl; for the others the log
// says so.
compiler::CompileResult readKernel(const std::string& path, std::string_view buildOptions,
                                   bool useCache = true);

// One "warning: repaired: RULE (PRODUCER)" line per repair the loader made to a module
// from elsewhere (spirv/normalize.h).
std::string repairWarnings(const spirv::Module& module);

// How the module was made, for `spvsim info`: whether it came from the compile cache,
// the commands that made it and what the driver rewrote or the loader repaired. Empty
// for a .spv or .spvasm that needed no repair.
std::string formatBuildInfo(const compiler::CompileResult& build, const spirv::Module& module);

}  // namespace spvsim::tools
