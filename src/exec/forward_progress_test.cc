// --forward-progress (LaunchOptions::ForwardProgress; src/exec/resident_groups.h): a
// work-group that waits for another is a deadlock without forward progress between
// work-groups (OpenCL's promise: none), and completes with the right result when the two
// are resident together; a wait on a work-group that cannot be resident still deadlocks,
// with a message that says so.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "src/compiler/compile_driver.h"
#include "src/exec/observer.h"
#include "src/exec/program.h"
#include "src/exec/subgroup.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;

std::shared_ptr<Program> compile(const char* src, const char* opt) {
  return Program::load(
      compiler::compileOpenCL({.source = src, .options = opt, .useCache = false}).words);
}

LaunchOptions occupancy(uint64_t resident) {
  LaunchOptions o;
  o.forwardProgress = LaunchOptions::ForwardProgress::Occupancy;
  o.residentGroups = resident;
  return o;
}

// Work-group 0 waits for a flag work-group 1 sets after writing data[0] = 41, then
// writes data[0] + 1. Work-groups of 16 work-items, one sub-group each.
const char* kHandoff = R"(
kernel void k(global atomic_int* flag, global int* data, global int* out) {
  if (get_local_id(0) != 0) return;
  if (get_group_id(0) == 0) {
    while (atomic_load_explicit(flag, memory_order_acquire, memory_scope_device) == 0) {}
    out[0] = data[0] + 1;
  } else {
    data[0] = 41;
    atomic_store_explicit(flag, 1, memory_order_release, memory_scope_device);
  }
}
)";

struct Handoff {
  LaunchResult result;
  std::vector<int32_t> flag{0}, data{0}, out{-1};
};

Handoff runHandoff(Program& p, LaunchOptions o) {
  Handoff h;
  o.subGroupSize = 16;
  h.result =
      p.launch("k", range1(32, 16), {bufferOf(h.flag), bufferOf(h.data), bufferOf(h.out)}, o);
  return h;
}

size_t count(const LaunchResult& r, DiagnosticKind kind) {
  size_t n = 0;
  for (const Diagnostic& d : r.diagnostics) n += d.kind == kind;
  return n;
}

// None, on one host thread (work-groups one after the other, in order; with more threads
// work-group 1 may run beside 0 and release it, README "Scheduling and deadlock"):
// work-group 0 spins with nothing in it writing, a deadlock, and the launch stops there.
TEST(ForwardProgress, NoneDeadlocksOnAWaitForAnotherWorkGroup) {
  for (const char* opt : {"-O0", "-O2"}) {
    auto p = compile(kHandoff, opt);
    LaunchOptions o;
    o.threads = 1;
    const Handoff h = runHandoff(*p, o);
    EXPECT_EQ(count(h.result, DiagnosticKind::Deadlock), 1u) << opt << describe(h.result);
    EXPECT_EQ(h.out[0], -1) << opt;
  }
}

// occupancy:2: both resident; work-group 1 runs while 0 waits, and 0 then reads 41 and
// writes 42. occupancy (0: the compute units, here --threads 4) holds both too.
TEST(ForwardProgress, OccupancyTwoCompletes) {
  for (const char* opt : {"-O0", "-O2"}) {
    auto p = compile(kHandoff, opt);
    for (uint64_t resident : {2u, 3u}) {
      const Handoff h = runHandoff(*p, occupancy(resident));
      EXPECT_TRUE(h.result.diagnostics.empty()) << opt << describe(h.result);
      EXPECT_EQ(h.flag[0], 1) << opt;
      EXPECT_EQ(h.data[0], 41) << opt;
      EXPECT_EQ(h.out[0], 42) << opt << " resident " << resident;
    }
    LaunchOptions byUnits = occupancy(0);
    byUnits.threads = 4;
    const Handoff h = runHandoff(*p, byUnits);
    EXPECT_TRUE(h.result.diagnostics.empty()) << opt << describe(h.result);
    EXPECT_EQ(h.out[0], 42) << opt;
  }
}

// occupancy:1: work-group 1 cannot start before 0 ends, and 0 waits for it: still a
// deadlock, and the message says why.
TEST(ForwardProgress, OccupancyOneStillDeadlocks) {
  auto p = compile(kHandoff, "-O2");
  const Handoff h = runHandoff(*p, occupancy(1));
  ASSERT_EQ(count(h.result, DiagnosticKind::Deadlock), 1u) << describe(h.result);
  const std::string& m = h.result.diagnostics[0].message;
  EXPECT_NE(m.find("Under --forward-progress occupancy:1 it is the only resident work-group, "
                   "and the 1 work-group not started yet cannot start before a resident one "
                   "ends"),
            std::string::npos)
      << m;
  EXPECT_EQ(h.out[0], -1);
  EXPECT_EQ(h.flag[0], 0);  // work-group 1 never ran
}

// A grid barrier of persistent threads: each of 4 work-groups sums its 16 items of `in`
// into partial[g], arrives at an atomic counter and waits for all 4, then adds the
// partials. in[i] = i: partial[g] = sum of 16g..16g+15 = 256g + 120 (120, 376, 632, 888),
// and every out[g] = 0 + 1 + ... + 63 = 2016.
const char* kGridBarrier = R"(
kernel void k(global const int* in, global int* partial, global atomic_int* arrived,
              global int* out) {
  uint g = get_group_id(0), n = get_num_groups(0), size = get_local_size(0);
  if (get_local_id(0) != 0) return;
  int s = 0;
  for (uint i = 0; i < size; ++i) s += in[g * size + i];
  partial[g] = s;
  atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel, memory_scope_device);
  while (atomic_load_explicit(arrived, memory_order_acquire, memory_scope_device) < n) {}
  int total = 0;
  for (uint k = 0; k < n; ++k) total += partial[k];
  out[g] = total;
}
)";

struct Grid {
  LaunchResult result;
  std::vector<int32_t> in, partial, arrived{0}, out;
};

Grid runGrid(Program& p, LaunchOptions o) {
  Grid r;
  r.in.resize(64);
  for (int i = 0; i < 64; ++i) r.in[i] = i;
  r.partial.assign(4, -1);
  r.out.assign(4, -1);
  o.subGroupSize = 16;
  r.result =
      p.launch("k", range1(64, 16),
               {bufferOf(r.in), bufferOf(r.partial), bufferOf(r.arrived), bufferOf(r.out)}, o);
  return r;
}

TEST(ForwardProgress, GridBarrierNeedsEveryWorkGroupResident) {
  for (const char* opt : {"-O0", "-O2"}) {
    auto p = compile(kGridBarrier, opt);
    for (uint64_t resident : {4u, 8u}) {  // 8: more places than work-groups
      const Grid g = runGrid(*p, occupancy(resident));
      EXPECT_TRUE(g.result.diagnostics.empty()) << opt << describe(g.result);
      EXPECT_EQ(g.partial, (std::vector<int32_t>{120, 376, 632, 888})) << opt;
      EXPECT_EQ(g.arrived[0], 4) << opt;
      EXPECT_EQ(g.out, (std::vector<int32_t>{2016, 2016, 2016, 2016})) << opt;
    }
    // occupancy:2: work-groups 0 and 1 arrive (arrived = 2) and wait for 2 and 3, which
    // cannot start: a deadlock in each resident work-group at the same spin, folded into
    // one diagnostic (work-group 0's, naming 1 and the two not started) and a repeat.
    const Grid g = runGrid(*p, occupancy(2));
    ASSERT_EQ(count(g.result, DiagnosticKind::Deadlock), 1u) << opt << describe(g.result);
    const Diagnostic& d = g.result.diagnostics[0];
    EXPECT_EQ(d.repeats, 1u) << opt;
    EXPECT_EQ(d.workGroup, (std::array<uint64_t, 3>{0, 0, 0})) << opt;
    EXPECT_NE(d.message.find("Under --forward-progress occupancy:2 the work-groups resident "
                             "with it wait too ((1,0,0)), and the 2 work-groups not started "
                             "yet cannot start before a resident one ends: nothing is left to "
                             "write what they wait for"),
              std::string::npos)
        << d.message;
    EXPECT_EQ(g.arrived[0], 2) << opt;
    EXPECT_EQ(g.partial, (std::vector<int32_t>{120, 376, -1, -1})) << opt;
    EXPECT_EQ(g.out, (std::vector<int32_t>{-1, -1, -1, -1})) << opt;
  }
}

// The same run at any thread count: resident work-groups take turns on one host thread.
TEST(ForwardProgress, OccupancyIgnoresTheThreadCount) {
  auto p = compile(kGridBarrier, "-O2");
  for (unsigned threads : {1u, 2u, 4u}) {
    LaunchOptions o = occupancy(4);
    o.threads = threads;
    const Grid g = runGrid(*p, o);
    EXPECT_TRUE(g.result.diagnostics.empty()) << threads << describe(g.result);
    EXPECT_EQ(g.out, (std::vector<int32_t>{2016, 2016, 2016, 2016})) << threads;
  }
}

// An observer that follows work-groups one at a time (a serial factory) gets one per
// resident place, each seeing only its own work-groups; unless its factory takes the
// work-groups resident together (sharing a launch state among the places, as the
// checkers do), the launch says so once. With one resident place it sees them all, in
// order.
class Serial final : public ObserverFactory {
 public:
  bool serial() const override { return true; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    struct Quiet final : ExecutionObserver {};
    return std::make_unique<Quiet>();
  }
};

// A serial factory that takes resident work-groups: one launch state, made once per
// launch, which every place's observer finds in the launch context; each sees its own
// work-groups begin and end.
class Shared final : public ObserverFactory {
 public:
  struct Seen final : ObserverLaunchState {
    std::vector<uint64_t> begun, ended;
  };
  bool serial() const override { return true; }
  bool takesResidentGroups() const override { return true; }
  std::unique_ptr<ObserverLaunchState> launchState(const LaunchContext&) const override {
    ++made;
    return std::make_unique<Seen>();
  }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext& launch) const override {
    // What the launch state saw, copied out as each place's observer goes (the state
    // goes with the launch).
    struct Recorder final : ExecutionObserver {
      Recorder(Seen& s, const Shared& f) : seen(s), factory(f) {}
      void workGroupBegin(WorkGroupContext& wg, SubGroup*, size_t) override {
        seen.begun.push_back(wg.linearId);
      }
      void workGroupEnd(WorkGroupContext& wg) override { seen.ended.push_back(wg.linearId); }
      void launchEnd() override {
        factory.begun = seen.begun;
        factory.ended = seen.ended;
      }
      Seen& seen;
      const Shared& factory;
    };
    ++created;
    auto* seen = static_cast<Seen*>(launch.launchStateOf(this));
    if (!seen) throw std::runtime_error("no launch state");
    return std::make_unique<Recorder>(*seen, *this);
  }
  mutable int made = 0, created = 0;
  mutable std::vector<uint64_t> begun, ended;
};

TEST(ForwardProgress, SerialObserversAreToldApart) {
  auto p = compile(kHandoff, "-O2");
  LaunchOptions o = occupancy(2);
  o.observers = {std::make_shared<Serial>()};
  const Handoff h = runHandoff(*p, o);
  EXPECT_EQ(h.out[0], 42);
  ASSERT_EQ(h.result.diagnostics.size(), 1u) << describe(h.result);
  const Diagnostic& d = h.result.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::Unsupported);
  EXPECT_EQ(d.severity, Severity::Warning);
  EXPECT_EQ(d.message,
            "under --forward-progress occupancy:2 the observers that follow the work-groups one "
            "at a time without taking those resident together (an observer's state) see each "
            "of the 2 resident places apart: what work-groups resident at the same time do to "
            "each other is not seen by them");
  o = occupancy(1);
  o.observers = {std::make_shared<Serial>()};
  EXPECT_EQ(count(runHandoff(*p, o).result, DiagnosticKind::Unsupported), 0u);
}

TEST(ForwardProgress, SharedLaunchStateTakesResidentGroups) {
  auto p = compile(kHandoff, "-O2");
  LaunchOptions o = occupancy(2);
  auto shared = std::make_shared<Shared>();
  o.observers = {shared};
  const Handoff h = runHandoff(*p, o);
  EXPECT_EQ(h.out[0], 42);
  EXPECT_TRUE(h.result.diagnostics.empty()) << describe(h.result);  // no `unsupported`
  EXPECT_EQ(shared->made, 1);
  EXPECT_EQ(shared->created, 2);  // one observer per place
  // Both admitted before either runs; work-group 1 (the writer) ends first.
  EXPECT_EQ(shared->begun, (std::vector<uint64_t>{0, 1}));
  EXPECT_EQ(shared->ended, (std::vector<uint64_t>{1, 0}));
}

}  // namespace
}  // namespace spvsim
