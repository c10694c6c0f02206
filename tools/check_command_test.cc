// `spvsim check` end to end: diagnostics folded over the runs, results compared across
// schedules (an error) and sub-group sizes (a warning). Kernels are OpenCL C written to a
// temporary file; expected values are worked out from the kernels by hand.
#include "tools/check_command.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "tools/options.h"

namespace spvsim::tools {
namespace {

struct Outcome {
  int status;
  std::string out, err;
};

const char* kKernels = R"(
// A work-group sum: race-free with sync != 0; without barriers the steps race and the
// result depends on the interleaving of the two sub-groups.
kernel void tree_sum(global const int* in, global int* out, local int* tile, int sync) {
  int l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  for (int stride = n / 2; stride > 0; stride /= 2) {
    if (sync) barrier(CLK_LOCAL_MEM_FENCE);
    if (l < stride) tile[l] += tile[l + stride];
  }
  if (l == 0) out[get_group_id(0)] = tile[0];
}
kernel void sizes(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); }
// OpenCL 1.x atomics count across the whole device: race-free over many work-groups.
kernel void histogram(global const uint* in, global uint* bins) {
  atomic_inc(&bins[in[get_global_id(0)] % 4]);
}
)";

Outcome check(std::vector<std::string> args) {
  const std::string path = ::testing::TempDir() + "/check_kernels.cl";
  std::ofstream(path) << kKernels;
  args.insert(args.begin(), {"check", path});
  const CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  const int status = checkCommand(cl.options, out, err);
  return {status, out.str(), err.str()};
}

std::vector<std::string> treeSum(int sync) {
  return {"--kernel", "tree_sum",
          "--global", "32",
          "--local",  "16",
          "--arg",    "buffer:int[32]=range(1)",
          "--arg",    "buffer:int[2]=zero",
          "--arg",    "local:64",
          "--arg",    "int:" + std::to_string(sync),
          "--dump"};
}

// 64 work-items over 8 work-groups, values 0..63: each residue mod 4 occurs 16 times.
TEST(Check, LegacyAtomicHistogramIsRaceFreeAtEveryLevel) {
  for (const char* level : {"-cl-std=CL1.2 -O0", "-cl-std=CL1.2 -O2", "-O3 -g"}) {
    const Outcome o = check({"--kernel", "histogram", "--global", "64", "--local", "8", "--arg",
                             "buffer:uint[64]=range(0)", "--arg", "buffer:uint[4]=zero", "--dump",
                             "--build-options", level});
    EXPECT_EQ(o.status, 0) << level << "\n" << o.err;
    EXPECT_EQ(o.err.find("insufficient-scope"), std::string::npos) << level << "\n" << o.err;
    EXPECT_NE(o.out.find("arg1 uint[4] = 16 16 16 16"), std::string::npos) << o.out;
  }
}

TEST(Check, RaceFreeKernelPassesEveryRun) {
  const Outcome o = check(treeSum(1));
  EXPECT_EQ(o.status, 0) << o.err;
  // 1 + ... + 16 = 136 and 17 + ... + 32 = 392.
  EXPECT_NE(o.out.find("arg1 int[2] = 136 392"), std::string::npos) << o.out;
  EXPECT_NE(o.err.find("check: 12 runs"), std::string::npos) << o.err;
  EXPECT_NE(o.err.find("no problems found"), std::string::npos) << o.err;
  EXPECT_EQ(o.err.find("error:"), std::string::npos) << o.err;
}

TEST(Check, RacyKernelIsReportedWithScheduleDependentResults) {
  const Outcome o = check(treeSum(0));
  EXPECT_EQ(o.status, 2);
  EXPECT_NE(o.err.find("error: data-race: "), std::string::npos) << o.err;
  EXPECT_NE(o.err.find(" of 12 runs, first: sub-group size 8, round-robin)"), std::string::npos)
      << o.err;
  // With sub-groups of 8, two sub-groups interleave differently under random schedules.
  EXPECT_NE(o.err.find("error: scheduling-dependent: results differ between sub-group size 8, "
                       "round-robin and sub-group size 8, schedule random:"),
            std::string::npos)
      << o.err;
  EXPECT_NE(o.err.find("problems found"), std::string::npos) << o.err;
}

TEST(Check, SubGroupSizeDependenceIsOnlyAWarning) {
  // 32 work-items in one work-group: get_sub_group_size() is 8, 16 or 32.
  const Outcome o = check(
      {"--kernel", "sizes", "--global", "32", "--local", "32", "--arg", "buffer:uint[32]=zero"});
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("warning: sub-group-size-dependent: results differ between sub-group "
                       "size 8, round-robin and sub-group size 16, round-robin: argument 0"),
            std::string::npos)
      << o.err;
  EXPECT_EQ(o.err.find("scheduling-dependent:"), std::string::npos) << o.err;
}

TEST(Check, GivenSizeAndSeedNarrowTheRuns) {
  std::vector<std::string> args = treeSum(1);
  for (const char* a : {"--sub-group-size", "16", "--schedule", "random:7"}) args.push_back(a);
  const Outcome o = check(args);
  EXPECT_EQ(o.status, 0) << o.err;
  EXPECT_NE(o.err.find("check: 2 runs"), std::string::npos) << o.err;
}

}  // namespace
}  // namespace spvsim::tools
