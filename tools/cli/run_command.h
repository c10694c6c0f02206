// `spvsim run`: prepare the arguments, launch once, report.
#pragma once

#include <ostream>
#include <string>

#include "src/exec/program.h"
#include "tools/cli/options.h"

namespace spvsim::tools {

// Runs options.input (a KERNEL with --arg specs, or a .sim file). printf output and
// buffer dumps go to `out`, diagnostics and compiler warnings to `err`. Returns the exit
// status: 0 ran without errors, 2 ran with error diagnostics. Usage and input errors
// throw Error (status 1 in main).
int runCommand(const RunOptions& options, std::ostream& out, std::ostream& err);

// The --stats line: "stats: launch 0.012 s, sub-group size 16, ... lane instructions/s".
std::string formatStats(const LaunchResult& result, double seconds);
// The second --stats line, where the launch ran host threads: when each entered the
// launch, began its first unit and found none left (ranges over the threads, ms from the
// launch's start), the units each ran, when all were joined and when the launch ended.
std::string formatThreadStats(const LaunchResult& result);

}  // namespace spvsim::tools
