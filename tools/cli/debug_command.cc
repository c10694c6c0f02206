#include "tools/cli/debug_command.h"

#include <signal.h>

#include <csignal>

#include "src/debugger/debug_commands.h"
#include "src/debugger/debug_input.h"
#include "src/debugger/debug_session.h"
#include "tools/cli/launch_setup.h"
#include "tools/cli/output.h"

namespace spvsim::tools {
namespace {

// Ctrl-C while a command runs: the handler can only reach process-wide state, so this
// flag is the one global; the session polls it between instructions (and clears it).
volatile std::sig_atomic_t interruptRequested = 0;

void onInterrupt(int) { interruptRequested = 1; }

// Routes SIGINT to the flag while one command runs; readline (and the default action
// between commands of a script) keep it otherwise.
class InterruptScope {
 public:
  InterruptScope() {
    interruptRequested = 0;
    struct sigaction action {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous_);
  }
  ~InterruptScope() { sigaction(SIGINT, &previous_, nullptr); }
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

 private:
  struct sigaction previous_ {};
};

void warnIgnored(const RunOptions& o, std::ostream& err) {
  auto warn = [&](const char* option, const char* why) {
    err << "warning: " << option << " does not apply to spvsim debug" << why << '\n';
  };
  if (!o.jsonPath.empty()) warn("--json", "");
  if (o.stats) warn("--stats", "");
  if (o.threads) warn("--threads", " (work-groups run one at a time)");
}

debugger::DebugArgument debugArgument(ArgValue& a) {
  using Kind = debugger::DebugArgument::Kind;
  debugger::DebugArgument d;
  d.kind = a.kind == ArgValue::Kind::Buffer  ? Kind::Buffer
           : a.kind == ArgValue::Kind::Local ? Kind::Local
           : a.kind == ArgValue::Kind::Null  ? Kind::Null
                                             : Kind::Value;
  d.type = a.type;
  d.count = a.count;
  d.bytes = a.kind == ArgValue::Kind::Buffer ? a.bytes.data() : nullptr;
  d.hex = a.hex;
  return d;
}

}  // namespace

debugger::DebugLaunch debugLaunch(PreparedLaunch& launch, const RunOptions& options) {
  debugger::DebugLaunch d;
  d.program = launch.program;
  d.kernel = launch.kernel;
  d.range = launch.range;
  d.bindings = bindings(launch.args);
  for (ArgValue& a : launch.args) d.args.push_back(debugArgument(a));
  for (size_t i = 0; i < launch.args.size(); ++i)  // shared storage: what the kernel sees
    if (launch.args[i].storageArg) d.args[i].bytes = d.bindings[i].data;
  d.options = launchOptions(options, launch);
  d.sources = launch.sources;
  d.results = [&launch] {
    syncSharedStorage(launch.args);
    std::string text;
    for (size_t i = 0; i < launch.args.size(); ++i)
      if (launch.args[i].dump) text += formatDumpLine(i, launch.args[i]) + '\n';
    return text;
  };
  return d;
}

int debugCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err,
                 bool interactive) {
  warnIgnored(options, err);
  PreparedLaunch launch = prepareLaunch(options, err, Compile::DebugInfo);
  debugger::DebugSession session(debugLaunch(launch, options), out);
  debugger::CommandInterpreter commands(session, out, err, interactive);
  const auto reader = interactive ? debugger::terminalReader(out) : debugger::streamReader(in, out);
  session.setInterruptFlag(&interruptRequested);
  session.start();
  while (const auto line = reader->readLine("(spvsim) ")) {
    const InterruptScope interrupts;
    if (!commands.execute(*line)) break;
  }
  out.flush();
  return session.exitStatus();
}

}  // namespace spvsim::tools
