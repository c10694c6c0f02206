// Where `spvsim debug` reads its commands: a terminal through GNU readline (line
// editing, history), or any stream, one command per line (scripted sessions).
#pragma once

#include <istream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

namespace spvsim::debugger {

class LineReader {
 public:
  virtual ~LineReader() = default;
  // The next line without its newline; nullopt at the end of input.
  virtual std::optional<std::string> readLine(const std::string& prompt) = 0;
};

// Reads `in`; writes the prompt and the line read to `echo`, so that a scripted
// session's output reads like the terminal session it replays.
std::unique_ptr<LineReader> streamReader(std::istream& in, std::ostream& echo);

// Reads the terminal with readline; `out` is flushed before each prompt. Non-empty
// lines go into the history (Up arrow recalls them).
std::unique_ptr<LineReader> terminalReader(std::ostream& out);

}  // namespace spvsim::debugger
