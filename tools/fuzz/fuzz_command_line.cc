// Fuzz target: the spvsim command line (tools/options.h, parseCommandLine) and the
// build-option splitting it hands to the compile driver (src/compiler/build_options.h), which
// clBuildProgram also applies to applications' option strings.
//
// Input: argv[1..], one word per line, e.g. "run\nk.cl\n--global=8,8\n--arg\nint:1".
// Any spvsim::Error is an accepted refusal; anything else is a finding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "spirv/error.h"
#include "src/compiler/build_options.h"
#include "tools/cli/options.h"
#include "tools/fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace spvsim;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args;
  for (size_t start = 0; start <= input.size();) {
    const size_t end = std::min(input.find('\n', start), input.size());
    args.emplace_back(input.substr(start, end - start));
    start = end + 1;
  }
  try {
    const tools::CommandLine cl = tools::parseCommandLine(args);
    if (cl.command) (void)tools::commandName(*cl.command);
    (void)cl.options.isSim();
    const std::vector<std::string> options = compiler::splitBuildOptions(cl.options.buildOptions);
    const std::string level = compiler::optimizationLevel(options);
    (void)compiler::withoutOptimizationLevel(options);
    (void)compiler::lowerLevels(level);
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  // The option string on its own too (clBuildProgram's options reach it unparsed).
  try {
    const std::vector<std::string> options = compiler::splitBuildOptions(input);
    (void)compiler::optimizationLevel(options);
  } catch (const Error& e) {
    fuzz::refused(e);
  }
  return 0;
}
