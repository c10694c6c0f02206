// `spvsim info --json`: the facts of `spvsim info` as one JSON document, for scripts
// (the fields are listed in README.md "spvsim info --json").
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "spirv/module.h"
#include "src/compiler/compile_driver.h"

namespace spvsim::tools {

// {"spirv_version", "generator", "capabilities", "extensions", "kernels": [...], "build"};
// only `kernel` when it is not empty (Error(DiagnosticKind::Usage) when the module has no
// such kernel).
std::string formatModuleInfoJson(const spirv::Module& module, std::string_view kernel,
                                 const compiler::CompileResult& build);

// {"from_cache": B, "commands": [...], "notes": [...], "repairs": [...]}: what the compile
// driver ran (no commands: the module was read, not compiled) and what the loader
// repaired; also the --json report's "build".
std::string buildJson(const compiler::CompileResult& build, const spirv::Module& module);

// ["a", "b"] with JSON string escapes.
std::string jsonList(const std::vector<std::string>& items);

}  // namespace spvsim::tools
