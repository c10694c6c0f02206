// `spvsim compile`: OpenCL C (or SPIR-V from elsewhere) to a valid SPIR-V module, once,
// for running many times (the module as the loader would repair it).
#pragma once

#include <ostream>

#include "tools/cli/options.h"

namespace spvsim::tools {

// Writes the module to --output (default: the input's name with .spv, in the current
// directory); warnings go to `err`. Returns the exit status; throws Error like run.
int compileCommand(const RunOptions& options, std::ostream& err);

}  // namespace spvsim::tools
