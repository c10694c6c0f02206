#include "tools/cli/run_command.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "spirv/error.h"
#include "tools/cli/check_command.h"
#include "tools/cli/options.h"

namespace spvsim::tools {
namespace {

TEST(Stats, LineReportsCountsAndRate) {
  LaunchResult r;
  r.subGroupSize = 16;
  r.subGroupSteps = 1000;
  r.laneInstructions = 16000;
  // 16000 lane instructions in 0.5 s = 32000 per second.
  EXPECT_EQ(formatStats(r, 0.5),
            "stats: launch 0.500000 s, sub-group size 16, 1000 sub-group instructions, "
            "16000 lane instructions, 3.2e+04 lane instructions/s");
  r.subGroupUnits = 128;  // src/DESIGN.md, "Work-groups split into sub-groups"
  EXPECT_EQ(formatStats(r, 0.5),
            "stats: launch 0.500000 s, sub-group size 16, 1000 sub-group instructions, "
            "16000 lane instructions, 3.2e+04 lane instructions/s, work-groups split into 128 "
            "sub-group units");
}

TEST(Stats, ThreadLineGivesRangesOverTheThreads) {
  LaunchResult r;
  EXPECT_EQ(formatThreadStats(r), "");  // no host thread ran (nothing to say)
  r.timeline.threads = {{0.0001, 0.0002, 0.0015, 300}, {0.0003, 0.0004, 0.0012, 212}};
  r.timeline.joined = 0.0016;
  r.timeline.end = 0.00175;
  EXPECT_EQ(formatThreadStats(r),
            "stats: 2 host threads: entered 0.100-0.300 ms, first unit 0.200-0.400 ms, "
            "finished 1.200-1.500 ms, 212-300 units each, joined 1.600 ms, launch done "
            "1.750 ms");
  r.timeline.threads.resize(1);
  EXPECT_EQ(formatThreadStats(r),
            "stats: 1 host thread: entered 0.100 ms, first unit 0.200 ms, finished 1.500 ms, "
            "300 units each, joined 1.600 ms, launch done 1.750 ms");
}

TEST(Stats, OptionIsParsed) {
  CommandLine cl = parseCommandLine({"run", "k.cl", "--global", "4", "--arg", "int:1", "--stats"});
  EXPECT_TRUE(cl.options.stats);
}

// --schedule end to end: a racy kernel whose output traces the interleaving of its
// four sub-groups (each records who wrote `last` before each of its own writes).
std::string runTrace(const std::string& schedule) {
  const std::string path = ::testing::TempDir() + "/trace.cl";
  std::ofstream(path) << R"(
__kernel void trace(__global int* out, volatile __local int* last, uint sgSize, int n) {
  uint lid = get_local_id(0), sg = lid / sgSize;
  if (lid == 0) *last = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n; ++i) {
    out[sg * n + i] = *last;
    *last = sg;
  }
}
)";
  std::vector<std::string> args = {
      "run",   path,    "--kernel",       "trace", "--global", "16",    "--sub-group-size",
      "4",     "--arg", "buffer:int[16]", "--arg", "local:4",  "--arg", "uint:4",
      "--arg", "int:4", "--dump"};
  if (!schedule.empty()) {
    args.push_back("--schedule");
    args.push_back(schedule);
  }
  CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  EXPECT_EQ(runCommand(cl.options, out, err), 0) << err.str();
  return out.str();
}

TEST(Schedule, RoundRobinIsTheDefaultAndRandomIsReproduciblePerSeed) {
  // Round-robin with the default quantum: each sub-group runs its whole loop in turn.
  const std::string rr = "arg0 int[16] = -1 0 0 0 0 1 1 1 1 2 2 2 2 3 3 3\n";
  EXPECT_EQ(runTrace(""), rr);
  EXPECT_EQ(runTrace("round-robin"), rr);
  std::set<std::string> traces;
  for (int seed = 1; seed <= 6; ++seed) {
    const std::string a = runTrace("random:" + std::to_string(seed));
    EXPECT_EQ(a, runTrace("random:" + std::to_string(seed))) << "seed " << seed;
    traces.insert(a);
  }
  EXPECT_GE(traces.size(), 3u);  // the seed changes the interleaving
}

std::string readAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A launch that fails after the report was opened still leaves a report, saying why.
TEST(Json, AFailedLaunchLeavesAReportWithTheError) {
  const std::string kernel = ::testing::TempDir() + "/json_fail.cl";
  const std::string report = ::testing::TempDir() + "/json_fail.json";
  std::ofstream(kernel) << "kernel void k(global int* a) { a[0] = 1; }\n";
  std::ofstream(report) << "old contents";
  const CommandLine cl = parseCommandLine({"run", kernel, "--global", "4", "--arg", "buffer:int[4]",
                                           "--arg", "int:1", "--json", report});
  std::ostringstream out, err;
  EXPECT_THROW(runCommand(cl.options, out, err), Error);  // two arguments for one parameter
  const std::string json = readAll(report);
  EXPECT_EQ(json.rfind("{\"error\": {\"kind\": \"invalid-argument\", \"message\": \"kernel 'k' "
                       "takes 1 argument",
                       0),
            0u)
      << json;
  EXPECT_NE(json.find("\"diagnostics\": []"), std::string::npos) << json;
}

TEST(Input, ADirectoryIsNotAKernel) {
  const std::string dir = ::testing::TempDir() + "/not_a_kernel.spv";
  std::filesystem::create_directories(dir);
  const CommandLine cl = parseCommandLine({"run", dir, "--global", "4"});
  std::ostringstream out, err;
  try {
    runCommand(cl.options, out, err);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Input);
    EXPECT_EQ(std::string(e.what()), "'" + dir + "' is not a regular file (it is a directory)");
  }
}

// --max-memory bounds the argument buffers (before they are allocated) and the launch's
// own memory, with the buffers counted against the same limit.
Error memoryErrorOf(const std::vector<std::string>& args,
                    int (*command)(const RunOptions&, std::ostream&, std::ostream&)) {
  const CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  try {
    command(cl.options, out, err);
  } catch (const Error& e) {
    return e;
  }
  ADD_FAILURE() << "no error; stderr: " << err.str();
  return Error(DiagnosticKind::Usage, "no error");
}

std::string localKernel() {
  const std::string path = ::testing::TempDir() + "/max_memory.cl";
  std::ofstream(path) << "kernel void k(global int* a, local int* l) {\n"
                         "  l[get_local_id(0)] = 1; a[get_global_id(0)] = l[0]; }\n";
  return path;
}

TEST(MaxMemory, BuffersPastTheLimitAreRefusedBeforeAllocating) {
  // 2 x 600 MiB of buffers against 1 GiB: the second is refused, the first was counted.
  const Error e = memoryErrorOf(
      {"run", localKernel(), "--global", "4", "--max-memory", "1G", "--arg",
       "buffer:char[629145600]", "--arg", "local:16", "--arg", "buffer:char[629145600]"},
      runCommand);
  EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
  EXPECT_EQ(std::string(e.what()),
            "--arg 'buffer:char[629145600]': the buffer arguments would take 1258291200 bytes "
            "(1.17 GiB), more than the memory limit of 1073741824 bytes (1 GiB); raise the limit "
            "with --max-memory (spvsim) or SPVSIM_MAX_MEMORY (OpenCL ICD)");
}

TEST(MaxMemory, HugeLocalMemoryIsAnOutOfMemoryError) {
  const Error e = memoryErrorOf({"run", localKernel(), "--global", "4", "--max-memory", "1G",
                                 "--arg", "buffer:int[4]", "--arg", "local:4294967296"},
                                runCommand);
  EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
  EXPECT_NE(std::string(e.what()).find("local memory 4 GiB"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("beside the 16 bytes of argument buffers"),
            std::string::npos)
      << e.what();
}

TEST(MaxMemory, CheckCountsEveryRunsCopyOfTheBuffers) {
  // 100 MiB of buffers fit 1 GiB once, but not once per run (12 runs, 3 of the -O0 build,
  // and the original: 16 x 104857600).
  const Error e = memoryErrorOf({"check", localKernel(), "--global", "4", "--max-memory", "1G",
                                 "--arg", "buffer:char[104857600]", "--arg", "local:16"},
                                checkCommand);
  EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
  EXPECT_EQ(std::string(e.what()).rfind("the buffers of 15 runs (check keeps every run's "
                                        "results) would take 1677721600 bytes",
                                        0),
            0u)
      << e.what();
}

TEST(MaxMemory, SimFileBuffersAreCountedWithTheFilePosition) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/max_memory.sim") << "max_memory.cl\nk\n4 1 1\n4 1 1\n"
                                            "<size=629145600 char fill=0>\n"
                                            "<size=16>\n";
  localKernel();
  const Error e =
      memoryErrorOf({"run", dir + "/max_memory.sim", "--max-memory", "512M"}, runCommand);
  EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
  EXPECT_EQ(std::string(e.what()).rfind(dir + "/max_memory.sim:5: the buffer arguments would "
                                              "take 629145600 bytes",
                                        0),
            0u)
      << e.what();
}

}  // namespace
}  // namespace spvsim::tools
