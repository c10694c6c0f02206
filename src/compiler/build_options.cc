#include "src/compiler/build_options.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
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

namespace {

// clBuildProgram's options without a value (OpenCL 3.0 API 5.8.6), clang's -cl-* options
// of the same kind (none reads a file or loads code), and the levels spvsim's driver takes.
constexpr std::array<std::string_view, 25> kFlags = {
    "-cl-single-precision-constant",
    "-cl-denorms-are-zero",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-opt-disable",
    "-cl-strict-aliasing",
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-uniform-work-group-size",
    "-cl-no-subgroup-ifp",
    "-cl-kernel-arg-info",
    "-cl-no-stdinc",
    "-w",
    "-Werror",
    "-g",
    "-O",
    "-O0",
    "-O1",
    "-O2",
    "-O3",
    "-Os",
    "-Oz",
    "-Ofast",
};

// Options whose value is the rest of the word: the value is one argument to clang.
constexpr std::array<std::string_view, 2> kValuePrefixes = {"-cl-std=", "-cl-ext="};

// Ways into the compiler's process, named in the refusal.
constexpr std::array<std::string_view, 11> kCodeLoaders = {
    "-Xclang",  "-mllvm", "-fplugin", "-fpass-plugin", "-Xpreprocessor", "-Wp,", "-Xanalyzer", "-B",
    "--config", "-load",  "@"};

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// -W<name>, -Wno-<name>, -Werror=<name>, -Wno-error=<name>: letters, digits, '-' and '_' only, so
// that -Wl,... -Wa,... -Wp,... (arguments for other tools) are not among them.
bool isWarningSwitch(std::string_view o) {
  if (!startsWith(o, "-W") || o.size() == 2) return false;
  std::string_view name = o.substr(2);
  if (startsWith(name, "no-")) name.remove_prefix(3);
  if (startsWith(name, "error=")) name.remove_prefix(6);
  return !name.empty() && name.find_first_not_of(
                              "abcdefghijklmnopqrstuvwxyz"
                              "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") == std::string_view::npos;
}

bool isAllowedWord(std::string_view o) {
  if (std::find(kFlags.begin(), kFlags.end(), o) != kFlags.end()) return true;
  for (std::string_view p : kValuePrefixes)
    if (startsWith(o, p) && o.size() > p.size()) return true;
  return isWarningSwitch(o);
}

[[noreturn]] void refuse(std::string_view option) {
  const bool loadsCode =
      std::any_of(kCodeLoaders.begin(), kCodeLoaders.end(),
                  [&](std::string_view loader) { return startsWith(option, loader); });
  throw Error(DiagnosticKind::Usage,
              fmt::format("build option '{}' is refused{}: only OpenCL build options are taken "
                          "here (-D, -I, -cl-*, -O0..-O3, -g, -w, -Werror, -W<warning>)",
                          option, loadsCode ? " (it would load code into the compiler)" : ""));
}

}  // namespace

void requireOpenCLBuildOptions(const std::vector<std::string>& options) {
  for (size_t i = 0; i < options.size(); ++i) {
    const std::string& o = options[i];
    if (o == "-D" || o == "-I") {
      // The next word is the value, whatever it is, for clang too; one that looks like an
      // option is refused, since the driver drops -O words before clang sees them and the
      // value would then shift onto the next word.
      if (i + 1 == options.size())
        throw Error(DiagnosticKind::Usage, fmt::format("build option '{}' wants a value", o));
      const std::string& value = options[++i];
      if (value.empty() || value[0] == '-')
        throw Error(DiagnosticKind::Usage,
                    fmt::format("build option '{}' wants a {} after it, not '{}'", o,
                                o == "-D" ? "macro" : "directory", value));
      continue;
    }
    if ((startsWith(o, "-D") || startsWith(o, "-I")) && o.size() > 2) continue;
    if (!isAllowedWord(o)) refuse(o);
  }
}

std::vector<std::string> lowerLevels(const std::string& level) {
  if (level == "-O0") return {};
  if (level == "-O1") return {"-O0"};
  return {"-O1", "-O0"};
}

}  // namespace spvsim::compiler
