// The command language of `spvsim debug`: parses one line (gdb-like names, unique
// prefixes and aliases: s, n, c, b, p, bt, l, x, d, info b, ...) and runs it on the
// session. Mistakes print a message on `err` and the session goes on.
#pragma once

#include <ostream>
#include <string>
#include <string_view>

#include "src/debugger/debug_session.h"

namespace spvsim::debugger {

// `set var NAME = VALUE` after "set" (NAME@all or NAME[all]: every active lane), as the
// command line and the DAP debug console take it. Throws DebugError naming the form.
struct Assignment {
  Expression target, value;
  bool allLanes = false;
};
Assignment parseSetVar(std::string_view args);

class CommandInterpreter {
 public:
  // `interactive`: an empty line repeats the last step, next or continue.
  CommandInterpreter(DebugSession& session, std::ostream& out, std::ostream& err, bool interactive);

  // Runs one line; false when the session should end (`quit`).
  bool execute(std::string_view line);

 private:
  struct Command;
  static const Command* find(std::string_view name);
  bool dispatch(std::string_view line);

  void step(std::string_view args, std::string_view format);
  void next(std::string_view args, std::string_view format);
  void finish(std::string_view args, std::string_view format);
  void cont(std::string_view args, std::string_view format);
  void breakpoint(std::string_view args, std::string_view format);
  void watch(std::string_view args, std::string_view format);
  void remove(std::string_view args, std::string_view format);
  void print(std::string_view args, std::string_view format);
  void lanes(std::string_view args, std::string_view format);
  void subGroup(std::string_view args, std::string_view format);
  void workGroup(std::string_view args, std::string_view format);
  void backtrace(std::string_view args, std::string_view format);
  void list(std::string_view args, std::string_view format);
  void examine(std::string_view args, std::string_view format);
  void info(std::string_view args, std::string_view format);
  void help(std::string_view args, std::string_view format);
  void tbreak(std::string_view args, std::string_view format);
  void until(std::string_view args, std::string_view format);
  void display(std::string_view args, std::string_view format);
  void undisplay(std::string_view args, std::string_view format);
  void set(std::string_view args, std::string_view format);
  void lane(std::string_view args, std::string_view format);
  void workItem(std::string_view args, std::string_view format);
  void frame(std::string_view args, std::string_view format);
  void up(std::string_view args, std::string_view format);
  void down(std::string_view args, std::string_view format);
  void restart(std::string_view args, std::string_view format);
  void addBreakpoint(std::string_view args, bool temporary);

  DebugSession& session_;
  std::ostream& out_;
  std::ostream& err_;
  bool interactive_;
  std::string repeat_;  // the last repeatable command line
};

}  // namespace spvsim::debugger
