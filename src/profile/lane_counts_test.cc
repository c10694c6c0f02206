// Lane instructions are counted lazily (SubGroup::laneStepsNow: steps times the active
// count between mask changes). The profiler's trampoline counts each executed
// instruction's active lanes one by one, so its totals are an independent count: for a
// divergent kernel (per-lane loop trips, nested branches, an early return, a sub-group
// reduction and a barrier after divergence, partial sub-groups) they must equal the
// launch's, profiled and unprofiled, fused or not (a profiled kernel runs no fused pair:
// LoweredKernel::unfuseWhere), on any number of threads.
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
  int v = in[(int)i], acc = 0;  // -O2: shl 32; ashr 32, a pair the executor fuses
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

// Each host thread's slot counts apart and adds its counters in at its end: the profile of
// a launch on three threads equals the one-thread profile, and so does the Reference
// tier's, where every access comes lane by lane (the Fast tier reports a whole sub-group's
// contiguous access as one accessRun). The rows' work-groups partition the launch, and
// their steps add up to the launch's.
TEST(LaneCounts, ProfilesAgreeOnAnyThreadCountAndTier) {
  constexpr size_t kItems = 960, kLocal = 60;
  std::vector<int32_t> in(kItems);
  uint32_t x = 11;
  for (auto& v : in) v = int32_t(x = x * 1103515245u + 12345u) >> 3;
  auto prog = Program::load(testing::compileOpenCL(kDivergent, "-O2 -cl-std=CL2.0"));
  auto profile = [&](unsigned threads, LaunchOptions::Tier tier, LaunchResult& r) {
    std::vector<int32_t> out(kItems, 0);
    auto profiler = std::make_shared<profile::ProfilerFactory>(16);
    LaunchOptions o;
    o.threads = threads;
    o.tier = tier;
    o.observers = {profiler};
    r = prog->launch(
        "k", range1(kItems, kLocal),
        {bufferOf(in), bufferOf(out), ArgBinding::local(kLocal * 4), valueOf<int32_t>(3)}, o);
    EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
    return profiler->launches().at(0);
  };
  LaunchResult one, three, reference;
  const auto p1 = profile(1, LaunchOptions::Tier::Fast, one);
  const auto p3 = profile(3, LaunchOptions::Tier::Fast, three);
  const auto pr = profile(1, LaunchOptions::Tier::Reference, reference);
  EXPECT_EQ(p3->threads.size(), 3u);
  for (const auto* p : {p1.get(), p3.get(), pr.get()}) {
    EXPECT_EQ(profile::totalExecutions(*p), one.subGroupSteps);
    EXPECT_EQ(profile::totalLaneExecutions(*p), one.laneInstructions);
    uint64_t steps = 0, ranGroups = 0;
    std::vector<bool> ran(kItems / kLocal, false);
    for (const profile::HostThreadTimeline& t : p->threads) {
      steps += t.steps;
      for (const profile::WorkGroupSpan& g : t.groups) {
        ASSERT_LT(g.linearGroup, ran.size());
        EXPECT_FALSE(ran[g.linearGroup]) << g.linearGroup;
        ran[g.linearGroup] = true;
        ++ranGroups;
      }
    }
    EXPECT_EQ(steps, one.subGroupSteps);
    EXPECT_EQ(ranGroups, ran.size());
    EXPECT_EQ(p->timeline.size(), ran.size() * 4);  // sub-groups of 16, 16, 16 and 12
    uint64_t global = 0, local = 0;
    for (size_t pc = 0; pc < p->counts.size(); ++pc) {
      SCOPED_TRACE(pc);
      EXPECT_EQ(p->counts[pc].executions, p1->counts[pc].executions);
      EXPECT_EQ(p->counts[pc].laneExecutions, p1->counts[pc].laneExecutions);
      EXPECT_EQ(p->counts[pc].splits, p1->counts[pc].splits);
      EXPECT_EQ(p->coalescing[pc].executions, p1->coalescing[pc].executions);
      EXPECT_EQ(p->coalescing[pc].accesses, p1->coalescing[pc].accesses);
      EXPECT_EQ(p->coalescing[pc].requestedBytes, p1->coalescing[pc].requestedBytes);
      EXPECT_EQ(p->coalescing[pc].lines, p1->coalescing[pc].lines);
      EXPECT_EQ(p->bankConflicts[pc].executions, p1->bankConflicts[pc].executions);
      EXPECT_EQ(p->bankConflicts[pc].wavefronts, p1->bankConflicts[pc].wavefronts);
      EXPECT_EQ(p->bankConflicts[pc].maxDegree, p1->bankConflicts[pc].maxDegree);
      global += p->coalescing[pc].accesses;
      local += p->bankConflicts[pc].accesses;
    }
    // Every work-item reads in[i], stores out[i] once and writes tile[l]; those that
    // return early (i % 3 == 0, v < 0) do not read tile.
    size_t early = 0;
    for (size_t i = 0; i < kItems; i += 3) early += in[i] < 0;
    EXPECT_EQ(global, 2 * kItems);
    EXPECT_EQ(local, 2 * kItems - early);
    for (Space s : {Space::Global, Space::Local}) {
      EXPECT_EQ(p->spaces[uint32_t(s)].reads, p1->spaces[uint32_t(s)].reads);
      EXPECT_EQ(p->spaces[uint32_t(s)].writes, p1->spaces[uint32_t(s)].writes);
      EXPECT_EQ(p->spaces[uint32_t(s)].readBytes, p1->spaces[uint32_t(s)].readBytes);
    }
  }
}

}  // namespace
}  // namespace spvsim
