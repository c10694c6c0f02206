// Lane instructions are counted lazily (SubGroup::laneStepsNow: steps times the active
// count between mask changes). The profiler's trampoline counts each executed
// instruction's active lanes one by one, so its totals are an independent count: for a
// divergent kernel (per-lane loop trips, nested branches, an early return, a sub-group
// reduction and a barrier after divergence, partial sub-groups) they must equal the
// launch's, profiled and unprofiled, fused or not, on any number of threads.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"
#include "src/profile/profiler.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;
using testing::valueOf;

const char* kDivergent = R"(
kernel void k(global const int* in, global int* out, local int* tile, int n) {
  size_t i = get_global_id(0), l = get_local_id(0);
  int v = in[i], acc = 0;
  for (int j = 0; j < (v & 7); ++j) {  // a trip count per lane
    if ((v >> j) & 1) acc += j * v;
    else acc ^= j;
    if (acc > 1000) break;
  }
  tile[l] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  int sum = sub_group_reduce_add(acc);  // every lane of the sub-group, after reconverging
  if (i % 3 == 0) {
    acc += sum;
    if (v < 0) {
      out[i] = acc;
      return;
    }
  }
  out[i] = acc + tile[(l + 1) % get_local_size(0)] + n;
}
)";

TEST(LaneCounts, EqualTheProfilersCountOfEveryInstructionsActiveLanes) {
  constexpr size_t kItems = 300, kLocal = 60;  // sub-groups of 16 and 5 leave partial ones
  std::vector<int32_t> in(kItems);
  uint32_t x = 7;
  for (auto& v : in) v = int32_t(x = x * 1103515245u + 12345u) >> 3;
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog =
        Program::load(testing::compileOpenCL(kDivergent, std::string(opt) + " -cl-std=CL2.0"));
    for (uint32_t sg : {16u, 5u, 7u}) {
      SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg));
      auto launch = [&](unsigned threads, std::shared_ptr<profile::ProfilerFactory> profiler) {
        std::vector<int32_t> out(kItems, 0);
        LaunchOptions o;
        o.threads = threads;
        o.subGroupSize = sg;
        if (profiler) o.observers = {profiler};
        LaunchResult r = prog->launch(
            "k", range1(kItems, kLocal),
            {bufferOf(in), bufferOf(out), ArgBinding::local(kLocal * 4), valueOf<int32_t>(3)}, o);
        EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
        return r;
      };
      auto profiler = std::make_shared<profile::ProfilerFactory>();
      const LaunchResult profiled = launch(1, profiler);
      ASSERT_EQ(profiler->launches().size(), 1u);
      const profile::LaunchProfile& p = *profiler->launches()[0];
      EXPECT_EQ(profiled.subGroupSteps, profile::totalExecutions(p));
      EXPECT_EQ(profiled.laneInstructions, profile::totalLaneExecutions(p));
      EXPECT_GT(profiled.laneInstructions, profiled.subGroupSteps);  // lanes, not steps
      for (unsigned threads : {1u, 3u}) {
        const LaunchResult plain = launch(threads, nullptr);
        EXPECT_EQ(plain.subGroupSteps, profiled.subGroupSteps) << threads;
        EXPECT_EQ(plain.laneInstructions, profiled.laneInstructions) << threads;
      }
    }
  }
}

}  // namespace
}  // namespace spvsim
