// The commands of `spvsim debug`, as its `help` command and 'spvsim debug --help' list
// them (a target of its own: the command line's help needs no simulator).
#pragma once

#include <string>

namespace spvsim::debugger {

std::string commandsHelp();

}  // namespace spvsim::debugger
