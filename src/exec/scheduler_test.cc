// Scheduling policies, spin-waits between sub-groups and the deadlock rule
// (src/exec/workgroup.cc). Kernels are OpenCL C compiled at test time; expected values come
// from host computation.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <set>

#include "src/exec/launch.h"
#include "src/exec/ops/opencl_test_util.h"
#include "src/exec/workgroup.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::loadOpenCl;
using testing::range1;
using testing::valueOf;

LaunchOptions roundRobin(uint32_t sgSize, unsigned threads = 0) {
  LaunchOptions o;
  o.subGroupSize = sgSize;
  o.threads = threads;
  return o;
}

LaunchOptions randomSchedule(uint32_t sgSize, uint64_t seed, unsigned threads = 0) {
  LaunchOptions o = roundRobin(sgSize, threads);
  o.schedule = LaunchOptions::Schedule::Random;
  o.scheduleSeed = seed;
  return o;
}

size_t count(const LaunchResult& r, const std::string& kind) {
  size_t n = 0;
  for (const auto& d : r.diagnostics) n += kindName(d.kind) == kind;
  return n;
}

// The scramble both the kernels and the host models compute: no closed form, so the
// compiler keeps the loop.
uint32_t scramble(uint32_t x, int n) {
  for (int i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}

const char* kScrambleCl = R"(
uint scramble(uint x, int n) {
  for (int i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
  }
  return x;
}
)";

// Two sub-groups per work-group (sub-group id = local id / sgSize, as spvsim assigns
// them): the setter computes without writing, publishes a value, then raises the
// work-group's flag; the waiter spins on the flag, then reads the value.
const std::string kHandoff = std::string(kScrambleCl) + R"(
__kernel void handoff(__global uint* out, volatile __global int* flag,
                      volatile __global uint* data, uint sgSize, uint setter, int work) {
  uint lid = get_local_id(0), grp = get_group_id(0);
  uint base = grp * get_local_size(0), sg = lid / sgSize, lane = lid - sg * sgSize;
  if (sg == setter) {
    uint v = scramble(lid + 1, work);
    data[base + lane] = v;
    flag[grp] = 1;
    out[base + lid] = v;
  } else {
    while (flag[grp] == 0) {
    }
    out[base + lid] = data[base + lane] + 1;
  }
}
)";

// What one work-group of a handoff launch did, run by WorkGroupRun.
struct GroupTrace {
  std::vector<uint32_t> out;
  std::vector<uint64_t> steps;  // per sub-group
  uint64_t instructions = 0;
  size_t diagnostics = 0;
};

// Runs work-group 0 of `handoff` whole (run()) or one instruction at a time in the
// scheduler's turns (turn() + step(), as the debugger's `continue` does).
GroupTrace runHandoff(Program& program, const LaunchOptions& o, uint32_t sgSize, bool stepped) {
  const uint32_t local = 2 * sgSize;
  std::vector<uint32_t> out(local, 0), data(local, 0);
  std::vector<int32_t> flag(1, 0);
  LaunchState state(program, program.kernel("handoff"), range1(local, local),
                    {bind(out), bind(flag), bind(data), valueOf<int32_t>(sgSize),
                     valueOf<int32_t>(0), valueOf<int32_t>(20000)},
                    o);
  WorkGroupSlot slot(state);
  std::vector<Diagnostic> diagnostics;
  std::string printf;
  slot.start(0, &diagnostics, &printf);
  WorkGroupRun run(slot.workGroup(), slot.subGroups(), slot.count());
  if (stepped) {
    while (const std::optional<size_t> i = run.turn()) run.step(*i);
  } else {
    run.run();
  }
  slot.finish();
  GroupTrace t{out, {}, run.instructions(), diagnostics.size()};
  for (size_t i = 0; i < slot.count(); ++i) t.steps.push_back(slot.subGroups()[i].steps);
  return t;
}

// Resuming the scheduler at every instruction changes nothing: the same picks, quanta
// and spin-watch verdicts, so the waiter (which spins while the setter computes
// 20000 iterations without writing) executes exactly as many instructions.
TEST(Scheduler, SteppingEachInstructionEqualsRunningWhole) {
  auto program = loadOpenCl(kHandoff, "handoff");
  for (uint32_t sgSize : {4u, 16u}) {
    for (int policy = 0; policy < 3; ++policy) {
      SCOPED_TRACE(::testing::Message() << "sub-group size " << sgSize << ", policy " << policy);
      const LaunchOptions o = policy == 0 ? roundRobin(sgSize) : randomSchedule(sgSize, policy);
      const GroupTrace whole = runHandoff(*program, o, sgSize, false);
      const GroupTrace stepped = runHandoff(*program, o, sgSize, true);
      EXPECT_EQ(whole.diagnostics, 0u);
      EXPECT_EQ(stepped.diagnostics, 0u);
      EXPECT_EQ(stepped.out, whole.out);
      EXPECT_EQ(stepped.steps, whole.steps);
      EXPECT_EQ(stepped.instructions, whole.instructions);
      // The setter's lanes hold scramble(lane + 1), the waiter's one more.
      for (uint32_t l = 0; l < 2 * sgSize; ++l)
        EXPECT_EQ(whole.out[l], scramble(l % sgSize + 1, 20000) + (l >= sgSize)) << l;
    }
  }
}

TEST(Scheduler, SpinWaitBetweenSubGroupsTerminates) {
  auto program = loadOpenCl(kHandoff, "handoff");
  const int work = 20000;  // > the quiet stretch after which a sub-group is watched
  for (uint32_t sgSize : {4u, 8u, 16u, 32u}) {
    for (int setter : {0, 1}) {
      for (int policy = 0; policy < 4; ++policy) {
        SCOPED_TRACE(::testing::Message() << "sub-group size " << sgSize << ", setter " << setter
                                          << ", policy " << policy);
        const uint32_t local = 2 * sgSize, groups = 2;
        std::vector<uint32_t> out(local * groups, 0), data(local * groups, 0);
        std::vector<int32_t> flag(groups, 0);
        LaunchOptions o = policy == 0 ? roundRobin(sgSize) : randomSchedule(sgSize, 7 * policy);
        LaunchResult r =
            program->launch("handoff", range1(local * groups, local),
                            {bind(out), bind(flag), bind(data), valueOf<int32_t>(sgSize),
                             valueOf<int32_t>(setter), valueOf<int32_t>(work)},
                            o);
        ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
        for (uint32_t g = 0; g < groups; ++g) {
          EXPECT_EQ(flag[g], 1);
          for (uint32_t l = 0; l < local; ++l) {
            const uint32_t v = scramble(setter * sgSize + l % sgSize + 1, work);
            const bool isSetter = l / sgSize == uint32_t(setter);
            EXPECT_EQ(out[g * local + l], isSetter ? v : v + 1) << "group " << g << " lane " << l;
          }
        }
      }
    }
  }
}

// Work-group 0 spins on a flag only work-group 1 sets, after a long computation.
const std::string kCrossGroup = std::string(kScrambleCl) + R"(
__kernel void cross(volatile __global int* flag, __global uint* out, int work) {
  if (get_group_id(0) == 1) {
    uint v = scramble(get_local_id(0) + 1, work);
    out[get_global_id(0)] = v;
    flag[0] = 1;
  } else {
    while (flag[0] == 0) {
    }
    out[get_global_id(0)] = 1;
  }
}
)";

// The kernel races on `flag` by design; on several host threads its plain accesses are
// host data races too (the simulator executes kernel memory accesses as plain loads and
// stores), which ThreadSanitizer rightly reports, so under TSan it runs on one thread.
#ifdef __SANITIZE_THREAD__
constexpr unsigned kCrossGroupThreads[] = {1u};
#else
constexpr unsigned kCrossGroupThreads[] = {1u, 2u, 4u};
#endif

TEST(Scheduler, SpinWaitOnAnotherWorkGroupIsDeadlockAtAnyThreadCount) {
  auto program = loadOpenCl(kCrossGroup, "cross");
  for (unsigned threads : kCrossGroupThreads) {
    for (uint32_t sgSize : {8u, 16u}) {
      SCOPED_TRACE(::testing::Message() << threads << " threads, sub-group size " << sgSize);
      std::vector<int32_t> flag(1, 0);
      std::vector<uint32_t> out(64, 0);
      LaunchResult r = program->launch("cross", range1(64, 32),
                                       {bind(flag), bind(out), valueOf<int32_t>(1000000)},
                                       roundRobin(sgSize, threads));
      ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
      const Diagnostic& d = r.diagnostics[0];
      EXPECT_EQ(d.kind, DiagnosticKind::Deadlock);
      EXPECT_EQ(d.severity, Severity::Error);
      EXPECT_EQ(d.workGroup, (std::array<uint64_t, 3>{0, 0, 0}));
      EXPECT_EQ(d.subGroup, 0u);
      EXPECT_NE(d.message.find("sub-group 0 spins without writing memory at"), std::string::npos)
          << d.message;
      EXPECT_NE(d.message.find("sub-group 1 spins"), std::string::npos) << d.message;
      EXPECT_NE(d.message.find("another work-group"), std::string::npos) << d.message;
      EXPECT_TRUE(r.aborted);
    }
  }
}

TEST(Scheduler, SpinWithNoPossibleWriterIsReportedQuickly) {
  auto program = loadOpenCl(R"(
__kernel void never(volatile __global int* flag, __global int* out) {
  while (flag[0] == 0) {
  }
  out[get_global_id(0)] = flag[0];
}
)",
                            "never");
  for (auto o : {roundRobin(16, 1), randomSchedule(16, 3, 1)}) {
    std::vector<int32_t> flag(1, 0), out(256, 0);
    const auto start = std::chrono::steady_clock::now();
    LaunchResult r = program->launch("never", range1(256, 256), {bind(flag), bind(out)}, o);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(count(r, "deadlock"), 1u) << describe(r);
    EXPECT_EQ(r.diagnostics.size(), 1u) << describe(r);
    // All 16 sub-groups listed (8 by name, then "and 8 more").
    EXPECT_NE(r.diagnostics[0].message.find("and 8 more"), std::string::npos)
        << r.diagnostics[0].message;
    EXPECT_LT(r.subGroupSteps, 16u * 200000u);  // far below the 2^30 instruction budget
    EXPECT_LT(seconds, 1.0);
    EXPECT_EQ(out, std::vector<int32_t>(256, 0));
  }
}

// Sub-group 0 waits at a barrier; sub-group 1 spins on a flag set only after it.
TEST(Scheduler, BarrierWhileOthersSpinIsDeadlock) {
  auto program = loadOpenCl(R"(
__kernel void k(volatile __local int* flag, __global int* out, int sgSize) {
  int lid = get_local_id(0);
  if (lid == 0) *flag = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid / sgSize == 0) {
    barrier(CLK_LOCAL_MEM_FENCE);
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
  }
  out[lid] = 1;
}
)",
                            "k");
  std::vector<int32_t> out(16, 0);
  LaunchResult r =
      program->launch("k", range1(16, 16), {ArgBinding::local(4), bind(out), valueOf<int32_t>(8)},
                      roundRobin(8, 1));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::Deadlock);
  EXPECT_EQ(d.subGroup, 1u);
  EXPECT_NE(d.message.find("sub-group 0 waits at the work-group barrier"), std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("sub-group 1 spins"), std::string::npos) << d.message;
}

// A long loop with no memory write for millions of instructions is not a spin.
TEST(Scheduler, LongComputationWithoutWritesIsNotReported) {
  auto program = loadOpenCl(std::string(kScrambleCl) + R"(
__kernel void k(__global uint* out, int work) {
  out[get_global_id(0)] = scramble(get_global_id(0) + 1, work);
}
)",
                            "k");
  const int work = 1 << 20;  // several doublings of the watch gap
  for (auto o : {roundRobin(16, 1), randomSchedule(16, 5, 1)}) {
    std::vector<uint32_t> out(32, 0);
    LaunchResult r = program->launch("k", range1(32, 32), {bind(out), valueOf<int32_t>(work)}, o);
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(out[i], scramble(i + 1, work)) << i;
  }
}

// An infinite loop whose state changes every iteration is left to the budget.
TEST(Scheduler, SpinWithChangingStateHitsTheBudget) {
  auto program = loadOpenCl(R"(
__kernel void k(volatile __global int* flag, __global int* out) {
  int n = 0;
  while (flag[0] == 0) ++n;
  out[get_global_id(0)] = n;
}
)",
                            "k");
  std::vector<int32_t> flag(1, 0), out(8, 0);
  LaunchOptions o = roundRobin(8, 1);
  o.instructionBudget = 1 << 20;
  LaunchResult r = program->launch("k", range1(8, 8), {bind(flag), bind(out)}, o);
  EXPECT_EQ(count(r, "instruction-budget"), 1u) << describe(r);
  EXPECT_EQ(count(r, "deadlock"), 0u) << describe(r);
}

const char* kReduce = R"(
__kernel void reduce(__global const int* in, __global int* out, __local int* tmp) {
  int lid = get_local_id(0), n = get_local_size(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = n / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
)";

TEST(Scheduler, RaceFreeReductionGivesTheSameResultUnderEverySchedule) {
  auto program = loadOpenCl(kReduce, "reduce");
  const uint32_t local = 64, groups = 8;
  std::vector<int32_t> in(local * groups);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 7919 % 1000) - 500;
  std::vector<int32_t> expected(groups, 0);
  for (size_t i = 0; i < in.size(); ++i) expected[i / local] += in[i];
  for (uint64_t seed : {0, 1, 2, 3, 42, 12345}) {
    for (uint32_t sgSize : {4u, 8u, 16u}) {
      std::vector<int32_t> out(groups, 0);
      LaunchResult r = program->launch("reduce", range1(local * groups, local),
                                       {bind(in), bind(out), ArgBinding::local(local * 4)},
                                       randomSchedule(sgSize, seed));
      ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(out, expected) << "seed " << seed << ", sub-group size " << sgSize;
    }
  }
}

// A racy kernel: each sub-group records which sub-group wrote a local variable last
// before each of its own writes, so the output is a trace of the interleaving.
const char* kTrace = R"(
__kernel void trace(__global int* out, volatile __local int* last, uint sgSize, int n) {
  uint lid = get_local_id(0), sg = lid / sgSize;
  if (lid == 0) *last = -1;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = 0; i < n; ++i) {  // n, not a constant: llvm-spirv-15 misorders the blocks
    out[(get_group_id(0) * 4 + sg) * n + i] = *last;
    *last = sg;
  }
}
)";

std::vector<int32_t> runTrace(Program& p, const LaunchOptions& o) {
  std::vector<int32_t> out(2 * 4 * 32, 0);
  LaunchResult r =
      p.launch("trace", range1(64, 32),
               {bind(out), ArgBinding::local(4), valueOf<uint32_t>(8), valueOf<int32_t>(32)}, o);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  return out;
}

TEST(Scheduler, RandomScheduleIsReproducibleAndVariesWithTheSeed) {
  auto program = loadOpenCl(kTrace, "trace");
  std::set<std::vector<int32_t>> traces;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const auto a = runTrace(*program, randomSchedule(8, seed, 1));
    const auto b = runTrace(*program, randomSchedule(8, seed, 4));  // threads do not matter
    EXPECT_EQ(a, b) << "seed " << seed;
    traces.insert(a);
  }
  EXPECT_GE(traces.size(), 4u);
  // Round-robin with a long quantum: each sub-group runs its whole loop in turn, so each
  // sees its predecessor's last write (-1 for sub-group 0's first read).
  const auto rr = runTrace(*program, roundRobin(8));
  for (int g = 0; g < 2; ++g)
    for (int sg = 0; sg < 4; ++sg)
      for (int i = 0; i < 32; ++i)
        EXPECT_EQ(rr[(g * 4 + sg) * 32 + i], i ? sg : sg - 1) << g << " " << sg << " " << i;
}

TEST(Scheduler, SeedsDifferPerWorkGroup) {
  // Work-groups of one launch do not replay the same interleaving: the seed mixes in
  // the work-group's linear id.
  auto program = loadOpenCl(kTrace, "trace");
  int differ = 0;
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    const auto t = runTrace(*program, randomSchedule(8, seed, 1));
    differ += !std::equal(t.begin(), t.begin() + 128, t.begin() + 128);
  }
  EXPECT_GE(differ, 4);
}

}  // namespace
}  // namespace spvsim
