// LaunchResult::timeline: one entry per host thread that ran, each unit counted once,
// its times in order and within the launch.
#include <gtest/gtest.h>

#include <vector>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;
using testing::range1;

const char* kSquare = R"(
kernel void square(global int* out) {
  int i = get_global_id(0);
  out[i] = i * i;
}
)";

// Plain work-groups, and sub-group units (src/DESIGN.md, "Work-groups split into
// sub-groups"): 512 groups of 64 are not split, 4 groups of 64 at width 8 are (32 units).
TEST(LaunchTimeline, EachThreadsUnitsAndTimesInOrder) {
  auto program = loadOpenCl(kSquare, "square");
  struct Case {
    uint64_t global, units;
  };
  for (const Case c : {Case{512 * 64, 512}, Case{4 * 64, 32}})
    for (unsigned threads : {1u, 2u, 3u}) {
      SCOPED_TRACE(::testing::Message() << c.global << " items, " << threads << " threads");
      std::vector<int32_t> out(c.global, -1);
      LaunchOptions o;
      o.subGroupSize = 8;
      o.threads = threads;
      LaunchResult r = program->launch("square", range1(c.global, 64), {bind(out)}, o);
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(out[c.global - 1], int32_t((c.global - 1) * (c.global - 1)));
      const LaunchTimeline& t = r.timeline;
      ASSERT_EQ(t.threads.size(), threads);
      uint64_t units = 0;
      for (const LaunchTimeline::Thread& th : t.threads) {
        units += th.units;
        EXPECT_GE(th.entered, 0.0);
        EXPECT_LE(th.entered, th.started);
        EXPECT_LE(th.started, th.finished);
        EXPECT_LE(th.finished, t.joined);
      }
      EXPECT_EQ(units, c.units);
      EXPECT_LE(t.joined, t.end);
      EXPECT_GT(t.end, 0.0);
    }
}

}  // namespace
}  // namespace spvsim
