#include "src/debugger/debug_commands.h"

#include <fmt/format.h>

#include <array>

#include "spirv/text.h"
#include "src/debugger/debug_examine.h"
#include "src/debugger/debug_help.h"
#include "src/debugger/debug_views.h"
#include "src/values/text_util.h"

namespace spvsim::debugger {

using values::parseUnsigned;
using values::split;
using values::trim;
namespace {

// The first word and the rest of a line.
std::pair<std::string_view, std::string_view> splitWord(std::string_view line) {
  line = trim(line);
  const size_t space = line.find_first_of(" \t");
  if (space == std::string_view::npos) return {line, {}};
  return {line.substr(0, space), trim(line.substr(space + 1))};
}

uint64_t countArgument(std::string_view args, std::string_view command) {
  if (args.empty()) return 1;
  uint64_t n = 0;
  if (!parseUnsigned(args, n) || n == 0)
    throw DebugError(fmt::format("{}: '{}' is not a positive count", command, args));
  return n;
}

void noArguments(std::string_view args, std::string_view command) {
  if (!args.empty()) throw DebugError(fmt::format("{} takes no arguments", command));
}

}  // namespace

struct CommandInterpreter::Command {
  const char* name;
  std::array<const char*, 3> aliases;
  void (CommandInterpreter::*run)(std::string_view args, std::string_view format);
  bool repeatable;
};

namespace {

using CI = CommandInterpreter;

}  // namespace

const CommandInterpreter::Command* CommandInterpreter::find(std::string_view name) {
  static const Command kCommands[] = {
      {"step", {"s", "si", "stepi"}, &CI::step, true},
      {"next", {"n", nullptr, nullptr}, &CI::next, true},
      {"finish", {"fin", nullptr, nullptr}, &CI::finish, false},
      {"continue", {"c", "cont", nullptr}, &CI::cont, true},
      {"break", {"b", "br", nullptr}, &CI::breakpoint, false},
      {"watch", {nullptr, nullptr, nullptr}, &CI::watch, false},
      {"delete", {"d", nullptr, nullptr}, &CI::remove, false},
      {"print", {"p", nullptr, nullptr}, &CI::print, false},
      {"lanes", {nullptr, nullptr, nullptr}, &CI::lanes, false},
      {"subgroup", {"sg", "thread", nullptr}, &CI::subGroup, false},
      {"workgroup", {"wg", nullptr, nullptr}, &CI::workGroup, false},
      {"backtrace", {"bt", "where", nullptr}, &CI::backtrace, false},
      {"list", {"l", nullptr, nullptr}, &CI::list, false},
      {"x", {nullptr, nullptr, nullptr}, &CI::examine, false},
      {"info", {"i", nullptr, nullptr}, &CI::info, false},
      {"help", {"h", nullptr, nullptr}, &CI::help, false},
      {"tbreak", {"tb", nullptr, nullptr}, &CI::tbreak, false},
      {"until", {"u", nullptr, nullptr}, &CI::until, true},
      {"display", {"disp", nullptr, nullptr}, &CI::display, false},
      {"undisplay", {nullptr, nullptr, nullptr}, &CI::undisplay, false},
      {"set", {nullptr, nullptr, nullptr}, &CI::set, false},
      {"lane", {nullptr, nullptr, nullptr}, &CI::lane, false},
      {"workitem", {"wi", nullptr, nullptr}, &CI::workItem, false},
      {"frame", {"f", nullptr, nullptr}, &CI::frame, false},
      {"up", {nullptr, nullptr, nullptr}, &CI::up, false},
      {"down", {nullptr, nullptr, nullptr}, &CI::down, false},
      {"restart", {"r", "run", nullptr}, &CI::restart, false},
  };
  for (const Command& c : kCommands) {
    if (name == c.name) return &c;
    for (const char* a : c.aliases)
      if (a && name == a) return &c;
  }
  const Command* found = nullptr;
  size_t matches = 0;
  std::string candidates;
  for (const Command& c : kCommands)
    if (std::string_view(c.name).rfind(name, 0) == 0) {
      candidates += (candidates.empty() ? "" : ", ") + std::string(c.name);
      found = &c;
      ++matches;
    }
  if (matches > 1) throw DebugError(fmt::format("ambiguous command '{}': {}", name, candidates));
  return found;
}

CommandInterpreter::CommandInterpreter(DebugSession& session, std::ostream& out, std::ostream& err,
                                       bool interactive)
    : session_(session), out_(out), err_(err), interactive_(interactive) {}

bool CommandInterpreter::execute(std::string_view line) {
  line = trim(line);
  if (line.empty()) {
    if (!interactive_ || repeat_.empty()) return true;
    line = repeat_;
  }
  if (line[0] == '#') return true;  // a comment, for scripts
  try {
    const bool go_on = dispatch(line);
    out_.flush();
    return go_on;
  } catch (const DebugError& e) {
    out_.flush();
    err_ << "error: " << spirv::escapeText(e.what()) << '\n';
  } catch (const std::exception& e) {
    out_.flush();
    err_ << "error: " << spirv::escapeText(e.what()) << '\n';
  }
  err_.flush();
  return true;
}

bool CommandInterpreter::dispatch(std::string_view line) {
  auto [word, args] = splitWord(line);
  std::string_view format;
  if (const size_t slash = word.find('/'); slash != std::string_view::npos) {
    format = word.substr(slash + 1);
    word = word.substr(0, slash);
  }
  if (word == "quit" || word == "q" || word == "exit") return false;
  const Command* c = find(word);
  if (!c) throw DebugError(fmt::format("unknown command '{}' (`help` lists the commands)", word));
  if (!format.empty() && c->run != &CI::print && c->run != &CI::examine && c->run != &CI::display)
    throw DebugError(fmt::format("{} takes no /FORMAT", c->name));
  repeat_ = c->repeatable ? std::string(line) : std::string();
  (this->*c->run)(args, format);
  return true;
}

namespace {

// "X[,Y[,Z]]" (or "X Y Z", "(X,Y,Z)") as an id of up to three dimensions, the rest 0.
std::array<uint64_t, 3> threeIds(std::string_view args, std::string_view command,
                                 std::string_view form) {
  std::string text(args);
  for (char& c : text)
    if (c == ' ' || c == '(' || c == ')') c = c == ' ' ? ',' : ' ';
  std::array<uint64_t, 3> id{0, 0, 0};
  std::vector<std::string_view> parts;
  for (std::string_view p : split(trim(text), ','))
    if (!p.empty()) parts.push_back(p);
  if (parts.empty() || parts.size() > 3)
    throw DebugError(fmt::format("{}: give {}", command, form));
  for (size_t d = 0; d < parts.size(); ++d)
    if (!parseUnsigned(parts[d], id[d]))
      throw DebugError(fmt::format("{}: '{}' is not a number", command, parts[d]));
  return id;
}

}  // namespace

void CommandInterpreter::step(std::string_view args, std::string_view) {
  session_.step(countArgument(args, "step"));
}

void CommandInterpreter::next(std::string_view args, std::string_view) {
  session_.next(countArgument(args, "next"));
}

void CommandInterpreter::finish(std::string_view args, std::string_view) {
  noArguments(args, "finish");
  session_.finish();
}

void CommandInterpreter::cont(std::string_view args, std::string_view) {
  noArguments(args, "continue");
  session_.continueRun();
}

void CommandInterpreter::breakpoint(std::string_view args, std::string_view) {
  addBreakpoint(args, false);
}

void CommandInterpreter::tbreak(std::string_view args, std::string_view) {
  addBreakpoint(args, true);
}

void CommandInterpreter::addBreakpoint(std::string_view args, bool temporary) {
  const char* name = temporary ? "tbreak" : "break";
  if (args.empty())
    throw DebugError(fmt::format("{}: give a location: FILE:LINE, LINE, %ID or FUNCTION", name));
  std::string_view location = args, condition;
  if (const size_t at = args.find(" if "); at != std::string_view::npos) {
    location = trim(args.substr(0, at));
    condition = trim(args.substr(at + 4));
    if (condition.empty())
      throw DebugError(fmt::format("{}: 'if' needs a condition, e.g. x[3] == 7", name));
  }
  session_.addBreakpoint(location, condition, temporary);
}

void CommandInterpreter::until(std::string_view args, std::string_view) { session_.until(args); }

void CommandInterpreter::watch(std::string_view args, std::string_view) {
  if (args.empty()) throw DebugError("watch: give a buffer range, e.g. watch out[0:4]");
  session_.addWatchpoint(args);
}

void CommandInterpreter::remove(std::string_view args, std::string_view) {
  if (args.empty()) {
    session_.deleteAllBreakpoints();
    out_ << "Deleted all breakpoints and watchpoints.\n";
    return;
  }
  for (std::string_view word = args; !word.empty();) {
    auto [number, rest] = splitWord(word);
    uint64_t n = 0;
    if (!parseUnsigned(number, n) || n > 1000000)
      throw DebugError(fmt::format("delete: '{}' is not a breakpoint number", number));
    session_.deleteBreakpoint(static_cast<int>(n));
    out_ << fmt::format("Deleted {}.\n", n);
    word = rest;
  }
}

namespace {

ValueStyle printStyle(std::string_view format, std::string_view command) {
  ValueStyle style;
  if (!format.empty()) {
    if (format.size() != 1 || std::string_view("xdu").find(format[0]) == std::string_view::npos)
      throw DebugError(
          fmt::format("{}/{}: the formats are /x (hex), /d (signed), /u "
                      "(unsigned)",
                      command, format));
    style.format = format[0];
  }
  return style;
}

// "x = 5": the '=' that is not part of == != <= >=.
size_t assignmentAt(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '=') continue;
    const char before = i ? text[i - 1] : ' ', after = i + 1 < text.size() ? text[i + 1] : ' ';
    if (after == '=') {
      ++i;
      continue;
    }
    if (before == '!' || before == '<' || before == '>' || before == '=') continue;
    return i;
  }
  return std::string_view::npos;
}

std::optional<uint64_t> optionalNumber(std::string_view args, std::string_view command) {
  if (args.empty()) return std::nullopt;
  uint64_t n = 0;
  if (!parseUnsigned(args, n) || n > 0xffffffffu)
    throw DebugError(fmt::format("{}: '{}' is not a number", command, args));
  return n;
}

}  // namespace

void CommandInterpreter::print(std::string_view args, std::string_view format) {
  const ValueStyle style = printStyle(format, "print");
  if (args.empty())
    throw DebugError("print: give a value: an expression such as x, in[3] or x + 1");
  out_ << session_.valueText(Expression::parse(args), style) << '\n';
}

void CommandInterpreter::display(std::string_view args, std::string_view format) {
  const ValueStyle style = printStyle(format, "display");
  if (args.empty()) {
    session_.showDisplays();
    return;
  }
  session_.addDisplay(Expression::parse(args), style);
}

void CommandInterpreter::undisplay(std::string_view args, std::string_view) {
  if (args.empty()) {
    session_.deleteDisplay(0);
    out_ << "Deleted all displays.\n";
    return;
  }
  for (std::string_view word = args; !word.empty();) {
    auto [number, rest] = splitWord(word);
    uint64_t n = 0;
    if (!parseUnsigned(number, n) || n == 0 || n > 1000000)
      throw DebugError(fmt::format("undisplay: '{}' is not a display number", number));
    session_.deleteDisplay(static_cast<int>(n));
    word = rest;
  }
}

// set var TARGET = VALUE: the focused lane; TARGET@all (or TARGET[all]): every active lane.
void CommandInterpreter::set(std::string_view args, std::string_view) {
  Assignment a = parseSetVar(args);
  session_.setVariable(a.target, a.value, a.allLanes);
}

Assignment parseSetVar(std::string_view args) {
  auto [word, rest] = splitWord(args);
  if (word != "var" && word != "variable")
    throw DebugError("set: the one form is set var NAME = VALUE (NAME@all: every active lane)");
  const size_t eq = assignmentAt(rest);
  if (eq == std::string_view::npos)
    throw DebugError("set var: give NAME = VALUE, e.g. set var x = 5 or set var x@all = $lane");
  std::string_view target = trim(rest.substr(0, eq));
  const std::string_view value = trim(rest.substr(eq + 1));
  bool all = false;
  for (std::string_view suffix : {"@all", "[all]"})
    if (target.size() > suffix.size() && target.substr(target.size() - suffix.size()) == suffix) {
      target = trim(target.substr(0, target.size() - suffix.size()));
      all = true;
    }
  return {Expression::parse(target), Expression::parse(value), all};
}

void CommandInterpreter::lane(std::string_view args, std::string_view) {
  const std::optional<uint64_t> n = optionalNumber(args, "lane");
  if (!n) {
    out_ << fmt::format("Focus: lane {} of sub-group {}{}\n", session_.currentLane(),
                        session_.subGroupIndex(),
                        session_.focusLane() ? "" : " (the first active lane; `lane N` sets it)");
    return;
  }
  session_.selectLane(static_cast<uint32_t>(*n));
}

void CommandInterpreter::workItem(std::string_view args, std::string_view) {
  session_.selectWorkItem(threeIds(args, "workitem", "a global id X[,Y[,Z]], e.g. workitem 5,0,0"));
}

void CommandInterpreter::frame(std::string_view args, std::string_view) {
  session_.selectFrame(optionalNumber(args, "frame").value_or(session_.frame()));
}

void CommandInterpreter::up(std::string_view args, std::string_view) {
  session_.selectFrame(session_.frame() + countArgument(args, "up"));
}

void CommandInterpreter::down(std::string_view args, std::string_view) {
  const uint64_t n = countArgument(args, "down");
  if (n > session_.frame()) throw DebugError("down: already at the innermost frame (#0)");
  session_.selectFrame(session_.frame() - n);
}

void CommandInterpreter::restart(std::string_view args, std::string_view) {
  noArguments(args, "restart");
  session_.restart();
}

void CommandInterpreter::lanes(std::string_view args, std::string_view) {
  noArguments(args, "lanes");
  const SubGroup& sg = session_.subGroup();
  out_ << fmt::format("sub-group {}: ", sg.id) << formatActiveMask(sg.mask, sg.liveLanes) << '\n';
}

void CommandInterpreter::subGroup(std::string_view args, std::string_view) {
  uint64_t n = 0;
  if (!parseUnsigned(args, n))
    throw DebugError("subgroup: give a sub-group number, e.g. subgroup 1");
  session_.selectSubGroup(n);
}

void CommandInterpreter::workGroup(std::string_view args, std::string_view) {
  session_.selectWorkGroup(threeIds(args, "workgroup", "X[,Y[,Z]], e.g. workgroup 1,0,0"));
}

void CommandInterpreter::backtrace(std::string_view args, std::string_view) {
  noArguments(args, "backtrace");
  out_ << backtraceText(session_);
}

void CommandInterpreter::list(std::string_view args, std::string_view) {
  out_ << listText(session_, args);
}

void CommandInterpreter::examine(std::string_view args, std::string_view format) {
  out_ << examineText(session_, format, args);
}

void CommandInterpreter::info(std::string_view args, std::string_view) {
  auto [what, rest] = splitWord(args);
  noArguments(rest, "info " + std::string(what));
  static constexpr std::array<std::pair<const char*, const char*>, 13> kTopics = {{
      {"breakpoints", "b"},
      {"watchpoints", "w"},
      {"subgroups", "sg"},
      {"threads", nullptr},  // gdb's word: the sub-groups are the threads
      {"line", nullptr},
      {"workgroups", "wg"},
      {"simt", nullptr},
      {"lanes", nullptr},
      {"locals", nullptr},
      {"args", nullptr},
      {"stack", nullptr},
      {"frame", nullptr},
      {"stores", nullptr},
  }};
  std::string topic;
  for (const auto& [name, alias] : kTopics)
    if (!what.empty() && (std::string_view(name).rfind(what, 0) == 0 || (alias && what == alias))) {
      topic = name;
      break;
    }
  if (topic == "breakpoints" || topic == "watchpoints") {
    out_ << breakpointsText(session_);
  } else if (topic == "subgroups" || topic == "threads") {
    out_ << subGroupsText(session_);
  } else if (topic == "workgroups") {
    out_ << workGroupsText(session_);
  } else if (topic == "simt") {
    out_ << simtText(session_);
  } else if (topic == "lanes") {
    lanes({}, {});
  } else if (topic == "locals" || topic == "args") {
    out_ << localsText(session_, topic == "args");
  } else if (topic == "stack" || topic == "frame") {
    out_ << backtraceText(session_);
  } else if (topic == "line") {
    out_ << lineText(session_);
  } else if (topic == "stores") {
    out_ << storesText(session_);
  } else {
    throw DebugError(
        fmt::format("info {}: the topics are breakpoints, subgroups (threads), workgroups, "
                    "simt, lanes, locals, args, line, stack, stores",
                    what));
  }
}

void CommandInterpreter::help(std::string_view args, std::string_view) {
  const std::string text = commandsHelp();
  if (args.empty()) {
    out_ << text;
    return;
  }
  const Command* c = find(args);
  if (!c && args != "quit" && args != "q")
    throw DebugError(fmt::format("help: no command '{}'", args));
  const std::string name = c ? c->name : "quit";
  // The command's lines ("  NAME ...") and the continuation lines indented under them.
  const std::string continuation(22, ' ');
  bool in = false;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line(text.data() + pos, end - pos);
    const bool head = line.rfind("  " + name, 0) == 0 && line.size() > name.size() + 2 &&
                      std::string_view(" [/").find(line[name.size() + 2]) != std::string_view::npos;
    if (head || (in && line.rfind(continuation, 0) == 0)) {
      out_ << line << '\n';
      in = true;
    } else {
      in = false;
    }
    pos = end + 1;
  }
}

}  // namespace spvsim::debugger
