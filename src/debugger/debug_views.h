// What the inspection commands of `spvsim debug` show about the session's state: call
// stack, SIMT reconvergence stack, sub-groups, work-groups, breakpoints, source and
// disassembly listings. Each returns the text (lines ending in '\n').
#pragma once

#include <string>
#include <string_view>

#include "src/debugger/debug_session.h"

namespace spvsim::debugger {

// `backtrace`: "#0  twice at k.cl:2  %19 = OpLoad ..." innermost first; callers at
// their call instruction.
std::string backtraceText(DebugSession& session);
// `info line`: the current sub-group's source line, function and instruction.
std::string lineText(DebugSession& session);

// `info simt`: the reconvergence stack of the current sub-group, top (running) first:
// each entry's lanes, where they run or resume, and where they reconverge.
std::string simtText(DebugSession& session);

// `info subgroups`: each sub-group of the current work-group: running, at a barrier or
// done, its active lanes and where it stands (* marks the current one).
std::string subGroupsText(DebugSession& session);

// `info stores`: under --memory-model relaxed, the stores waiting in store buffers
// (src/exec/memory_model.h), in issue order: work-item, address, bytes; other work-items
// do not see them yet.
std::string storesText(DebugSession& session);

// `info workgroups`: the work-groups started so far and how many are left.
std::string workGroupsText(DebugSession& session);

// `info breakpoints`: breakpoints and watchpoints with their hit counts.
std::string breakpointsText(const DebugSession& session);

// `list [LOCATION]`: source lines around the current instruction (or LOCATION), then
// the disassembly around it; "=>" marks the current line and instruction.
std::string listText(DebugSession& session, std::string_view location);

// `info locals`: every variable and named value of the current function.
// `arguments`: only the function's parameters, in order (info args).
std::string localsText(DebugSession& session, bool arguments = false);

}  // namespace spvsim::debugger
