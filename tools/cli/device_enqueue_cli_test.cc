// spvsim run with device-side enqueue: the command line's implicit default device queue,
// the parent chosen without --kernel (block-invoke kernels are not candidates), children
// in --dump, and --stats counting the enqueued launches. Expected values by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "tools/cli/options.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

// Work-item g enqueues g + 1 work-items writing out[g * 4 + i] = 10 * g + i (g < 4, so
// 1 + 2 + 3 + 4 = 10 children's work-items over 4 launches).
const char* kSource = R"(
kernel void parent(global int* out) {
  int g = (int)get_global_id(0);
  enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(g + 1),
                 ^{ int i = (int)get_global_id(0); out[g * 4 + i] = 10 * g + i; });
}
)";

struct CliRun {
  int rc;
  std::string out, err;
};

CliRun run(const std::string& level) {
  const std::string path = ::testing::TempDir() + "/enqueue.cl";
  std::ofstream(path) << kSource;
  std::vector<std::string> args = {"run",
                                   path,
                                   "--global",
                                   "4",
                                   "--build-options",
                                   "-cl-std=CL2.0 " + level,
                                   "--arg",
                                   "buffer:int[16]=fill(-1)",
                                   "--dump",
                                   "--stats"};
  CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  const int rc = runCommand(cl.options, out, err);
  return {rc, out.str(), err.str()};
}

TEST(DeviceEnqueueCli, ChildrenRunWithTheImplicitDefaultQueue) {
  for (const char* level : {"-O0", "-O2"}) {
    CliRun r = run(level);
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "arg0 int[16] = 0 -1 -1 -1 10 11 -1 -1 20 21 22 -1 30 31 32 33\n") << level;
    EXPECT_NE(r.err.find(", 4 enqueued kernel launches"), std::string::npos) << r.err;
  }
}

// A queue_t parameter takes `--arg queue` (.sim: <queue>), the command line's one device
// queue: work-item g enqueues one work-item writing out[g] = 100 + g, and reports
// enqueue_kernel's return code (CLK_SUCCESS, 0) in out[4 + g].
const char* kQueueSource = R"(
kernel void parent(queue_t q, global int* out) {
  int g = (int)get_global_id(0);
  out[4 + g] = enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, ndrange_1D(1),
                              ^{ out[g] = 100 + g; });
}
)";

CliRun runArgs(const std::vector<std::string>& args) {
  CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  const int rc = runCommand(cl.options, out, err);
  return {rc, out.str(), err.str()};
}

TEST(DeviceEnqueueCli, QueueArgumentsAreTheDeviceQueue) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/queue.cl") << kQueueSource;
  std::ofstream(dir + "/queue.sim") << "queue.cl\nparent\n4 1 1\n4 1 1\n<queue>\n"
                                       "<size=32 int fill=-1 dump>\n";
  for (const char* level : {"-O0", "-O2"}) {
    const std::string options = std::string("-cl-std=CL2.0 ") + level;
    CliRun r = runArgs({"run", dir + "/queue.cl", "--global", "4", "--build-options", options,
                        "--arg", "queue", "--arg", "buffer:int[8]=fill(-1)", "--dump"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "arg1 int[8] = 100 101 102 103 0 0 0 0\n") << level << r.err;
    CliRun sim = runArgs({"run", dir + "/queue.sim", "--build-options", options});
    EXPECT_EQ(sim.rc, 0) << sim.err;
    EXPECT_EQ(sim.out, "arg1 int[8] = 100 101 102 103 0 0 0 0\n") << level << sim.err;
  }
  try {
    runArgs({"run", dir + "/queue.cl", "--global", "1", "--build-options", "-cl-std=CL2.0", "--arg",
             "buffer:int[8]", "--arg", "buffer:int[8]"});
    ADD_FAILURE() << "a buffer for a queue_t parameter was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "argument 0 (q) is 'queue_t q': give a device queue, not 'buffer:int[8]'");
  }
}

// A fan-out tree through the command line's default device queue (16 KiB: 128 places):
// every work-item of every launch enqueues a launch of 4 work-items down to level 0, so
// the 8 root work-items make 8 + 32 + 128 + 512 = 680 enqueues, 512 of them waiting at
// once if levels ran one after the other; depth first they fit. hits[g] counts the
// work-items of global id g: the root's 8 once each, and each launch of 4 adds one to
// hits[0..3]: 8 x (1 + 4 + 16 + 64) = 680 launches of 4.
const char* kTreeSource = R"(
void grow(global int* hits, global int* failed, int level) {
  atomic_inc(&hits[get_global_id(0)]);
  if (level == 0) return;
  if (enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(4),
                     ^{ grow(hits, failed, level - 1); }) != CLK_SUCCESS)
    atomic_inc(failed);
}
kernel void tree(global int* hits, global int* failed, int level) { grow(hits, failed, level); }
)";

TEST(DeviceEnqueueCli, FanOutTreeFitsTheDefaultQueue) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/tree.cl") << kTreeSource;
  for (const char* level : {"-O0", "-O2"}) {
    CliRun r = runArgs({"run", dir + "/tree.cl", "--global", "8", "--build-options",
                        std::string("-cl-std=CL2.0 ") + level, "--arg", "buffer:int[8]=fill(0)",
                        "--arg", "buffer:int[1]=fill(0)", "--arg", "int:4", "--dump", "--stats"});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.out, "arg0 int[8] = 681 681 681 681 1 1 1 1\narg1 int[1] = 0\n") << level << r.err;
    EXPECT_NE(r.err.find(", 680 enqueued kernel launches"), std::string::npos) << r.err;
  }
}

// A block that enqueues itself n times: --max-device-enqueues 3 stops the fourth enqueue
// with an error naming the bound (exit 2: the launch aborted); the chain wrote depth 3.
const char* kChainSource = R"(
void spawn(global int* out, int depth, int n) {
  out[0] = depth;
  if (depth + 1 < n)
    enqueue_kernel(get_default_queue(), CLK_ENQUEUE_FLAGS_WAIT_KERNEL, ndrange_1D(1),
                   ^{ spawn(out, depth + 1, n); });
}
kernel void chain(global int* out, int n) { spawn(out, 0, n); }
)";

TEST(DeviceEnqueueCli, MaxDeviceEnqueues) {
  const std::string dir = ::testing::TempDir();
  std::ofstream(dir + "/chain.cl") << kChainSource;
  const std::vector<std::string> args = {
      "run",   dir + "/chain.cl", "--global", "1",      "--build-options", "-cl-std=CL2.0",
      "--arg", "buffer:int[1]",   "--arg",    "int:10", "--dump"};
  CliRun all = runArgs(args);
  EXPECT_EQ(all.rc, 0) << all.err;
  EXPECT_EQ(all.out, "arg0 int[1] = 9\n");
  std::vector<std::string> bounded = args;
  bounded.insert(bounded.end(), {"--max-device-enqueues", "3"});
  CliRun r = runArgs(bounded);
  EXPECT_EQ(r.rc, 2);
  EXPECT_EQ(r.out, "arg0 int[1] = 3\n");
  EXPECT_NE(r.err.find("error: device-enqueue: the host launch and the kernels it enqueued have "
                       "enqueued 3 commands, spvsim's bound for one host launch"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("raise it with --max-device-enqueues (spvsim)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace spvsim::tools
