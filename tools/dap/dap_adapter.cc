#include "tools/dap/dap_adapter.h"

#include <fmt/format.h>

#include <filesystem>

#include "spirv/error.h"
#include "spirv/text.h"
#include "src/compiler/build_options.h"
#include "tools/cli/debug_command.h"
#include "tools/cli/options.h"
#include "tools/dap/dap_protocol.h"

namespace spvsim::tools::dap {
namespace {

using debugger::DebugError;

const std::string& stringMember(const JsonValue& object, std::string_view key, bool required) {
  static const std::string none;
  const JsonValue* v = object.find(key);
  if (!v || v->type == JsonValue::Type::Null) {
    if (required) throw DebugError(fmt::format("the request has no '{}'", key));
    return none;
  }
  if (v->type != JsonValue::Type::String)
    throw DebugError(fmt::format("'{}' must be a string", key));
  return v->text;
}

int64_t intMember(const JsonValue& object, std::string_view key, int64_t fallback) {
  const JsonValue* v = object.find(key);
  if (!v) return fallback;
  if (v->type != JsonValue::Type::Number)
    throw DebugError(fmt::format("'{}' must be a number", key));
  try {
    size_t used = 0;
    const int64_t n = std::stoll(v->text, &used);
    if (used != v->text.size()) throw DebugError("");
    return n;
  } catch (const std::exception&) {
    throw DebugError(fmt::format("'{}' must be an integer, not {}", key, v->text));
  }
}

bool boolMember(const JsonValue& object, std::string_view key) {
  const JsonValue* v = object.find(key);
  return v && v->type == JsonValue::Type::Bool && v->text == "true";
}

}  // namespace

std::string absolutePath(const std::string& path) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::absolute(path, ec);
  return ec ? path : p.lexically_normal().string();
}

Adapter::Adapter(std::function<void(const JsonValue&)> send, volatile std::sig_atomic_t* interrupt,
                 std::optional<std::string> token)
    : send_(std::move(send)), interrupt_(interrupt), token_(std::move(token)) {
  handlers_ = {
      {"initialize", &Adapter::initialize},
      {"launch", &Adapter::launch},
      {"attach", &Adapter::attach},
      {"setBreakpoints", &Adapter::setBreakpoints},
      {"setExceptionBreakpoints", &Adapter::setExceptionBreakpoints},
      {"configurationDone", &Adapter::configurationDone},
      {"threads", &Adapter::threads},
      {"stackTrace", &Adapter::stackTrace},
      {"scopes", &Adapter::scopes},
      {"variables", &Adapter::variables},
      {"evaluate", &Adapter::evaluate},
      {"setVariable", &Adapter::setVariable},
      {"continue", &Adapter::continueRequest},
      {"next", &Adapter::next},
      {"stepIn", &Adapter::stepIn},
      {"stepOut", &Adapter::stepOut},
      {"pause", &Adapter::pause},
      {"restart", &Adapter::restart},
      {"exceptionInfo", &Adapter::exceptionInfo},
      {"disconnect", &Adapter::disconnect},
      {"terminate", &Adapter::terminate},
  };
}

Adapter::~Adapter() = default;

void Adapter::respond(const JsonValue& request, bool success, const std::string& message,
                      JsonValue body) {
  JsonValue r = jsonObject();
  setMember(r, "seq", jsonNumber(seq_++));
  setMember(r, "type", jsonString("response"));
  const JsonValue* seq = request.find("seq");
  setMember(r, "request_seq", seq && seq->type == JsonValue::Type::Number ? *seq : jsonNumber(0));
  setMember(r, "success", jsonBool(success));
  const JsonValue* command = request.find("command");
  setMember(r, "command",
            command && command->type == JsonValue::Type::String ? *command : jsonString("unknown"));
  if (!success) setMember(r, "message", jsonString(message));
  setMember(r, "body", std::move(body));
  send_(r);
}

void Adapter::event(const std::string& name, JsonValue body) {
  JsonValue e = jsonObject();
  setMember(e, "seq", jsonNumber(seq_++));
  setMember(e, "type", jsonString("event"));
  setMember(e, "event", jsonString(name));
  setMember(e, "body", std::move(body));
  send_(e);
}

void Adapter::flushOutput() {
  for (auto [stream, category] : {std::pair{&err_, "stderr"}, std::pair{&out_, "console"}}) {
    const std::string text = stream->str();
    if (text.empty()) continue;
    stream->str("");
    JsonValue body = jsonObject();
    setMember(body, "category", jsonString(category));
    setMember(body, "output", jsonString(text));
    event("output", std::move(body));
  }
}

void Adapter::protocolError(const std::string& message) {
  respond(jsonObject(), false, "malformed message: " + message, jsonObject());
}

bool Adapter::handle(const std::string& text) {
  JsonValue request;
  try {
    request = parseJson(text, "DAP message");
  } catch (const std::exception& e) {
    protocolError(e.what());
    return true;
  }
  if (request.type != JsonValue::Type::Object) {
    protocolError("a message is a JSON object");
    return true;
  }
  const JsonValue* type = request.find("type");
  const JsonValue* command = request.find("command");
  if (!type || type->text != "request" || !command || command->type != JsonValue::Type::String) {
    respond(request, false, "not a request (needs \"type\": \"request\" and a \"command\")",
            jsonObject());
    return true;
  }
  static const JsonValue noArguments = jsonObject();
  const JsonValue* args = request.find("arguments");
  if (!args || args->type != JsonValue::Type::Object) args = &noArguments;
  if (const std::string why = refusal(command->text, *args); !why.empty()) {
    respond(request, false, why, jsonObject());
    return false;  // the client is disconnected
  }
  const auto h = handlers_.find(command->text);
  if (h == handlers_.end()) {
    respond(request, false, fmt::format("unsupported request '{}'", command->text), jsonObject());
    return true;
  }
  JsonValue body = jsonObject();
  after_ = nullptr;
  try {
    (this->*(h->second))(*args, body);
  } catch (const std::exception& e) {
    flushOutput();
    respond(request, false, e.what(), jsonObject());
    return true;
  }
  respond(request, true, "", std::move(body));
  runAfter();
  flushOutput();
  return !ending_;
}

// Why a request is refused for want of the token ("" when it is not): with a token, only
// `initialize` is answered until a `launch` or `attach` carries it, since every other
// request acts for the user (a launch compiles and runs, evaluate and setVariable reach
// the engine).
std::string Adapter::refusal(const std::string& command, const JsonValue& args) {
  if (admitted() || command == "initialize") return "";
  if (command != "launch" && command != "attach")
    return fmt::format(
        "'{}' before an authenticated launch: spvsim dap --port answers a client only once "
        "its 'launch' carries the \"token\" printed on its stderr",
        command);
  const JsonValue* given = args.find("token");
  if (!given || given->type != JsonValue::Type::String)
    return fmt::format(
        "the {} has no \"token\": spvsim dap --port prints one on its stderr "
        "(token=...) for the launch configuration",
        command);
  if (!sameToken(*token_, given->text))
    return fmt::format("the {}'s \"token\" is not the one spvsim dap --port printed", command);
  admitted_ = true;
  return "";
}

// What a request does once it is answered (DAP clients expect the response before the
// events it causes, e.g. `stopped` after the `continue` response).
void Adapter::runAfter() {
  if (!after_) return;
  const std::function<void()> action = std::move(after_);
  after_ = nullptr;
  try {
    action();
  } catch (const std::exception& e) {
    err_ << "error: " << spirv::escapeText(e.what()) << '\n';
    if (session_) afterRun("step");
  }
}

debugger::DebugSession& Adapter::session() {
  if (!session_) throw DebugError("no kernel is launched yet (send 'launch' first)");
  return *session_;
}

void Adapter::initialize(const JsonValue&, JsonValue& body) {
  for (const char* c : {"supportsConfigurationDoneRequest", "supportsConditionalBreakpoints",
                        "supportsEvaluateForHovers", "supportsSetVariable",
                        "supportsTerminateRequest", "supportsExceptionInfoRequest"})
    setMember(body, c, jsonBool(true));
}

void Adapter::launch(const JsonValue& args, JsonValue&) {
  if (session_) throw DebugError("a kernel is already launched in this session");
  // A program named "-x.cl" is the program, not an option.
  const std::string& program = stringMember(args, "program", true);
  std::vector<std::string> argv = {"debug", program.rfind('-', 0) == 0 ? "./" + program : program};
  if (const JsonValue* list = args.find("args")) {
    if (list->type != JsonValue::Type::Array) throw DebugError("'args' must be an array");
    for (const JsonValue& a : list->items) {
      if (a.type != JsonValue::Type::String) throw DebugError("'args' must hold strings");
      argv.push_back(a.text);
    }
  }
  const CommandLine cl = parseCommandLine(argv);
  if (cl.action != CommandLine::Action::Execute)
    throw DebugError("'args' asks for help or the version; give the launch's arguments");
  // A launch configuration is less trusted than a command line (it may come with a
  // workspace): clang gets OpenCL build options only, nothing that loads code into it.
  compiler::requireOpenCLBuildOptions(compiler::splitBuildOptions(cl.options.buildOptions));
  if (const std::string& cwd = stringMember(args, "cwd", false); !cwd.empty())
    std::filesystem::current_path(cwd);
  stopOnEntry_ = boolMember(args, "stopOnEntry");
  launch_ = std::make_unique<PreparedLaunch>(prepareLaunch(cl.options, err_, Compile::DebugInfo));
  session_ = std::make_unique<debugger::DebugSession>(debugLaunch(*launch_, cl.options), out_);
  session_->setInterruptFlag(interrupt_);
  session_->start();
  after_ = [this] { event("initialized", jsonObject()); };
}

// There is no running kernel to attach to; the request exists for its token (refusal()).
void Adapter::attach(const JsonValue&, JsonValue&) {
  throw DebugError("spvsim dap does not attach to a running kernel; use 'launch'");
}

// The "FILE:LINE" the engine resolves for a client's path: the longest tail of the path
// that names a file of the module's line information.
std::string Adapter::resolveSource(const std::string& path, int64_t line) {
  std::string tail = path;
  for (;;) {
    const std::string location = fmt::format("{}:{}", tail, line);
    try {
      session().symbols().resolve(location, 0);
      return location;
    } catch (const DebugError& e) {
      if (std::string_view(e.what()).find("no source file") == std::string_view::npos) throw;
    }
    const size_t slash = tail.find_first_of("/\\");
    if (slash == std::string::npos) break;
    tail = tail.substr(slash + 1);
  }
  throw DebugError(fmt::format("{} is not a source file of the kernel's line information", path));
}

void Adapter::setBreakpoints(const JsonValue& args, JsonValue& body) {
  const JsonValue* source = args.find("source");
  if (!source) throw DebugError("the request has no 'source'");
  const std::string path = stringMember(*source, "path", true);
  debugger::DebugSession& s = session();
  for (int n : sourceBreakpoints_[path]) {
    try {
      s.deleteBreakpoint(n);
    } catch (const DebugError&) {  // a temporary one already gone
    }
  }
  sourceBreakpoints_[path].clear();
  JsonValue list = jsonArray();
  static const JsonValue none = jsonArray();
  const JsonValue* wanted = args.find("breakpoints");
  for (const JsonValue& b : wanted ? wanted->items : none.items) {
    JsonValue r = jsonObject();
    setMember(r, "source", *source);  // the file each breakpoint is in, as the client named it
    const int64_t line = intMember(b, "line", 0);
    try {
      if (b.find("hitCondition") || b.find("logMessage"))
        throw DebugError("hit conditions and log points are not supported by spvsim dap");
      s.addBreakpoint(resolveSource(path, line), stringMember(b, "condition", false));
      const debugger::Breakpoint& added = s.breakpoints().back();
      sourceBreakpoints_[path].push_back(added.number);
      setMember(r, "id", jsonNumber(added.number));
      setMember(r, "verified", jsonBool(true));
      setMember(r, "line", jsonNumber(s.symbols().lineAt(added.location.pcs.at(0)).line));
      if (!added.location.note.empty()) setMember(r, "message", jsonString(added.location.note));
    } catch (const DebugError& e) {
      setMember(r, "verified", jsonBool(false));
      setMember(r, "line", jsonNumber(line));
      setMember(r, "message", jsonString(e.what()));
    }
    list.items.push_back(std::move(r));
  }
  setMember(body, "breakpoints", std::move(list));
}

void Adapter::setExceptionBreakpoints(const JsonValue&, JsonValue& body) {
  // Error diagnostics always stop the session (reason "exception"): there are no filters.
  setMember(body, "breakpoints", jsonArray());
}

void Adapter::configurationDone(const JsonValue&, JsonValue&) {
  session();
  after_ = [this] { start(); };
}

// The launch's first stop: at the entry, or where `continue` from there stops.
void Adapter::start() {
  if (stopOnEntry_) return stopped("entry");
  refs_.clear();
  session_->continueRun();
  afterRun("pause");
}

// The kernel again from its start (the engine keeps buffers as given and breakpoints).
void Adapter::restart(const JsonValue&, JsonValue&) {
  session().restart();
  refs_.clear();
  terminatedSent_ = false;
  after_ = [this] { start(); };
}

// The error an "exception" stop stopped on: its diagnostic kind as the id, its text.
void Adapter::exceptionInfo(const JsonValue&, JsonValue& body) {
  const debugger::DebugSession& s = session();
  if (s.lastStop() != debugger::DebugSession::StopReason::Error)
    throw DebugError("the last stop was not on an error");
  const std::string& text = s.lastStopText();
  std::string kind = "error";
  if (text.rfind("error: ", 0) == 0) kind = text.substr(7, text.find(':', 7) - 7);
  setMember(body, "exceptionId", jsonString(kind));
  setMember(body, "description", jsonString(text));
  setMember(body, "breakMode", jsonString("always"));
}

void Adapter::threads(const JsonValue&, JsonValue& body) {
  JsonValue list = jsonArray();
  if (session_ && !session_->finished() && session_->hasSubGroups()) {
    const debugger::GroupRun& g = session_->group();
    for (size_t i = 0; i < g.slot->count(); ++i) {
      JsonValue t = jsonObject();
      setMember(t, "id", jsonNumber(static_cast<int64_t>(i) + 1));
      setMember(t, "name",
                jsonString(fmt::format("wg ({},{},{}) sg {}", g.id[0], g.id[1], g.id[2], i)));
      list.items.push_back(std::move(t));
    }
  }
  setMember(body, "threads", std::move(list));
}

// Threads are the current work-group's sub-groups, named after it: when a stop is in
// another work-group than the client last saw, its threads exit and the new ones start
// (`thread` events), so that a client does not keep the old names.
void Adapter::announceThreads() {
  if (session_->finished() || !session_->hasSubGroups()) return;
  const debugger::GroupRun& g = session_->group();
  const size_t count = g.slot->count();
  if (shownGroup_ == g.id && shownThreads_ == count) return;
  auto threadEvent = [this](const char* reason, size_t id) {
    JsonValue body = jsonObject();
    setMember(body, "reason", jsonString(reason));
    setMember(body, "threadId", jsonNumber(static_cast<int64_t>(id)));
    event("thread", std::move(body));
  };
  for (size_t i = 1; i <= shownThreads_; ++i) threadEvent("exited", i);
  for (size_t i = 1; i <= count; ++i) threadEvent("started", i);
  shownGroup_ = g.id;
  shownThreads_ = count;
}

void Adapter::stopped(const std::string& reason) {
  announceThreads();
  JsonValue body = jsonObject();
  setMember(body, "reason", jsonString(reason));
  setMember(body, "threadId", jsonNumber(static_cast<int64_t>(session_->subGroupIndex()) + 1));
  setMember(body, "allThreadsStopped", jsonBool(true));
  if (reason == "breakpoint" || reason == "exception") {
    // What VS Code shows on the stop: which breakpoints, or the error itself.
    setMember(body, "description",
              jsonString(reason == "breakpoint" ? "Paused on breakpoint" : "Paused on an error"));
    setMember(body, "text", jsonString(session_->lastStopText()));
  }
  if (reason == "breakpoint") {
    JsonValue ids = jsonArray();
    for (int n : session_->lastHits()) ids.items.push_back(jsonNumber(n));
    setMember(body, "hitBreakpointIds", std::move(ids));
  }
  flushOutput();
  event("stopped", std::move(body));
}

// After an execution request: `terminated` once the kernel has finished, else `stopped`
// with the engine's reason (`fallback` when it ran to its natural end).
void Adapter::afterRun(const char* fallback) {
  flushOutput();
  if (session_->finished()) {
    if (terminatedSent_) return;
    terminatedSent_ = true;
    JsonValue exited = jsonObject();
    setMember(exited, "exitCode", jsonNumber(session_->exitStatus()));
    event("exited", std::move(exited));
    event("terminated", jsonObject());
    return;
  }
  using R = debugger::DebugSession::StopReason;
  switch (session_->lastStop()) {
    case R::Breakpoint:
      return stopped("breakpoint");
    case R::Watchpoint:
      return stopped("data breakpoint");
    case R::Error:
      return stopped("exception");
    case R::Interrupted:
      return stopped("pause");
    case R::None:
      return stopped(fallback);
  }
}

void Adapter::selectThread(int64_t thread) {
  debugger::DebugSession& s = session();
  if (s.finished() || !s.hasSubGroups()) throw DebugError("the kernel has no running threads");
  if (thread < 1 || static_cast<uint64_t>(thread) > s.group().slot->count())
    throw DebugError(fmt::format("no thread {}", thread));
  s.selectSubGroup(static_cast<uint64_t>(thread - 1), false);
}

// Execution requests: the thread named becomes the current sub-group, then the engine
// runs after the response.
void Adapter::execute(const JsonValue& args, std::function<void()> run, const char* reason) {
  if (terminatedSent_ && !session().finished()) throw DebugError("the kernel was terminated");
  selectThread(intMember(args, "threadId", int64_t(session().subGroupIndex()) + 1));
  refs_.clear();
  after_ = [this, run = std::move(run), reason] {
    run();
    afterRun(reason);
  };
}

void Adapter::continueRequest(const JsonValue& args, JsonValue& body) {
  setMember(body, "allThreadsContinued", jsonBool(true));
  execute(
      args, [this] { session_->continueRun(); }, "pause");
}

void Adapter::next(const JsonValue& args, JsonValue&) {
  execute(
      args, [this] { session_->next(1); }, "step");
}

void Adapter::stepIn(const JsonValue& args, JsonValue&) {
  if (stringMember(args, "granularity", false) == "instruction")
    return execute(
        args, [this] { session_->step(1); }, "step");
  execute(
      args, [this] { session_->stepLine(); }, "step");
}

void Adapter::stepOut(const JsonValue& args, JsonValue&) {
  selectThread(intMember(args, "threadId", int64_t(session().subGroupIndex()) + 1));
  if (session_->subGroup().frames.size() <= 1) {
    // No caller to return to: the step ends where this sub-group ends the kernel.
    out_ << "stepOut from the kernel's entry function: it has no caller, so this sub-group "
            "runs to the end of the kernel\n";
    execute(
        args, [this] { session_->finishSubGroup(); }, "step");
    return;
  }
  execute(
      args, [this] { session_->finish(); }, "step");
}

// The reader thread set the interrupt flag when this request arrived: a run in progress
// stopped on it (and reported "pause"); when none consumed it, stop here.
void Adapter::pause(const JsonValue&, JsonValue&) {
  session();
  if (!*interrupt_) return;
  *interrupt_ = 0;
  if (!session_->finished()) after_ = [this] { stopped("pause"); };
}

// `terminate`: the debuggee ends (the client then sends `disconnect`, which ends the
// adapter). The reader thread set the interrupt flag for both.
void Adapter::terminate(const JsonValue&, JsonValue&) {
  if (interrupt_) *interrupt_ = 0;
  if (session_ && !terminatedSent_) {
    terminatedSent_ = true;
    after_ = [this] { event("terminated", jsonObject()); };
  }
}

void Adapter::disconnect(const JsonValue& args, JsonValue& body) {
  terminate(args, body);
  ending_ = true;
}

}  // namespace spvsim::tools::dap
