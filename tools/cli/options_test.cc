#include "tools/cli/options.h"

#include <gtest/gtest.h>

#include "spirv/error.h"
#include "tools/cli/help.h"

namespace spvsim::tools {
namespace {

using Action = CommandLine::Action;

CommandLine parse(std::vector<std::string> args) { return parseCommandLine(args); }

std::string errorOf(std::vector<std::string> args) {
  try {
    parse(args);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Usage);
    return e.what();
  }
  return "no error";
}

TEST(SizeList, Parses) {
  SizeList s = parseSizeList("64", "--global", false);
  EXPECT_EQ(s.dims, 1u);
  EXPECT_EQ(s.values, (std::array<uint64_t, 3>{64, 1, 1}));
  s = parseSizeList("8,4,2", "--global", false);
  EXPECT_EQ(s.dims, 3u);
  EXPECT_EQ(s.values, (std::array<uint64_t, 3>{8, 4, 2}));
  s = parseSizeList("3,0", "--global-offset", true, 0);
  EXPECT_EQ(s.dims, 2u);
  EXPECT_EQ(s.values, (std::array<uint64_t, 3>{3, 0, 0}));
}

TEST(SizeList, Errors) {
  EXPECT_THROW(parseSizeList("", "--global", false), Error);
  EXPECT_THROW(parseSizeList("0", "--global", false), Error);
  EXPECT_THROW(parseSizeList("1,2,3,4", "--global", false), Error);
  EXPECT_THROW(parseSizeList("1,,2", "--global", false), Error);
  EXPECT_THROW(parseSizeList("-1", "--global", false), Error);
  EXPECT_THROW(parseSizeList("x", "--global", false), Error);
  try {
    parseSizeList("8,0", "--local", false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--local '8,0': '0' is not a positive number");
  }
}

TEST(CommandLine, FullRun) {
  CommandLine cl = parse({"run",         "k.cl",
                          "--kernel",    "saxpy",
                          "--global",    "64,2",
                          "--local=8,2", "--global-offset",
                          "1,1",         "--sub-group-size",
                          "8",           "--build-options",
                          "-DN=4 -O0",   "--arg",
                          "float:2",     "--arg=buffer:int[4]",
                          "--dump",      "--json",
                          "out.json",    "--threads",
                          "2",           "--instruction-budget",
                          "1000"});
  EXPECT_EQ(cl.action, Action::Execute);
  EXPECT_EQ(cl.command, Command::Run);
  const RunOptions& o = cl.options;
  EXPECT_EQ(o.input, "k.cl");
  EXPECT_EQ(o.kernel, "saxpy");
  EXPECT_EQ(o.global->dims, 2u);
  EXPECT_EQ(o.global->values, (std::array<uint64_t, 3>{64, 2, 1}));
  EXPECT_EQ(o.local->values, (std::array<uint64_t, 3>{8, 2, 1}));
  EXPECT_EQ(o.offset->values, (std::array<uint64_t, 3>{1, 1, 0}));
  EXPECT_EQ(o.subGroupSize, 8u);
  EXPECT_EQ(o.buildOptions, "-DN=4 -O0");
  EXPECT_EQ(o.args, (std::vector<std::string>{"float:2", "buffer:int[4]"}));
  EXPECT_TRUE(o.dump);
  EXPECT_EQ(o.jsonPath, "out.json");
  EXPECT_EQ(o.threads, 2u);
  EXPECT_EQ(o.instructionBudget, 1000u);
  EXPECT_FALSE(o.isSim());
}

TEST(CommandLine, MinimalRunAndSim) {
  CommandLine cl = parse({"run", "--global", "4", "k.spv"});
  EXPECT_TRUE(cl.options.kernel.empty());
  EXPECT_FALSE(cl.options.local);
  cl = parse({"run", "t/saxpy.sim", "--sub-group-size", "4", "--dump"});
  EXPECT_TRUE(cl.options.isSim());
  EXPECT_EQ(cl.options.input, "t/saxpy.sim");
  EXPECT_EQ(parse({"run", "--global", "4", "--", "-odd.spv"}).options.input, "-odd.spv");
}

TEST(CommandLine, Help) {
  CommandLine cl = parse({});
  EXPECT_EQ(cl.action, Action::Help);
  EXPECT_TRUE(cl.helpIsError);
  cl = parse({"--help"});
  EXPECT_EQ(cl.action, Action::Help);
  EXPECT_FALSE(cl.command);
  EXPECT_FALSE(cl.helpIsError);
  cl = parse({"run", "--help"});
  EXPECT_EQ(cl.action, Action::Help);
  EXPECT_EQ(cl.command, Command::Run);
  EXPECT_EQ(parse({"help", "info"}).command, Command::Info);
  EXPECT_EQ(parse({"check", "-h"}).command, Command::Check);
  EXPECT_EQ(parse({"--version"}).action, Action::Version);
  EXPECT_EQ(parse({"version"}).action, Action::Version);
}

TEST(CommandLine, DisAndInfo) {
  CommandLine cl = parse({"dis", "k.spvasm"});
  EXPECT_EQ(cl.command, Command::Dis);
  EXPECT_EQ(cl.options.input, "k.spvasm");
  cl = parse({"info", "k.cl", "--kernel", "k", "--build-options", "-DX"});
  EXPECT_EQ(cl.options.kernel, "k");
  EXPECT_EQ(cl.options.buildOptions, "-DX");
}

TEST(CommandLine, Compile) {
  CommandLine cl =
      parse({"compile", "k.cl", "-o", "out.spv", "--build-options", "-O3", "--no-cache"});
  EXPECT_EQ(cl.command, Command::Compile);
  EXPECT_EQ(cl.options.input, "k.cl");
  EXPECT_EQ(cl.options.outputPath, "out.spv");
  EXPECT_EQ(cl.options.buildOptions, "-O3");
  EXPECT_TRUE(cl.options.noCache);
  EXPECT_TRUE(parse({"run", "k.cl", "--global", "4", "--no-cache"}).options.noCache);
  EXPECT_EQ(errorOf({"run", "k.cl", "--global", "4", "-o", "x"}),
            "-o is not an option of 'spvsim run'");
  EXPECT_EQ(errorOf({"compile", "k.sim"}),
            "spvsim compile takes a .cl, .spv or .spvasm file, not a .sim file");
}

TEST(CommandLine, Errors) {
  EXPECT_EQ(errorOf({"go"}),
            "unknown command 'go' (expected run, check, debug, dap, dis, info, compile, help or "
            "version)");
  EXPECT_EQ(errorOf({"help", "go"}), "no help for unknown command 'go'");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--frobnicate"}),
            "unknown option '--frobnicate' for 'spvsim run'");
  EXPECT_EQ(errorOf({"run", "k.spv", "--kernel"}), "--kernel needs a value");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--dump=yes"}), "--dump takes no value");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--kernel", "a", "--kernel", "b"}),
            "--kernel is given twice");
  EXPECT_EQ(errorOf({"run", "a.spv", "b.spv", "--global", "4"}),
            "unexpected 'b.spv': spvsim run takes one KERNEL file");
  EXPECT_EQ(errorOf({"run", "--global", "4"}),
            "missing the KERNEL file (.spv, .spvasm, .cl or .sim)");
  EXPECT_EQ(errorOf({"run", "k.spv"}), "missing --global X[,Y[,Z]]");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4,4", "--local", "4"}),
            "--local has 1 dimensions but --global has 2");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--global-offset", "1,1"}),
            "--global-offset has 2 dimensions but --global has 1");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--sub-group-size", "0"}),
            "--sub-group-size '0' is not a number in 1..128");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--sub-group-size", "129"}),
            "--sub-group-size '129' is not a number in 1..128");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--instruction-budget", "0"}),
            "--instruction-budget '0' is not a number in 1..18446744073709551615");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--max-device-enqueues", "0"}),
            "--max-device-enqueues '0' is not a number in 1..18446744073709551615");
  EXPECT_EQ(*parseCommandLine({"check", "k.spv", "--global", "4", "--max-device-enqueues", "7"})
                 .options.maxDeviceEnqueues,
            7u);
  EXPECT_EQ(errorOf({"dis", "k.spv", "--global", "4"}),
            "--global is not an option of 'spvsim dis'");
  EXPECT_EQ(errorOf({"info", "k.spv", "--arg", "int:1"}),
            "--arg is not an option of 'spvsim info'");
  EXPECT_EQ(errorOf({"run", "t.sim", "--kernel", "k"}),
            "a .sim file gives the kernel, sizes and arguments itself: drop --kernel, --global, "
            "--local, --global-offset and --arg");
  EXPECT_EQ(errorOf({"run", "t.sim", "--arg", "int:1"}),
            "a .sim file gives the kernel, sizes and arguments itself: drop --kernel, --global, "
            "--local, --global-offset and --arg");
}

TEST(CommandLine, MaxMemory) {
  EXPECT_FALSE(parseCommandLine({"run", "k.spv", "--global", "4"}).options.maxMemory);
  EXPECT_EQ(*parseCommandLine({"run", "k.spv", "--global", "4", "--max-memory", "512M"})
                 .options.maxMemory,
            512ull << 20);
  EXPECT_EQ(
      *parseCommandLine({"check", "k.spv", "--global", "4", "--max-memory=4096"}).options.maxMemory,
      4096u);
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--max-memory", "0"}),
            "--max-memory '0' is not a positive number of bytes (optionally with a K, M or G "
            "suffix, e.g. 512M)");
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--max-memory", "2T"}),
            "--max-memory '2T' is not a positive number of bytes (optionally with a K, M or G "
            "suffix, e.g. 512M)");
  EXPECT_EQ(errorOf({"dis", "k.spv", "--max-memory", "1G"}),
            "--max-memory is not an option of 'spvsim dis'");
}

TEST(CommandLine, Schedule) {
  auto seed = [](std::vector<std::string> extra) {
    std::vector<std::string> args = {"run", "k.spv", "--global", "4"};
    args.insert(args.end(), extra.begin(), extra.end());
    return parse(args).options.scheduleSeed;
  };
  EXPECT_EQ(seed({}), std::nullopt);  // round-robin
  EXPECT_EQ(seed({"--schedule", "round-robin"}), std::nullopt);
  EXPECT_EQ(seed({"--schedule", "random"}), 0u);
  EXPECT_EQ(seed({"--schedule=random:42"}), 42u);
  EXPECT_EQ(seed({"--schedule", "random:18446744073709551615"}), ~0ull);
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--schedule", "fifo"}),
            "--schedule 'fifo' is not round-robin, random or random:SEED");
  EXPECT_NE(errorOf({"run", "k.spv", "--global", "4", "--schedule", "random:x"}).find("'x'"),
            std::string::npos);
}

TEST(CommandLine, Reconvergence) {
  auto seed = [](std::vector<std::string> args) { return parse(args).options.reconvergenceSeed; };
  EXPECT_EQ(seed({"run", "k.spv", "--global", "4"}), std::nullopt);  // ipdom
  EXPECT_EQ(seed({"run", "k.spv", "--global", "4", "--reconvergence", "ipdom"}), std::nullopt);
  EXPECT_EQ(seed({"run", "k.spv", "--global", "4", "--reconvergence", "random"}), 0u);
  EXPECT_EQ(seed({"check", "k.spv", "--global", "4", "--reconvergence=random:7"}), 7u);
  EXPECT_EQ(
      seed({"debug", "k.spv", "--global", "4", "--reconvergence", "random:18446744073709551615"}),
      ~0ull);
  EXPECT_EQ(errorOf({"run", "k.spv", "--reconvergence", "maximal"}),
            "--reconvergence 'maximal' is not ipdom, random or random:SEED");
  EXPECT_EQ(errorOf({"dis", "k.spv", "--reconvergence", "random"}),
            "--reconvergence is not an option of 'spvsim dis'");
}

TEST(CommandLine, MemoryModel) {
  auto model = [](std::vector<std::string> args) {
    const RunOptions o = parse(args).options;
    return std::pair(o.relaxed, o.memoryModelSeed);
  };
  using Model = std::pair<bool, std::optional<uint64_t>>;
  EXPECT_EQ(model({"run", "k.spv", "--global", "4"}), Model(false, std::nullopt));
  EXPECT_EQ(model({"run", "k.spv", "--global", "4", "--memory-model", "sc"}),
            Model(false, std::nullopt));
  EXPECT_EQ(model({"run", "k.spv", "--global", "4", "--memory-model", "relaxed"}),
            Model(true, std::nullopt));
  EXPECT_EQ(model({"debug", "k.spv", "--global", "4", "--memory-model=relaxed:9"}),
            Model(true, 9u));
  EXPECT_EQ(errorOf({"run", "k.spv", "--memory-model", "tso"}),
            "--memory-model 'tso' is not sc, relaxed or relaxed:SEED");
  EXPECT_EQ(errorOf({"run", "k.spv", "--memory-model", "relaxed:x"}),
            "--memory-model 'x' is not a number in 0..18446744073709551615");
  EXPECT_EQ(errorOf({"dis", "k.spv", "--memory-model", "relaxed"}),
            "--memory-model is not an option of 'spvsim dis'");
  EXPECT_EQ(model({"check", "k.spv", "--global", "4", "--memory-model", "relaxed:3"}),
            Model(true, 3u));
}

TEST(CommandLine, ForwardProgress) {
  auto resident = [](std::vector<std::string> args) { return parse(args).options.residentGroups; };
  EXPECT_EQ(resident({"run", "k.spv", "--global", "4"}), std::nullopt);  // none
  EXPECT_EQ(resident({"run", "k.spv", "--global", "4", "--forward-progress", "none"}),
            std::nullopt);
  EXPECT_EQ(resident({"run", "k.spv", "--global", "4", "--forward-progress", "occupancy"}), 0u);
  EXPECT_EQ(resident({"check", "k.spv", "--global", "4", "--forward-progress=occupancy:2"}), 2u);
  EXPECT_EQ(resident({"run", "k.spv", "--global", "4", "--forward-progress", "occupancy:1048576"}),
            1u << 20);
  for (const char* bad : {"occupancy:0", "occupancy:x", "occupancy:", "occupancy:-1",
                          "occupancy:1048577", "occupancy:99999999999999999999"})
    EXPECT_EQ(errorOf({"run", "k.spv", "--forward-progress", bad}),
              std::string("--forward-progress '") + bad +
                  "': N must be a number of work-groups in 1..1048576")
        << bad;
  EXPECT_EQ(errorOf({"run", "k.spv", "--forward-progress", "always"}),
            "--forward-progress 'always' is not none, occupancy or occupancy:N");
  // debug's `continue` takes the launch's turns (src/debugger/debug_resident.cc).
  EXPECT_EQ(resident({"debug", "k.spv", "--global", "4", "--forward-progress", "occupancy:3"}), 3u);
  EXPECT_EQ(errorOf({"dis", "k.spv", "--forward-progress", "occupancy"}),
            "--forward-progress is not an option of 'spvsim dis'");
}

TEST(CommandLine, Profile) {
  CommandLine c =
      parse({"run", "k.spv", "--global", "4", "--profile-text", "p.txt", "--profile-banks", "16"});
  EXPECT_EQ(c.options.profileTextPath, "p.txt");
  EXPECT_EQ(c.options.profileBanks, 16u);
  EXPECT_TRUE(c.options.profiling());
  EXPECT_EQ(parse({"run", "k.spv", "--global", "4", "--profile", "p.html"}).options.profileBanks,
            std::nullopt);  // 32
  for (const char* bad : {"0", "1025", "x"})
    EXPECT_EQ(errorOf({"run", "k.spv", "--profile", "p.html", "--profile-banks", bad}),
              std::string("--profile-banks '") + bad + "' is not a number in 1..1024")
        << bad;
  EXPECT_EQ(errorOf({"run", "k.spv", "--global", "4", "--profile-banks", "16"}),
            "--profile-banks sets the profile's bank count: add --profile, --profile-json or "
            "--profile-text");
  EXPECT_EQ(
      errorOf({"run", "k.spv", "--global", "4", "--profile-text", "p.txt", "--check-undefined"}),
      "--profile, --profile-json and --profile-text cannot be combined with "
      "--check-undefined");
}

TEST(Help, ListsEveryOptionAndArgForm) {
  const std::string run = helpText(Command::Run);
  for (const char* needle : {"--kernel",
                             "--global ",
                             "--local",
                             "--global-offset",
                             "--sub-group-size",
                             "--reconvergence",
                             "--memory-model",
                             "--forward-progress",
                             "occupancy[:N]",
                             "--build-options",
                             "--arg",
                             "--dump",
                             "--json",
                             "--threads",
                             "--instruction-budget",
                             "--max-memory",
                             "--max-device-enqueues",
                             "--no-cache",
                             "--profile ",
                             "--profile-json",
                             "--profile-text",
                             "--profile-banks",
                             "buffer:TYPE[N]=INIT",
                             "zero",
                             "fill(V)",
                             "range(START[,STEP])",
                             "values(V,...)",
                             "random(SEED)",
                             "file(PATH)",
                             "local:BYTES",
                             "struct:TYPE,...=V,...",
                             "null",
                             "image2d",
                             "half",
                             "size_t",
                             "uint4:1,2,3,4",
                             ".sim",
                             "Examples"})
    EXPECT_NE(run.find(needle), std::string::npos) << needle;
  for (const char* needle :
       {"--global", "scheduling-dependent", "sub-group-size-dependent", "--check-races",
        "random:SEED", "--list", "--shard I/N", "--results FILE.jsonl", "--merge FILE.jsonl...",
        "--junit FILE", "DIR (instead of KERNEL)"})
    EXPECT_NE(helpText(Command::Check).find(needle), std::string::npos) << needle;
  for (const char* needle : {"--global", "break LOC", "info simt", "workgroup X", "x NAME[I:J]"})
    EXPECT_NE(helpText(Command::Debug).find(needle), std::string::npos) << needle;
  EXPECT_NE(helpText(std::nullopt).find("spvsim info KERNEL"), std::string::npos);
  EXPECT_NE(helpText(Command::Dis).find("spvsim dis KERNEL"), std::string::npos);
  EXPECT_NE(helpText(Command::Info).find("--kernel NAME"), std::string::npos);
  EXPECT_NE(helpText(std::nullopt).find("spvsim compile KERNEL"), std::string::npos);
  for (const char* needle : {"-o FILE.spv", "--build-options", "--no-cache", "SPVSIM_CACHE_DIR",
                             "SPVSIM_CACHE=off", "-O1, then -O0"})
    EXPECT_NE(helpText(Command::Compile).find(needle), std::string::npos) << needle;
}

}  // namespace
}  // namespace spvsim::tools
