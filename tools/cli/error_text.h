// How spvsim prints an error that stops it (exit status 1).
#pragma once

#include <string>

#include "spirv/error.h"

namespace spvsim::tools {

// "error: MESSAGE" for command-line, input and compile errors; "error: KIND: MESSAGE"
// for module errors (invalid-module, unsupported), unless MESSAGE already starts with
// "KIND:". MESSAGE is escaped (spirv::escapeText): one line, whatever names it quotes;
// compiler output alone keeps its lines, each escaped.
std::string formatError(DiagnosticKind kind, const std::string& message);

}  // namespace spvsim::tools
