// What `spvsim run` prints after a launch: buffer dumps and the JSON report.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "tools/cli/arg_value.h"

namespace spvsim::tools {

// "arg2 int[8] = 0 1 2 3 4 5 6 7": the argument's index, its element type as the user
// named it, and each element (floats shortest round-trip, vectors "(1,2,3,4)").
std::string formatDumpLine(size_t index, const ArgValue& buffer);
// The same line and its newline written to `out` in chunks (`spvsim run --dump` of large
// buffers: the whole text is never held); a buffer of more than 65536 elements is
// formatted by up to `threads` threads, blocks of 16384 elements, written in order.
void writeDumpLine(std::ostream& out, size_t index, const ArgValue& buffer, unsigned threads = 1);

// {"build": B, "diagnostics": [D, ...], "buffers": {"arg2": [...], ...}} with one entry
// per buffer argument; `diagnostics` and `build` (how the module was made; left out when
// empty) are already JSON. `check` (spvsim check's verdicts, JSON) follows "buffers" as
// "check" when not empty.
std::string formatJsonReport(const std::vector<std::string>& diagnostics,
                             const std::vector<ArgValue>& args, const std::string& build = "",
                             const std::string& check = "");

}  // namespace spvsim::tools
