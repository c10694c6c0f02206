#include "src/compiler/clang_log.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <regex>
#include <vector>

namespace spvsim::compiler {
namespace {

// The first line of a diagnostic, of an include stack, or clang's summary: what ends the
// source line and caret lines of the diagnostic before it.
bool startsEntry(const std::string& line) {
  static const std::regex head(
      R"(^(In file included from |.*: (warning|error|fatal error|note|remark): |\d+ (warning|error)s? ))");
  return std::regex_search(line, head);
}

// What clang's last line counts.
struct Summary {
  int warnings = 0, errors = 0;
};

// "3 warnings and 1 error generated." -> {3, 1}; nullopt for other lines.
std::optional<Summary> summaryOf(const std::string& line) {
  static const std::regex both(R"(^(\d+) warnings? and (\d+) errors? generated\.$)");
  static const std::regex one(R"(^(\d+) (warning|error)s? generated\.$)");
  std::smatch m;
  if (std::regex_match(line, m, both)) return Summary{std::stoi(m[1]), std::stoi(m[2])};
  if (!std::regex_match(line, m, one)) return std::nullopt;
  Summary s;
  (m[2] == "warning" ? s.warnings : s.errors) = std::stoi(m[1]);
  return s;
}

std::string summaryLine(Summary s) {
  auto count = [](int n, const char* what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  if (s.warnings && s.errors)
    return fmt::format("{} and {} generated.", count(s.warnings, "warning"),
                       count(s.errors, "error"));
  if (s.warnings) return count(s.warnings, "warning") + " generated.";
  if (s.errors) return count(s.errors, "error") + " generated.";
  return "";
}

// The lines of `text`, each with its '\n' (the last may have none).
std::vector<std::string> linesOf(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.emplace_back(text.substr(0, end));
    text.remove_prefix(end);
  }
  return lines;
}

std::string withoutNewline(const std::string& line) {
  return line.empty() || line.back() != '\n' ? line : line.substr(0, line.size() - 1);
}

}  // namespace

std::string withoutWarnings(std::string_view log, std::string_view message) {
  const std::string marker = fmt::format(": warning: {}", message);
  const std::vector<std::string> lines = linesOf(log);
  std::vector<std::string> out;
  int removed = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find(marker) == std::string::npos) {
      out.push_back(lines[i]);
      continue;
    }
    ++removed;
    // The include stack clang prints before a diagnostic in a header is the warning's.
    while (!out.empty() && out.back().rfind("In file included from ", 0) == 0) out.pop_back();
    while (i + 1 < lines.size() && !startsEntry(withoutNewline(lines[i + 1]))) ++i;
  }
  if (removed == 0) return std::string(log);
  for (size_t i = 0; i < out.size(); ++i)
    if (std::optional<Summary> s = summaryOf(withoutNewline(out[i]))) {
      s->warnings = std::max(0, s->warnings - removed);
      const std::string line = summaryLine(*s);
      if (line.empty())
        out.erase(out.begin() + long(i));
      else
        out[i] = line + "\n";
      break;
    }
  std::string text;
  for (const std::string& l : out) text += l;
  return text;
}

}  // namespace spvsim::compiler
