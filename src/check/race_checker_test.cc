// The race checker (src/check/race_checker.h): litmus tests whose verdicts come from the
// OpenCL 2.0+ memory model (a data race is two conflicting accesses, not both atomic with
// inclusive scopes, unordered by happens-before; synchronisation only counts when its
// scope includes both work-items), and Oclgrind's categories of race checks.
#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::kinds;
using testing::loadOpenCl;
using testing::range1;
using testing::valueOf;

const std::set<std::string> kNone{};
const std::set<std::string> kRace{"data-race"};
const std::set<std::string> kScope{"insufficient-scope"};

LaunchOptions checking(unsigned threads = 1, uint32_t sgSize = 16) {
  LaunchOptions o;
  o.subGroupSize = sgSize;
  o.threads = threads;
  o.observers = check::observersFor({.races = true});
  return o;
}

// Where the two work-items of a litmus test run (sub-group size 16).
struct Placement {
  const char* name;
  int first, second;  // global ids
  uint64_t local;     // work-group size (global size is 32)
};
constexpr Placement kSameSubGroup{"same sub-group", 0, 1, 16};
constexpr Placement kOtherSubGroup{"other sub-group", 0, 16, 32};
constexpr Placement kOtherWorkGroup{"other work-group", 0, 1, 1};

// Message passing. The producer writes data and raises a flag; the consumer reads the
// flag and then the data. Every test checks that the consumer saw the flag (out = 42),
// so the execution is the one in which the ordering question arises.
const char* kMessagePassing = R"(
#define MP_ATOMIC(NAME, ST, LD, SCOPE)                                              \
  kernel void NAME(global int* data, global atomic_int* flag, global int* out,      \
                   int producer, int consumer) {                                    \
    int id = get_global_id(0);                                                      \
    if (id == producer) {                                                           \
      data[0] = 42;                                                                 \
      atomic_store_explicit(flag, 1, ST, SCOPE);                                    \
    } else if (id == consumer) {                                                    \
      out[0] = atomic_load_explicit(flag, LD, SCOPE) ? data[0] : -1;                \
    }                                                                               \
  }
#define MP_FENCE(NAME, FLAGS, SCOPE)                                                \
  kernel void NAME(global int* data, global atomic_int* flag, global int* out,      \
                   int producer, int consumer) {                                    \
    int id = get_global_id(0);                                                      \
    if (id == producer) {                                                           \
      data[0] = 42;                                                                 \
      atomic_work_item_fence(FLAGS, memory_order_release, SCOPE);                   \
      atomic_store_explicit(flag, 1, memory_order_relaxed, SCOPE);                  \
    } else if (id == consumer) {                                                    \
      int seen = atomic_load_explicit(flag, memory_order_relaxed, SCOPE);           \
      atomic_work_item_fence(FLAGS, memory_order_acquire, SCOPE);                   \
      out[0] = seen ? data[0] : -1;                                                 \
    }                                                                               \
  }
MP_ATOMIC(mp_relaxed, memory_order_relaxed, memory_order_relaxed, memory_scope_device)
MP_ATOMIC(mp_ra_sub_group, memory_order_release, memory_order_acquire, memory_scope_sub_group)
MP_ATOMIC(mp_ra_work_group, memory_order_release, memory_order_acquire, memory_scope_work_group)
MP_ATOMIC(mp_ra_device, memory_order_release, memory_order_acquire, memory_scope_device)
MP_FENCE(mp_fence_sub_group, CLK_GLOBAL_MEM_FENCE, memory_scope_sub_group)
MP_FENCE(mp_fence_work_group, CLK_GLOBAL_MEM_FENCE, memory_scope_work_group)
MP_FENCE(mp_fence_device, CLK_GLOBAL_MEM_FENCE, memory_scope_device)
// A fence for local memory does not order the global data.
MP_FENCE(mp_fence_local_only, CLK_LOCAL_MEM_FENCE, memory_scope_device)

kernel void mp_plain(global int* data, global int* flag, global int* out, int producer,
                     int consumer) {
  int id = get_global_id(0);
  if (id == producer) {
    data[0] = 42;
    *(volatile global int*)flag = 1;
  } else if (id == consumer) {
    out[0] = *(volatile global int*)flag ? data[0] : -1;
  }
}
)";

struct LitmusCase {
  const char* kernel;
  std::set<std::string> sameSubGroup, otherSubGroup, otherWorkGroup;
};

class MessagePassing : public ::testing::TestWithParam<LitmusCase> {};

TEST_P(MessagePassing, VerdictFollowsTheMemoryModel) {
  static auto program = loadOpenCl(kMessagePassing, "message passing");
  const LitmusCase& c = GetParam();
  for (const auto& [placement, expected] :
       {std::pair{kSameSubGroup, c.sameSubGroup}, std::pair{kOtherSubGroup, c.otherSubGroup},
        std::pair{kOtherWorkGroup, c.otherWorkGroup}}) {
    std::vector<int> data{0}, flag{0}, out{0};
    const LaunchResult r =
        program->launch(c.kernel, range1(32, placement.local),
                        {bind(data), bind(flag), bind(out), valueOf<int>(placement.first),
                         valueOf<int>(placement.second)},
                        checking());
    EXPECT_EQ(out[0], 42) << c.kernel << ", " << placement.name;
    EXPECT_EQ(kinds(r), expected) << c.kernel << ", " << placement.name << "\n" << describe(r);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Litmus, MessagePassing,
    ::testing::Values(
        // Nothing orders a relaxed flag, so the data accesses race wherever they are.
        LitmusCase{"mp_relaxed", kRace, kRace, kRace}, LitmusCase{"mp_plain", kRace, kRace, kRace},
        // Release/acquire order the data exactly where the scope holds both work-items.
        LitmusCase{"mp_ra_sub_group", kNone, kScope, kScope},
        LitmusCase{"mp_ra_work_group", kNone, kNone, kScope},
        LitmusCase{"mp_ra_device", kNone, kNone, kNone},
        // Fences with relaxed atomics synchronise the same way.
        LitmusCase{"mp_fence_sub_group", kNone, kScope, kScope},
        LitmusCase{"mp_fence_work_group", kNone, kNone, kScope},
        LitmusCase{"mp_fence_device", kNone, kNone, kNone},
        LitmusCase{"mp_fence_local_only", kRace, kRace, kRace}),
    [](const auto& info) { return std::string(info.param.kernel); });

// Store buffering: each side stores to one location and loads the other. With
// sequentially consistent atomics the outcome (0, 0) is forbidden; plain accesses race.
const char* kStoreBuffering = R"(
#define SB(NAME, TYPE, STORE, LOAD)                                                 \
  kernel void NAME(global TYPE* x, global TYPE* y, global int* out, int a, int b) {  \
    int id = get_global_id(0);                                                       \
    if (id == a) {                                                                   \
      STORE(x, 1);                                                                   \
      out[0] = LOAD(y);                                                              \
    } else if (id == b) {                                                            \
      STORE(y, 1);                                                                   \
      out[1] = LOAD(x);                                                              \
    }                                                                                \
  }
#define PLAIN_STORE(p, v) (*(p) = (v))
#define PLAIN_LOAD(p) (*(p))
#define SC_STORE(p, v) atomic_store_explicit(p, v, memory_order_seq_cst, memory_scope_device)
#define SC_LOAD(p) atomic_load_explicit(p, memory_order_seq_cst, memory_scope_device)
#define SG_STORE(p, v) atomic_store_explicit(p, v, memory_order_seq_cst, memory_scope_sub_group)
#define SG_LOAD(p) atomic_load_explicit(p, memory_order_seq_cst, memory_scope_sub_group)
SB(sb_plain, int, PLAIN_STORE, PLAIN_LOAD)
SB(sb_seq_cst_device, atomic_int, SC_STORE, SC_LOAD)
SB(sb_seq_cst_sub_group, atomic_int, SG_STORE, SG_LOAD)

// Load buffering: each side loads one location, then stores the other.
#define LB(NAME, TYPE, STORE, LOAD)                                                 \
  kernel void NAME(global TYPE* x, global TYPE* y, global int* out, int a, int b) {  \
    int id = get_global_id(0);                                                       \
    if (id == a) {                                                                   \
      out[0] = LOAD(x);                                                              \
      STORE(y, 1);                                                                   \
    } else if (id == b) {                                                            \
      out[1] = LOAD(y);                                                              \
      STORE(x, 1);                                                                   \
    }                                                                                \
  }
#define RLX_STORE(p, v) atomic_store_explicit(p, v, memory_order_relaxed, memory_scope_device)
#define RLX_LOAD(p) atomic_load_explicit(p, memory_order_relaxed, memory_scope_device)
#define WG_STORE(p, v) atomic_store_explicit(p, v, memory_order_relaxed, memory_scope_work_group)
#define WG_LOAD(p) atomic_load_explicit(p, memory_order_relaxed, memory_scope_work_group)
LB(lb_plain, int, PLAIN_STORE, PLAIN_LOAD)
LB(lb_relaxed_device, atomic_int, RLX_STORE, RLX_LOAD)
LB(lb_relaxed_work_group, atomic_int, WG_STORE, WG_LOAD)
)";

LaunchResult runPair(Program& p, const char* kernel, const Placement& at, std::vector<int>& out,
                     LaunchOptions options = checking()) {
  std::vector<int> x{0}, y{0};
  out.assign(2, -1);
  return p.launch(kernel, range1(32, at.local),
                  {bind(x), bind(y), bind(out), valueOf<int>(at.first), valueOf<int>(at.second)},
                  options);
}

TEST(StoreBuffering, PlainAccessesRace) {
  auto program = loadOpenCl(kStoreBuffering, "store buffering");
  std::vector<int> out;
  for (const Placement& at : {kSameSubGroup, kOtherSubGroup, kOtherWorkGroup})
    EXPECT_EQ(kinds(runPair(*program, "sb_plain", at, out)), kRace) << at.name;
}

TEST(StoreBuffering, SeqCstNeverGivesBothZeroUnderAnySchedule) {
  auto program = loadOpenCl(kStoreBuffering, "store buffering");
  std::vector<int> out;
  for (const Placement& at : {kSameSubGroup, kOtherSubGroup, kOtherWorkGroup})
    for (uint64_t seed = 0; seed < 16; ++seed) {
      LaunchOptions o = checking();
      o.schedule = LaunchOptions::Schedule::Random;
      o.scheduleSeed = seed;
      o.quantum = 2;  // switch sub-groups often
      const LaunchResult r = runPair(*program, "sb_seq_cst_device", at, out, o);
      EXPECT_EQ(kinds(r), kNone) << at.name << "\n" << describe(r);
      EXPECT_FALSE(out[0] == 0 && out[1] == 0) << at.name << ", seed " << seed;
      EXPECT_TRUE(out[0] == 0 || out[0] == 1);
      EXPECT_TRUE(out[1] == 0 || out[1] == 1);
    }
}

TEST(StoreBuffering, SubGroupScopeAtomicsBetweenSubGroupsHaveInsufficientScope) {
  auto program = loadOpenCl(kStoreBuffering, "store buffering");
  std::vector<int> out;
  EXPECT_EQ(kinds(runPair(*program, "sb_seq_cst_sub_group", kSameSubGroup, out)), kNone);
  EXPECT_EQ(kinds(runPair(*program, "sb_seq_cst_sub_group", kOtherSubGroup, out)), kScope);
  EXPECT_EQ(kinds(runPair(*program, "sb_seq_cst_sub_group", kOtherWorkGroup, out)), kScope);
}

TEST(LoadBuffering, Verdicts) {
  auto program = loadOpenCl(kStoreBuffering, "load buffering");
  std::vector<int> out;
  for (const Placement& at : {kSameSubGroup, kOtherSubGroup, kOtherWorkGroup}) {
    EXPECT_EQ(kinds(runPair(*program, "lb_plain", at, out)), kRace) << at.name;
    EXPECT_EQ(kinds(runPair(*program, "lb_relaxed_device", at, out)), kNone) << at.name;
    // Relaxed atomics are race-free but order nothing: any outcome but (1, 1) of a
    // sequentially consistent interleaving is what spvsim can show.
    EXPECT_FALSE(out[0] == 1 && out[1] == 1) << at.name;
  }
  EXPECT_EQ(kinds(runPair(*program, "lb_relaxed_work_group", kOtherSubGroup, out)), kNone);
  EXPECT_EQ(kinds(runPair(*program, "lb_relaxed_work_group", kOtherWorkGroup, out)), kScope);
}

// Oclgrind's race categories: local memory shared through barriers, global memory
// between work-groups, uniform and non-uniform writes by many work-items.
const char* kBarriers = R"(
// Each work-item writes its slot, then reads its neighbour's (another sub-group's for
// the last lane of each sub-group).
#define EXCHANGE(NAME, SYNC)                                                        \
  kernel void NAME(global int* out, local int* tile) {                              \
    int l = get_local_id(0), n = get_local_size(0);                                 \
    tile[l] = l * 3;                                                                \
    SYNC;                                                                           \
    out[get_global_id(0)] = tile[(l + 1) % n];                                      \
  }
EXCHANGE(exchange_no_barrier, (void)0)
EXCHANGE(exchange_local_barrier, barrier(CLK_LOCAL_MEM_FENCE))
EXCHANGE(exchange_global_barrier, barrier(CLK_GLOBAL_MEM_FENCE))
EXCHANGE(exchange_sub_group_barrier, sub_group_barrier(CLK_LOCAL_MEM_FENCE))
EXCHANGE(exchange_execution_only_barrier, work_group_barrier(0))

// Within one sub-group: reading the lane beside (l ^ 1) stays inside the sub-group.
#define PAIR(NAME, SYNC)                                                            \
  kernel void NAME(global int* out, local int* tile) {                              \
    int l = get_local_id(0);                                                        \
    tile[l] = l * 3;                                                                \
    SYNC;                                                                           \
    out[get_global_id(0)] = tile[l ^ 1];                                            \
  }
PAIR(pair_no_barrier, (void)0)
PAIR(pair_sub_group_barrier, sub_group_barrier(CLK_LOCAL_MEM_FENCE))

// Work-group 1 reads what work-group 0 wrote; a barrier orders only one work-group.
#define ACROSS(NAME, SYNC)                                                          \
  kernel void NAME(global int* data, global int* out) {                             \
    if (get_group_id(0) == 0) data[get_local_id(0)] = 5;                            \
    SYNC;                                                                           \
    if (get_group_id(0) == 1) out[get_local_id(0)] = data[get_local_id(0)];         \
  }
ACROSS(across_no_barrier, (void)0)
ACROSS(across_barrier, barrier(CLK_GLOBAL_MEM_FENCE))

kernel void same_address_different_values(global int* out) { out[0] = get_local_id(0); }
kernel void same_address_same_value(global int* out) { out[0] = 7; }

// Atomic counters never race; reading the counter plainly after a work-group barrier is
// ordered inside the work-group and races between work-groups.
kernel void counter(global atomic_int* count, global int* out) {
  atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) out[get_group_id(0)] = *(global int*)count;
}
)";

struct BarrierFixture : ::testing::Test {
  static std::shared_ptr<Program> program() {
    static auto p = loadOpenCl(kBarriers, "barriers");
    return p;
  }
  LaunchResult exchange(const char* kernel, std::vector<int>& out, LaunchOptions o = checking()) {
    out.assign(32, -1);
    return program()->launch(kernel, range1(32, 32), {bind(out), ArgBinding::local(32 * 4)}, o);
  }
};

TEST_F(BarrierFixture, LocalMemoryNeedsALocalBarrier) {
  std::vector<int> out;
  EXPECT_EQ(kinds(exchange("exchange_no_barrier", out)), kRace);
  EXPECT_EQ(kinds(exchange("exchange_global_barrier", out)), kRace);  // wrong memory
  EXPECT_EQ(kinds(exchange("exchange_execution_only_barrier", out)), kRace);
  const LaunchResult ok = exchange("exchange_local_barrier", out);
  EXPECT_EQ(kinds(ok), kNone) << describe(ok);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], (i + 1) % 32 * 3) << i;
}

TEST_F(BarrierFixture, SubGroupBarrierDoesNotOrderOtherSubGroups) {
  std::vector<int> out;
  const LaunchResult r = exchange("exchange_sub_group_barrier", out);
  EXPECT_EQ(kinds(r), kScope) << describe(r);
  // Round-robin runs sub-group 0 to its end first: its lane 15 reads slot 16 after its
  // barrier, before sub-group 1 writes it (reported at sub-group 1's store, lane 0);
  // sub-group 1's lane 15 then reads slot 0 after its own barrier (at the load).
  ASSERT_EQ(r.diagnostics.size(), 2u);
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.subGroup, 1u);
    EXPECT_EQ(d.repeats, 0u);
    EXPECT_NE(d.message.find("sub-group barriers between them"), std::string::npos) << d.message;
  }
  std::set<std::vector<uint32_t>> lanes{r.diagnostics[0].lanes, r.diagnostics[1].lanes};
  EXPECT_EQ(lanes, (std::set<std::vector<uint32_t>>{{0}, {15}}));
}

TEST_F(BarrierFixture, LockstepWithoutSubGroupBarrierIsARace) {
  std::vector<int> out;
  const LaunchResult racy = exchange("pair_no_barrier", out);
  ASSERT_EQ(kinds(racy), kRace) << describe(racy);
  EXPECT_NE(racy.diagnostics[0].message.find("lanes of one sub-group"), std::string::npos);
  const LaunchResult ok = exchange("pair_sub_group_barrier", out);
  EXPECT_EQ(kinds(ok), kNone) << describe(ok);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(out[i], (i ^ 1) * 3) << i;
}

TEST_F(BarrierFixture, WorkGroupBarrierDoesNotOrderOtherWorkGroups) {
  for (const char* kernel : {"across_no_barrier", "across_barrier"}) {
    std::vector<int> data(8, 0), out(8, 0);
    const LaunchResult r =
        program()->launch(kernel, range1(16, 8), {bind(data), bind(out)}, checking());
    EXPECT_EQ(kinds(r), std::string(kernel) == "across_barrier" ? kScope : kRace) << kernel << "\n"
                                                                                  << describe(r);
    ASSERT_FALSE(r.diagnostics.empty());
    EXPECT_EQ(r.diagnostics[0].workGroup, (std::array<uint64_t, 3>{1, 0, 0}));
  }
}

TEST_F(BarrierFixture, LanesWritingDifferentValuesInOneInstructionRace) {
  std::vector<int> out{0};
  const LaunchResult r =
      program()->launch("same_address_different_values", range1(16, 16), {bind(out)}, checking());
  ASSERT_EQ(kinds(r), kRace) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("same instruction"), std::string::npos)
      << r.diagnostics[0].message;
  // Lane 1 is the first whose write conflicts (with lane 0's); lanes 2..15 repeat it.
  EXPECT_EQ(r.diagnostics[0].lanes, std::vector<uint32_t>{1});
  EXPECT_EQ(r.diagnostics[0].repeats, 14u);
}

// OpenCL 3.0 memory model, "Data races": two conflicting accesses (one byte, at least one
// a write) unordered by happens-before race, whatever the values. All 64 work-items
// store 7 to out[0] with nothing ordering them, so work-items 1..63 each write against
// the previous work-item's write: 63 races (a diagnostic and its repeats), each saying
// that the bytes already held the value.
TEST_F(BarrierFixture, UniformWritesRaceAndSaySoWhenTheValueIsUnchanged) {
  std::vector<int> out{0};
  const LaunchResult r =
      program()->launch("same_address_same_value", range1(64, 32), {bind(out)}, checking());
  ASSERT_EQ(kinds(r), kRace) << describe(r);
  uint64_t occurrences = 0;
  for (const Diagnostic& d : r.diagnostics) {
    occurrences += 1 + d.repeats;
    EXPECT_NE(d.message.find("already held"), std::string::npos) << d.message;
  }
  EXPECT_EQ(occurrences, 63u);
  EXPECT_EQ(out[0], 7);
}

// The note is about values only: writes that change the bytes do not carry it.
TEST_F(BarrierFixture, ChangingWritesCarryNoUnchangedNote) {
  std::vector<int> out{-1};
  const LaunchResult r =
      program()->launch("same_address_different_values", range1(16, 16), {bind(out)}, checking());
  ASSERT_EQ(kinds(r), kRace) << describe(r);
  for (const Diagnostic& d : r.diagnostics)
    EXPECT_EQ(d.message.find("already held"), std::string::npos) << d.message;
}

TEST_F(BarrierFixture, AtomicCounterIsRaceFreeAndPlainReadsOrderOnlyInTheWorkGroup) {
  std::vector<int> count{0}, out(4, -1);
  LaunchResult r =
      program()->launch("counter", range1(32, 32), {bind(count), bind(out)}, checking());
  EXPECT_EQ(kinds(r), kNone) << describe(r);
  EXPECT_EQ(out[0], 32);
  // Work-group 0's plain read, then group 1's increments: nothing orders them (a race);
  // group 1's plain read after its barrier is ordered after its own increments, not
  // group 0's (the work-group barriers order one group each: insufficient scope).
  count = {0};
  r = program()->launch("counter", range1(64, 16), {bind(count), bind(out)}, checking());
  ASSERT_EQ(kinds(r), (std::set<std::string>{"data-race", "insufficient-scope"})) << describe(r);
  EXPECT_EQ(r.diagnostics[0].workGroup, (std::array<uint64_t, 3>{1, 0, 0}));
  EXPECT_NE(r.diagnostics[0].message.find("atomic write"), std::string::npos);
  EXPECT_EQ(count[0], 64);
}

TEST_F(BarrierFixture, VerdictsDoNotDependOnTheThreadCountAndOffReportsNothing) {
  std::vector<int> out;
  const LaunchResult one = exchange("exchange_sub_group_barrier", out, checking(1));
  const LaunchResult many = exchange("exchange_sub_group_barrier", out, checking(4));
  ASSERT_EQ(one.diagnostics.size(), many.diagnostics.size());
  for (size_t i = 0; i < one.diagnostics.size(); ++i)
    EXPECT_EQ(formatText(one.diagnostics[i]), formatText(many.diagnostics[i]));
  LaunchOptions off = checking();
  off.observers.clear();
  EXPECT_EQ(kinds(exchange("exchange_no_barrier", out, off)), kNone);
}

// A spin-wait between sub-groups terminates under the checker (the scheduler still
// switches at atomics), with or without a verdict depending on the orders used.
const char* kSpin = R"(
#define SPIN(NAME, ST, LD)                                                          \
  kernel void NAME(global int* data, global atomic_int* flag, global int* out) {    \
    int id = get_global_id(0);                                                      \
    if (id == 0) {                                                                  \
      while (!atomic_load_explicit(flag, LD, memory_scope_work_group)) {}           \
      out[0] = data[0];                                                             \
    } else if (id == 16) {                                                          \
      data[0] = 9;                                                                  \
      atomic_store_explicit(flag, 1, ST, memory_scope_work_group);                  \
    }                                                                               \
  }
SPIN(spin_acquire, memory_order_release, memory_order_acquire)
SPIN(spin_relaxed, memory_order_relaxed, memory_order_relaxed)
)";

TEST(SpinWait, TerminatesUnderTheCheckerWithTheRightVerdict) {
  auto program = loadOpenCl(kSpin, "spin");
  for (const auto& [kernel, expected] :
       {std::pair{"spin_acquire", kNone}, std::pair{"spin_relaxed", kRace}}) {
    std::vector<int> data{0}, flag{0}, out{0};
    const LaunchResult r =
        program->launch(kernel, range1(32, 32), {bind(data), bind(flag), bind(out)}, checking());
    EXPECT_EQ(out[0], 9) << kernel;
    EXPECT_EQ(kinds(r), expected) << kernel << "\n" << describe(r);
  }
}

}  // namespace
}  // namespace spvsim
