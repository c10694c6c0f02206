// The progress line of long launches (src/DESIGN.md "Progress line"): work-groups done of
// the total, lane instructions per second and an estimate of the time left, on stderr.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>

#include "src/exec/program.h"
#include "tools/cli/options.h"

namespace spvsim::tools {

// "work-groups 12/64 (18%), 3.2e+07 lane instructions/s, ETA 4 s"
std::string formatProgress(uint64_t done, uint64_t total, uint64_t laneInstructions,
                           double seconds);

// A sweep's label suffix once `done` of `total` runs took `seconds`: the time the runs
// left will take at the same average, e.g. ", about 12 s left in the check" ("" before
// the first run ends, when there is nothing to average).
std::string sweepRemaining(double seconds, size_t done, size_t total);

class ProgressLine {
 public:
  enum class Style {
    Terminal,  // one line redrawn in place (carriage return), erased at the end
    Lines,     // a plain line per update and a last one at the end (not a terminal)
  };
  // Polls `counters` every `interval` on a thread of its own, from `delay` after the start
  // (short launches draw nothing); each line starts with `label` when it is not empty.
  ProgressLine(std::ostream& err, Style style, const LaunchCounters& counters, std::string label,
               std::chrono::milliseconds delay,
               std::chrono::milliseconds interval = std::chrono::milliseconds(250));
  // Stops the thread; Terminal erases the line, Lines writes the final counts.
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

 private:
  void loop();
  void draw();

  std::ostream& err_;
  const Style style_;
  const LaunchCounters& counters_;
  const std::string label_;
  const std::chrono::milliseconds delay_, interval_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  bool drawn_ = false;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread thread_;  // last: started once everything it reads is set
};

// The progress line a launching command shows: none with --quiet, or when stderr is not
// a terminal unless --progress forces it (then plain lines); on a terminal, drawn from a
// second after the start (at once with --progress).
struct ProgressChoice {
  ProgressLine::Style style;
  std::chrono::milliseconds delay;
};
std::optional<ProgressChoice> progressChoice(const RunOptions& options, bool stderrIsTerminal);

// Whether `err` is the process's stderr and that is a terminal.
bool isTerminalStderr(const std::ostream& err);

}  // namespace spvsim::tools
