#include "tools/cli/run_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>

#include "spirv/error.h"
#include "src/exec/diagnostics.h"
#include "src/exec/program.h"
#include "tools/cli/launch_setup.h"
#include "tools/cli/output.h"
#include "tools/cli/output_files.h"
#include "tools/cli/profile_output.h"
#include "tools/cli/progress_line.h"

namespace spvsim::tools {

std::string formatStats(const LaunchResult& r, double seconds) {
  std::string line = fmt::format(
      "stats: launch {:.6f} s, sub-group size {}, {} sub-group instructions, {} lane "
      "instructions, {:.3g} lane instructions/s",
      seconds, r.subGroupSize, r.subGroupSteps, r.laneInstructions,
      seconds > 0 ? double(r.laneInstructions) / seconds : 0.0);
  // Work-groups too few to share out, whose sub-groups ran apart (src/DESIGN.md,
  // "Work-groups split into sub-groups").
  if (r.subGroupUnits)
    line += fmt::format(", work-groups split into {} sub-group units", r.subGroupUnits);
  // Kernels run by device-side enqueue (their instructions are in the counts above).
  if (r.childLaunches) line += fmt::format(", {} enqueued kernel launches", r.childLaunches);
  // Buffers whose atomics each host thread applied to a copy (src/DESIGN.md, "Privatised
  // reductions").
  for (size_t i = 0; i < r.privatised.size(); ++i)
    line += (i ? "; " : ", privatised atomics: ") + r.privatised[i];
  return line;
}

namespace {

// "0.120-0.310" (or "0.120" when equal): the range of f over the threads, in ms.
template <class F>
std::string msRange(const std::vector<LaunchTimeline::Thread>& threads, F f) {
  double lo = f(threads[0]), hi = lo;
  for (const auto& t : threads) lo = std::min(lo, f(t)), hi = std::max(hi, f(t));
  const std::string low = fmt::format("{:.3f}", lo * 1e3), high = fmt::format("{:.3f}", hi * 1e3);
  return low == high ? low : low + "-" + high;
}

}  // namespace

std::string formatThreadStats(const LaunchResult& r) {
  const auto& t = r.timeline.threads;
  if (t.empty()) return {};
  uint64_t fewest = t[0].units, most = fewest;
  for (const auto& th : t) fewest = std::min(fewest, th.units), most = std::max(most, th.units);
  return fmt::format(
      "stats: {} host thread{}: entered {} ms, first unit {} ms, finished {} ms, {} units "
      "each, joined {:.3f} ms, launch done {:.3f} ms",
      t.size(), t.size() == 1 ? "" : "s", msRange(t, [](const auto& x) { return x.entered; }),
      msRange(t, [](const auto& x) { return x.started; }),
      msRange(t, [](const auto& x) { return x.finished; }),
      fewest == most ? fmt::format("{}", most) : fmt::format("{}-{}", fewest, most),
      r.timeline.joined * 1e3, r.timeline.end * 1e3);
}

namespace {

using Clock = std::chrono::steady_clock;

double msBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

int run(const RunOptions& options, JsonReport& json, std::ostream& out, std::ostream& err) {
  const Clock::time_point begun = Clock::now();
  ProfileOutput profile(options);
  PreparedLaunch launch = prepareLaunch(options, err);
  const Clock::time_point prepared = Clock::now();
  profile.setSourceCopies(launch.sources);
  // Host threads and their memory are process setup, and lowering is the kernel's
  // compilation, like an OpenCL runtime's context and clBuildProgram: not part of the
  // launch time.
  LaunchOptions launchOpts = launchOptions(options, launch);
  profile.attach(launchOpts);
  const uint32_t width = launch.program->subGroupSizeFor(launch.kernel, launchOpts.subGroupSize);
  launch.program->lowered(launch.kernel, width);
  const Clock::time_point lowered = Clock::now();
  // Last, so that the threads are still awake when the launch starts (WorkerPool::kSpin);
  // each touches what the launch's work-group slot takes (each local argument aligned).
  uint64_t localArgumentBytes = 0;
  for (const ArgValue& a : launch.args)
    if (a.kind == ArgValue::Kind::Local) localArgumentBytes += a.localBytes + 128;
  launch.program->reserveThreads(
      options.threads.value_or(0), launch.range, launch.maxMemory, launch.argumentBytes,
      launch.program->slotBytesEstimate(launch.kernel, width, launch.range, localArgumentBytes));
  LaunchCounters counters;
  std::optional<ProgressLine> progress;
  if (const auto choice = progressChoice(options, isTerminalStderr(err))) {
    launchOpts.counters = &counters;
    progress.emplace(err, choice->style, counters, "", choice->delay);
  }
  const Clock::time_point start = Clock::now();
  const LaunchResult result =
      launch.program->launch(launch.kernel, launch.range, bindings(launch.args), launchOpts);
  const Clock::time_point launched = Clock::now();
  const std::chrono::duration<double> seconds = launched - start;
  progress.reset();  // the line is gone (or complete) before anything else is written
  syncSharedStorage(launch.args);
  profile.write();
  if (options.stats) {
    err << formatStats(result, seconds.count()) << '\n';
    if (const std::string threads = formatThreadStats(result); !threads.empty())
      err << threads << '\n';
  }
  out << result.printfOutput;
  for (const Diagnostic& d : result.diagnostics) {
    const std::string text = formatText(d);  // one line, no newline
    err << text << '\n';
  }
  // Large dumps are formatted by the launch's host threads (--threads, else the cores).
  const unsigned dumpThreads = options.threads.value_or(0)
                                   ? *options.threads
                                   : std::max(1u, std::thread::hardware_concurrency());
  for (size_t i = 0; i < launch.args.size(); ++i)
    if (launch.args[i].dump) writeDumpLine(out, i, launch.args[i], dumpThreads);
  checkStandardOutput(out);
  std::vector<std::string> diagnostics;
  for (const Diagnostic& d : result.diagnostics) diagnostics.push_back(formatJson(d));
  json.write(diagnostics, launch, launch.args);
  if (options.stats) {
    // Where the rest of the process's time went (the dumps and reports are written after
    // the launch lines above, so they are timed to here).
    const Clock::time_point done = Clock::now();
    err << fmt::format(
               "stats: process: set-up {:.1f} ms (kernel and arguments), lowering {:.1f} ms, "
               "host threads {:.1f} ms, launch {:.1f} ms, results {:.1f} ms",
               msBetween(begun, prepared), msBetween(prepared, lowered), msBetween(lowered, start),
               msBetween(start, launched), msBetween(launched, done))
        << '\n';
  }
  return hasErrors(result.diagnostics) || result.aborted ? 2 : 0;
}

}  // namespace

int runCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  // Before anything runs, and before a report could be written over an input.
  checkOutputs(reportFiles(options), inputFiles(options));
  JsonReport json(options.jsonPath);
  return withErrorReport(json, err, [&] { return run(options, json, out, err); });
}

}  // namespace spvsim::tools
