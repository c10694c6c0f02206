#include "tools/error_text.h"

namespace spvsim::tools {

std::string formatError(const std::string& kind, const std::string& message) {
  const bool plain = kind.empty() || kind == "usage" || kind == "input" || kind == "compile" ||
                     kind == "invalid-argument" || message.rfind(kind + ":", 0) == 0;
  return plain ? "error: " + message : "error: " + kind + ": " + message;
}

}  // namespace spvsim::tools
