// The spvsim command line: which command, and its options (src/DESIGN.md "Command line").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/cli/size_list.h"

namespace spvsim::tools {

enum class Command { Run, Check, Debug, Dis, Info, Compile };

std::string_view commandName(Command c);

struct RunOptions {
  std::string input;  // KERNEL (.spv, .spvasm, .cl) or a .sim file
  std::string kernel;
  std::optional<SizeList> global, local, offset;
  std::optional<uint32_t> subGroupSize;
  std::string buildOptions;
  std::vector<std::string> args;  // --arg specs, in order
  bool dump = false;
  std::string jsonPath;
  bool infoJson = false;  // spvsim info --json: the facts as one JSON document
  std::optional<unsigned> threads;
  std::optional<uint64_t> instructionBudget;
  std::optional<uint64_t> maxMemory;  // --max-memory BYTES[K|M|G]; unset: defaultMaxMemory()
  std::optional<uint64_t> maxDeviceEnqueues;  // unset: kMaxDeviceEnqueues
  bool stats = false;
  // The progress line (tools/progress_line.h): --quiet never, --progress always.
  bool quiet = false, progress = false;
  std::optional<uint64_t> scheduleSeed;  // --schedule random[:SEED]; unset: round-robin
  // --reconvergence random[:SEED]; unset: ipdom (src/DESIGN.md, "Reconvergence").
  std::optional<uint64_t> reconvergenceSeed;
  bool reconvergenceGiven = false;  // --reconvergence appeared (check: ipdom adds no variants)
  // --memory-model relaxed[:SEED] (src/DESIGN.md, "Relaxed memory model"); the seed, unset
  // where none was given (then --schedule's).
  bool relaxed = false;
  std::optional<uint64_t> memoryModelSeed;
  // --forward-progress occupancy[:N]: N work-groups resident at once (0: the compute
  // units, --threads or the cores); unset (none): no progress between work-groups
  // (src/DESIGN.md, "Forward progress between work-groups").
  std::optional<uint64_t> residentGroups;
  bool checkUninitialized = false;
  bool checkUndefined = false;  // --check-undefined: value-level undefinedness
  bool checkRaces = false;
  bool noCache = false;  // --no-cache: compile .cl without the compile cache
  // spvsim run --profile / --profile-json / --profile-text: where the launch profile goes
  // ("": none); --profile-banks: local memory banks for its conflict degrees (unset: 32).
  std::string profilePath, profileJsonPath, profileTextPath;
  std::optional<uint32_t> profileBanks;
  bool profiling() const {
    return !profilePath.empty() || !profileJsonPath.empty() || !profileTextPath.empty();
  }
  // spvsim check: the reference result, arguments left out of every comparison or compared
  // as multisets (indices, as --dump names them argN), and whether warnings fail.
  std::string expectPath;
  std::vector<uint64_t> ignoreArgs, unorderedArgs;
  bool strict = false;
  // check: no -O0 build of a .cl kernel besides the optimised one (--optimized-only).
  bool optimizedOnly = false;
  // spvsim check sweeps (README "Sharded sweeps"): --list the configurations, run shard
  // I of N (--shard I/N), append records to --results and skip those it holds, write
  // --junit; --merge: report the results files given as the positional words instead.
  bool list = false;
  std::optional<std::pair<uint64_t, uint64_t>> shard;
  std::string resultsPath, junitPath;
  bool merge = false;
  std::vector<std::string> mergePaths;
  std::vector<std::string> moreInputs;  // positional words after the first
  std::string outputPath;               // spvsim compile -o

  bool isSim() const;
  bool isBundle() const;  // a capture bundle's folder or launch.txt (tools/bundle.h)
  bool isSweep() const;   // a folder that is not a bundle: spvsim check DIR
};

struct CommandLine {
  enum class Action { Execute, Help, Version };
  Action action = Action::Execute;
  std::optional<Command> command;  // unset with Help: the overview
  bool helpIsError = false;        // no command at all: the overview goes to stderr, exit 1
  RunOptions options;
};

// Parses argv[1..]. Options take their value as the next word or after '='
// (--global=64); "--" ends the options. Throws Error(DiagnosticKind::Usage) with a one-line
// message.
CommandLine parseCommandLine(const std::vector<std::string>& args);

}  // namespace spvsim::tools
