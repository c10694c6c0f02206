#include "src/compiler/build_options.h"

#include <fmt/format.h>

#include <cctype>

#include "spirv/error.h"

namespace spvsim::compiler {
namespace {

bool isLevelOption(const std::string& o) {
  return o == "-cl-opt-disable" || (o.size() >= 2 && o.compare(0, 2, "-O") == 0);
}

}  // namespace

std::vector<std::string> splitBuildOptions(std::string_view options) {
  std::vector<std::string> out;
  std::string current;
  bool inWord = false;
  char quote = 0;
  for (size_t i = 0; i < options.size(); ++i) {
    const char c = options[i];
    if (quote) {
      if (c == quote)
        quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < options.size())
        current += options[++i];
      else
        current += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      inWord = true;
    } else if (c == '\\' && i + 1 < options.size()) {
      current += options[++i];
      inWord = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (inWord) out.push_back(std::move(current));
      current.clear();
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote)
    throw Error(DiagnosticKind::Usage,
                fmt::format("--build-options has an unclosed {} quote", quote));
  if (inWord) out.push_back(std::move(current));
  return out;
}

std::string optimizationLevel(const std::vector<std::string>& options) {
  std::string level = "-O2";
  for (const std::string& o : options) {
    if (!isLevelOption(o)) continue;
    if (o == "-cl-opt-disable")
      level = "-O0";
    else if (o == "-O")
      level = "-O1";
    else
      level = o;
  }
  return level;
}

std::vector<std::string> withoutOptimizationLevel(const std::vector<std::string>& options) {
  std::vector<std::string> out;
  for (const std::string& o : options)
    if (!isLevelOption(o)) out.push_back(o);
  return out;
}

std::vector<std::string> lowerLevels(const std::string& level) {
  if (level == "-O0") return {};
  if (level == "-O1") return {"-O0"};
  return {"-O1", "-O0"};
}

}  // namespace spvsim::compiler
