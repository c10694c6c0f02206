#include "tools/error_text.h"

namespace spvsim::tools {

std::string formatError(DiagnosticKind kind, const std::string& message) {
  using K = DiagnosticKind;
  const std::string name(kindName(kind));
  const bool plain = kind == K::Usage || kind == K::Input || kind == K::Compile ||
                     kind == K::InvalidArgument || message.rfind(name + ":", 0) == 0;
  return plain ? "error: " + message : "error: " + name + ": " + message;
}

}  // namespace spvsim::tools
