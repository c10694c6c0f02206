// `spvsim run --profile FILE.html / --profile-json FILE.json / --profile-text FILE`:
// attaches the profiler
// (src/profile/profiler.h) to the launch and writes its reports.
#pragma once

#include <memory>
#include <string>

#include "src/exec/program.h"
#include "src/files/source_copies.h"
#include "src/profile/profiler.h"
#include "tools/cli/options.h"

namespace spvsim::tools {

class ProfileOutput {
 public:
  // Nothing is opened until write(): runCommand checked the paths (checkOutputs).
  explicit ProfileOutput(const RunOptions& options);
  bool enabled() const { return factory_ != nullptr; }
  // Adds the profiler to the launch's observers (nothing without --profile*).
  void attach(LaunchOptions& options) const;
  // Writes the reports of the launch that ran, each whole (writeOutput). Throws
  // Error(DiagnosticKind::Input) if writing fails.
  void write();
  // A capture bundle's copies of its sources (PreparedLaunch::sources): read by the source
  // view in place of the files the line information names.
  void setSourceCopies(files::SourceCopies copies) { copies_ = std::move(copies); }

 private:
  std::shared_ptr<profile::ProfilerFactory> factory_;
  std::string htmlPath_, jsonPath_, textPath_;
  files::SourceCopies copies_;
};

}  // namespace spvsim::tools
