// spvsim run with work-groups larger than any device's: the command line is no device, so a
// work-group is bounded by memory (--max-memory), not by the ICD's 1024. A local-memory
// reduction over work-groups of 4096 work-items (1-D and 2-D, at -O0 and -O2) against a
// host model; a work-group too large for the memory limit is an out-of-memory error before
// anything is allocated; one past 2^32 - 1 work-items is refused by name.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "tools/cli/options.h"
#include "tools/cli/run_command.h"

namespace spvsim::tools {
namespace {

// Each work-group loads its tile into local memory, writes it back reversed (tagged with
// the sub-group id), and reduces it to one sum; sums also gets the sub-group count.
const char* kSource = R"(
kernel void big(global const int* in, global int* sums, global int* rev, local int* tmp) {
  size_t n = get_local_size(0) * get_local_size(1), l = get_local_linear_id();
  size_t g = get_group_id(0) + get_group_id(1) * get_num_groups(0);
  tmp[l] = in[g * n + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  rev[g * n + l] = tmp[n - 1 - l] * 1000 + (int)get_sub_group_id();
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = n / 2; s > 0; s /= 2) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) {
    sums[2 * g] = tmp[0];
    sums[2 * g + 1] = (int)get_num_sub_groups();
  }
}
)";

constexpr uint64_t kItems = 4096, kGroups = 2, kSubGroupSize = 16;

struct CliRun {
  int rc;
  std::string out, err;
};

CliRun run(const std::string& level, const std::vector<std::string>& range,
           const std::string& maxMemory = "") {
  const std::string path = ::testing::TempDir() + "/large_group.cl";
  std::ofstream(path) << kSource;
  const std::string total = std::to_string(kItems * kGroups);
  std::vector<std::string> args = {"run",
                                   path,
                                   "--kernel",
                                   "big",
                                   "--build-options",
                                   "-cl-std=CL3.0 " + level,
                                   "--sub-group-size",
                                   std::to_string(kSubGroupSize),
                                   "--arg",
                                   "buffer:int[" + total + "]=range(0)",
                                   "--arg",
                                   "buffer:int[4]=fill(-1)",
                                   "--arg",
                                   "buffer:int[" + total + "]=fill(-1)",
                                   "--arg",
                                   "local:" + std::to_string(kItems * 4),
                                   "--dump"};
  args.insert(args.end(), range.begin(), range.end());
  if (!maxMemory.empty()) args.insert(args.end(), {"--max-memory", maxMemory});
  CommandLine cl = parseCommandLine(args);
  std::ostringstream out, err;
  const int rc = runCommand(cl.options, out, err);
  return {rc, out.str(), err.str()};
}

// The host model: in[i] = i; group g's tile is in[g * 4096 ..]; work-item l (linear) is in
// sub-group l / 16.
std::string expectedDump() {
  std::string sums = "arg1 int[4] =", rev = "arg2 int[" + std::to_string(kItems * kGroups) + "] =";
  for (uint64_t g = 0; g < kGroups; ++g) {
    int64_t sum = 0;
    for (uint64_t l = 0; l < kItems; ++l) {
      sum += int64_t(g * kItems + l);
      const int64_t reversed = int64_t(g * kItems + kItems - 1 - l);
      rev += " " + std::to_string(reversed * 1000 + int64_t(l / kSubGroupSize));
    }
    sums += " " + std::to_string(sum) + " " + std::to_string(kItems / kSubGroupSize);
  }
  std::string in = "arg0 int[" + std::to_string(kItems * kGroups) + "] =";
  for (uint64_t i = 0; i < kItems * kGroups; ++i) in += " " + std::to_string(i);
  return in + "\n" + sums + "\n" + rev + "\n";
}

TEST(LargeWorkGroups, ReductionOf4096WorkItems) {
  const std::string want = expectedDump();
  for (const char* level : {"-O0", "-O2"}) {
    SCOPED_TRACE(level);
    CliRun oneD = run(level, {"--global", "8192", "--local", "4096"});
    EXPECT_EQ(oneD.rc, 0) << oneD.err;
    EXPECT_EQ(oneD.out, want);
    // 64 x 64 work-items: linear ids x + 64 y, groups side by side in x.
    CliRun twoD = run(level, {"--global", "128,64", "--local", "64,64"});
    EXPECT_EQ(twoD.rc, 0) << twoD.err;
    EXPECT_EQ(twoD.out, want);
  }
}

// Registers, private and local memory of one work-group are counted before anything is
// allocated: a work-group of 2^24 work-items needs gigabytes.
TEST(LargeWorkGroups, TooLargeForTheMemoryLimitIsOutOfMemory) {
  try {
    run("-O2", {"--global", "16777216", "--local", "16777216"}, "256M");
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::OutOfMemory);
    EXPECT_NE(std::string(e.what()).find("a work-group of 16777216 work-items"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("raise the limit with --max-memory"), std::string::npos)
        << e.what();
  }
}

TEST(LargeWorkGroups, MoreThanLocalIdsCountIsRefused) {
  try {
    run("-O2", {"--global", "65536,65536", "--local", "65536,65536"});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidArgument);
    EXPECT_EQ(std::string(e.what()),
              "work-group size 4294967296 (65536 x 65536 x 1) exceeds the 2^32 - 1 work-items "
              "spvsim runs in one work-group (its local ids are 32-bit)");
  }
}

}  // namespace
}  // namespace spvsim::tools
