#include "tools/cli/check_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "spirv/opcode.h"
#include "spirv/text.h"
#include "src/check/observers.h"
#include "src/check/tangle_recorder.h"
#include "src/compiler/build_options.h"
#include "src/exec/diagnostics.h"
#include "src/exec/lowered.h"
#include "src/exec/memory_limit.h"
#include "src/exec/program.h"
#include "tools/cli/bundle.h"
#include "tools/cli/check_compare.h"
#include "tools/cli/check_expect.h"
#include "tools/cli/check_id.h"
#include "tools/cli/check_reconvergence.h"
#include "tools/cli/check_record.h"
#include "tools/cli/check_report.h"
#include "tools/cli/check_summary.h"
#include "tools/cli/check_verdict.h"
#include "tools/cli/json_value.h"
#include "tools/cli/kernel_input.h"
#include "tools/cli/launch_setup.h"
#include "tools/cli/output.h"
#include "tools/cli/output_files.h"
#include "tools/cli/progress_line.h"

namespace spvsim::tools {
namespace {

using spirv::escapeText;

// Sub-group sizes tried when --sub-group-size does not fix one (a kernel's
// intel_reqd_sub_group_size fixes it too).
constexpr uint32_t kDefaultSizes[] = {8, 16, 32};
// Random schedules tried per sub-group size, after round-robin.
constexpr uint64_t kDefaultSeeds = 3;
// Random reconvergence seeds tried per sub-group size (round-robin schedule), after ipdom:
// SEED and the next with --reconvergence random[:SEED], else 1 and 2 where the kernel has
// a sub-group operation (reconvergenceVariants).
constexpr uint64_t kReconvergenceSeeds = 2;
// Relaxed memory model seeds per sub-group size (round-robin) with --memory-model
// relaxed[:SEED]: SEED (default 1) and the next three. Weak outcomes are rare (a stale
// message-passing read appears in about 1 of 10 seeds: src/exec/memory_model_test.cc), so
// a few seeds find some, not all; more runs with other seeds find more.
constexpr uint64_t kRelaxedSeeds = 4;

struct Config {
  uint32_t subGroupSize = 16;
  std::optional<uint64_t> seed;           // unset: round-robin
  std::optional<uint64_t> reconvergence;  // unset: ipdom; else random:SEED
  bool unoptimized = false;               // the .cl kernel built at -O0 (LaunchPlan)
  std::optional<uint64_t> relaxed;        // unset: sequential consistency; else relaxed:SEED
  // --forward-progress occupancy[:N] of the whole check ("" for none): part of every id,
  // so that results of another setting are never resumed or merged as these.
  std::string forwardProgress;
  std::string name() const {
    return fmt::format(
        "sub-group size {}, {}{}{}{}", subGroupSize,
        seed ? fmt::format("schedule random:{}", *seed) : "round-robin",
        reconvergence ? fmt::format(", reconvergence random:{}", *reconvergence) : "",
        relaxed ? fmt::format(", memory model relaxed:{}", *relaxed) : "",
        unoptimized ? ", -O0 build" : "");
  }
  // What the id and --list name it by (tools/cli/check_id.h): a new dimension adds a field,
  // left out at the value runs had before the dimension existed.
  ConfigFields fields() const {
    ConfigFields f = {{"sub_group_size", std::to_string(subGroupSize)},
                      {"schedule", seed ? fmt::format("random:{}", *seed) : "round-robin"}};
    if (reconvergence) f.push_back({"reconvergence", fmt::format("random:{}", *reconvergence)});
    if (relaxed) f.push_back({"memory_model", fmt::format("relaxed:{}", *relaxed)});
    if (!forwardProgress.empty()) f.push_back({"forward_progress", forwardProgress});
    if (unoptimized) f.push_back({"build", "-O0"});
    return f;
  }
};

struct Run {
  Config config;
  LaunchResult result;
  std::vector<ArgValue> args;      // buffers as the run left them
  std::string reconvergenceTrace;  // CheckRun::reconvergenceTrace
};

// The first seed of the random reconvergence runs, or nullopt for none. The ipdom runs are
// the baseline they are judged against. By default only a kernel whose call tree has a
// sub-group operation gets them: without one, which lanes run together changes no value a
// lane computes (only the order of the lanes' memory accesses, whose races the race
// checker reports).
std::optional<uint64_t> reconvergenceVariants(const RunOptions& o, const PreparedLaunch& p,
                                              uint32_t subGroupSize) {
  if (o.reconvergenceGiven) return o.reconvergenceSeed;
  const LoweredKernel& k = p.program->lowered(p.kernel, subGroupSize);
  const auto byIndex = spirv::instructionsByIndex(p.program->module());
  for (const Inst& in : k.code)
    if (in.src < byIndex.size() && byIndex[in.src] &&
        spirv::movesValuesBetweenLanes(byIndex[in.src]->opcode))
      return 1;
  return std::nullopt;
}

// The same launch with its .cl kernel (or a capture bundle's OpenCL C, with its captured
// options and headers) built at -O0, where the check's build optimises: optimisation may
// delete a faulty access or a use of an undefined value (undefined behaviour the compiler
// may assume away) before any checker sees it.
struct UnoptimizedBuild {
  std::shared_ptr<Program> program;
  Program::Kernel kernel;
  std::vector<Program::ProgramVariable> initial;  // its program-scope variables' values
};

std::optional<UnoptimizedBuild> unoptimizedBuild(const RunOptions& o, const PreparedLaunch& p,
                                                 std::ostream& err) {
  const bool captured = p.clSource.empty() && p.capturedSource;
  if ((p.clSource.empty() && !captured) || o.optimizedOnly) return std::nullopt;
  const std::string& options = captured ? p.capturedSource->options : o.buildOptions;
  const std::string& source = captured ? p.capturedSourcePath : p.clSource;
  try {
    if (compiler::optimizationLevel(compiler::splitBuildOptions(options)) == "-O0")
      return std::nullopt;
    compiler::CompileResult build;
    if (captured) {
      compiler::CompileRequest request = *p.capturedSource;
      request.options += " -O0";
      request.useCache = !o.noCache;
      build = compiler::compileOpenCL(request);
    } else {
      build = readKernel(p.clSource, o.buildOptions + " -O0", !o.noCache);
    }
    err << build.log;
    UnoptimizedBuild u;
    u.program = Program::load(std::move(build.words), {}, o.maxMemory.value_or(defaultMaxMemory()));
    u.kernel = u.program->kernel(p.kernel.name());
    // Lowered here, so that what the -O0 build cannot run (an `inline` function that
    // only optimisation had inlined is an unresolved import at -O0) is this warning, not
    // the check's error.
    u.program->lowered(u.kernel, u.program->subGroupSizeFor(u.kernel, p.subGroupSize.value_or(16)));
    u.initial = u.program->globalVariables();
    return u;
  } catch (const Error& e) {  // the build the options ask for is the check's subject
    err << fmt::format(
        "warning: the -O0 build of '{}' failed, so check runs only the build "
        "the options ask for: {}\n",
        escapeText(source), e.what());
    return std::nullopt;
  }
}

std::vector<Config> configsFor(const RunOptions& o, const PreparedLaunch& p, bool withUnoptimized) {
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
  const std::optional<uint64_t> firstReconvergence = reconvergenceVariants(o, p, sizes.front());
  std::vector<Config> configs;
  for (uint32_t s : sizes) {
    configs.push_back({s, std::nullopt});
    for (uint64_t k = 0; k < seeds; ++k)
      configs.push_back({s, o.scheduleSeed ? *o.scheduleSeed : k + 1});
    for (uint64_t k = 0; firstReconvergence && k < kReconvergenceSeeds; ++k)
      configs.push_back({s, std::nullopt, *firstReconvergence + k});
    for (uint64_t k = 0; o.relaxed && k < kRelaxedSeeds; ++k)
      configs.push_back({s, std::nullopt, std::nullopt, false, o.memoryModelSeed.value_or(1) + k});
    if (withUnoptimized) configs.push_back({s, std::nullopt, std::nullopt, true});
  }
  if (o.residentGroups)
    for (Config& c : configs)
      c.forwardProgress =
          *o.residentGroups ? fmt::format("occupancy:{}", *o.residentGroups) : "occupancy";
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
            const ProgramVariables& initial, const CheckProgress& progress, size_t index,
            const std::optional<UnoptimizedBuild>& unoptimized) {
  Program& program = c.unoptimized ? *unoptimized->program : *p.program;
  program.globalVariables() = c.unoptimized ? unoptimized->initial : initial;
  Run run{c, {}, p.args};
  LaunchOptions lo = launchOptions(o, p);
  LaunchCounters counters;
  std::optional<ProgressLine> line = progress.start(c, index, counters, lo);
  lo.subGroupSize = c.subGroupSize;
  lo.schedule = c.seed ? LaunchOptions::Schedule::Random : LaunchOptions::Schedule::RoundRobin;
  lo.scheduleSeed = c.seed.value_or(0);
  lo.reconvergence =
      c.reconvergence ? LaunchOptions::Reconvergence::Random : LaunchOptions::Reconvergence::Ipdom;
  lo.reconvergenceSeed = c.reconvergence.value_or(0);
  lo.memoryModel = c.relaxed ? LaunchOptions::MemoryModel::Relaxed : LaunchOptions::MemoryModel::Sc;
  lo.memoryModelSeed = c.relaxed.value_or(0);
  lo.observers =
      check::observersFor({.races = true, .uninitialized = true, .undefinedValues = true});
  run.result = program.launch(c.unoptimized ? unoptimized->kernel : p.kernel, p.range,
                              bindings(run.args), lo);
  syncSharedStorage(run.args);
  return run;
}

// The launch of configuration `c` again, from the same initial buffers, with the
// reconvergence recorder (src/check/tangle_recorder.h) and no checker.
std::shared_ptr<check::TangleLog> recordTangles(const RunOptions& o, const PreparedLaunch& p,
                                                const Config& c, const ProgramVariables& initial) {
  p.program->globalVariables() = initial;
  std::vector<ArgValue> args = p.args;
  LaunchOptions lo = launchOptions(o, p);
  lo.subGroupSize = c.subGroupSize;
  lo.schedule = LaunchOptions::Schedule::RoundRobin;
  lo.reconvergence =
      c.reconvergence ? LaunchOptions::Reconvergence::Random : LaunchOptions::Reconvergence::Ipdom;
  lo.reconvergenceSeed = c.reconvergence.value_or(0);
  lo.memoryModel = LaunchOptions::MemoryModel::Sc;
  auto log = std::make_shared<check::TangleLog>(kTangleResultsKept);
  lo.observers = {check::tangleRecorder(log)};
  p.program->launch(p.kernel, p.range, bindings(args), lo);
  return log;
}

// Where a random reconvergence run's sub-group operations part from ipdom's, recorded in
// runs of their own so that the checked runs pay nothing for it, and in every shard alike
// (a shard may not hold the ipdom run). `ipdomLogs`: the ipdom log per size, made once.
std::string reconvergenceTrace(const RunOptions& o, const PreparedLaunch& p, const Config& c,
                               const ProgramVariables& initial,
                               std::map<uint32_t, std::shared_ptr<check::TangleLog>>& ipdomLogs) {
  std::shared_ptr<check::TangleLog>& ipdom = ipdomLogs[c.subGroupSize];
  if (!ipdom) ipdom = recordTangles(o, p, {c.subGroupSize, std::nullopt, std::nullopt}, initial);
  const std::shared_ptr<check::TangleLog> random = recordTangles(o, p, c, initial);
  return describeTangleDifference(p.program->module(), p.program->lowered(p.kernel, c.subGroupSize),
                                  *ipdom, *random, *c.reconvergence);
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

// Everything a launch's records share, fixed before any configuration runs.
struct LaunchPlan {
  PreparedLaunch p;
  std::optional<UnoptimizedBuild> unoptimized;
  std::vector<Config> configs;
  uint64_t hash = 0;  // launchHash
  CheckSettings settings;
  std::vector<ExpectedArg> expect;
};

// `sweep`: spvsim check DIR's DIR, else "".
LaunchPlan planLaunch(const RunOptions& o, const std::string& sweep, std::ostream& err) {
  LaunchPlan plan{prepareLaunch(o, err), std::nullopt, {}, 0, {}, {}};
  PreparedLaunch& p = plan.p;
  plan.unoptimized = unoptimizedBuild(o, p, err);
  plan.settings.modes = argModes(o, p.args);
  plan.settings.strict = o.strict;
  // A capture bundle's "after" contents are the reference unless --expect gives one.
  plan.settings.expect = !o.expectPath.empty() ? o.expectPath
                         : p.captured.empty()  ? ""
                                               : "captured";
  plan.expect = o.expectPath.empty() ? p.captured : readExpectFile(o.expectPath, p.args);
  plan.configs = configsFor(o, p, plan.unoptimized.has_value());
  const IdRange range{p.range.global, p.range.local, p.range.offset, p.range.localGiven};
  const std::string sweepPath =
      sweep.empty() ? ""
                    : std::filesystem::path(o.input).lexically_relative(sweep).generic_string();
  plan.hash = launchHash(p.program->module().words, p.kernel.name(), range, p.args, sweepPath);
  // Every run keeps its own copy of the buffers until they are compared.
  checkMemory(
      mulBytes(p.argumentBytes, plan.configs.size() + 1), p.maxMemory,
      fmt::format("the buffers of {} runs (check keeps every run's results)", plan.configs.size()));
  p.argumentBytes *= plan.configs.size() + 1;
  return plan;
}

// The stdout of a run: its printf output, then --dump's lines.
std::string standardOutput(const Run& run) {
  std::string out = run.result.printfOutput;
  for (size_t i = 0; i < run.args.size(); ++i)
    if (run.args[i].dump) out += formatDumpLine(i, run.args[i]) + '\n';
  return out;
}

std::vector<std::optional<RunOutput>> runOutputs(const Run& run, const LaunchPlan& plan) {
  std::vector<std::optional<RunOutput>> out;
  for (size_t i = 0; i < run.args.size(); ++i) {
    if (!run.args[i].holdsData()) {
      out.emplace_back();
      continue;
    }
    const ArgValue* expected = nullptr;
    for (const ExpectedArg& e : plan.expect)  // the -O0 build's results are not judged
      if (e.index == i && !run.config.unoptimized) expected = &e.value;
    out.push_back(runOutput(run.args[i], plan.settings.modes[i], i, expected));
  }
  return out;
}

CheckRecord recordOf(const Run& run, const LaunchPlan& plan, const CheckRecord& base) {
  CheckRecord r = base;
  r.run.subGroupSize = run.config.subGroupSize;
  r.run.seed = run.config.seed;
  r.run.aborted = run.result.aborted;
  r.run.outputs = runOutputs(run, plan);
  r.run.reconvergence = run.config.reconvergence;
  r.run.reconvergenceTrace = run.reconvergenceTrace;
  r.run.unoptimized = run.config.unoptimized;
  r.run.relaxed = run.config.relaxed;
  for (const Diagnostic& d : run.result.diagnostics) {
    (d.severity == Severity::Error ? r.run.errors : r.run.warnings) += 1 + d.repeats;
    r.diagnostics.push_back(parseJson(formatJson(d), "a diagnostic"));
    r.diagnosticLines.push_back(formatText(d));  // one line, no newline
  }
  if (r.position == 0) r.output = standardOutput(run);
  return r;
}

// The capture bundles (folders with launch.txt) and .sim files under `dir`, sorted; symbolic
// links are not followed (a link cannot make a sweep visit a launch twice or leave DIR).
std::vector<std::string> sweepInputs(const std::string& dir) {
  namespace fs = std::filesystem;
  std::vector<std::string> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, fs::directory_options::none, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    const fs::directory_entry& e = *it;
    if (e.is_symlink(ec)) continue;
    if (e.is_directory(ec) && isBundlePath(e.path().string())) {
      out.push_back(e.path().string());
      it.disable_recursion_pending();  // a bundle's files are not launches of their own
    } else if (e.is_regular_file(ec) && e.path().extension() == ".sim") {
      out.push_back(e.path().string());
    }
  }
  if (ec)
    throw Error(DiagnosticKind::Input, fmt::format("cannot read '{}': {}", dir, ec.message()));
  if (out.empty())
    throw Error(DiagnosticKind::Input,
                fmt::format("'{}' holds no capture bundle (a folder with launch.txt) and no "
                            ".sim file",
                            dir));
  std::sort(out.begin(), out.end());
  return out;
}

// The reports of a sweep's launches (one launch: its report is the command's).
class SweepReports {
 public:
  explicit SweepReports(std::string sweep) : sweep_(std::move(sweep)) {}

  void add(const CheckReport& report) {
    status_ = std::max(status_, report.totals.status);
    ++launches_;
    problems_ += report.totals.status != 0;
    suites_.push_back(report.junitSuite);
  }

  // The sweep's last line, the JUnit file; returns the exit status.
  int finish(std::ostream& err, const std::string& junitPath) const {
    if (!sweep_.empty())
      err << fmt::format(
          "check: {} launch{} under {}: {} without problems, {} with problems (exit status "
          "{})\n",
          launches_, launches_ == 1 ? "" : "es", escapeText(sweep_), launches_ - problems_,
          problems_, status_);
    if (!junitPath.empty()) writeOutput("--junit", junitPath, junitDocument(suites_));
    return status_;
  }

  const std::string& sweep() const { return sweep_; }

 private:
  std::string sweep_;  // spvsim check DIR: DIR
  int status_ = 0;
  size_t launches_ = 0, problems_ = 0;
  std::vector<std::string> suites_;
};

// A whole `spvsim check` invocation: one launch, or every launch of a sweep, each reported
// from its records (new ones appended to --results, old ones taken from it).
class CheckSweep {
 public:
  CheckSweep(const RunOptions& o, std::ostream& out, std::ostream& err)
      : o_(o),
        out_(out),
        err_(err),
        json_(o.jsonPath),
        launches_(o.isSweep() ? sweepInputs(o.input) : std::vector<std::string>{o.input}),
        reports_(o.isSweep() ? o.input : "") {}

  int run() {
    // Before anything runs, and before a report could be written over an input.
    checkOutputs(reportFiles(o_), allInputs());
    return withErrorReport(json_, err_, [&] {
      openResults();
      for (const std::string& input : launches_) {
        RunOptions o = o_;
        o.input = input;
        checkLaunch(o);
      }
      return o_.list ? 0 : reports_.finish(err_, o_.junitPath);
    });
  }

 private:
  std::vector<std::string> allInputs() const {
    std::vector<std::string> all{o_.input};
    for (const std::string& input : launches_) {
      RunOptions o = o_;
      o.input = input;
      for (std::string& f : inputFiles(o)) all.push_back(std::move(f));
    }
    return all;
  }

  void openResults() {
    if (o_.resultsPath.empty()) return;
    ResultsFile file = readResults(o_.resultsPath, err_);
    for (CheckRecord& r : file.records) resumed_.emplace(r.id, std::move(r));
    appender_.emplace(o_.resultsPath, file.incompleteAt);
  }

  bool inShard(uint64_t index) const {
    return !o_.shard || index % o_.shard->second == o_.shard->first;
  }

  void checkLaunch(const RunOptions& o) {
    LaunchPlan plan = planLaunch(o, reports_.sweep(), err_);
    const uint64_t first = index_;
    index_ += plan.configs.size();
    if (o_.list) return list(o, plan, first);
    std::vector<CheckRecord> records;
    std::optional<std::vector<ArgValue>> firstArgs;  // --json: the first run's buffers
    const ProgramVariables initial = plan.p.program->globalVariables();
    const CheckProgress progress(o, err_, plan.configs.size());
    std::map<uint32_t, std::shared_ptr<check::TangleLog>> ipdomLogs;
    for (size_t k = 0; k < plan.configs.size(); ++k) {
      if (!inShard(first + k)) continue;
      const CheckRecord base = baseRecord(o, plan, first, k);
      if (const CheckRecord* old = resumed(base)) {
        records.push_back(*old);
        continue;
      }
      Run run = runOnce(o, plan.p, plan.configs[k], initial, progress, k, plan.unoptimized);
      if (plan.configs[k].reconvergence && !run.result.aborted)
        run.reconvergenceTrace = reconvergenceTrace(o, plan.p, plan.configs[k], initial, ipdomLogs);
      records.push_back(recordOf(run, plan, base));
      if (appender_) appender_->append(records.back());
      if (k == 0 && !o.jsonPath.empty()) firstArgs = std::move(run.args);
    }
    if (records.empty()) return;
    if (!reports_.sweep().empty()) err_ << fmt::format("check: launch {}\n", escapeText(o.input));
    const CheckReport report = reportRecords(records, out_, err_);
    checkStandardOutput(out_);
    if (firstArgs) json_.write(report.jsonDiagnostics, plan.p, *firstArgs, report.checkJson);
    reports_.add(report);
  }

  CheckRecord baseRecord(const RunOptions& o, const LaunchPlan& plan, uint64_t first,
                         size_t k) const {
    CheckRecord r;
    r.id = configId(plan.hash, plan.configs[k].fields());
    r.launch = o.input;
    r.launchHash = hex64(plan.hash);
    r.sweep = reports_.sweep();
    r.index = first + k;
    r.position = k;
    r.configurations = plan.configs.size();
    r.settings = plan.settings;
    return r;
  }

  // The record --results already holds for this configuration, judged the same way.
  const CheckRecord* resumed(const CheckRecord& base) const {
    const auto it = resumed_.find(base.id);
    if (it == resumed_.end()) return nullptr;
    if (!(it->second.settings == base.settings))
      throw Error(DiagnosticKind::Usage,
                  fmt::format("--results '{}' holds configuration {} judged with other "
                              "--strict, --expect, --ignore or --unordered options than "
                              "this run's; give another results file",
                              o_.resultsPath, base.id));
    return &it->second;
  }

  void list(const RunOptions& o, const LaunchPlan& plan, uint64_t first) {
    for (size_t k = 0; k < plan.configs.size(); ++k) {
      if (!inShard(first + k)) continue;
      std::vector<std::string> fields;
      for (const auto& [name, value] : plan.configs[k].fields())
        fields.push_back(name + '=' + value);
      out_ << fmt::format("{} {} {}\n", configId(plan.hash, plan.configs[k].fields()),
                          escapeText(o.input), fmt::join(fields, " "));
    }
    checkStandardOutput(out_);
  }

  const RunOptions& o_;
  std::ostream& out_;
  std::ostream& err_;
  JsonReport json_;
  const std::vector<std::string> launches_;
  SweepReports reports_;
  std::map<std::string, CheckRecord> resumed_;
  std::optional<ResultsAppender> appender_;
  uint64_t index_ = 0;  // the sweep's configurations so far
};

// The records of the results files, each id once (the first), ordered as the sweep listed
// them; incomplete last lines are warned about and left out.
std::vector<CheckRecord> readMerged(const std::vector<std::string>& paths, std::ostream& err) {
  std::vector<CheckRecord> all;
  std::set<std::string> ids;
  for (const std::string& path : paths) {
    if (!std::filesystem::exists(path))
      throw Error(DiagnosticKind::Input, fmt::format("cannot read '{}': no such file", path));
    for (CheckRecord& r : readResults(path, err).records)
      if (ids.insert(r.id).second) all.push_back(std::move(r));
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const CheckRecord& a, const CheckRecord& b) { return a.index < b.index; });
  return all;
}

// One launch's records, complete (every configuration once) and judged alike.
void checkLaunchRecords(const std::vector<CheckRecord>& records) {
  const CheckRecord& first = records.front();
  std::vector<bool> seen(first.configurations);
  for (const CheckRecord& r : records) {
    if (r.configurations != first.configurations || !(r.settings == first.settings) ||
        r.sweep != first.sweep)
      throw Error(DiagnosticKind::Input,
                  fmt::format("--merge: the records of launch {} disagree on their number of "
                              "configurations, their options or their sweep (results of "
                              "different runs?)",
                              escapeText(first.launch)));
    seen[r.position] = true;
  }
  std::vector<std::string> missing;
  for (size_t k = 0; k < seen.size(); ++k)
    if (!seen[k]) missing.push_back(std::to_string(k));
  if (!missing.empty())
    throw Error(DiagnosticKind::Input,
                fmt::format("--merge: launch {} has no record of configuration{} {} (of {}, "
                            "counted from 0): a shard is missing or unfinished",
                            escapeText(first.launch), missing.size() == 1 ? "" : "s",
                            fmt::join(missing, ", "), first.configurations));
}

int mergeCommand(const RunOptions& o, std::ostream& out, std::ostream& err) {
  checkOutputs(reportFiles(o), o.mergePaths);
  const std::vector<CheckRecord> all = readMerged(o.mergePaths, err);
  if (all.empty())
    throw Error(DiagnosticKind::Input,
                fmt::format("--merge: no records in {}", fmt::join(o.mergePaths, ", ")));
  // A launch's configurations are consecutive in the sweep's order.
  std::vector<std::vector<CheckRecord>> launches;
  for (const CheckRecord& r : all) {
    if (launches.empty() || launches.back().front().launchHash != r.launchHash)
      launches.emplace_back();
    launches.back().push_back(r);
  }
  SweepReports reports(all.front().sweep);
  for (const std::vector<CheckRecord>& records : launches) {
    checkLaunchRecords(records);
    if (!reports.sweep().empty())
      err << fmt::format("check: launch {}\n", escapeText(records.front().launch));
    reports.add(reportRecords(records, out, err));
    checkStandardOutput(out);
  }
  return reports.finish(err, o.junitPath);
}

}  // namespace

int checkCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  if (options.merge) return mergeCommand(options, out, err);
  return CheckSweep(options, out, err).run();
}

}  // namespace spvsim::tools
