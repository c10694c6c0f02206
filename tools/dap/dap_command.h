// `spvsim dap [--port N]`: a Debug Adapter Protocol server over stdio, or over one TCP
// connection accepted on 127.0.0.1:N (src/DESIGN.md "DAP adapter").
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace spvsim::tools {

// `args`: the words after "dap". Returns the exit status; usage errors throw Error.
int dapCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

// `spvsim dap --help`.
std::string dapHelp();

}  // namespace spvsim::tools
