// `spvsim run --profile FILE.html / --profile-json FILE.json`: attaches the profiler
// (src/profile/profiler.h) to the launch and writes its reports.
#pragma once

#include <fstream>
#include <memory>
#include <string>

#include "src/exec/program.h"
#include "src/profile/profiler.h"
#include "tools/options.h"

namespace spvsim::tools {

class ProfileOutput {
 public:
  // Opens the files named by the options before anything runs, so that an unwritable path
  // fails first (Error "input").
  explicit ProfileOutput(const RunOptions& options);
  bool enabled() const { return factory_ != nullptr; }
  // Adds the profiler to the launch's observers (nothing without --profile*).
  void attach(LaunchOptions& options) const;
  // Writes the reports of the launch that ran. Throws Error(DiagnosticKind::Input) if
  // writing fails.
  void write();

 private:
  std::shared_ptr<profile::ProfilerFactory> factory_;
  std::string htmlPath_, jsonPath_;
  std::ofstream html_, json_;
};

}  // namespace spvsim::tools
