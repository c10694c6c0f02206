// `spvsim check --expect FILE`: a reference result, as `spvsim run --dump` prints it
// ("arg1 int[4] = 1 2 3 4" lines) or as a --json report (its "buffers" object).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/cli/arg_value.h"

namespace spvsim::tools {

struct ExpectedArg {
  size_t index = 0;   // the kernel argument
  uint64_t line = 0;  // where FILE names it
  ArgValue value;     // the launch's argument holding the expected contents
};

// The arguments FILE names, in file order. The format is the JSON one when the first
// non-blank character is '{'. Text: one line per argument, blank lines and '#' comments
// skipped, anything else malformed (printf output is not part of a reference). Each named
// argument must be a buffer or image of the launch with the same type and element count
// (text: the same header as --dump writes). Throws Error(DiagnosticKind::Input)
// "FILE:LINE: ..." for an unreadable or malformed file.
std::vector<ExpectedArg> readExpectFile(const std::string& path, const std::vector<ArgValue>& args);

}  // namespace spvsim::tools
