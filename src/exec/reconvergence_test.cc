// Random reconvergence (src/exec/reconvergence.cc) against ipdom, by the properties that
// hold whatever the random choices: a lane's ballot inside non-uniform control flow is a
// subset of its ipdom ballot and holds the lane itself; lanes that see each other in one
// dynamic instance see the same set (they are one group); what runs after the construct,
// in uniform control flow, sees the whole sub-group; the same seed gives the same run at
// any thread count; and some seed does split (the mode is not ipdom in disguise). Then the
// order of the groups: which side runs first and their interleaving vary with the seed.
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "src/compiler/compile_driver.h"
#include "src/exec/program.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;

const char* const kOptLevels[] = {"-O0", "-O1", "-O2", "-O3", "-O2 -g"};
constexpr int kSlots = 5;  // ballots recorded per lane

// Slots 0, 1: nested ifs; 2: the last iteration of a loop with continue and break;
// 3: a switch (its non-uniform reduction counts the group); 4: after everything.
const char* kSource = R"(
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
#pragma OPENCL EXTENSION cl_khr_subgroup_non_uniform_arithmetic : enable
kernel void k(global const uint* in, global uint* out) {
  uint g = get_global_id(0), v = in[g];
  uint r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (v & 1) {
    r0 = sub_group_ballot(1).x;
    if (v & 2) r1 = sub_group_ballot(1).x;
  }
  for (uint i = 0; i < (v >> 2) % 5; ++i) {
    if ((v >> (i + 4)) & 1) continue;
    r2 = sub_group_ballot(1).x;
    if (i == 2 && (v & 64)) break;
  }
  switch (v % 3) {
    case 0: r3 = sub_group_ballot(1).x; break;
    case 1: r3 = 0x80000000u | sub_group_non_uniform_reduce_add(1u); break;
    default: break;
  }
  out[g * 5 + 0] = r0;
  out[g * 5 + 1] = r1;
  out[g * 5 + 2] = r2;
  out[g * 5 + 3] = r3;
  out[g * 5 + 4] = sub_group_ballot(1).x;
}
)";

std::shared_ptr<Program> load(const char* options) {
  return Program::load(
      compiler::compileOpenCL({.source = kSource, .options = options, .useCache = false}).words);
}

std::vector<uint32_t> run(Program& p, uint32_t sg, const std::vector<uint32_t>& in,
                          std::optional<uint64_t> seed, unsigned threads = 2) {
  std::vector<uint32_t> input = in, out(in.size() * kSlots, 0xdeadbeef);
  LaunchOptions o;
  o.subGroupSize = sg;
  o.threads = threads;
  if (seed) {
    o.reconvergence = LaunchOptions::Reconvergence::Random;
    o.reconvergenceSeed = *seed;
  }
  const LaunchResult r = p.launch("k", range1(in.size(), 32), {bufferOf(input), bufferOf(out)}, o);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  return out;
}

uint32_t popcount(uint32_t x) { return uint32_t(__builtin_popcount(x)); }

TEST(Reconvergence, RandomGroupsAreSubsetsOfIpdomAndAgree) {
  constexpr int kItems = 64;
  std::vector<uint32_t> in(kItems);
  for (int i = 0; i < kItems; ++i) in[i] = uint32_t(i) * 2654435761u >> 9;
  for (const char* opt : kOptLevels) {
    auto prog = load(opt);
    for (uint32_t sg : {16u, 8u}) {
      SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg));
      const std::vector<uint32_t> ipdom = run(*prog, sg, in, std::nullopt);
      const uint32_t whole = sg == 32 ? ~0u : (1u << sg) - 1;
      int differing = 0;
      for (uint64_t seed = 1; seed <= 6; ++seed) {
        const std::vector<uint32_t> random = run(*prog, sg, in, seed);
        EXPECT_EQ(random, run(*prog, sg, in, seed, 1)) << "seed " << seed << ": one thread";
        for (int g = 0; g < kItems; ++g) {
          const uint32_t lane = uint32_t(g) % sg, self = 1u << lane;
          const int first = g - int(lane);
          for (int k = 0; k < kSlots; ++k) {
            const uint32_t r = random[g * kSlots + k], i = ipdom[g * kSlots + k];
            SCOPED_TRACE("seed " + std::to_string(seed) + " item " + std::to_string(g) + " slot " +
                         std::to_string(k));
            if (k == 4) {  // uniform control flow again: the whole sub-group
              EXPECT_EQ(r, whole);
              EXPECT_EQ(i, whole);
              continue;
            }
            if (k == 3 && (i & 0x80000000u)) {  // a reduction: the size of the group
              EXPECT_LE(r & 0x7fffffffu, i & 0x7fffffffu);
              EXPECT_GE(r & 0x7fffffffu, 1u);
              differing += r != i;
              continue;
            }
            EXPECT_EQ(r & ~i, 0u) << "not a subset of ipdom's " << i;
            EXPECT_EQ(r == 0, i == 0);  // the same lanes execute the ballot
            if (i) EXPECT_TRUE(r & self) << "without the lane itself: " << r;
            differing += r != i;
            if (k == 2 || !r) continue;  // a loop's last iterations differ between lanes
            for (uint32_t other = 0; other < sg; ++other)  // one group: one set
              if ((r >> other) & 1)
                EXPECT_EQ(random[(first + int(other)) * kSlots + k], r) << "lane " << other;
          }
        }
      }
      EXPECT_GT(differing, 0) << "no seed split any side";
      EXPECT_LT(popcount(whole), 33u);
    }
  }
}

// Without divergence nothing is split: a kernel of uniform control flow gives the same
// results under every seed.
TEST(Reconvergence, UniformControlFlowIsNeverSplit) {
  const char* src = R"(
#pragma OPENCL EXTENSION cl_khr_subgroup_ballot : enable
kernel void k(global const uint* in, global uint* out) {
  uint g = get_global_id(0), n = in[0];
  uint acc = 0;
  for (uint i = 0; i < n; ++i)
    if (n & (1u << i)) acc += sub_group_ballot(1).x;
  out[g] = acc;
}
)";
  auto prog = Program::load(
      compiler::compileOpenCL({.source = src, .options = "-O0", .useCache = false}).words);
  std::vector<uint32_t> in(32, 0);
  in[0] = 0b1011;  // every lane reads in[0]: uniform trip count and branches
  for (uint64_t seed = 0; seed < 4; ++seed) {
    std::vector<uint32_t> input = in, out(32, 0);
    LaunchOptions o;
    o.reconvergence = LaunchOptions::Reconvergence::Random;
    o.reconvergenceSeed = seed;
    const LaunchResult r = prog->launch("k", range1(32, 32), {bufferOf(input), bufferOf(out)}, o);
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    for (uint32_t x : out) EXPECT_EQ(x, 3u * 0xffffu) << "seed " << seed;
  }
}

// Two lanes, one per side of an `if`, in one sub-group of two: what the second lane sees
// of the first one's stores depends on the order the sides run in, and on whether they
// interleave. Returns out[0], or -1 with diagnostics.
std::shared_ptr<Program> compile(const char* src, const char* opt) {
  return Program::load(
      compiler::compileOpenCL({.source = src, .options = opt, .useCache = false}).words);
}

int64_t sideOutcome(Program& prog, std::optional<uint64_t> seed,
                    std::string* diagnostics = nullptr) {
  std::vector<int32_t> x(1, 0), out(1, -1);
  LaunchOptions o;
  o.subGroupSize = 2;
  if (seed) {
    o.reconvergence = LaunchOptions::Reconvergence::Random;
    o.reconvergenceSeed = *seed;
  }
  const LaunchResult r = prog.launch("k", range1(2, 2), {bufferOf(x), bufferOf(out)}, o);
  if (diagnostics) *diagnostics = describe(r);
  return r.diagnostics.empty() ? out[0] : -1;
}

// Lane 0 stores in the `if` side, lane 1 loads in the `else` side.
const char* kSides = R"(
kernel void k(global int* x, global int* out) {
  if (get_local_id(0) == 0) x[0] = 1;
  else out[0] = x[0];
}
)";

// ipdom runs the branch's true side first (SPIR-V OpBranchConditional's first label: the
// `if` side at -O0), so lane 1 reads lane 0's 1, every time. Random reconvergence chooses
// the order per seed: both outcomes appear within seeds 1..16 (at -O0 and -O2).
TEST(Reconvergence, RandomVariesWhichSideRunsFirst) {
  EXPECT_EQ(sideOutcome(*compile(kSides, "-O0"), std::nullopt), 1);
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = compile(kSides, opt);
    const int64_t ipdom = sideOutcome(*prog, std::nullopt);
    EXPECT_TRUE(ipdom == 0 || ipdom == 1) << opt << ": " << ipdom;
    EXPECT_EQ(sideOutcome(*prog, std::nullopt), ipdom) << opt << ": ipdom is one order";
    std::set<int64_t> seen;
    for (uint64_t seed = 1; seed <= 16; ++seed) {
      const int64_t v = sideOutcome(*prog, seed);
      EXPECT_EQ(sideOutcome(*prog, seed), v) << opt << " seed " << seed << ": not repeatable";
      seen.insert(v);
    }
    EXPECT_EQ(seen, (std::set<int64_t>{0, 1})) << opt;
  }
}

// Lane 0 stores 1 then 2 (volatile: both stores stay); lane 1 loads once. 1 is seen only
// when the sides interleave (lane 1's load between lane 0's stores): ipdom gives 2 (the
// `if` side whole, first), random reconvergence gives 0, 1 and 2 within seeds 1..64.
const char* kInterleaved = R"(
kernel void k(volatile global int* x, global int* out) {
  if (get_local_id(0) == 0) {
    x[0] = 1;
    x[0] = 2;
  } else {
    out[0] = x[0];
  }
}
)";

TEST(Reconvergence, RandomInterleavesTheSides) {
  EXPECT_EQ(sideOutcome(*compile(kInterleaved, "-O0"), std::nullopt), 2);
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = compile(kInterleaved, opt);
    std::set<int64_t> seen;
    for (uint64_t seed = 1; seed <= 64; ++seed) seen.insert(sideOutcome(*prog, seed));
    EXPECT_EQ(seen, (std::set<int64_t>{0, 1, 2})) << opt;
  }
}

// Lane 0 spins until lane 1, on the other side, sets the flag. ipdom runs the spinning
// side first and to its end, which never comes: a deadlock (the work-group writes
// nothing more). Random reconvergence switches between the sides, so lane 1 sets the
// flag and lane 0 leaves the loop under every seed (1..8); a switch pending also keeps
// the deadlock rule from taking the spin for a cycle.
TEST(Reconvergence, InterleavingLetsTheOtherSideRun) {
  const char* src = R"(
kernel void k(volatile global int* flag, global int* out) {
  if (get_local_id(0) == 0) {
    while (flag[0] == 0) {}
    out[0] = 7;
  } else {
    flag[0] = 1;
  }
}
)";
  std::string diagnostics;
  EXPECT_EQ(sideOutcome(*compile(src, "-O0"), std::nullopt, &diagnostics), -1);
  EXPECT_NE(diagnostics.find("deadlock: "), std::string::npos) << diagnostics;
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = compile(src, opt);
    for (uint64_t seed = 1; seed <= 8; ++seed)
      EXPECT_EQ(sideOutcome(*prog, seed, &diagnostics), 7)
          << opt << " seed " << seed << ": " << diagnostics;
  }
}

}  // namespace
}  // namespace spvsim
