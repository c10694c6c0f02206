#include "tools/cli/progress_line.h"

#include <fmt/format.h>
#include <unistd.h>

#include <iostream>

namespace spvsim::tools {

std::string sweepRemaining(double seconds, size_t done, size_t total) {
  if (done == 0 || done >= total) return "";
  return fmt::format(", about {:.0f} s left in the check",
                     seconds / double(done) * double(total - done));
}

std::string formatProgress(uint64_t done, uint64_t total, uint64_t laneInstructions,
                           double seconds) {
  const double rate = seconds > 0 ? double(laneInstructions) / seconds : 0.0;
  std::string eta = "?";
  if (done > 0 && done <= total)
    eta = fmt::format("{:.0f} s", seconds * double(total - done) / double(done));
  return fmt::format("work-groups {}/{} ({}%), {:.3g} lane instructions/s, ETA {}", done, total,
                     total ? done * 100 / total : 100, rate, eta);
}

ProgressLine::ProgressLine(std::ostream& err, Style style, const LaunchCounters& counters,
                           std::string label, std::chrono::milliseconds delay,
                           std::chrono::milliseconds interval)
    : err_(err),
      style_(style),
      counters_(counters),
      label_(std::move(label)),
      delay_(delay),
      interval_(interval),
      thread_([this] { loop(); }) {}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (style_ == Style::Lines) {
    draw();
  } else if (drawn_) {
    err_ << "\r\033[K" << std::flush;  // erase the line: what follows starts clean
  }
}

void ProgressLine::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (wake_.wait_for(lock, delay_, [this] { return stop_; })) return;
  do {
    // Nothing to say before the launch has counted its work-groups.
    if (counters_.groupsTotal.load(std::memory_order_relaxed) > 0) draw();
  } while (!wake_.wait_for(lock, interval_, [this] { return stop_; }));
}

void ProgressLine::draw() {
  const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start_;
  // Done before total: a count read first can only be behind the other.
  const uint64_t done = counters_.groupsDone.load(std::memory_order_relaxed);
  const uint64_t lanes = counters_.laneInstructions.load(std::memory_order_relaxed);
  const uint64_t total = counters_.groupsTotal.load(std::memory_order_relaxed);
  const std::string text = (label_.empty() ? "" : label_ + ": ") +
                           formatProgress(done, std::max(done, total), lanes, elapsed.count());
  if (style_ == Style::Terminal)
    err_ << "\r\033[Kprogress: " << text << std::flush;
  else
    err_ << "progress: " << text << '\n' << std::flush;
  drawn_ = true;
}

std::optional<ProgressChoice> progressChoice(const RunOptions& options, bool stderrIsTerminal) {
  using std::chrono::milliseconds;
  if (options.quiet) return std::nullopt;
  const ProgressLine::Style style =
      stderrIsTerminal ? ProgressLine::Style::Terminal : ProgressLine::Style::Lines;
  if (options.progress) return ProgressChoice{style, milliseconds(0)};
  if (!stderrIsTerminal) return std::nullopt;
  return ProgressChoice{style, milliseconds(1000)};
}

bool isTerminalStderr(const std::ostream& err) {
  return &err == &std::cerr && isatty(STDERR_FILENO) != 0;
}

}  // namespace spvsim::tools
