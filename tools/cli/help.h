// --help texts.
#pragma once

#include <optional>
#include <string>

#include "tools/cli/options.h"

namespace spvsim::tools {

// The overview (no command) or one command's help: every option, every --arg form, examples.
std::string helpText(std::optional<Command> command);

inline constexpr const char* kVersion = "spvsim 0.1.0";

}  // namespace spvsim::tools
