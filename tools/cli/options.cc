#include "tools/cli/options.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <array>
#include <functional>
#include <set>

#include "spirv/error.h"
#include "src/exec/memory_limit.h"
#include "tools/cli/bundle.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {
namespace {

[[noreturn]] void fail(const std::string& message) { throw Error(DiagnosticKind::Usage, message); }

constexpr unsigned bit(Command c) { return 1u << static_cast<unsigned>(c); }
constexpr unsigned kLaunching = bit(Command::Run) | bit(Command::Check) | bit(Command::Debug);
// --forward-progress occupancy:N's bound, against typos only: slots are made as work-groups
// are admitted, so an N beyond a launch's work-groups makes all of them resident.
constexpr uint64_t kMaxResidentGroups = 1u << 20;
constexpr unsigned kAll =
    kLaunching | bit(Command::Dis) | bit(Command::Info) | bit(Command::Compile);

uint64_t number(std::string_view option, std::string_view text, uint64_t min, uint64_t max) {
  uint64_t value = 0;
  if (!parseUnsigned(text, value) || value < min || value > max)
    fail(fmt::format("{} '{}' is not a number in {}..{}", option, text, min, max));
  return value;
}

// BYTES with an optional K, M or G suffix (powers of 1024).
uint64_t byteCount(std::string_view option, std::string_view text) {
  const uint64_t bytes = parseByteCount(text);
  if (bytes == 0)
    fail(
        fmt::format("{} '{}' is not a positive number of bytes (optionally with a K, M or G "
                    "suffix, e.g. 512M)",
                    option, text));
  return bytes;
}

// "round-robin" -> unset; "random" -> seed 0; "random:SEED" -> SEED.
std::optional<uint64_t> parseSchedule(std::string_view option, std::string_view text) {
  if (text == "round-robin") return std::nullopt;
  if (text == "random") return 0;
  if (text.substr(0, 7) == "random:") return number(option, text.substr(7), 0, ~0ull);
  fail(fmt::format("{} '{}' is not round-robin, random or random:SEED", option, text));
}

// --reconvergence: ipdom (nullopt), random (seed 0) or random:SEED.
std::optional<uint64_t> parseReconvergence(std::string_view option, std::string_view text) {
  if (text == "ipdom") return std::nullopt;
  if (text == "random") return 0;
  if (text.substr(0, 7) == "random:") return number(option, text.substr(7), 0, ~0ull);
  fail(fmt::format("{} '{}' is not ipdom, random or random:SEED", option, text));
}

// --memory-model: sc, relaxed (the schedule's seed) or relaxed:SEED.
void parseMemoryModel(RunOptions& o, std::string_view option, std::string_view text) {
  o.relaxed = text != "sc";
  o.memoryModelSeed.reset();
  if (text == "sc" || text == "relaxed") return;
  if (text.substr(0, 8) == "relaxed:") {
    o.memoryModelSeed = number(option, text.substr(8), 0, ~0ull);
    return;
  }
  fail(fmt::format("{} '{}' is not sc, relaxed or relaxed:SEED", option, text));
}

// --forward-progress: none (nullopt), occupancy (0: the compute units) or occupancy:N.
std::optional<uint64_t> parseForwardProgress(std::string_view option, std::string_view text) {
  if (text == "none") return std::nullopt;
  if (text == "occupancy") return 0;
  if (text.substr(0, 10) == "occupancy:") {
    uint64_t n = 0;
    if (!parseUnsigned(text.substr(10), n) || n == 0 || n > kMaxResidentGroups)
      fail(fmt::format("{} '{}': N must be a number of work-groups in 1..{}", option, text,
                       kMaxResidentGroups));
    return n;
  }
  fail(fmt::format("{} '{}' is not none, occupancy or occupancy:N", option, text));
}

// --ignore/--unordered: "2" or "arg2" (the name --dump and --json give argument 2).
uint64_t argumentIndex(std::string_view option, std::string_view text) {
  uint64_t value = 0;
  const std::string_view digits = text.substr(0, 3) == "arg" ? text.substr(3) : text;
  if (digits.empty() || digits.find_first_not_of("0123456789") != std::string_view::npos ||
      !parseUnsigned(digits, value))
    fail(fmt::format("{} '{}' is not an argument index (N or argN, as --dump names them)", option,
                     text));
  return value;
}

// --shard I/N: 0 <= I < N.
std::pair<uint64_t, uint64_t> parseShard(std::string_view option, std::string_view text) {
  const size_t slash = text.find('/');
  uint64_t i = 0, n = 0;
  if (slash == std::string_view::npos || !parseUnsigned(text.substr(0, slash), i) ||
      !parseUnsigned(text.substr(slash + 1), n))
    fail(
        fmt::format("{} '{}' is not I/N (shard I of N, counted from 0: 0/4 .. 3/4)", option, text));
  if (n == 0) fail(fmt::format("{} '{}': N must be at least 1", option, text));
  if (i >= n)
    fail(fmt::format("{} '{}': I must be less than N (shards of {} are 0/{} .. {}/{})", option,
                     text, n, n, n - 1, n));
  return {i, n};
}

struct Option {
  std::string_view name;
  bool takesValue;
  unsigned commands;
  bool repeatable;
  std::function<void(RunOptions&, std::string_view name, std::string_view value)> apply;
};

const std::vector<Option>& options() {
  static const std::vector<Option> table = {
      {"--kernel", true, kLaunching | bit(Command::Info), false,
       [](RunOptions& o, auto, auto v) { o.kernel = v; }},
      {"--global", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.global = parseSizeList(v, n, false); }},
      {"--local", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.local = parseSizeList(v, n, false); }},
      {"--global-offset", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.offset = parseSizeList(v, n, true, 0); }},
      {"--sub-group-size", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.subGroupSize = number(n, v, 1, 128); }},
      {"--build-options", true, kAll, false,
       [](RunOptions& o, auto, auto v) { o.buildOptions = v; }},
      {"--arg", true, kLaunching, true,
       [](RunOptions& o, auto, auto v) { o.args.emplace_back(v); }},
      {"--dump", false, kLaunching, false, [](RunOptions& o, auto, auto) { o.dump = true; }},
      {"--json", true, kLaunching, false, [](RunOptions& o, auto, auto v) { o.jsonPath = v; }},
      {"--json", false, bit(Command::Info), false,
       [](RunOptions& o, auto, auto) { o.infoJson = true; }},
      {"--threads", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.threads = number(n, v, 0, 4096); }},
      {"--instruction-budget", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.instructionBudget = number(n, v, 1, ~0ull); }},
      {"--max-memory", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.maxMemory = byteCount(n, v); }},
      {"--max-device-enqueues", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.maxDeviceEnqueues = number(n, v, 1, ~0ull); }},
      {"--stats", false, kLaunching, false, [](RunOptions& o, auto, auto) { o.stats = true; }},
      {"--quiet", false, kLaunching, false, [](RunOptions& o, auto, auto) { o.quiet = true; }},
      {"--progress", false, kLaunching, false,
       [](RunOptions& o, auto, auto) { o.progress = true; }},
      {"--schedule", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.scheduleSeed = parseSchedule(n, v); }},
      {"--reconvergence", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) {
         o.reconvergenceSeed = parseReconvergence(n, v);
         o.reconvergenceGiven = true;
       }},
      {"--memory-model", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { parseMemoryModel(o, n, v); }},
      // debug: `continue` takes the same turns between the resident work-groups.
      {"--forward-progress", true, kLaunching, false,
       [](RunOptions& o, auto n, auto v) { o.residentGroups = parseForwardProgress(n, v); }},
      {"--check-uninitialized", false, kLaunching, false,
       [](RunOptions& o, auto, auto) { o.checkUninitialized = true; }},
      {"--check-undefined", false, kLaunching, false,
       [](RunOptions& o, auto, auto) { o.checkUndefined = true; }},
      {"--check-races", false, kLaunching, false,
       [](RunOptions& o, auto, auto) { o.checkRaces = true; }},
      {"--profile", true, bit(Command::Run), false,
       [](RunOptions& o, auto, auto v) { o.profilePath = v; }},
      {"--profile-json", true, bit(Command::Run), false,
       [](RunOptions& o, auto, auto v) { o.profileJsonPath = v; }},
      {"--profile-text", true, bit(Command::Run), false,
       [](RunOptions& o, auto, auto v) { o.profileTextPath = v; }},
      {"--profile-banks", true, bit(Command::Run), false,
       [](RunOptions& o, auto n, auto v) { o.profileBanks = uint32_t(number(n, v, 1, 1024)); }},
      {"--no-cache", false, kAll, false, [](RunOptions& o, auto, auto) { o.noCache = true; }},
      {"--expect", true, bit(Command::Check), false,
       [](RunOptions& o, auto, auto v) { o.expectPath = v; }},
      {"--ignore", true, bit(Command::Check), true,
       [](RunOptions& o, auto n, auto v) { o.ignoreArgs.push_back(argumentIndex(n, v)); }},
      {"--unordered", true, bit(Command::Check), true,
       [](RunOptions& o, auto n, auto v) { o.unorderedArgs.push_back(argumentIndex(n, v)); }},
      {"--strict", false, bit(Command::Check), false,
       [](RunOptions& o, auto, auto) { o.strict = true; }},
      {"--optimized-only", false, bit(Command::Check), false,
       [](RunOptions& o, auto, auto) { o.optimizedOnly = true; }},
      {"--list", false, bit(Command::Check), false,
       [](RunOptions& o, auto, auto) { o.list = true; }},
      {"--shard", true, bit(Command::Check), false,
       [](RunOptions& o, auto n, auto v) { o.shard = parseShard(n, v); }},
      {"--results", true, bit(Command::Check), false,
       [](RunOptions& o, auto, auto v) { o.resultsPath = v; }},
      {"--junit", true, bit(Command::Check), false,
       [](RunOptions& o, auto, auto v) { o.junitPath = v; }},
      {"--merge", false, bit(Command::Check), false,
       [](RunOptions& o, auto, auto) { o.merge = true; }},
      {"-o", true, bit(Command::Compile), false,
       [](RunOptions& o, auto, auto v) { o.outputPath = v; }},
  };
  return table;
}

std::optional<Command> parseCommand(std::string_view word) {
  for (Command c : {Command::Run, Command::Check, Command::Debug, Command::Dis, Command::Info,
                    Command::Compile})
    if (commandName(c) == word) return c;
  return std::nullopt;
}

// spvsim check --merge FILE.jsonl...: only results files, --junit and --quiet.
void checkMerge(const RunOptions& o) {
  if (o.mergePaths.empty()) fail("--merge needs the results files to merge (FILE.jsonl...)");
  if (!o.kernel.empty() || o.global || o.local || o.offset || !o.args.empty() || o.dump ||
      !o.jsonPath.empty() || !o.expectPath.empty() || !o.ignoreArgs.empty() ||
      !o.unorderedArgs.empty() || o.strict || o.optimizedOnly || o.list || o.shard ||
      !o.resultsPath.empty() || o.subGroupSize || o.scheduleSeed || !o.buildOptions.empty())
    fail(
        "--merge takes only results files (FILE.jsonl...), --junit and --quiet: the records "
        "hold the launch and how it was judged");
}

// --list, --shard, --results and --junit (spvsim check).
void checkSweepOptions(const RunOptions& o) {
  if (o.list && (!o.resultsPath.empty() || !o.junitPath.empty() || !o.jsonPath.empty()))
    fail("--list only lists the configurations: drop --results, --junit and --json");
  if (!o.jsonPath.empty() && (o.shard || !o.resultsPath.empty()))
    fail(
        "--json reports one whole, unsharded run: drop --shard and --results (or --json; "
        "--junit reports sharded and merged runs)");
}

// Checks that the options fit together once all are read.
void checkCombination(Command command, const RunOptions& o) {
  if (command == Command::Check && o.merge) return checkMerge(o);
  if (!o.moreInputs.empty())
    fail(fmt::format("unexpected '{}': spvsim {} takes one KERNEL file", o.moreInputs.front(),
                     commandName(command)));
  if (o.input.empty()) fail("missing the KERNEL file (.spv, .spvasm, .cl or .sim)");
  if (command == Command::Check) checkSweepOptions(o);
  if (command == Command::Compile && o.isSim())
    fail("spvsim compile takes a .cl, .spv or .spvasm file, not a .sim file");
  if (!(bit(command) & kLaunching)) return;
  if (o.quiet && o.progress) fail("--quiet and --progress contradict each other");
  // Both run the launch's kernel instrumented, and a launch runs one instrumented copy.
  if (o.profiling() && o.checkUndefined)
    fail("--profile, --profile-json and --profile-text cannot be combined with --check-undefined");
  if (o.profileBanks && !o.profiling())
    fail(
        "--profile-banks sets the profile's bank count: add --profile, --profile-json or "
        "--profile-text");
  if (command == Command::Check && o.isSweep()) {
    if (!o.kernel.empty() || o.global || o.local || o.offset || !o.args.empty() ||
        !o.jsonPath.empty())
      fail(
          "spvsim check DIR takes each launch from its bundle or .sim file: drop --kernel, "
          "--global, --local, --global-offset, --arg and --json");
    return;
  }
  if (o.isBundle()) {
    if (!o.kernel.empty() || o.global || o.local || o.offset || !o.args.empty())
      fail(
          "a capture bundle gives the kernel, sizes and arguments itself: drop --kernel, "
          "--global, --local, --global-offset and --arg");
    return;
  }
  if (o.isSim()) {
    if (!o.kernel.empty() || o.global || o.local || o.offset || !o.args.empty())
      fail(
          "a .sim file gives the kernel, sizes and arguments itself: drop --kernel, --global, "
          "--local, --global-offset and --arg");
    return;
  }
  if (!o.global) fail("missing --global X[,Y[,Z]]");
  if (o.local && o.local->dims != o.global->dims)
    fail(fmt::format("--local has {} dimensions but --global has {}", o.local->dims,
                     o.global->dims));
  if (o.offset && o.offset->dims != o.global->dims)
    fail(fmt::format("--global-offset has {} dimensions but --global has {}", o.offset->dims,
                     o.global->dims));
}

class Parser {
 public:
  Parser(Command command, CommandLine& out) : command_(command), out_(out) {}

  void word(const std::vector<std::string>& args, size_t& i) {
    const std::string_view w = args[i];
    if (optionsDone_ || w.size() < 2 || w[0] != '-') return positional(w);
    if (w == "--") {
      optionsDone_ = true;
      return;
    }
    if (w == "--help" || w == "-h") {
      out_.action = CommandLine::Action::Help;
      return;
    }
    const size_t eq = w.find('=');
    const std::string_view name = w.substr(0, eq);
    const Option& opt = find(name);
    std::string_view value;
    if (eq != std::string_view::npos) {
      if (!opt.takesValue) fail(fmt::format("{} takes no value", name));
      value = w.substr(eq + 1);
    } else if (opt.takesValue) {
      if (++i >= args.size()) fail(fmt::format("{} needs a value", name));
      value = args[i];
    }
    if (!opt.repeatable && !seen_.insert(std::string(name)).second)
      fail(fmt::format("{} is given twice", name));
    opt.apply(out_.options, name, value);
  }

 private:
  // An option may have entries for different commands (--json FILE for launches, a plain
  // --json for info): the one of this command.
  const Option& find(std::string_view name) const {
    bool known = false;
    for (const Option& o : options())
      if (o.name == name) {
        if (o.commands & bit(command_)) return o;
        known = true;
      }
    if (known) fail(fmt::format("{} is not an option of 'spvsim {}'", name, commandName(command_)));
    fail(fmt::format("unknown option '{}' for 'spvsim {}'", name, commandName(command_)));
  }

  // Further words are --merge's files; checkCombination refuses them otherwise.
  void positional(std::string_view w) {
    if (!out_.options.input.empty())
      out_.options.moreInputs.emplace_back(w);
    else
      out_.options.input = w;
  }

  Command command_;
  CommandLine& out_;
  bool optionsDone_ = false;
  std::set<std::string> seen_;
};

}  // namespace

std::string_view commandName(Command c) {
  static constexpr std::array<std::string_view, 6> names{"run", "check", "debug",
                                                         "dis", "info",  "compile"};
  return names[static_cast<size_t>(c)];
}

bool RunOptions::isSim() const { return endsWith(input, ".sim"); }
bool RunOptions::isBundle() const { return isBundlePath(input); }
bool RunOptions::isSweep() const {
  struct stat st;
  return !input.empty() && stat(input.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && !isBundle();
}

CommandLine parseCommandLine(const std::vector<std::string>& args) {
  CommandLine out;
  if (args.empty()) {
    out.action = CommandLine::Action::Help;
    out.helpIsError = true;
    return out;
  }
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    out.action = CommandLine::Action::Help;
    if (first == "help" && args.size() > 1) {
      out.command = parseCommand(args[1]);
      if (!out.command) fail(fmt::format("no help for unknown command '{}'", args[1]));
    }
    return out;
  }
  if (first == "--version" || first == "version") {
    out.action = CommandLine::Action::Version;
    return out;
  }
  out.command = parseCommand(first);
  if (!out.command)
    fail(fmt::format(
        "unknown command '{}' (expected run, check, debug, dap, dis, info, compile, help or "
        "version)",
        first));
  Parser parser(*out.command, out);
  for (size_t i = 1; i < args.size(); ++i) {
    parser.word(args, i);
    if (out.action == CommandLine::Action::Help) return out;
  }
  RunOptions& o = out.options;
  if (o.merge && !o.input.empty()) {
    o.mergePaths.push_back(o.input);
    o.mergePaths.insert(o.mergePaths.end(), o.moreInputs.begin(), o.moreInputs.end());
    o.input.clear();
    o.moreInputs.clear();
  }
  checkCombination(*out.command, o);
  return out;
}

}  // namespace spvsim::tools
