// Preparing one launch from the command line (KERNEL + --arg specs, or a .sim file):
// shared by `spvsim run` and `spvsim debug`.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "src/program.h"
#include "tools/arg_value.h"
#include "tools/options.h"

namespace spvsim::tools {

struct PreparedLaunch {
  std::shared_ptr<Program> program;
  std::string kernel;
  NDRange range;
  std::vector<ArgValue> args;  // buffers hold the storage the launch reads and writes
};

// How the kernel is compiled when it is OpenCL C.
enum class Compile {
  AsGiven,    // the user's --build-options only (spvsim run)
  DebugInfo,  // also -g, and -O0 unless the options choose an -O level (spvsim debug)
};

// Loads or compiles the kernel (compiler warnings go to `err`), picks the kernel and
// checks the arguments against its parameters. Throws Error like `spvsim run`.
PreparedLaunch prepareLaunch(const RunOptions& options, std::ostream& err,
                             Compile compile = Compile::AsGiven);

// The build options used for Compile::DebugInfo: "-g -O0 " before the user's options,
// or "-g " when they contain an -O option (the user's choice wins).
std::string debugBuildOptions(std::string_view userOptions);

std::vector<ArgBinding> bindings(std::vector<ArgValue>& args);
LaunchOptions launchOptions(const RunOptions& options);

}  // namespace spvsim::tools
