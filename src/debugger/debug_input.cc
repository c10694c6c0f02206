#include "src/debugger/debug_input.h"

// readline.h needs stdio.h first.
#include <cstdio>
#include <cstdlib>
// clang-format off
#include <readline/readline.h>
#include <readline/history.h>
// clang-format on

namespace spvsim::debugger {
namespace {

class StreamReader : public LineReader {
 public:
  StreamReader(std::istream& in, std::ostream& echo) : in_(in), echo_(echo) {}

  std::optional<std::string> readLine(const std::string& prompt) override {
    std::string line;
    echo_.flush();  // a program driving a pipe sees each reply before it writes more
    if (!std::getline(in_, line)) return std::nullopt;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    echo_ << prompt << line << '\n';
    echo_.flush();
    return line;
  }

 private:
  std::istream& in_;
  std::ostream& echo_;
};

class TerminalReader : public LineReader {
 public:
  explicit TerminalReader(std::ostream& out) : out_(out) {
    rl_readline_name = "spvsim";
    using_history();
  }

  std::optional<std::string> readLine(const std::string& prompt) override {
    out_.flush();
    char* raw = readline(prompt.c_str());
    if (!raw) {
      out_ << '\n';  // end of input (Ctrl-D): end the prompt's line
      return std::nullopt;
    }
    std::string line(raw);
    std::free(raw);
    if (line.find_first_not_of(" \t") != std::string::npos) add_history(line.c_str());
    return line;
  }

 private:
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<LineReader> streamReader(std::istream& in, std::ostream& echo) {
  return std::make_unique<StreamReader>(in, echo);
}

std::unique_ptr<LineReader> terminalReader(std::ostream& out) {
  return std::make_unique<TerminalReader>(out);
}

}  // namespace spvsim::debugger
