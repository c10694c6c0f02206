#include "tools/check_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "src/check/observers.h"
#include "src/exec/diagnostics.h"
#include "src/exec/memory_limit.h"
#include "src/exec/program.h"
#include "tools/launch_setup.h"
#include "tools/output.h"

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
  for (uint32_t s :
       o.subGroupSize ? std::vector<uint32_t>{*o.subGroupSize}
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

Run runOnce(const RunOptions& o, const PreparedLaunch& p, const Config& c) {
  Run run{c, {}, p.args};
  LaunchOptions lo = launchOptions(o, p);
  lo.subGroupSize = c.subGroupSize;
  lo.schedule = c.seed ? LaunchOptions::Schedule::Random : LaunchOptions::Schedule::RoundRobin;
  lo.scheduleSeed = c.seed.value_or(0);
  lo.observers = check::observersFor({.races = true, .uninitialized = true});
  run.result = p.program->launch(p.kernel, p.range, bindings(run.args), lo);
  return run;
}

// One line per distinct diagnostic (kind, instruction, message) with the runs that
// showed it.
std::vector<std::string> reportDiagnostics(const std::vector<Run>& runs, std::ostream& err,
                                           bool& errors) {
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
    std::string text = formatText(*d);
    while (!text.empty() && text.back() == '\n') text.pop_back();
    const auto& where =
        seenIn[std::string(kindName(d->kind)) + '\n' + d->instruction + '\n' + d->message];
    err << text
        << fmt::format(" (in {} of {} runs, first: {})\n", where.size(), runs.size(),
                       where.front());
    errors |= d->severity == Severity::Error;
    json.push_back(formatJson(*d));
  }
  return json;
}

// "argument 1: 12 of 64 bytes differ (first at byte offset 8)", or empty when equal.
std::string compareBuffers(const std::vector<ArgValue>& a, const std::vector<ArgValue>& b) {
  std::string out;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].holdsData() || a[i].bytes == b[i].bytes) continue;
    size_t differ = 0, first = a[i].bytes.size();
    for (size_t k = 0; k < a[i].bytes.size(); ++k)
      if (a[i].bytes[k] != b[i].bytes[k]) {
        ++differ;
        first = std::min(first, k);
      }
    const uint64_t element = first / std::max<uint64_t>(1, a[i].type.size());
    out += fmt::format("{}argument {} ({}[{}]): {} of {} bytes differ, first in element {}",
                       out.empty() ? "" : "; ", i, a[i].type.name(), a[i].count, differ,
                       a[i].bytes.size(), element);
  }
  return out;
}

// Results must not depend on the schedule; they may depend on the sub-group size
// (get_sub_group_size() is part of a kernel's input), which is only a warning.
bool compareRuns(const std::vector<Run>& runs, std::ostream& err) {
  bool errors = false;
  const Run* first = nullptr;
  const Run* sizeBase = nullptr;
  for (const Run& r : runs) {
    if (r.result.aborted) continue;  // a fatal error stopped it: its buffers are partial
    if (!sizeBase || sizeBase->config.subGroupSize != r.config.subGroupSize) {
      sizeBase = &r;
      if (first) {
        const std::string d = compareBuffers(first->args, r.args);
        if (!d.empty())
          err << fmt::format(
              "warning: sub-group-size-dependent: results differ between {} and {}: {}\n",
              first->config.name(), r.config.name(), d);
      } else {
        first = &r;
      }
      continue;
    }
    const std::string d = compareBuffers(sizeBase->args, r.args);
    if (d.empty()) continue;
    err << fmt::format(
        "error: scheduling-dependent: results differ between {} and {}: {} (the kernel's "
        "result depends on how sub-groups interleave: a race, or an order the memory model "
        "leaves open)\n",
        sizeBase->config.name(), r.config.name(), d);
    errors = true;
  }
  return errors;
}

}  // namespace

namespace {

int check(const RunOptions& options, JsonReport& json, std::ostream& out, std::ostream& err) {
  PreparedLaunch p = prepareLaunch(options, err);
  const std::vector<Config> configs = configsFor(options, p);
  // Every run keeps its own copy of the buffers until they are compared.
  checkMemory(
      mulBytes(p.argumentBytes, configs.size() + 1), p.maxMemory,
      fmt::format("the buffers of {} runs (check keeps every run's results)", configs.size()));
  p.argumentBytes *= configs.size() + 1;
  std::vector<Run> runs;
  for (const Config& c : configs) runs.push_back(runOnce(options, p, c));
  bool errors = false;
  const std::vector<std::string> diagnostics = reportDiagnostics(runs, err, errors);
  errors |= compareRuns(runs, err);
  out << runs.front().result.printfOutput;
  for (size_t i = 0; i < runs.front().args.size(); ++i)
    if (runs.front().args[i].dump) out << formatDumpLine(i, runs.front().args[i]) << '\n';
  out.flush();
  json.write(diagnostics, p, runs.front().args);
  err << fmt::format("check: {} runs ({}): {}\n", runs.size(),
                     runs.size() == 1 ? runs.front().config.name() : "sub-group sizes x schedules",
                     errors ? "problems found" : "no problems found");
  return errors || std::any_of(runs.begin(), runs.end(),
                               [](const Run& r) { return r.result.aborted; })
             ? 2
             : 0;
}

}  // namespace

int checkCommand(const RunOptions& options, std::ostream& out, std::ostream& err) {
  JsonReport json(options.jsonPath);  // an unwritable report path fails first
  try {
    return check(options, json, out, err);
  } catch (const Error& e) {
    json.writeError(e);
    throw;
  }
}

}  // namespace spvsim::tools
