#include "tools/cli/check_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "src/check/observers.h"
#include "src/exec/diagnostics.h"
#include "src/exec/memory_limit.h"
#include "src/exec/program.h"
#include "tools/cli/check_compare.h"
#include "tools/cli/check_expect.h"
#include "tools/cli/check_summary.h"
#include "tools/cli/check_verdict.h"
#include "tools/cli/launch_setup.h"
#include "tools/cli/output.h"
#include "tools/cli/output_files.h"
#include "tools/cli/progress_line.h"

namespace spvsim::tools {
namespace {

// Sub-group sizes tried when --sub-group-size does not fix one (a kernel's
// intel_reqd_sub_group_size fixes it too).
constexpr uint32_t kDefaultSizes[] = {8, 16, 32};
// Random schedules tried per sub-group size, after round-robin.
constexpr uint64_t kDefaultSeeds = 3;

struct Config {
  uint32_t subGroupSize = 16;
  std::optional<uint64_t> seed;  // unset: round-robin
  std::string name() const {
    return fmt::format("sub-group size {}, {}", subGroupSize,
                       seed ? fmt::format("schedule random:{}", *seed) : "round-robin");
  }
};

struct Run {
  Config config;
  LaunchResult result;
  std::vector<ArgValue> args;  // buffers as the run left them
};

std::vector<Config> configsFor(const RunOptions& o, const PreparedLaunch& p) {
  std::vector<uint32_t> sizes;
  // A capture bundle fixes the size the application ran with, as --sub-group-size does.
  const std::optional<uint32_t> fixed = o.subGroupSize ? o.subGroupSize : p.subGroupSize;
  for (uint32_t s :
       fixed ? std::vector<uint32_t>{*fixed}
             : std::vector<uint32_t>(std::begin(kDefaultSizes), std::end(kDefaultSizes))) {
    const uint32_t actual = p.program->subGroupSizeFor(p.kernel, s);
    if (std::find(sizes.begin(), sizes.end(), actual) == sizes.end()) sizes.push_back(actual);
  }
  const uint64_t seeds = o.scheduleSeed ? 1 : kDefaultSeeds;
  std::vector<Config> configs;
  for (uint32_t s : sizes) {
    configs.push_back({s, std::nullopt});
    for (uint64_t k = 0; k < seeds; ++k)
      configs.push_back({s, o.scheduleSeed ? *o.scheduleSeed : k + 1});
  }
  return configs;
}

// Program-scope variables keep what a launch left in them: every run starts from the
// values they had before the first (a capture bundle's captured values).
using ProgramVariables = std::vector<Program::ProgramVariable>;

// The progress line of each run (tools/progress_line.h), labelled with the run; a
// terminal's line appears a second after the check started, whichever run that is in.
class CheckProgress {
 public:
  CheckProgress(const RunOptions& o, std::ostream& err, size_t runs)
      : choice_(progressChoice(o, isTerminalStderr(err))), err_(err), runs_(runs) {}
  std::optional<ProgressLine> start(const Config& c, size_t index, LaunchCounters& counters,
                                    LaunchOptions& lo) const {
    if (!choice_) return std::nullopt;
    lo.counters = &counters;
    using namespace std::chrono;
    const auto elapsed = duration_cast<milliseconds>(steady_clock::now() - start_);
    // The run's own ETA is on the line; the label says what the sweep has left, from the
    // runs done so far (the current one included).
    const double seconds = duration<double>(steady_clock::now() - start_).count();
    return std::optional<ProgressLine>(std::in_place, err_, choice_->style, counters,
                                       fmt::format("run {}/{} ({}{})", index + 1, runs_, c.name(),
                                                   sweepRemaining(seconds, index, runs_)),
                                       std::max(milliseconds(0), choice_->delay - elapsed));
  }

 private:
  const std::optional<ProgressChoice> choice_;
  std::ostream& err_;
  const size_t runs_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

Run runOnce(const RunOptions& o, const PreparedLaunch& p, const Config& c,
            const ProgramVariables& initial, const CheckProgress& progress, size_t index) {
  p.program->globalVariables() = initial;
  Run run{c, {}, p.args};
  LaunchOptions lo = launchOptions(o, p);
  LaunchCounters counters;
  std::optional<ProgressLine> line = progress.start(c, index, counters, lo);
  lo.subGroupSize = c.subGroupSize;
  lo.schedule = c.seed ? LaunchOptions::Schedule::Random : LaunchOptions::Schedule::RoundRobin;
  lo.scheduleSeed = c.seed.value_or(0);
  lo.observers =
      check::observersFor({.races = true, .uninitialized = true, .undefinedValues = true});
  run.result = p.program->launch(p.kernel, p.range, bindings(run.args), lo);
  syncSharedStorage(run.args);
  return run;
}

// One line per distinct diagnostic (kind, instruction, message) with the runs that
// showed it.
std::vector<std::string> reportDiagnostics(const std::vector<Run>& runs, std::ostream& err,
                                           CheckTotals& totals) {
  std::map<std::string, std::vector<std::string>> seenIn;
  std::vector<const Diagnostic*> order;
  for (const Run& r : runs)
    for (const Diagnostic& d : r.result.diagnostics) {
      auto& where = seenIn[std::string(kindName(d.kind)) + '\n' + d.instruction + '\n' + d.message];
      if (where.empty()) order.push_back(&d);
      where.push_back(r.config.name());
    }
  std::vector<std::string> json;
  for (const Diagnostic* d : order) {
    const std::string text = formatText(*d);  // one line, no newline
    const auto& where =
        seenIn[std::string(kindName(d->kind)) + '\n' + d->instruction + '\n' + d->message];
    err << text
        << fmt::format(" (in {} of {} runs, first: {})\n", where.size(), runs.size(),
                       where.front());
    ++(d->severity == Severity::Error ? totals.errors : totals.warnings);
    json.push_back(formatJson(*d));
  }
  return json;
}

// Per argument how it is compared, from --ignore and --unordered, checked against the
// launch's arguments before anything runs.
std::vector<ArgMode> argModes(const RunOptions& o, const std::vector<ArgValue>& args) {
  std::vector<ArgMode> modes(args.size(), ArgMode::Compare);
  auto set = [&](const std::vector<uint64_t>& indices, ArgMode mode, const char* option) {
    for (uint64_t i : indices) {
      if (i >= args.size())
        throw Error(DiagnosticKind::Usage,
                    fmt::format("{} {}: the kernel has {} argument{} (arg0..arg{})", option, i,
                                args.size(), args.size() == 1 ? "" : "s", args.size() - 1));
      if (!args[i].holdsData())
        throw Error(DiagnosticKind::Usage,
                    fmt::format("{} {}: argument {} is '{}', not a buffer or image", option, i, i,
                                args[i].text));
      if (mode == ArgMode::Unordered && args[i].kind != ArgValue::Kind::Buffer)
        throw Error(DiagnosticKind::Usage,
                    fmt::format("{} {}: argument {} is an image; only buffers compare as "
                                "multisets of elements",
                                option, i, i));
      if (modes[i] != ArgMode::Compare && modes[i] != mode)
        throw Error(DiagnosticKind::Usage,
                    fmt::format("argument {} is given to both --ignore and --unordered", i));
      modes[i] = mode;
    }
  };
  set(o.ignoreArgs, ArgMode::Ignore, "--ignore");
  set(o.unorderedArgs, ArgMode::Unordered, "--unordered");
  return modes;
}

std::vector<CheckRun> toCheckRuns(const std::vector<Run>& runs) {
  std::vector<CheckRun> out;
  for (const Run& r : runs) {
    CheckRun c{r.config.subGroupSize, r.config.seed, r.result.aborted, 0, 0, &r.args};
    for (const Diagnostic& d : r.result.diagnostics)
      (d.severity == Severity::Error ? c.errors : c.warnings) += 1 + d.repeats;
    out.push_back(c);
  }
  return out;
}

// "no problems found", "no errors; 1 warning", "problems found: 2 errors, 1 warning".
std::string verdictLine(const CheckTotals& t) {
  auto count = [](uint64_t n, const char* what) {
    return fmt::format("{} {}{}", n, what, n == 1 ? "" : "s");
  };
  if (t.errors == 0 && t.warnings == 0) return "no problems found";
  if (t.errors == 0)
    return fmt::format("no errors; {}{}", count(t.warnings, "warning"),
                       t.strict ? " (--strict: exit status 2)" : "");
  return fmt::format("problems found: {}, {}", count(t.errors, "error"),
                     count(t.warnings, "warning"));
}

// The findings on stderr (after the diagnostics) and as JSON diagnostics.
void reportFindings(const CheckVerdicts& v, std::vector<std::string>& json, std::ostream& err,
                    CheckTotals& totals) {
  for (const Finding& f : v.findings) {
    err << fmt::format("{}: {}: {}\n", f.error ? "error" : "warning", f.kind, f.message);
    ++(f.error ? totals.errors : totals.warnings);
    json.push_back(findingJson(f));
  }
}

int check(const RunOptions& options, JsonReport& json, std::ostream& out, std::ostream& err) {
  PreparedLaunch p = prepareLaunch(options, err);
  const std::vector<ArgMode> modes = argModes(options, p.args);
  // A capture bundle's "after" contents are the reference unless --expect gives one.
  const std::vector<ExpectedArg> expect =
      options.expectPath.empty() ? p.captured : readExpectFile(options.expectPath, p.args);
  const std::vector<Config> configs = configsFor(options, p);
  // Every run keeps its own copy of the buffers until they are compared.
  checkMemory(
      mulBytes(p.argumentBytes, configs.size() + 1), p.maxMemory,
      fmt::format("the buffers of {} runs (check keeps every run's results)", configs.size()));
  p.argumentBytes *= configs.size() + 1;
  std::vector<Run> runs;
  const ProgramVariables initial = p.program->globalVariables();
  const CheckProgress progress(options, err, configs.size());
  for (size_t i = 0; i < configs.size(); ++i)
    runs.push_back(runOnce(options, p, configs[i], initial, progress, i));
  CheckTotals totals{0, 0, 0, options.strict, options.expectPath};
  std::vector<std::string> diagnostics = reportDiagnostics(runs, err, totals);
  const std::vector<CheckRun> checkRuns = toCheckRuns(runs);
  const CheckVerdicts verdicts = judgeRuns(checkRuns, modes, expect);
  reportFindings(verdicts, diagnostics, err, totals);
  const bool aborted =
      std::any_of(runs.begin(), runs.end(), [](const Run& r) { return r.result.aborted; });
  totals.status = totals.errors || aborted || (options.strict && totals.warnings) ? 2 : 0;
  out << runs.front().result.printfOutput;
  for (size_t i = 0; i < runs.front().args.size(); ++i)
    if (runs.front().args[i].dump) out << formatDumpLine(i, runs.front().args[i]) << '\n';
  checkStandardOutput(out);
  json.write(diagnostics, p, runs.front().args,
             formatCheckJson(checkRuns, modes, verdicts, totals));
  err << formatSummaryTable(checkRuns, modes, verdicts);
  err << fmt::format("check: {} runs ({}): {}\n", runs.size(),
                     runs.size() == 1 ? configs.front().name() : "sub-group sizes x schedules",
                     verdictLine(totals));
  return totals.status;
}

}  // namespace

int checkCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  // Before anything runs, and before a report could be written over an input.
  checkOutputs(reportFiles(options), inputFiles(options));
  JsonReport json(options.jsonPath);
  return withErrorReport(json, err, [&] { return check(options, json, out, err); });
}

}  // namespace spvsim::tools
