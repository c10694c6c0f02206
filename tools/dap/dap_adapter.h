// `spvsim dap`'s request handling: one DebugSession (the engine of `spvsim debug`) driven
// by Debug Adapter Protocol requests. Threads are the sub-groups of the current
// work-group (id = index + 1); frames, scopes and variables are references that stay
// valid until the next execution request. Every value is a lane array: a variable's
// children are its lanes `[0]`, `[1]`... (src/DESIGN.md "DAP adapter").
#pragma once

#include <array>
#include <csignal>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "src/debugger/debug_session.h"
#include "tools/cli/json_value.h"
#include "tools/cli/launch_setup.h"

namespace spvsim::tools::dap {

class Adapter {
 public:
  // `send` writes one message (a JSON object) to the client. `interrupt` is the flag a
  // `pause` request sets while the engine runs (the reader thread writes it). `token`:
  // what a `launch` (or `attach`) must carry as "token" before any request other than
  // `initialize` is answered (spvsim dap --port); unset: the client is trusted (stdio).
  Adapter(std::function<void(const JsonValue&)> send, volatile std::sig_atomic_t* interrupt,
          std::optional<std::string> token = std::nullopt);
  ~Adapter();

  // Answers one message (the JSON text of a request); false once the session should end
  // (disconnect, terminate, a request refused for want of the token). Never throws:
  // failures answer success=false.
  bool handle(const std::string& text);
  // Whether the client gave the token (always, without one).
  bool admitted() const { return !token_ || admitted_; }
  // A framing error from the reader: answered as a failed response without a request.
  void protocolError(const std::string& message);

 private:
  using Handler = void (Adapter::*)(const JsonValue& args, JsonValue& body);
  struct VarRef {
    enum class Kind { Locals, Lanes, Simt, LaneArray };
    Kind kind;
    int64_t thread = 0;
    size_t depth = 0;
    std::string expression;  // LaneArray: what to evaluate
  };

  std::string refusal(const std::string& command, const JsonValue& args);
  void respond(const JsonValue& request, bool success, const std::string& message, JsonValue body);
  void event(const std::string& name, JsonValue body);
  void flushOutput();

  // Requests (dap_adapter.cc).
  void initialize(const JsonValue& args, JsonValue& body);
  void launch(const JsonValue& args, JsonValue& body);
  void attach(const JsonValue& args, JsonValue& body);
  void setBreakpoints(const JsonValue& args, JsonValue& body);
  void setExceptionBreakpoints(const JsonValue& args, JsonValue& body);
  void configurationDone(const JsonValue& args, JsonValue& body);
  void threads(const JsonValue& args, JsonValue& body);
  void continueRequest(const JsonValue& args, JsonValue& body);
  void next(const JsonValue& args, JsonValue& body);
  void stepIn(const JsonValue& args, JsonValue& body);
  void stepOut(const JsonValue& args, JsonValue& body);
  void pause(const JsonValue& args, JsonValue& body);
  void restart(const JsonValue& args, JsonValue& body);
  void exceptionInfo(const JsonValue& args, JsonValue& body);
  void terminate(const JsonValue& args, JsonValue& body);
  void disconnect(const JsonValue& args, JsonValue& body);
  // Inspection (dap_inspect.cc).
  void stackTrace(const JsonValue& args, JsonValue& body);
  void scopes(const JsonValue& args, JsonValue& body);
  void variables(const JsonValue& args, JsonValue& body);
  void evaluate(const JsonValue& args, JsonValue& body);
  void setVariable(const JsonValue& args, JsonValue& body);

  debugger::DebugSession& session();
  void runAfter();
  void start();
  void execute(const JsonValue& args, std::function<void()> run, const char* reason);
  void stopped(const std::string& reason);
  void announceThreads();
  void afterRun(const char* fallback);
  void selectThread(int64_t thread);
  void focus(int64_t thread, size_t depth);
  int64_t addRef(VarRef ref);
  JsonValue variable(const std::string& name, const std::string& expression, int64_t thread,
                     size_t depth);
  JsonValue laneChildren(const VarRef& ref);
  JsonValue lanesScope(const VarRef& ref);
  JsonValue simtScope(const VarRef& ref);
  JsonValue localsScope(const VarRef& ref);
  std::string resolveSource(const std::string& path, int64_t line);

  std::function<void(const JsonValue&)> send_;
  volatile std::sig_atomic_t* interrupt_;
  std::optional<std::string> token_;
  bool admitted_ = false;
  int64_t seq_ = 1;
  std::ostringstream out_;  // the session's text: forwarded as output events
  std::ostringstream err_;  // compiler warnings and the like
  std::unique_ptr<PreparedLaunch> launch_;
  std::unique_ptr<debugger::DebugSession> session_;
  bool stopOnEntry_ = false;
  bool terminatedSent_ = false;
  std::optional<std::array<uint64_t, 3>> shownGroup_;  // the work-group whose threads the
  size_t shownThreads_ = 0;                            // client was last told of
  bool ending_ = false;
  std::function<void()> after_;                                // runs once the response is sent
  std::map<std::string, std::vector<int>> sourceBreakpoints_;  // by client path
  std::vector<VarRef> refs_;                                   // reference k + 1
  std::map<std::string, Handler> handlers_;
};

// Text for frames' and breakpoints' `source.path`: the module's path made absolute.
std::string absolutePath(const std::string& path);

}  // namespace spvsim::tools::dap
