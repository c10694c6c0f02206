// The execution-event interface (src/exec/observer.h): a counting observer attached to a
// small kernel sees exactly the events worked out by hand from the kernel's SPIR-V.
#include "src/exec/observer.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "src/exec/program.h"
#include "src/exec/subgroup.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::compileOpenCL;
using testing::describe;
using testing::range1;

// clang-15 + llvm-spirv-15 compile it to (at -O2; -O0 adds the private traffic below):
//   OpLoad %v3ulong LocalInvocationId, OpLoad %v3ulong GlobalInvocationId  (private)
//   %22 = OpLoad %uint %21                                   (global read, 4 bytes)
//   OpStore %23 %22                                          (local write, 4 bytes)
//   OpControlBarrier Workgroup Workgroup 0x110 (WorkgroupMemory|SequentiallyConsistent)
//   OpAtomicIAdd %uint %14 Device(1) Relaxed(0) %uint_1      (global, 4 bytes)
//   OpMemoryBarrier Workgroup 0x204 (CrossWorkgroupMemory|Release)
const char* kKernel = R"(
kernel void k(global const int* in, global atomic_int* counter, local int* tmp) {
  size_t l = get_local_id(0);
  int v = in[get_global_id(0)];
  tmp[l] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add_explicit(counter, 1, memory_order_relaxed, memory_scope_device);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_work_group);
})";

constexpr uint32_t kWorkgroup = 2, kDevice = 1;
constexpr uint32_t kBarrierSemantics = 0x110, kFenceSemantics = 0x204;

struct Counts {
  int launchBegin = 0, launchEnd = 0, groupBegin = 0, groupEnd = 0;
  int fences = 0, subGroupBarriers = 0, groupBarriers = 0;
  // (kind, space) -> lane accesses
  std::map<std::pair<AccessKind, Space>, int> accesses;
  std::vector<std::string> problems;  // events whose details were not as expected
};

class CountingObserver : public ExecutionObserver {
 public:
  explicit CountingObserver(Counts& c) : c_(c) {}
  void launchBegin(const LaunchContext&) override { ++c_.launchBegin; }
  void launchEnd() override { ++c_.launchEnd; }
  void workGroupBegin(WorkGroupContext&, SubGroup*, size_t count) override {
    ++c_.groupBegin;
    if (count != 2) c_.problems.push_back("work-group of " + std::to_string(count));
  }
  void workGroupEnd(WorkGroupContext&) override { ++c_.groupEnd; }
  void access(SubGroup& sg, const MemoryAccess& a) override {
    ++c_.accesses[{a.kind, pointerSpace(a.pointer)}];
    if (!sg.mask.test(a.lane)) c_.problems.push_back("inactive lane");
    const bool shared = pointerSpace(a.pointer) != Space::Private;
    if (shared && a.bytes != 4) c_.problems.push_back("bytes " + std::to_string(a.bytes));
    if (isAtomic(a.kind) && (a.scope != kDevice || a.semantics != 0))
      c_.problems.push_back("atomic scope/semantics");
  }
  void fence(SubGroup& sg, uint32_t scope, uint32_t semantics) override {
    ++c_.fences;
    if (scope != kWorkgroup || semantics != kFenceSemantics || sg.activeCount != 4)
      c_.problems.push_back("fence");
  }
  void subGroupBarrier(SubGroup&, uint32_t, uint32_t) override { ++c_.subGroupBarriers; }
  void workGroupBarrier(SubGroup*, size_t count, uint32_t scope, uint32_t semantics) override {
    ++c_.groupBarriers;
    if (count != 2 || scope != kWorkgroup || semantics != kBarrierSemantics)
      c_.problems.push_back("work-group barrier");
  }

 private:
  Counts& c_;
};

class CountingFactory : public ObserverFactory {
 public:
  explicit CountingFactory(Counts& c) : c_(c) {}
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<CountingObserver>(c_);
  }

 private:
  Counts& c_;
};

// 2 work-groups of 8 work-items, sub-groups of 4: 2 sub-groups per work-group.
Counts run(const std::string& flags) {
  auto program = Program::load(compileOpenCL(kKernel, flags));
  std::vector<int> in(16, 7), counter(1, 0);
  Counts c;
  LaunchOptions o;
  o.threads = 1;
  o.subGroupSize = 4;
  o.observers.push_back(std::make_shared<CountingFactory>(c));
  auto result = program->launch("k", range1(16, 8),
                                {bufferOf(in), bufferOf(counter), ArgBinding::local(32)}, o);
  EXPECT_TRUE(result.diagnostics.empty()) << describe(result);
  EXPECT_EQ(counter[0], 16);
  return c;
}

void expectCommon(const Counts& c) {
  EXPECT_EQ(c.launchBegin, 1);  // one host thread: one slot
  EXPECT_EQ(c.launchEnd, 1);
  EXPECT_EQ(c.groupBegin, 2);
  EXPECT_EQ(c.groupEnd, 2);
  EXPECT_EQ(c.groupBarriers, 2);  // one per work-group
  EXPECT_EQ(c.subGroupBarriers, 0);
  EXPECT_EQ(c.fences, 4);  // one per sub-group
  const auto at = [&](AccessKind k, Space s) {
    auto it = c.accesses.find({k, s});
    return it == c.accesses.end() ? 0 : it->second;
  };
  EXPECT_EQ(at(AccessKind::Read, Space::Global), 16);
  EXPECT_EQ(at(AccessKind::Write, Space::Local), 16);
  EXPECT_EQ(at(AccessKind::AtomicRmw, Space::Global), 16);
  EXPECT_TRUE(c.problems.empty()) << c.problems.front();
}

TEST(Observer, SeesEveryEventOfAnOptimisedKernel) {
  const Counts c = run("");
  expectCommon(c);
  // The two built-in loads per work-item, nothing else private.
  EXPECT_EQ(c.accesses.at({AccessKind::Read, Space::Private}), 32);
  EXPECT_EQ(c.accesses.count({AccessKind::Write, Space::Private}), 0u);
  EXPECT_EQ(c.accesses.size(), 4u);
}

TEST(Observer, SeesThePrivateTrafficOfAnUnoptimisedKernel) {
  // -O0 spills the three parameters, l and v to Function variables (5 stores per
  // work-item) and reloads each once besides the 2 built-in loads (7 loads).
  const Counts c = run("-O0");
  expectCommon(c);
  EXPECT_EQ(c.accesses.at({AccessKind::Write, Space::Private}), 80);
  EXPECT_EQ(c.accesses.at({AccessKind::Read, Space::Private}), 112);
  EXPECT_EQ(c.accesses.size(), 5u);
}

// No observer: the launch runs as before (fast paths on) and gives the same result.
TEST(Observer, NoneAttachedChangesNothing) {
  auto program = Program::load(compileOpenCL(kKernel));
  std::vector<int> in(16, 7), counter(1, 0);
  LaunchOptions o;
  o.subGroupSize = 4;
  auto result = program->launch("k", range1(16, 8),
                                {bufferOf(in), bufferOf(counter), ArgBinding::local(32)}, o);
  EXPECT_TRUE(result.diagnostics.empty()) << describe(result);
  EXPECT_EQ(counter[0], 16);
}

// An observer of global memory that needs none of the accesses to argument 0's buffer
// (ObserverFactory::watchesGlobalRegion): those take the fast paths unreported, those to
// argument 1's are reported lane by lane (or as runs, which count their lanes); the
// Reference tier reports every one. Lanes worked by hand: 64 work-items each read in[i]
// once and write out[i] once.
struct LaneCounts {
  uint64_t reads[3] = {}, writes[3] = {};  // by global region
};

class RegionCounter : public ExecutionObserver {
 public:
  explicit RegionCounter(LaneCounts& c) : c_(c) {}
  void access(SubGroup&, const MemoryAccess& a) override {
    const uint64_t r = pointerRegion(a.pointer);
    if (pointerSpace(a.pointer) != Space::Global || r >= 3) return;
    (a.kind == AccessKind::Write ? c_.writes : c_.reads)[r] += 1;
  }

 private:
  LaneCounts& c_;
};

class SkipsArgumentZero : public ObserverFactory {
 public:
  explicit SkipsArgumentZero(LaneCounts& c) : c_(c) {}
  uint32_t spaces(const LaunchContext&) const override { return spaceBit(Space::Global); }
  bool watchesGlobalRegion(const LaunchContext& launch, uint64_t region) const override {
    return !launch.memory->global[region].name.starts_with("argument 0");
  }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<RegionCounter>(c_);
  }

 private:
  LaneCounts& c_;
};

TEST(Observer, GlobalRegionsNobodyWatchesAreNotReported) {
  auto program = Program::load(compileOpenCL(R"(
kernel void inc(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
}
)",
                                             "-O2"));
  for (auto tier : {LaunchOptions::Tier::Fast, LaunchOptions::Tier::Reference}) {
    std::vector<int> in(64), out(64, 0);
    for (int i = 0; i < 64; ++i) in[i] = 3 * i;
    LaneCounts c;
    LaunchOptions o;
    o.threads = 1;
    o.subGroupSize = 16;
    o.tier = tier;
    o.observers.push_back(std::make_shared<SkipsArgumentZero>(c));
    auto result = program->launch("inc", range1(64, 32), {bufferOf(in), bufferOf(out)}, o);
    EXPECT_TRUE(result.diagnostics.empty()) << describe(result);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(out[i], 3 * i + 1) << i;
    const bool fast = tier == LaunchOptions::Tier::Fast;
    // Regions 1 and 2: the arguments' buffers, in order.
    EXPECT_EQ(c.reads[1], fast ? 0u : 64u);
    EXPECT_EQ(c.writes[2], 64u);
    EXPECT_EQ(c.reads[2] + c.writes[1], 0u);
  }
}

}  // namespace
}  // namespace spvsim
