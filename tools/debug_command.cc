#include "tools/debug_command.h"

#include "tools/debug_commands.h"
#include "tools/debug_input.h"
#include "tools/debug_session.h"
#include "tools/launch_setup.h"

namespace spvsim::tools {
namespace {

void warnIgnored(const RunOptions& o, std::ostream& err) {
  auto warn = [&](const char* option, const char* why) {
    err << "warning: " << option << " does not apply to spvsim debug" << why << '\n';
  };
  if (!o.jsonPath.empty()) warn("--json", "");
  if (o.stats) warn("--stats", "");
  if (o.threads) warn("--threads", " (work-groups run one at a time)");
  if (o.scheduleSeed) warn("--schedule random", " (sub-groups run round-robin)");
  if (o.checkRaces) warn("--check-races", " (work-groups are stepped by hand, interleaved)");
}

}  // namespace

int debugCommand(const RunOptions& options, std::istream& in, std::ostream& out, std::ostream& err,
                 bool interactive) {
  warnIgnored(options, err);
  DebugSession session(prepareLaunch(options, err, Compile::DebugInfo), options, out);
  CommandInterpreter commands(session, out, err, interactive);
  const auto reader = interactive ? terminalReader(out) : streamReader(in, out);
  session.start();
  while (const auto line = reader->readLine("(spvsim) "))
    if (!commands.execute(*line)) break;
  out.flush();
  return session.exitStatus();
}

}  // namespace spvsim::tools
