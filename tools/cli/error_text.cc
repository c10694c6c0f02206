#include "tools/cli/error_text.h"

#include "spirv/text.h"

namespace spvsim::tools {
namespace {

// Messages quote names from modules, files and the command line: escaping them here
// keeps an error one line that no name can split, colour or forge. Compiler output is
// the one message of several lines, so each of its lines is escaped on its own.
std::string printableMessage(DiagnosticKind kind, const std::string& message) {
  if (kind != DiagnosticKind::Compile) return spirv::escapeText(message);
  std::string out;
  size_t start = 0;
  for (size_t end; (end = message.find('\n', start)) != std::string::npos; start = end + 1)
    out += spirv::escapeText(std::string_view(message).substr(start, end - start)) + '\n';
  return out + spirv::escapeText(std::string_view(message).substr(start));
}

}  // namespace

std::string formatError(DiagnosticKind kind, const std::string& message) {
  using K = DiagnosticKind;
  const std::string name(kindName(kind));
  const std::string text = printableMessage(kind, message);
  const bool plain = kind == K::Usage || kind == K::Input || kind == K::Compile ||
                     kind == K::InvalidArgument || text.rfind(name + ":", 0) == 0;
  return plain ? "error: " + text : "error: " + name + ": " + text;
}

}  // namespace spvsim::tools
