// The race checker (src/check/race_checker.h) on plain accesses against atomic ones, and
// litmus families beyond those of race_checker_test.cc. Expected verdicts and counts come
// from the OpenCL 3.0 memory model ("Data races": two conflicting accesses, not both
// atomic, or atomic with scopes that do not both include the two work-items, race unless
// ordered by happens-before; a compare-exchange that fails only reads). Counts are
// occurrences: each reported lane access (a diagnostic and its repeats); one access is
// reported once, however many earlier accesses it conflicts with.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::describe;
using testing::range1;

// kind -> occurrences.
using Counts = std::map<std::string, uint32_t>;

Counts counts(const LaunchResult& r) {
  Counts out;
  for (const auto& d : r.diagnostics) out[std::string(kindName(d.kind))] += 1 + d.repeats;
  return out;
}

LaunchOptions checking(uint32_t sgSize) {
  LaunchOptions o;
  o.subGroupSize = sgSize;
  o.threads = 1;
  o.observers = check::observersFor({.races = true});
  return o;
}

const char* kMixed = R"(
// (a) Work-item 0 initialises, then every work-item decrements.
kernel void init_dec(global int* p, local int* l) {
  if (get_global_id(0) == 0) *p = 0;
  atomic_dec(p);
}
kernel void init_inc(global int* p, local int* l) {
  if (get_global_id(0) == 0) *p = 0;
  atomic_inc(p);
}
kernel void init_fetch_sub_device(global int* p, local int* l) {
  if (get_global_id(0) == 0) *p = 0;
  atomic_fetch_sub_explicit((global atomic_int*)p, 1, memory_order_relaxed, memory_scope_device);
}
kernel void init_barrier_dec(global int* p, local int* l) {
  if (get_global_id(0) == 0) *p = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);
  atomic_dec(p);
}
kernel void local_init_dec(global int* p, local int* l) {
  if (get_local_id(0) == 0) *l = 0;
  atomic_dec(l);
}
kernel void local_init_barrier_dec(global int* p, local int* l) {
  if (get_local_id(0) == 0) *l = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_dec(l);
}
kernel void local_init_global_barrier_dec(global int* p, local int* l) {
  if (get_local_id(0) == 0) *l = 0;
  barrier(CLK_GLOBAL_MEM_FENCE);  // orders global memory only
  atomic_dec(l);
}
// (b) A plain read after every work-item's atomic increment.
kernel void inc_read(global int* p, local int* l) {
  atomic_inc(p);
  if (get_global_id(0) == 0) p[1] = *p;
}
kernel void inc_barrier_read(global int* p, local int* l) {
  atomic_inc(p);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_global_id(0) == 0) p[1] = *p;
}
// (c) Compare-exchange against plain accesses. Each work-item is its own work-group (run
// in order), so "then" is the order of execution. p[0] starts at 0.
// Device scope: OpenCL 1.x atomic_cmpxchg would add legacy-scope warnings across groups.
#define LAST (get_global_size(0) - 1)
void cas(global int* p, int expected, int desired) {
  atomic_compare_exchange_strong_explicit((global atomic_int*)p, &expected, desired,
                                          memory_order_relaxed, memory_order_relaxed,
                                          memory_scope_device);
}
kernel void write_then_cas(global int* p, local int* l) {
  if (get_global_id(0) == 0) *p = 7;
  else cas(p, 7, 100);  // work-item 1's succeeds, 2's and 3's fail
}
kernel void cas_then_write(global int* p, local int* l) {
  if (get_global_id(0) != LAST) cas(p, 0, 100);
  else *p = 7;
}
kernel void failed_cas_then_read(global int* p, local int* l) {
  if (get_global_id(0) != LAST) cas(p, 99, 100);  // all fail: reads only
  else p[1] = *p;
}
kernel void cas_then_read(global int* p, local int* l) {
  if (get_global_id(0) != LAST) cas(p, 0, 100);  // work-item 0's succeeds
  else p[1] = *p;
}
kernel void read_then_failed_cas(global int* p, local int* l) {
  if (get_global_id(0) == 0) p[1] = *p;
  else cas(p, 99, 100);
}
kernel void read_then_cas(global int* p, local int* l) {
  if (get_global_id(0) == 0) p[1] = *p;
  else cas(p, 0, 100);
}
// Atomics of work_group scope on one location from two work-groups.
kernel void work_group_scope_counter(global int* p, local int* l) {
  atomic_fetch_add_explicit((global atomic_int*)p, 1, memory_order_relaxed,
                            memory_scope_work_group);
}
)";

struct MixedCase {
  const char* kernel;
  uint64_t global, local;
  uint32_t sgSize;
  Counts expected;
  int finalValue;  // p[0] after the launch: shows which execution ran
};

class PlainAgainstAtomic : public ::testing::TestWithParam<std::tuple<MixedCase, const char*>> {};

TEST_P(PlainAgainstAtomic, CountsFollowTheMemoryModel) {
  const auto& [c, level] = GetParam();
  auto program = Program::load(testing::compileOpenCl(kMixed, level));
  std::vector<int> p{0, -1};
  const LaunchResult r = program->launch(c.kernel, range1(c.global, c.local),
                                         {bind(p), ArgBinding::local(4)}, checking(c.sgSize));
  EXPECT_EQ(counts(r), c.expected) << describe(r);
  EXPECT_EQ(p[0], c.finalValue);
}

const Counts kClean{};
Counts races(uint32_t n) { return {{"data-race", n}}; }

INSTANTIATE_TEST_SUITE_P(
    Races, PlainAgainstAtomic,
    ::testing::Combine(
        ::testing::Values(
            // Work-items 1..3's read-modify-writes each conflict with work-item 0's plain
            // store; nothing orders them (lanes of one sub-group, or of two).
            MixedCase{"init_dec", 4, 4, 4, races(3), -4},
            MixedCase{"init_dec", 4, 4, 1, races(3), -4},
            MixedCase{"init_inc", 4, 4, 4, races(3), 4},
            MixedCase{"init_fetch_sub_device", 4, 4, 4, races(3), -4},
            // The barrier orders the store before every atomic.
            MixedCase{"init_barrier_dec", 4, 4, 4, kClean, -4},
            // Local memory: likewise; a barrier for global memory does not order it.
            MixedCase{"local_init_dec", 4, 4, 4, races(3), 0},
            MixedCase{"local_init_barrier_dec", 4, 4, 4, kClean, 0},
            MixedCase{"local_init_global_barrier_dec", 4, 4, 4, races(3), 0},
            // Work-item 0's read follows its own increment but none of the three others'.
            MixedCase{"inc_read", 4, 4, 4, races(1), 4},
            MixedCase{"inc_barrier_read", 4, 4, 4, kClean, 4},
            // Every compare-exchange reads: each of the three conflicts with the store.
            MixedCase{"write_then_cas", 4, 1, 1, races(3), 100},
            // The store conflicts with the successful exchange and the failed ones (one
            // access: one report).
            MixedCase{"cas_then_write", 4, 1, 1, races(1), 7},
            // Failed exchanges only read: no conflict with a plain read.
            MixedCase{"failed_cas_then_read", 4, 1, 1, kClean, 0},
            MixedCase{"cas_then_read", 4, 1, 1, races(1), 100},
            MixedCase{"read_then_failed_cas", 4, 1, 1, kClean, 0},
            // Only work-item 1's exchange succeeds (writes): one conflict with the read.
            MixedCase{"read_then_cas", 4, 1, 1, races(1), 100},
            // Two work-groups of 2: group 1's two increments each conflict with group 0's
            // work_group-scope ones (scope excludes the other group).
            MixedCase{"work_group_scope_counter", 4, 2, 2, {{"insufficient-scope", 2}}, 4},
            MixedCase{"work_group_scope_counter", 4, 4, 4, kClean, 4}),
        ::testing::Values("-O0", "-O2")),
    [](const auto& info) {
      const MixedCase& c = std::get<0>(info.param);
      return std::string(c.kernel) + "_l" + std::to_string(c.local) + "_sg" +
             std::to_string(c.sgSize) + (std::get<1>(info.param)[2] == '0' ? "_O0" : "_O2");
    });

// Litmus families with three or four work-items, each in its own work-group (local size
// 1), so that work-groups run in order 0, 1, 2, ... and each test checks (through `out`)
// that the execution is the one in which the ordering question arises.
const char* kLitmus = R"(
#define DEV memory_scope_device
#define WG memory_scope_work_group
// 2+2W: each of two work-items writes both locations, in opposite orders.
#define W22(NAME, TYPE, ST)                                                          \
  kernel void NAME(global TYPE* x, global TYPE* y, global int* out) {                \
    if (get_global_id(0) == 0) { ST(x, 1); ST(y, 2); }                               \
    else if (get_global_id(0) == 1) { ST(y, 1); ST(x, 2); }                          \
  }
#define PLAIN_ST(p, v) (*(p) = (v))
#define RLX_ST(p, v) atomic_store_explicit(p, v, memory_order_relaxed, DEV)
#define WG_ST(p, v) atomic_store_explicit(p, v, memory_order_relaxed, WG)
W22(w22_plain, int, PLAIN_ST)
W22(w22_relaxed_device, atomic_int, RLX_ST)
W22(w22_relaxed_work_group, atomic_int, WG_ST)

// WRC: 0 writes data and flag a; 1 sees a, raises b; 2 sees b and reads the data.
#define WRC(NAME, ST, LD, SCOPE)                                                    \
  kernel void NAME(global int* data, global atomic_int* a, global atomic_int* b,    \
                   global int* out) {                                               \
    int id = get_global_id(0);                                                      \
    if (id == 0) {                                                                  \
      *data = 42;                                                                   \
      atomic_store_explicit(a, 1, ST, SCOPE);                                       \
    } else if (id == 1) {                                                           \
      if (atomic_load_explicit(a, LD, SCOPE)) atomic_store_explicit(b, 1, ST, SCOPE); \
    } else if (id == 2) {                                                           \
      out[0] = atomic_load_explicit(b, LD, SCOPE) ? *data : -1;                     \
    }                                                                               \
  }
WRC(wrc_relaxed, memory_order_relaxed, memory_order_relaxed, DEV)
WRC(wrc_release_acquire, memory_order_release, memory_order_acquire, DEV)
WRC(wrc_release_acquire_work_group, memory_order_release, memory_order_acquire, WG)

// IRIW: two writers, two readers reading both locations in opposite orders.
#define IRIW(NAME, TYPE, ST, LD)                                                    \
  kernel void NAME(global TYPE* x, global TYPE* y, global int* out) {               \
    int id = get_global_id(0);                                                      \
    if (id == 0) ST(x, 1);                                                          \
    else if (id == 1) ST(y, 1);                                                     \
    else if (id == 2) { out[0] = LD(x); out[1] = LD(y); }                           \
    else { out[2] = LD(y); out[3] = LD(x); }                                        \
  }
#define PLAIN_LD(p) (*(p))
#define SC_ST(p, v) atomic_store_explicit(p, v, memory_order_seq_cst, DEV)
#define SC_LD(p) atomic_load_explicit(p, memory_order_seq_cst, DEV)
IRIW(iriw_plain, int, PLAIN_ST, PLAIN_LD)
IRIW(iriw_seq_cst, atomic_int, SC_ST, SC_LD)

// MP through a work-group barrier; a plain flag needs no atomics then.
kernel void mp_barrier(global int* data, global int* flag, global int* out) {
  int id = get_local_id(0);
  if (id == 0) { *data = 42; *flag = 1; }
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (id == 1) out[get_group_id(0)] = *flag ? *data : -1;
}
// MP where the consumer's data access is an atomic: the publication orders it too.
kernel void mp_atomic_data(global atomic_int* data, global atomic_int* flag, global int* out) {
  int id = get_global_id(0);
  if (id == 0) {
    *(global int*)data = 42;
    atomic_store_explicit(flag, 1, memory_order_release, DEV);
  } else if (id == 1) {
    out[0] = atomic_load_explicit(flag, memory_order_acquire, DEV)
                 ? atomic_fetch_add_explicit(data, 1, memory_order_relaxed, DEV) : -1;
  }
}
kernel void mp_atomic_data_relaxed(global atomic_int* data, global atomic_int* flag,
                                   global int* out) {
  int id = get_global_id(0);
  if (id == 0) {
    *(global int*)data = 42;
    atomic_store_explicit(flag, 1, memory_order_relaxed, DEV);
  } else if (id == 1) {
    out[0] = atomic_load_explicit(flag, memory_order_relaxed, DEV)
                 ? atomic_fetch_add_explicit(data, 1, memory_order_relaxed, DEV) : -1;
  }
}
)";

struct LitmusCase {
  const char* kernel;
  uint64_t global, local;
  Counts expected;
  std::vector<int> out;  // out[0..3] afterwards
};

class Litmus : public ::testing::TestWithParam<std::tuple<LitmusCase, const char*>> {};

TEST_P(Litmus, CountsFollowTheMemoryModel) {
  const auto& [c, level] = GetParam();
  auto program = Program::load(testing::compileOpenCl(kLitmus, level));
  std::vector<int> a{0}, b{0}, out(4, -1);
  std::vector<ArgBinding> args{bind(a), bind(b), bind(out)};
  std::vector<int> data{0};
  if (std::string(c.kernel).starts_with("wrc")) args.insert(args.begin(), bind(data));
  const LaunchResult r = program->launch(c.kernel, range1(c.global, c.local), args, checking(1));
  EXPECT_EQ(counts(r), c.expected) << describe(r);
  EXPECT_EQ(out, c.out);
}

INSTANTIATE_TEST_SUITE_P(
    Families, Litmus,
    ::testing::Combine(
        ::testing::Values(
            // Work-item 1's two plain stores each conflict with work-item 0's (different
            // values); atomics never race, but work_group scope does not span two groups.
            LitmusCase{"w22_plain", 2, 1, races(2), {-1, -1, -1, -1}},
            LitmusCase{"w22_relaxed_device", 2, 1, kClean, {-1, -1, -1, -1}},
            LitmusCase{
                "w22_relaxed_work_group", 2, 1, {{"insufficient-scope", 2}}, {-1, -1, -1, -1}},
            LitmusCase{"w22_relaxed_work_group", 2, 2, kClean, {-1, -1, -1, -1}},
            // WRC: the data read races unless both hops are release/acquire of a scope
            // holding the work-items (causality is transitive through work-item 1).
            LitmusCase{"wrc_relaxed", 3, 1, races(1), {42, -1, -1, -1}},
            LitmusCase{"wrc_release_acquire", 3, 1, kClean, {42, -1, -1, -1}},
            // Across work-groups, work_group scope: each flag's load conflicts with its
            // store (2), and the data read with the write (1), all for lack of scope.
            LitmusCase{"wrc_release_acquire_work_group",
                       3,
                       1,
                       {{"insufficient-scope", 3}},
                       {42, -1, -1, -1}},
            // IRIW: each reader's two plain reads conflict with the two writes (4); with
            // seq_cst atomics there is no race at all.
            LitmusCase{"iriw_plain", 4, 1, races(4), {1, 1, 1, 1}},
            LitmusCase{"iriw_seq_cst", 4, 1, kClean, {1, 1, 1, 1}},
            // A barrier orders the work-group's plain accesses; nothing orders group 1's
            // with group 0's: group 1's stores of the data and the flag conflict with group
            // 0's reads of them (2); its reads after its barrier are ordered after its own
            // stores, the last writes.
            LitmusCase{"mp_barrier", 4, 2, races(2), {42, 42, -1, -1}},
            LitmusCase{"mp_atomic_data", 2, 1, kClean, {42, -1, -1, -1}},
            LitmusCase{"mp_atomic_data_relaxed", 2, 1, races(1), {42, -1, -1, -1}}),
        ::testing::Values("-O0", "-O2")),
    [](const auto& info) {
      const LitmusCase& c = std::get<0>(info.param);
      return std::string(c.kernel) + "_l" + std::to_string(c.local) +
             (std::get<1>(info.param)[2] == '0' ? "_O0" : "_O2");
    });

}  // namespace
}  // namespace spvsim

namespace spvsim {
namespace {

// Reads never race with reads: unordered reads of the same 4096 bytes by two
// work-groups are remembered compactly (for a later write to be checked against) and
// cost no warning, however many work-items read.
TEST(ConcurrentReads, NeedNoWarning) {
  auto program = Program::load(testing::compileOpenCl(R"(
    kernel void read_all(global const int* in, global int* out) {
      int s = 0;
      for (int i = 0; i < 1024; ++i) s += in[i];
      out[get_global_id(0)] = s;
    })",
                                                      "read_all"));
  std::vector<int> in(1024, 1), out(2, 0);
  const LaunchResult r =
      program->launch("read_all", range1(2, 1), {bind(in), bind(out)}, checking(1));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<int>{1024, 1024}));
}

}  // namespace
}  // namespace spvsim
