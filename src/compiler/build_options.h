// clBuildProgram-style option strings: splitting them and the optimisation level.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace spvsim::compiler {

// Split like a shell would: whitespace separates, single and double quotes group,
// backslash escapes. Throws Error(DiagnosticKind::Usage) on an unclosed quote.
std::vector<std::string> splitBuildOptions(std::string_view options);

// The optimisation level the options ask for: the last -O0/-O1/-O2/-O3/-Os/-Oz/-Ofast/-O
// ("-O" is "-O1", as in clang), "-O0" for -cl-opt-disable (the OpenCL option), or
// "-O2" (clang's default for OpenCL, and spvsim's) when none is given.
std::string optimizationLevel(const std::vector<std::string>& options);

// The options without any optimisation-level option (to set another one).
std::vector<std::string> withoutOptimizationLevel(const std::vector<std::string>& options);

// Refuses what is not an OpenCL build option (clBuildProgram/clCompileProgram: -D, -I,
// -cl-*, -O levels, -g, -w, -Werror and -W warning switches), so that options from a less
// trusted source (a DAP launch configuration) cannot make clang load code (-Xclang -load,
// -fplugin=, -mllvm -load, @response files...) or take another input. Throws
// Error(DiagnosticKind::Usage) naming the first option refused.
void requireOpenCLBuildOptions(const std::vector<std::string>& options);

// The lower levels to retry at, in order, when a level fails: -O1 then -O0 below -O2,
// -O0 below -O1, none below -O0.
std::vector<std::string> lowerLevels(const std::string& level);

}  // namespace spvsim::compiler
