// spvsim run with device-side enqueue: the command line's implicit default device queue,
// the parent chosen without --kernel (block-invoke kernels are not candidates), children
// in --dump, and --stats counting the enqueued launches. Expected values by hand.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tools/options.h"
#include "tools/run_command.h"

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

}  // namespace
}  // namespace spvsim::tools
