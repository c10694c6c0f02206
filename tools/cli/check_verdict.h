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

// One buffer or image as a run left it, reduced to what the judgement needs: it is what
// `spvsim check`'s result records keep (tools/cli/check_record.h), so that merged shards are
// judged exactly as one unsharded run.
struct RunOutput {
  ArgShape shape;
  uint64_t digest = 0;               // of the contents as comparison sees them (check_id.h)
  std::optional<Contents> contents;  // absent when too large to record, or ignored
  // Against --expect (or a bundle's captured result): absent when not compared, "" when
  // it matched, else describeDifference's text ("argument 1 (int[4]): element 0: ...").
  std::optional<std::string> expect;
};

struct CheckRun {
  uint32_t subGroupSize = 16;
  std::optional<uint64_t> seed;       // unset: round-robin
  bool aborted = false;               // a fatal error stopped it: its buffers are partial
  uint64_t errors = 0, warnings = 0;  // diagnostic occurrences in this run
  // Per argument: what it left; nullopt for arguments that hold no data (values, local
  // memory, samplers, ...).
  std::vector<std::optional<RunOutput>> outputs;
  // --reconvergence random:SEED's seed; unset: ipdom (src/DESIGN.md, "Reconvergence").
  std::optional<uint64_t> reconvergence;
  // Under random reconvergence: where its sub-group operations first return other values
  // than under ipdom, as a sentence (tools/cli/check_command.cc, locateReconvergence).
  std::string reconvergenceTrace;
  // The kernel built again at -O0 (a .cl input built otherwise): its diagnostics are
  // reported, its results are not judged (optimisation may change float results).
  bool unoptimized = false;
  // --memory-model relaxed: the seed of this run's store buffers; unset: sequentially
  // consistent (src/DESIGN.md, "Relaxed memory model").
  std::optional<uint64_t> relaxed;

  std::string schedule() const;  // "round-robin", "random:2"
  // The schedule and, under random reconvergence, "round-robin, reconvergence random:1".
  std::string label() const;
  std::string name() const;  // "sub-group size 8, round-robin[, reconvergence random:1]"
};

// Contents of a run's argument larger than this are kept as a digest only: differences in
// them are reported without the element.
constexpr uint64_t kRecordedContentBytes = uint64_t{1} << 20;

// What a run left in `arg`, compared as `mode`, and against `expected` when given.
RunOutput runOutput(const ArgValue& arg, ArgMode mode, size_t index, const ArgValue* expected);

// A problem in the results: kind "scheduling-dependent", "sub-group-size-dependent",
// "reconvergence-dependent", "memory-model-dependent" or "expect-mismatch".
struct Finding {
  bool error = true;
  std::string kind;
  std::string message;
  std::vector<size_t> runs;  // the runs it is about (JUnit: each one's failure or output)
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

// `modes` has one entry per argument.
CheckVerdicts judgeRuns(const std::vector<CheckRun>& runs, const std::vector<ArgMode>& modes);

}  // namespace spvsim::tools
