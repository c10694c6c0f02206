// The reconvergence recorder (src/check/tangle_recorder.h): what it records of a
// non-uniform reduction inside a divergent if, against a host model of ipdom; that two ipdom
// runs agree; that a random reconvergence which changes the kernel's output is located at
// the reduction; its limit; and that work-group collectives are left out.
#include "src/check/tangle_recorder.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/lowered.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim::check {
namespace {

using spvsim::testing::bufferOf;
using spvsim::testing::describe;
using spvsim::testing::range1;

// Lanes with an odd input count, in a non-uniform reduction, the lanes of their group.
const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
kernel void k(global const uint* in, global uint* out) {
  uint g = get_global_id(0);
  uint r = 0;
  if (in[g] & 1) r = sub_group_non_uniform_reduce_add(1u);
  out[g] = r + work_group_reduce_add(1u) * 1000;
}
)";

constexpr uint32_t kItems = 32, kLocal = 32, kWidth = 16;

std::vector<uint32_t> input() {
  std::vector<uint32_t> in(kItems);
  for (uint32_t i = 0; i < kItems; ++i) in[i] = (i * 7 + i / 3) % 5;  // odd: 1 or 3
  return in;
}

struct Recorded {
  std::vector<uint32_t> out;
  std::shared_ptr<TangleLog> log;
};

Recorded run(Program& p, std::optional<uint64_t> reconvergenceSeed, size_t limit = 1 << 20) {
  std::vector<uint32_t> in = input();
  Recorded r{std::vector<uint32_t>(kItems, 0xdeadbeef), std::make_shared<TangleLog>(limit)};
  LaunchOptions o;
  o.subGroupSize = kWidth;
  o.threads = 2;  // the recorder makes the launch serial whatever this says
  if (reconvergenceSeed) {
    o.reconvergence = LaunchOptions::Reconvergence::Random;
    o.reconvergenceSeed = *reconvergenceSeed;
  }
  o.observers = {tangleRecorder(r.log)};
  const LaunchResult result =
      p.launch("k", range1(kItems, kLocal), {bufferOf(in), bufferOf(r.out)}, o);
  EXPECT_TRUE(result.diagnostics.empty()) << describe(result);
  return r;
}

uint32_t valueOf(const TangleLog& log, const TangleResult& r) {
  EXPECT_EQ(r.size, 4u);
  uint32_t v = 0;
  std::memcpy(&v, log.bytesOf(r), sizeof v);
  return v;
}

// ipdom, by hand: every lane of a sub-group that takes the `if` runs the reduction once,
// with all of them, so it returns their count. The work-group reduction (a work-group
// collective: not a tangle's) is not recorded.
TEST(TangleRecorder, RecordsEachLanesResultAtIpdom) {
  auto p = Program::load(spvsim::testing::compileOpenCL(kSource, "-O2"));
  const Recorded r = run(*p, std::nullopt);
  const std::vector<uint32_t> in = input();
  std::vector<uint32_t> taking(kItems / kWidth, 0);
  for (uint32_t i = 0; i < kItems; ++i) taking[i / kWidth] += in[i] & 1;
  size_t expected = 0;
  for (uint32_t i = 0; i < kItems; ++i) {
    EXPECT_EQ(r.out[i], (in[i] & 1 ? taking[i / kWidth] : 0) + kLocal * 1000) << "item " << i;
    expected += in[i] & 1;
  }
  ASSERT_EQ(r.log->results().size(), expected);
  EXPECT_FALSE(r.log->truncated());
  for (const TangleResult& t : r.log->results()) {
    const uint32_t item = t.subGroup * kWidth + t.lane;
    SCOPED_TRACE("item " + std::to_string(item));
    EXPECT_EQ(t.workGroup, 0u);
    EXPECT_EQ(t.occurrence, 0u);
    EXPECT_TRUE(in[item] & 1);
    EXPECT_EQ(valueOf(*r.log, t), taking[t.subGroup]);
    const std::string& text = p->lowered(p->kernel("k"), kWidth).instructionText(t.src);
    EXPECT_NE(text.find("OpGroupNonUniformIAdd"), std::string::npos) << text;
  }
  EXPECT_FALSE(firstDifference(*r.log, *run(*p, std::nullopt).log));
}

// A seed whose groups split the lanes that took the `if` changes some lane's count: the
// first difference is that lane's reduction, ipdom's count against its group's smaller one.
TEST(TangleRecorder, LocatesTheReductionARandomReconvergenceChanged) {
  auto p = Program::load(spvsim::testing::compileOpenCL(kSource, "-O0"));
  const Recorded ipdom = run(*p, std::nullopt);
  int located = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const Recorded random = run(*p, seed);
    const auto d = firstDifference(*ipdom.log, *random.log);
    ASSERT_EQ(d.has_value(), random.out != ipdom.out) << "seed " << seed;
    if (!d) continue;
    ++located;
    ASSERT_TRUE(d->a && d->b);
    EXPECT_EQ(d->a->src, d->b->src);
    EXPECT_EQ(d->a->lane, d->b->lane);
    const uint32_t item = d->a->subGroup * kWidth + d->a->lane;
    EXPECT_EQ(valueOf(*ipdom.log, *d->a), ipdom.out[item] - kLocal * 1000);
    EXPECT_EQ(valueOf(*random.log, *d->b), random.out[item] - kLocal * 1000);
    EXPECT_LT(valueOf(*random.log, *d->b), valueOf(*ipdom.log, *d->a));
  }
  EXPECT_GT(located, 0) << "no seed of 1..8 split a group";
}

TEST(TangleRecorder, KeepsNoMoreThanItsLimit) {
  auto p = Program::load(spvsim::testing::compileOpenCL(kSource, "-O2"));
  const Recorded r = run(*p, std::nullopt, 3);
  EXPECT_EQ(r.log->results().size(), 3u);
  EXPECT_TRUE(r.log->truncated());
  // What one log did not keep, the comparison does not count as missing.
  EXPECT_FALSE(firstDifference(*r.log, *run(*p, std::nullopt).log));
}

}  // namespace
}  // namespace spvsim::check
