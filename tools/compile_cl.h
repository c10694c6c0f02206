// OpenCL C -> SPIR-V with the system's clang-15 and llvm-spirv-15 (toolchain.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::tools {

struct CompiledProgram {
  std::vector<uint32_t> words;
  std::string log;  // the compiler's warnings, if any
};

// Compiles in a private temporary directory that is removed afterwards. Throws
// Error("input") when a tool is missing from PATH, and Error("compile") with the
// compiler's messages when compilation fails.
CompiledProgram compileOpenCL(const std::string& sourcePath, std::string_view buildOptions);

// A header that `#include "name"` finds (clCompileProgram's embedded headers).
struct SourceHeader {
  std::string name;  // as the source includes it, e.g. "mydir/myinc.h"
  std::string text;
};

// OpenCL C held in memory (the OpenCL runtime's programs), compiled like compileOpenCL;
// clang reads it from standard input, so messages name it "<stdin>". The headers are
// searched before any -I directory of the options. The module also carries the
// kernels' argument type names and qualifiers (tools/arg_info_strings.h). Throws Error("input")
// when a tool is missing, Error("usage") for an unclosed quote in the options, and Error("compile")
// whose message is exactly the compiler's output when compilation fails.
CompiledProgram compileOpenCLSource(std::string_view source, std::string_view buildOptions,
                                    const std::vector<SourceHeader>& headers = {});

// clBuildProgram-style options split like a shell would: whitespace separates, single and
// double quotes group, backslash escapes. Throws Error("usage") on an unclosed quote.
std::vector<std::string> splitBuildOptions(std::string_view options);

// The clang command line: -cl-std=CL3.0 (unless the options give a -cl-std=),
// -cl-kernel-arg-info (parameter names), -target spir64, the full default header, -O2,
// then the user's options, then the input and output.
std::vector<std::string> clangCommand(const std::string& source, const std::string& bitcode,
                                      const std::vector<std::string>& userOptions);

// The full path of an executable found on PATH.
std::optional<std::string> findOnPath(std::string_view program);

}  // namespace spvsim::tools
