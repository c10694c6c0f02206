// `x`: memory examine for `spvsim debug`.
//
//   x NAME[I:J]      elements I..J-1 of a buffer argument (global or constant memory), a
//                    local-memory argument or a __local variable (the current work-group's
//                    local memory); x NAME[I] one element, x NAME all (up to 256)
//   x/N[b] VALUE     N elements (b: N bytes in hex) at the pointer VALUE holds, as its
//                    lane sees memory: %ID[LANE] or NAME[LANE] (no lane: the first active)
#pragma once

#include <string>
#include <string_view>

#include "src/debugger/debug_session.h"

namespace spvsim::debugger {

// `format` is what follows "x/" ("8", "16b") or empty. Throws DebugError for unknown
// names, ranges outside the memory and addresses that do not resolve.
std::string examineText(DebugSession& session, std::string_view format, std::string_view what);

}  // namespace spvsim::debugger
