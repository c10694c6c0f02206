// `spvsim check`'s judgement of its runs' results (src/DESIGN.md "The oracle"): runs with
// identical results form classes; classes that split one sub-group size are a scheduling
// dependency (error), classes that differ only between sub-group sizes a warning; every
// class is compared with the reference of --expect. Independent of the simulator: it sees
// only each run's configuration and the buffers it left.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/cli/arg_value.h"
#include "tools/cli/check_compare.h"
#include "tools/cli/check_expect.h"

namespace spvsim::tools {

struct CheckRun {
  uint32_t subGroupSize = 16;
  std::optional<uint64_t> seed;                 // unset: round-robin
  bool aborted = false;                         // a fatal error stopped it: its buffers are partial
  uint64_t errors = 0, warnings = 0;            // diagnostic occurrences in this run
  const std::vector<ArgValue>* args = nullptr;  // the buffers as the run left them

  std::string schedule() const;  // "round-robin", "random:2"
  std::string name() const;      // "sub-group size 8, round-robin"
};

// A problem in the results: kind "scheduling-dependent", "sub-group-size-dependent" or
// "expect-mismatch".
struct Finding {
  bool error = true;
  std::string kind;
  std::string message;
};

struct CheckVerdicts {
  std::vector<int> runClass;                 // per run: its class; -1 when aborted
  std::vector<std::vector<size_t>> classes;  // per class: its runs, in run order
  std::vector<Finding> findings;
  // [run][argument]: "same" (as class A), "differs from A", "matches expect", "mismatch",
  // "ignored", "aborted"; "" for arguments that hold no data (values, local memory, ...).
  std::vector<std::vector<std::string>> cells;
};

// "A", "B", ... "Z", "AA", ...
std::string className(size_t index);

// `modes` has one entry per argument; `expect` the arguments --expect names.
CheckVerdicts judgeRuns(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes,
                        const std::vector<ExpectedArg>& expect);

}  // namespace spvsim::tools
