// `spvsim debug`: prepares the launch like `spvsim run` (a .cl compiled with -g), then
// runs debugger commands (src/debugger/debug_commands.h) until `quit` or the end of input.
#pragma once

#include <istream>
#include <ostream>

#include "src/debugger/debug_launch.h"
#include "tools/cli/launch_setup.h"
#include "tools/cli/options.h"

namespace spvsim::tools {

// Commands come from the terminal through readline when `interactive`, else one per
// line from `in` (each echoed after the prompt). The session's output goes to `out`,
// mistakes in commands and compiler warnings to `err`. Returns 0 when no error
// diagnostic was reported, 2 otherwise; usage and input errors throw Error (status 1).
// The session's view of `launch`, which must outlive it (buffers stay in its args);
// `spvsim dap` builds its sessions the same way.
debugger::DebugLaunch debugLaunch(PreparedLaunch& launch, const RunOptions& options);

int debugCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err,
                 bool interactive);

}  // namespace spvsim::tools
