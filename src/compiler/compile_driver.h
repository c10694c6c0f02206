// OpenCL C -> SPIR-V: the one compile driver of spvsim, used by the command line (run,
// debug, check, dis, info, compile) and by the OpenCL runtime (clBuildProgram,
// clCompileProgram). See src/DESIGN.md, "Compile driver", for the pipeline:
//
//   clang-15 -S (device extensions and features, prelude, no merging of convergent
//   calls, no odd-width closed forms) -> IR rewrites (freeze, legacy atomics, narrow
//   switches) -> opt-15 (expand vector reductions) -> llvm-spirv-15 -> loader
//   normalisation and validation -> the module (and the compile cache).
//
// A level the translator cannot handle, or whose module is invalid, is retried at lower
// levels with a `warning:` line in the log, never silently.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace spvsim::compiler {

// A header that `#include "name"` finds (clCompileProgram's embedded headers).
struct SourceHeader {
  std::string name;  // as the source includes it, e.g. "mydir/myinc.h"
  std::string text;
};

// The OpenCL C version of clBuildProgram and clCompileProgram when the options name none:
// "the highest OpenCL C 1.x language version supported by each device" (the API spec).
// The command line's default is CL3.0 (CompileRequest::defaultStd).
inline constexpr const char* kApiDefaultStd = "CL1.2";

struct CompileRequest {
  std::string source;      // OpenCL C text
  std::string sourcePath;  // the file it was read from; "" for a program held in memory
  std::string options;     // clBuildProgram-style options
  std::vector<SourceHeader> headers;
  std::string defaultStd = "CL3.0";  // when the options name no -cl-std=
  bool useCache = true;
};

struct CompileResult {
  std::vector<uint32_t> words;        // a valid module (normalised by the loader's rules)
  std::string log;                    // the compiler's warnings and the driver's `warning:`s
  std::vector<std::string> commands;  // the commands that made the module, as a shell runs them
  std::vector<std::string> notes;     // what the driver rewrote or repaired, one line each
  bool fromCache = false;
};

// Throws Error(DiagnosticKind::Input) when a tool is missing, Error(DiagnosticKind::Usage) for an
// unclosed quote in the options, and Error(DiagnosticKind::Compile) when the source does not
// compile: for a file, "compiling 'PATH' failed (TOOL exited with status N):\n<messages>"; for a
// program in memory, exactly the compiler's messages (a build log wants only those).
CompileResult compileOpenCL(const CompileRequest& request);

// compileOpenCL of a file (its directory is where `#include "..."` looks first).
CompileResult compileOpenCLFile(const std::string& path, std::string_view options,
                                bool useCache = true);

// The OpenCL C version (-cl-std=) the options name, or `defaultStd`.
std::string openclCStandard(const std::vector<std::string>& options, const std::string& defaultStd);

}  // namespace spvsim::compiler
