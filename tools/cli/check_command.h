// `spvsim check`: the oracle (src/DESIGN.md). Runs one launch under several sub-group sizes and
// schedules with every checker on, reports each diagnostic once (with the runs that
// showed it), and compares the buffers the runs leave behind.
#pragma once

#include <ostream>

#include "tools/cli/options.h"

namespace spvsim::tools {

// Returns 0 when every run was free of errors and the results agree across schedules,
// 2 otherwise. Usage and input errors throw Error (status 1 in main).
int checkCommand(const RunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace spvsim::tools
