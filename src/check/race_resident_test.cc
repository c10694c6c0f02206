// The race checker under --forward-progress occupancy:N (src/check/race_checker.h,
// src/exec/resident_groups.h): work-groups resident at the same time take turns on one
// host thread, each with a checker of its own that shares the launch's histories of
// global memory, so what they do to each other is judged as the OpenCL memory model
// judges it. Verdicts worked by hand from the model (OpenCL 3.0 API, "Memory Model":
// work-items of different work-groups are ordered only by release/acquire at device
// scope, through atomics or fences; two atomics of inclusive scopes never race):
// - message passing between two resident work-groups: release/acquire at device scope
//   orders the data (no race); relaxed atomics order nothing (a race on the data, not on
//   the flag: both are atomic); a plain flag races, and so does the data;
// - a grid-wide barrier of persistent threads from an acq_rel counter at device scope
//   orders a write before it and a read after it in another work-group (no race), and
//   the same reads before it and writes after it; with a relaxed counter it does not;
// - a work-group's local memory and its release/acquire there are its own while others
//   run in between; an async copy not yet waited for races with another work-group's
//   access to its memory;
// - the undefined-value checker's shadows of never-initialised buffers are the launch's:
//   what one resident work-group writes is defined for the other.
// Without occupancy, the same kernels give what they gave before work-groups could be
// resident together.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/compiler/compile_driver.h"
#include "src/exec/program.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::kinds;
using testing::range1;
using testing::valueOf;

const char* kKernels = R"(
// Message passing between two work-groups: work-group `waiter` spins on the flag, the
// other writes the data and raises it. Work-group 0 runs first, so with waiter 0 it spins
// before the writer has run (the interleaving resident work-groups allow), with waiter 1
// the writer is done before the waiter starts (the order work-groups run in without).
kernel void mp_release_acquire(global int* data, global atomic_int* flag, global int* out,
                               int waiter) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == waiter) {
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {}
    out[0] = data[0];
  } else {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  }
}

kernel void mp_relaxed(global int* data, global atomic_int* flag, global int* out,
                       int waiter) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == waiter) {
    while (atomic_load_explicit(flag, memory_order_relaxed, memory_scope_device) == 0) {}
    out[0] = data[0];
  } else {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_relaxed, memory_scope_device);
  }
}

kernel void mp_plain(global int* data, global int* flag, global int* out, int waiter) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == waiter) {
    while (*(volatile global int*)flag == 0) {}
    out[0] = data[0];
  } else {
    data[0] = 42;
    *(volatile global int*)flag = 1;
  }
}

// The same hand-off of a never-initialised buffer's data[0]; work-group 0 also copies
// data[1], which nobody wrote.
kernel void mp_undefined(global int* data, global atomic_int* flag, global int* out) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == 0) {
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {}
    out[0] = data[0];
    out[1] = data[1];
  } else {
    data[0] = 42;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  }
}

// A grid-wide barrier of persistent threads: every work-group's local id 0 arrives at the
// counter and waits until all have; the work-group barriers around it carry the order to
// and from the other work-items. Each work-item writes data[g], reads the next
// work-group's data after the first grid barrier, and overwrites its own after the
// second (which the previous work-group read before it).
void grid_barrier(global atomic_int* count, int target, int ordered) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    if (ordered) {
      atomic_fetch_add_explicit(count, 1, memory_order_acq_rel, memory_scope_device);
      while (atomic_load_explicit(count, memory_order_acquire, memory_scope_device) < target) {}
    } else {
      atomic_fetch_add_explicit(count, 1, memory_order_relaxed, memory_scope_device);
      while (atomic_load_explicit(count, memory_order_relaxed, memory_scope_device) < target) {}
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}

kernel void grid(global int* data, global int* out, global atomic_int* count, int ordered) {
  uint g = get_global_id(0), n = get_global_size(0), l = get_local_size(0);
  int groups = get_num_groups(0);
  data[g] = (int)g + 1;
  grid_barrier(count, groups, ordered);
  out[g] = data[(g + l) % n];
  grid_barrier(count, 2 * groups, ordered);
  data[g] = -(int)g;
}

// Release/acquire through local memory between a work-group's two sub-groups, with a
// long computation before the acquire, so that other work-groups run, end and begin in
// between (each work-group's local memory and its flag are its own).
kernel void local_mp(global int* out, global int* sums, int spin) {
  local int data[16];
  local atomic_int flag;
  uint l = get_local_id(0);
  if (l == 0) atomic_store_explicit(&flag, 0, memory_order_relaxed, memory_scope_work_group);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) {
    for (int i = 0; i < 16; ++i) data[i] = i + 100 * (int)get_group_id(0);
    atomic_store_explicit(&flag, 1, memory_order_release, memory_scope_work_group);
  } else if (l >= 16) {
    int s = 0;
    for (int i = 0; i < spin; ++i) s += i ^ (int)l;
    while (atomic_load_explicit(&flag, memory_order_acquire, memory_scope_work_group) == 0) {}
    out[get_global_id(0)] = data[l - 16];
    sums[get_global_id(0)] = s;
  }
}

// Work-group 0 copies local memory to dst and computes before waiting for the copy; work-
// group 1 writes dst meanwhile (resident) or after (one by one).
kernel void copy_pending(global int* dst, global int* out, int spin) {
  local int buf[16];
  uint l = get_local_id(0);
  if (get_group_id(0) == 0) {
    buf[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t e = async_work_group_copy(dst, buf, 16, 0);
    int s = 0;
    for (int i = 0; i < spin; ++i) s += i ^ (int)l;
    wait_group_events(1, &e);
    out[l] = s;
  } else {
    dst[l] = -1;
  }
}
)";

std::shared_ptr<Program> compile(const char* opt) {
  return Program::load(
      compiler::compileOpenCL({.source = kKernels, .options = opt, .useCache = false}).words);
}

// 0: no occupancy (work-groups one by one); else occupancy:N.
LaunchOptions checking(uint64_t resident) {
  LaunchOptions o;
  o.subGroupSize = 16;
  o.threads = 1;
  o.observers = check::observersFor({.races = true});
  if (resident) {
    o.forwardProgress = LaunchOptions::ForwardProgress::Occupancy;
    o.residentGroups = resident;
  }
  return o;
}

const std::set<std::string> kNone{};
const std::set<std::string> kRace{"data-race"};

// The diagnostics of kind `k` whose message names `what` (e.g. "(data)", an argument).
size_t countOn(const LaunchResult& r, DiagnosticKind k, const std::string& what) {
  return std::count_if(r.diagnostics.begin(), r.diagnostics.end(), [&](const Diagnostic& d) {
    return d.kind == k && d.message.find(what) != std::string::npos;
  });
}

// Each diagnostic as one line, for comparing two launches.
std::vector<std::string> lines(const LaunchResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics)
    out.push_back(std::string(kindName(d.kind)) + " " + std::to_string(d.repeats) + " " +
                  d.message);
  return out;
}

struct Handoff {
  LaunchResult result;
  std::vector<int32_t> data{0}, flag{0}, out{-1};
};

// Two work-groups of 16 work-items (one sub-group each).
Handoff handoff(Program& p, const char* kernel, int waiter, uint64_t resident) {
  Handoff h;
  h.result = p.launch(kernel, range1(32, 16),
                      {bufferOf(h.data), bufferOf(h.flag), bufferOf(h.out), valueOf<int>(waiter)},
                      checking(resident));
  return h;
}

class Resident : public ::testing::TestWithParam<const char*> {
 protected:
  static void SetUpTestSuite() {
    programs_[0] = compile("-O0");
    programs_[1] = compile("-O2");
  }
  static void TearDownTestSuite() {
    programs_[0].reset();
    programs_[1].reset();
  }
  Program& program() const { return *programs_[std::string(GetParam()) == "-O0" ? 0 : 1]; }
  static std::shared_ptr<Program> programs_[2];
};
std::shared_ptr<Program> Resident::programs_[2];

// (a) Work-group 0 spins with acquire loads while work-group 1, resident with it, writes
// the data and stores the flag with release, both at device scope: the store
// synchronises with the load that reads it, so the write happens before the read.
TEST_P(Resident, ReleaseAcquireHandoffIsNoRace) {
  const Handoff h = handoff(program(), "mp_release_acquire", 0, 2);
  EXPECT_EQ(h.out[0], 42);
  EXPECT_TRUE(h.result.diagnostics.empty()) << describe(h.result);  // no `unsupported` either
}

// (b) The same with relaxed atomics and no fence: nothing orders the data's write and
// read (a data race on data); the flag's accesses are all atomic at device scope (none).
TEST_P(Resident, RelaxedHandoffRacesOnTheData) {
  const Handoff h = handoff(program(), "mp_relaxed", 0, 2);
  EXPECT_EQ(h.out[0], 42);
  EXPECT_EQ(kinds(h.result), kRace) << describe(h.result);
  EXPECT_EQ(countOn(h.result, DiagnosticKind::DataRace, "(data)"), 1u) << describe(h.result);
  EXPECT_EQ(countOn(h.result, DiagnosticKind::DataRace, "(flag)"), 0u) << describe(h.result);
  EXPECT_NE(h.result.diagnostics[0].message.find(
                "work-items of different work-groups are ordered only by release/acquire"),
            std::string::npos)
      << describe(h.result);
}

// (c) A plain spin flag: work-group 0's reads of the flag and work-group 1's write of it
// conflict and nothing orders them (a data race on the flag, whichever comes first), and
// so nothing orders the data either.
TEST_P(Resident, PlainSpinFlagRacesOnTheFlag) {
  const Handoff h = handoff(program(), "mp_plain", 0, 2);
  EXPECT_EQ(h.out[0], 42);
  EXPECT_EQ(kinds(h.result), kRace) << describe(h.result);
  EXPECT_GE(countOn(h.result, DiagnosticKind::DataRace, "(flag)"), 1u) << describe(h.result);
  EXPECT_EQ(countOn(h.result, DiagnosticKind::DataRace, "(data)"), 1u) << describe(h.result);
}

// (e) With the writer first (waiter 1), the kernels complete without occupancy too; the
// verdicts are those above, and the reports are the same with the two work-groups
// resident together (work-group 0 ends in its first turn) as one after the other.
TEST_P(Resident, WithoutOccupancyTheVerdictsAreUnchanged) {
  for (const auto& [kernel, expected] :
       {std::pair{"mp_release_acquire", kNone}, std::pair{"mp_relaxed", kRace},
        std::pair{"mp_plain", kRace}}) {
    SCOPED_TRACE(kernel);
    const Handoff none = handoff(program(), kernel, 1, 0);
    EXPECT_EQ(none.out[0], 42);
    EXPECT_EQ(kinds(none.result), expected) << describe(none.result);
    for (uint64_t resident : {1u, 2u}) {
      const Handoff h = handoff(program(), kernel, 1, resident);
      EXPECT_EQ(lines(h.result), lines(none.result)) << resident;
    }
  }
  // The relaxed handoff races on the data alone, as between two work-groups resident
  // together; the plain one on the flag (its read after the write) and the data.
  const Handoff relaxed = handoff(program(), "mp_relaxed", 1, 0);
  EXPECT_EQ(countOn(relaxed.result, DiagnosticKind::DataRace, "(data)"), 1u);
  const Handoff plain = handoff(program(), "mp_plain", 1, 0);
  EXPECT_EQ(countOn(plain.result, DiagnosticKind::DataRace, "(flag)"), 1u);
  EXPECT_EQ(countOn(plain.result, DiagnosticKind::DataRace, "(data)"), 1u);
}

struct Grid {
  LaunchResult result;
  std::vector<int32_t> data, out;
  std::vector<int32_t> count{0};
};

Grid grid(Program& p, uint64_t groups, bool ordered, uint64_t resident) {
  Grid r;
  const uint64_t n = groups * 16;
  r.data.assign(n, 0);
  r.out.assign(n, 0);
  r.result = p.launch("grid", range1(n, 16),
                      {bufferOf(r.data), bufferOf(r.out), bufferOf(r.count), valueOf<int>(ordered)},
                      checking(resident));
  return r;
}

// (d) The grid barrier from an acq_rel counter at device scope: each work-group's release
// (its work-group barrier, then local id 0's read-modify-write) is in the counter's
// release sequence, which every other local id 0's acquire load reads; the work-group
// barrier after it passes that on. So the writes before it happen before the reads of
// the next work-group after it, and those reads before the writes after the second: no
// race, whatever the interleaving. 2 work-groups at occupancy:2, 4 at occupancy:4, and
// 20 at occupancy:20 (the counter's unordered atomics outnumber the 16 kept per byte, so
// the oldest go: that may hide a race, never make one).
TEST_P(Resident, GridBarrierFromAcquireReleaseAtomicsIsNoRace) {
  for (uint64_t groups : {2u, 4u, 20u}) {
    SCOPED_TRACE(groups);
    const Grid g = grid(program(), groups, true, groups);
    EXPECT_TRUE(g.result.diagnostics.empty()) << describe(g.result);
    const uint64_t n = groups * 16;
    for (uint64_t i = 0; i < n; ++i) {
      EXPECT_EQ(g.out[i], int32_t((i + 16) % n + 1)) << i;
      EXPECT_EQ(g.data[i], -int32_t(i)) << i;
    }
    EXPECT_EQ(g.count[0], int32_t(2 * groups));
  }
}

// The same barrier from relaxed atomics orders nothing between work-groups: the reads of
// the next work-group's data race with its writes. Both work-groups passed work-group
// barriers over global memory between them, which order only each work-group's own
// work-items: the checker says `insufficient-scope` (src/check/race_checker.h).
TEST_P(Resident, GridBarrierFromRelaxedAtomicsRaces) {
  const Grid g = grid(program(), 2, false, 2);
  EXPECT_EQ(g.out[0], 17);
  EXPECT_EQ(kinds(g.result), (std::set<std::string>{"insufficient-scope"})) << describe(g.result);
  EXPECT_GE(countOn(g.result, DiagnosticKind::InsufficientScope, "(data)"), 1u);
  EXPECT_NE(g.result.diagnostics[0].message.find(
                "the work-group barriers between them order only the work-items of one "
                "work-group"),
            std::string::npos)
      << describe(g.result);
}

// Three work-groups of two sub-groups at occupancy:2: each releases through its local
// flag and computes for several turns before acquiring, while the others run (storing to
// their own flag, at the same kernel pointer; work-group 2 starting when 0 ends). Each
// keeps its local memory's history and releases: no race, and every read sees its own
// work-group's data.
TEST_P(Resident, LocalMemoryIsEachWorkGroupsOwn) {
  std::vector<int32_t> out(96, -1), sums(96, 0);
  const LaunchResult r =
      program().launch("local_mp", range1(96, 32),
                       {bufferOf(out), bufferOf(sums), valueOf<int>(20000)}, checking(2));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int g = 0; g < 3; ++g)
    for (int l = 16; l < 32; ++l) EXPECT_EQ(out[32 * g + l], l - 16 + 100 * g) << g << " " << l;
}

// Work-group 1 writes dst while work-group 0's copy into it is issued and not yet waited
// for: the copy may complete any time until the wait, and nothing orders work-group 1's
// write with it (a data race, reported against the pending copy). One after the other,
// the copy is complete and in the history when work-group 1 writes: the same race,
// reported against work-group 0's copy as an access of its work-item 0.
TEST_P(Resident, AnotherWorkGroupsPendingAsyncCopyRaces) {
  for (uint64_t resident : {2u, 0u}) {
    SCOPED_TRACE(resident);
    std::vector<int32_t> dst(16, 7), out(16, 0);
    const LaunchResult r =
        program().launch("copy_pending", range1(32, 16),
                         {bufferOf(dst), bufferOf(out), valueOf<int>(20000)}, checking(resident));
    EXPECT_EQ(kinds(r), kRace) << describe(r);
    EXPECT_EQ(countOn(r, DiagnosticKind::DataRace, "(dst)"), 1u) << describe(r);
    if (resident) {
      EXPECT_EQ(countOn(r, DiagnosticKind::DataRace, "work-group (0,0,0)'s async copy"), 1u)
          << describe(r);
    }
  }
}

// --check-undefined with the race checker: work-group 1's write defines data[0] for
// work-group 0, resident with it; data[1], never written, is undefined where work-group 0
// stores it to out. No race (the hand-off is release/acquire), no `unsupported`.
TEST_P(Resident, UndefinedValuesSeeTheOtherWorkGroupsWrites) {
  std::vector<int32_t> data{0, 0}, flag{0}, out{-1, -1};
  ArgBinding noinit = bufferOf(data);
  noinit.uninitialized = true;
  LaunchOptions o = checking(2);
  o.observers = check::observersFor({.races = true, .undefinedValues = true});
  const LaunchResult r =
      program().launch("mp_undefined", range1(32, 16), {noinit, bufferOf(flag), bufferOf(out)}, o);
  EXPECT_EQ(out[0], 42);
  EXPECT_EQ(kinds(r), (std::set<std::string>{"uninitialized-value"})) << describe(r);
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("stored to global memory"), std::string::npos)
      << describe(r);
  EXPECT_EQ(r.diagnostics[0].workGroup, (std::array<uint64_t, 3>{0, 0, 0}));
}

INSTANTIATE_TEST_SUITE_P(Builds, Resident, ::testing::Values("-O0", "-O2"),
                         [](const auto& info) { return std::string(info.param + 1); });

}  // namespace
}  // namespace spvsim
