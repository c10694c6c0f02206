// `spvsim dap`'s inspection requests: stack frames, scopes and per-lane variables, all
// read through the debugger engine's expressions (src/debugger/debug_expr.h).
#include <fmt/format.h>

#include <cstdlib>

#include "src/debugger/debug_commands.h"
#include "src/debugger/debug_views.h"
#include "tools/dap/dap_adapter.h"

namespace spvsim::tools::dap {
namespace {

using debugger::DebugError;
using debugger::Expression;
using debugger::ExprValue;

// Frame ids: the thread in the high bits, the depth (0: innermost) in the low ones.
constexpr int64_t kFrameBits = 16;

int64_t frameId(int64_t thread, size_t depth) {
  return (thread << kFrameBits) | static_cast<int64_t>(depth);
}

int64_t required(const JsonValue& args, std::string_view key) {
  const JsonValue* v = args.find(key);
  if (!v || v->type != JsonValue::Type::Number)
    throw DebugError(fmt::format("the request has no number '{}'", key));
  try {
    return std::stoll(v->text);
  } catch (const std::exception&) {
    throw DebugError(fmt::format("'{}' must be an integer", key));
  }
}

JsonValue named(const std::string& name, const std::string& value, int64_t ref) {
  JsonValue v = jsonObject();
  setMember(v, "name", jsonString(name));
  setMember(v, "value", jsonString(value));
  setMember(v, "variablesReference", jsonNumber(ref));
  return v;
}

std::string stateWord(SubGroupState s) {
  switch (s) {
    case SubGroupState::Running:
      return "running";
    case SubGroupState::AtBarrier:
      return "at a work-group barrier";
    case SubGroupState::Done:
      return "done";
  }
  return "?";
}

}  // namespace

// The engine's focus on `thread` and frame `depth`; what selecting prints is not output.
void Adapter::focus(int64_t thread, size_t depth) {
  const std::string saved = out_.str();
  selectThread(thread);
  session_->selectFrame(depth);
  out_.str(saved);
  out_.seekp(0, std::ios::end);
}

int64_t Adapter::addRef(VarRef ref) {
  refs_.push_back(std::move(ref));
  return static_cast<int64_t>(refs_.size());
}

void Adapter::stackTrace(const JsonValue& args, JsonValue& body) {
  const int64_t thread = required(args, "threadId");
  selectThread(thread);
  const SubGroup& sg = session_->subGroup();
  const debugger::Symbols& s = session_->symbols();
  JsonValue frames = jsonArray();
  const size_t depths = sg.state == SubGroupState::Done ? 0 : sg.frames.size();
  for (size_t depth = 0; depth < depths; ++depth) {
    const uint32_t pc = debugger::framePc(sg, depth);
    const debugger::FrameScope scope = debugger::frameScope(sg, depth);
    spirv::SourceLine line = s.lineAt(pc);
    // Before the function's first line (the entry, clang's prologue): show that line, where
    // the sub-group is about to go, rather than no place at all.
    if (!line) line = s.lineAt(s.afterPrologue(scope.function));
    int64_t lineNumber = line ? line.line : 0;
    // An error stop stands after the faulting instruction: show the fault's line.
    if (depth == 0 && session_->lastStop() == debugger::DebugSession::StopReason::Error)
      if (const std::string& at = session_->lastErrorLine(); !at.empty())
        if (const size_t colon = at.rfind(':'); colon != std::string::npos)
          lineNumber = std::strtoll(at.c_str() + colon + 1, nullptr, 10);
    JsonValue f = jsonObject();
    setMember(f, "id", jsonNumber(frameId(thread, depth)));
    setMember(f, "name", jsonString(s.functionName(scope.function)));
    if (line) {
      JsonValue source = jsonObject();
      setMember(source, "name", jsonString(s.fileName(line.file)));
      setMember(source, "path", jsonString(absolutePath(s.sourcePath(line.file))));
      setMember(f, "source", std::move(source));
    }
    setMember(f, "line", jsonNumber(lineNumber));
    setMember(f, "column", jsonNumber(line ? 1 : 0));
    frames.items.push_back(std::move(f));
  }
  setMember(body, "totalFrames", jsonNumber(static_cast<int64_t>(depths)));
  setMember(body, "stackFrames", std::move(frames));
}

void Adapter::scopes(const JsonValue& args, JsonValue& body) {
  const int64_t id = required(args, "frameId");
  const int64_t thread = id >> kFrameBits;
  const size_t depth = static_cast<size_t>(id & ((int64_t{1} << kFrameBits) - 1));
  focus(thread, depth);  // throws for frames that do not exist
  JsonValue list = jsonArray();
  for (auto [name, kind] :
       {std::pair{"Locals", VarRef::Kind::Locals}, std::pair{"Lanes", VarRef::Kind::Lanes},
        std::pair{"SIMT", VarRef::Kind::Simt}}) {
    JsonValue scope = jsonObject();
    setMember(scope, "name", jsonString(name));
    setMember(scope, "variablesReference", jsonNumber(addRef({kind, thread, depth, ""})));
    setMember(scope, "expensive", jsonBool(false));
    if (kind == VarRef::Kind::Locals) setMember(scope, "presentationHint", jsonString("locals"));
    list.items.push_back(std::move(scope));
  }
  setMember(body, "scopes", std::move(list));
}

void Adapter::variables(const JsonValue& args, JsonValue& body) {
  const int64_t ref = required(args, "variablesReference");
  if (ref < 1 || static_cast<size_t>(ref) > refs_.size())
    throw DebugError(fmt::format(
        "unknown variablesReference {} (references last until the next execution request)", ref));
  const VarRef r = refs_[static_cast<size_t>(ref - 1)];
  JsonValue list;
  switch (r.kind) {
    case VarRef::Kind::Locals:
      list = localsScope(r);
      break;
    case VarRef::Kind::Lanes:
      list = lanesScope(r);
      break;
    case VarRef::Kind::Simt:
      list = simtScope(r);
      break;
    case VarRef::Kind::LaneArray:
      list = laneChildren(r);
      break;
  }
  setMember(body, "variables", std::move(list));
}

JsonValue Adapter::localsScope(const VarRef& r) {
  focus(r.thread, r.depth);
  const debugger::FrameScope scope = debugger::frameScope(session_->subGroup(), r.depth);
  JsonValue list = jsonArray();
  for (const ValueName* n : session_->symbols().localNames(scope.function, scope.src))
    list.items.push_back(variable(n->name, n->name, r.thread, r.depth));
  return list;
}

// One variable: its lanes' values in one line ("[0]=1 [1]=- ..."), the lanes as children;
// a value shared by the sub-group (memory, a literal, one lane's) is one value.
JsonValue Adapter::variable(const std::string& name, const std::string& expression, int64_t thread,
                            size_t depth) {
  focus(thread, depth);
  ExprValue v;
  try {
    v = debugger::evaluate(Expression::parse(expression), session_->scope(false));
  } catch (const DebugError& e) {
    return named(name, std::string("<") + e.what() + ">", 0);
  }
  const SubGroup& sg = session_->subGroup();
  const auto namer = [this](uint64_t p) { return session_->pointerName(p); };
  const spirv::Module& m = session_->symbols().module();
  std::string text;
  int64_t ref = 0;
  if (v.lane || v.v.shared) {
    text = debugger::entryText(v, 0, m, {}, namer);
  } else {
    for (uint32_t l = 0; l < sg.liveLanes && l < v.v.bytes.size(); ++l)
      text += fmt::format("{}[{}]={}", l ? " " : "", l,
                          sg.mask.test(l) ? debugger::entryText(v, l, m, {}, namer) : "-");
    ref = addRef({VarRef::Kind::LaneArray, thread, depth, expression});
  }
  JsonValue out = named(name, text, ref);
  setMember(out, "type", jsonString(v.v.typeName));
  setMember(out, "evaluateName", jsonString(expression));
  return out;
}

// A lane array's children "[0]", "[1]"...: inactive lanes' values are marked as such
// (what memory or registers hold for them, not what they computed).
JsonValue Adapter::laneChildren(const VarRef& r) {
  focus(r.thread, r.depth);
  const ExprValue v = debugger::evaluate(Expression::parse(r.expression), session_->scope(false));
  const SubGroup& sg = session_->subGroup();
  const auto namer = [this](uint64_t p) { return session_->pointerName(p); };
  JsonValue list = jsonArray();
  for (uint32_t l = 0; l < sg.liveLanes && l < v.v.bytes.size(); ++l) {
    std::string text = debugger::entryText(v, l, session_->symbols().module(), {}, namer);
    if (!sg.mask.test(l)) text += " (inactive)";
    JsonValue lane = named(fmt::format("[{}]", l), text, 0);
    setMember(lane, "type", jsonString(v.v.typeName));
    list.items.push_back(std::move(lane));
  }
  return list;
}

JsonValue Adapter::lanesScope(const VarRef& r) {
  focus(r.thread, r.depth);
  const SubGroup& sg = session_->subGroup();
  JsonValue list = jsonArray();
  list.items.push_back(named("active", debugger::formatActiveMask(sg.mask, sg.liveLanes), 0));
  list.items.push_back(named("state", stateWord(sg.state), 0));
  for (uint32_t l = 0; l < sg.liveLanes; ++l)
    list.items.push_back(
        named(fmt::format("[{}]", l),
              fmt::format("{}, local id {}", sg.mask.test(l) ? "active" : "inactive",
                          uint64_t(sg.firstLocalLinear) + l),
              0));
  return list;
}

// The engine's `info simt` view, one variable per entry ("#1" = "lanes 0,2  at ..."), and
// "group" = "lanes 0,2 of the diverged lanes 0-3; ..." where the top entry has diverged.
JsonValue Adapter::simtScope(const VarRef& r) {
  focus(r.thread, 0);
  const std::string text = debugger::simtText(*session_);
  JsonValue list = jsonArray();
  size_t at = text.find('\n');  // after the heading
  while (at != std::string::npos && at + 1 < text.size()) {
    const size_t end = text.find('\n', at + 1);
    std::string line = text.substr(at + 1, end - at - 1);
    at = end;
    line.erase(0, line.find_first_not_of(' '));
    if (constexpr std::string_view kGroup = "Running "; line.rfind(kGroup, 0) == 0) {
      list.items.push_back(named("group", line.substr(kGroup.size()), 0));
      continue;
    }
    const size_t space = line.find(' ');
    const std::string value = space == std::string::npos ? "" : line.substr(space);
    list.items.push_back(
        named(line.substr(0, space), value.substr(value.find_first_not_of(' ')), 0));
  }
  return list;
}

void Adapter::evaluate(const JsonValue& args, JsonValue& body) {
  const JsonValue* expression = args.find("expression");
  if (!expression || expression->type != JsonValue::Type::String)
    throw DebugError("the request has no 'expression'");
  int64_t thread = int64_t(session().subGroupIndex()) + 1;
  size_t depth = 0;
  if (args.find("frameId")) {
    const int64_t id = required(args, "frameId");
    thread = id >> kFrameBits;
    depth = static_cast<size_t>(id & ((int64_t{1} << kFrameBits) - 1));
  }
  focus(thread, depth);
  // The debug console takes gdb's `set var NAME = VALUE` too (as `spvsim debug` does); the
  // result is the variable's value after it.
  std::string text = expression->text;
  const size_t start = text.find_first_not_of(" \t");
  if (start != std::string::npos && text.compare(start, 4, "set ") == 0) {
    const debugger::Assignment a = debugger::parseSetVar(std::string_view(text).substr(start + 4));
    session_->setVariable(a.target, a.value, a.allLanes);
    text = a.target.text();
  }
  const JsonValue v = variable(text, text, thread, depth);
  const std::string& value = v.find("value")->text;
  if (value.size() > 1 && value.front() == '<' && value.back() == '>' &&
      v.find("variablesReference")->text == "0")
    throw DebugError(value.substr(1, value.size() - 2));
  setMember(body, "result", *v.find("value"));
  setMember(body, "type", *v.find("type"));
  setMember(body, "variablesReference", *v.find("variablesReference"));
}

// Locals: every active lane (each lane's own $lane); a lane `[N]` of a lane array: that
// lane only.
void Adapter::setVariable(const JsonValue& args, JsonValue& body) {
  const int64_t ref = required(args, "variablesReference");
  if (ref < 1 || static_cast<size_t>(ref) > refs_.size())
    throw DebugError(fmt::format("unknown variablesReference {}", ref));
  const VarRef r = refs_[static_cast<size_t>(ref - 1)];
  const JsonValue* name = args.find("name");
  const JsonValue* value = args.find("value");
  if (!name || !value || name->type != JsonValue::Type::String ||
      value->type != JsonValue::Type::String)
    throw DebugError("setVariable needs a string 'name' and 'value'");
  std::string target = name->text;
  bool allLanes = true;
  if (r.kind == VarRef::Kind::LaneArray) {
    if (target.size() < 3 || target.front() != '[' || target.back() != ']')
      throw DebugError(fmt::format("'{}' is not a lane of {}", target, r.expression));
    target = fmt::format("({})@{}", r.expression, target.substr(1, target.size() - 2));
    allLanes = false;
  } else if (r.kind != VarRef::Kind::Locals) {
    throw DebugError("only locals and their lanes can be set");
  }
  focus(r.thread, r.depth);
  session_->setVariable(Expression::parse(target), Expression::parse(value->text), allLanes);
  const JsonValue now = variable(target, target, r.thread, r.depth);
  setMember(body, "value", *now.find("value"));
  setMember(body, "variablesReference", *now.find("variablesReference"));
}

}  // namespace spvsim::tools::dap
