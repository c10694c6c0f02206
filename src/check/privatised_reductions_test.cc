// Privatised reductions (src/DESIGN.md, "Privatised reductions"): which buffers a launch
// privatises, and that the results equal a host model's at every thread count, for
// every combining op, 32- and 64-bit, in divergent code and with lanes out of bounds;
// and that every use the analysis must not accept keeps the buffer shared. Expected
// values come from the C++ models below, never from the simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/launch.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;
using testing::valueOf;

const char* const kOptLevels[] = {"-O0", "-O1", "-O2", "-O3", "-O2 -g"};

LaunchOptions withThreads(unsigned threads, uint32_t subGroupSize = 16) {
  LaunchOptions o;
  o.threads = threads;
  o.subGroupSize = subGroupSize;
  return o;
}

// Whether the launch privatised the buffer of parameter `param` (LaunchResult::privatised
// names it "argument K (NAME): OP").
bool privatises(const LaunchResult& r, uint32_t param) {
  for (const auto& p : r.privatised)
    if (p.starts_with("argument " + std::to_string(param) + " (")) return true;
  return false;
}

// Every combining op on 32- and 64-bit elements, some lanes in divergent code.
const char* kAllOps = R"(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void all(global const uint* in, global uint* bins, global int* mins, global int* maxs,
                global ulong* ands, global ulong* ors, global uint* xors, global uint* subs,
                global ulong* wide) {
  size_t i = get_global_id(0);
  uint v = in[i];
  atomic_inc(&bins[v % 61]);
  atomic_add(&bins[(v >> 8) % 61], v & 7);
  if (i % 3 == 0) atomic_inc(&bins[60]);
  atomic_min(&mins[v % 5], (int)v - 1000);
  atomic_max(&maxs[i % 3], (int)(v ^ (uint)i));
  atom_and(&ands[v % 4], ~(1ul << (v % 64)));
  atom_or(&ors[i % 4], 1ul << (v % 64));
  atomic_xor(&xors[i % 7], v);
  atomic_sub(&subs[0], v);
  atomic_dec(&subs[1]);
  atom_add(&wide[i % 2], (ulong)v << 20);
}
)";

struct AllOps {
  std::vector<uint32_t> bins = std::vector<uint32_t>(61, 5);
  std::vector<int32_t> mins = std::vector<int32_t>(5, 0);
  std::vector<int32_t> maxs = std::vector<int32_t>(3, -7);
  std::vector<uint64_t> ands = std::vector<uint64_t>(4, ~uint64_t(0));
  std::vector<uint64_t> ors = std::vector<uint64_t>(4, 0x100);
  std::vector<uint32_t> xors = std::vector<uint32_t>(7, 0x5a5a);
  std::vector<uint32_t> subs = std::vector<uint32_t>(2, 3);
  std::vector<uint64_t> wide = std::vector<uint64_t>(2, uint64_t(1) << 40);
};

AllOps allOpsModel(const std::vector<uint32_t>& in) {
  AllOps m;
  for (uint32_t i = 0; i < in.size(); ++i) {
    const uint32_t v = in[i];
    m.bins[v % 61] += 1;
    m.bins[(v >> 8) % 61] += v & 7;
    if (i % 3 == 0) m.bins[60] += 1;
    m.mins[v % 5] = std::min(m.mins[v % 5], int32_t(v) - 1000);
    m.maxs[i % 3] = std::max(m.maxs[i % 3], int32_t(v ^ i));
    m.ands[v % 4] &= ~(uint64_t(1) << (v % 64));
    m.ors[i % 4] |= uint64_t(1) << (v % 64);
    m.xors[i % 7] ^= v;
    m.subs[0] -= v;
    m.subs[1] -= 1;
    m.wide[i % 2] += uint64_t(v) << 20;
  }
  return m;
}

std::vector<uint32_t> pseudoRandom(size_t n) {
  std::vector<uint32_t> v(n);
  uint32_t x = 12345;
  for (auto& e : v) e = x = x * 1664525u + 1013904223u;
  return v;
}

TEST(PrivatisedReductions, EveryOpMatchesTheHostModelAtEveryThreadCount) {
  constexpr size_t kItems = 3000;  // not a multiple of the work-group size
  std::vector<uint32_t> in = pseudoRandom(kItems);
  const AllOps want = allOpsModel(in);
  for (const char* opt : kOptLevels) {
    auto prog = Program::load(testing::compileOpenCL(kAllOps, opt));
    for (unsigned threads : {1u, 2u, 4u})
      for (uint32_t sg : {16u, 5u}) {
        SCOPED_TRACE(std::string(opt) + " threads " + std::to_string(threads) + " sub-group " +
                     std::to_string(sg));
        AllOps got;
        LaunchResult r = prog->launch("all", range1(kItems, 40),
                                      {bufferOf(in), bufferOf(got.bins), bufferOf(got.mins),
                                       bufferOf(got.maxs), bufferOf(got.ands), bufferOf(got.ors),
                                       bufferOf(got.xors), bufferOf(got.subs), bufferOf(got.wide)},
                                      withThreads(threads, sg));
        ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
        EXPECT_EQ(got.bins, want.bins);
        EXPECT_EQ(got.mins, want.mins);
        EXPECT_EQ(got.maxs, want.maxs);
        EXPECT_EQ(got.ands, want.ands);
        EXPECT_EQ(got.ors, want.ors);
        EXPECT_EQ(got.xors, want.xors);
        EXPECT_EQ(got.subs, want.subs);
        EXPECT_EQ(got.wide, want.wide);
        // -O0 keeps the parameters in private variables: pointers loaded from memory,
        // which the analysis does not follow, so nothing is privatised there.
        if (std::string(opt) != "-O0") {
          for (uint32_t p = 1; p <= 8; ++p) EXPECT_TRUE(privatises(r, p)) << p;
          EXPECT_EQ(r.privatised.size(), 8u);
        }
      }
  }
}

// Buffers as large as privatisation takes: every thread's copies are folded in slices
// on the pool's threads (src/exec/reduction_copies.h, foldSlices), and the sums and
// maxima are the host model's at every thread count.
TEST(PrivatisedReductions, LargeBuffersFoldInSlicesToTheHostModel) {
  const char* src = R"(
kernel void big(global const uint* in, global uint* sums, global ulong* maxs) {
  uint v = in[get_global_id(0)];
  atomic_add(&sums[v % 65535u], 1 + (v & 3));
  atom_max(&maxs[(v >> 3) % 32767u], (ulong)v * 3);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in = pseudoRandom(150000);
  std::vector<uint32_t> wantSums(65535, 1);
  std::vector<uint64_t> wantMaxs(32767, 2);
  for (uint32_t v : in) {
    wantSums[v % 65535u] += 1 + (v & 3);
    wantMaxs[(v >> 3) % 32767u] = std::max<uint64_t>(wantMaxs[(v >> 3) % 32767u], uint64_t(v) * 3);
  }
  for (unsigned threads : {1u, 3u, 4u}) {
    SCOPED_TRACE(threads);
    std::vector<uint32_t> sums(65535, 1);
    std::vector<uint64_t> maxs(32767, 2);
    LaunchResult r =
        prog->launch("big", range1(in.size(), 50), {bufferOf(in), bufferOf(sums), bufferOf(maxs)},
                     withThreads(threads));
    ASSERT_TRUE(r.diagnostics.empty()) << describe(r);
    EXPECT_TRUE(privatises(r, 1));
    EXPECT_TRUE(privatises(r, 2));
    EXPECT_EQ(sums, wantSums);
    EXPECT_EQ(maxs, wantMaxs);
  }
}

// A histogram whose bin index is out of bounds for some lanes: those lanes are reported,
// the others counted (in the copy and, at the end, the buffer).
TEST(PrivatisedReductions, LanesOutOfBoundsAreReportedAndTheOthersCounted) {
  const char* src = R"(
kernel void h(global const uint* in, global uint* bins) {
  atomic_inc(&bins[in[get_global_id(0)]]);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in(256);
  for (uint32_t i = 0; i < in.size(); ++i) in[i] = i % 37 == 5 ? 16 + i : i % 16;
  std::vector<uint32_t> want(16, 0);
  for (uint32_t v : in)
    if (v < 16) ++want[v];
  for (unsigned threads : {1u, 3u}) {
    std::vector<uint32_t> bins(16, 0);
    LaunchResult r = prog->launch("h", range1(in.size(), 32), {bufferOf(in), bufferOf(bins)},
                                  withThreads(threads));
    EXPECT_TRUE(privatises(r, 1));
    ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
    EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds) << describe(r);
    EXPECT_EQ(bins, want);
  }
}

// Uses of a buffer that the analysis must not accept: the launch keeps it shared, and the
// results are those of real atomics.
TEST(PrivatisedReductions, AResultThatIsUsedKeepsTheBufferShared) {
  const char* src = R"(
kernel void tickets(global uint* counter, global uint* out) {
  out[get_global_id(0)] = atomic_inc(&counter[0]);
}
)";
  for (const char* opt : kOptLevels) {
    SCOPED_TRACE(opt);
    auto prog = Program::load(testing::compileOpenCL(src, opt));
    std::vector<uint32_t> counter(1, 0), out(1000, 0);
    LaunchResult r = prog->launch("tickets", range1(out.size(), 50),
                                  {bufferOf(counter), bufferOf(out)}, withThreads(4));
    EXPECT_TRUE(r.privatised.empty());
    EXPECT_EQ(counter[0], out.size());
    std::sort(out.begin(), out.end());  // each ticket handed out once
    std::vector<uint32_t> want(out.size());
    std::iota(want.begin(), want.end(), 0u);
    EXPECT_EQ(out, want);
  }
}

TEST(PrivatisedReductions, ABufferTheKernelAlsoReadsStaysShared) {
  // Work-group 1 reads bin 0 after every work-group 0 item incremented it (the barrier
  // makes those increments visible to the reader of its own group); with a private copy
  // the read would see 0.
  const char* src = R"(
kernel void peek(global uint* bins, global uint* seen) {
  atomic_inc(&bins[0]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) seen[get_group_id(0)] = bins[0];
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> bins(1, 0), seen(4, 0);
  LaunchResult r =
      prog->launch("peek", range1(64, 16), {bufferOf(bins), bufferOf(seen)}, withThreads(1));
  EXPECT_TRUE(r.privatised.empty());
  EXPECT_EQ(bins[0], 64u);
  for (uint32_t g = 0; g < 4; ++g) EXPECT_EQ(seen[g], 16 * (g + 1)) << g;  // one thread: in order
}

TEST(PrivatisedReductions, OpsThatDoNotCommuteKeepTheBufferShared) {
  const char* src = R"(
kernel void mixed(global const uint* in, global uint* b) {
  uint v = in[get_global_id(0)];
  atomic_add(&b[v % 4], v);
  atomic_max(&b[(v >> 4) % 4], v);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in = pseudoRandom(64);
  for (auto& v : in) v %= 1000;
  std::vector<uint32_t> b(4, 0);
  // One thread, one lane at a time in item order: real atomics give the host model's
  // sequential result.
  LaunchResult r =
      prog->launch("mixed", range1(in.size(), 1), {bufferOf(in), bufferOf(b)}, withThreads(1, 1));
  EXPECT_TRUE(r.privatised.empty());
  std::vector<uint32_t> want(4, 0);
  for (uint32_t v : in) {
    want[v % 4] += v;
    want[(v >> 4) % 4] = std::max(want[(v >> 4) % 4], v);
  }
  EXPECT_EQ(b, want);
}

const char* kTwoHistograms = R"(
kernel void two(global uint* a, global uint* b) {
  size_t i = get_global_id(0);
  atomic_inc(&a[i % 4]);
  atomic_inc(&b[i % 8]);
}
)";

TEST(PrivatisedReductions, OneBufferBoundTwiceStaysShared) {
  auto prog = Program::load(testing::compileOpenCL(kTwoHistograms, "-O2"));
  std::vector<uint32_t> both(8, 0);
  LaunchResult r =
      prog->launch("two", range1(800, 16), {bufferOf(both), bufferOf(both)}, withThreads(4));
  EXPECT_TRUE(r.privatised.empty());
  EXPECT_EQ(both, std::vector<uint32_t>({300, 300, 300, 300, 100, 100, 100, 100}));
}

// The kernel reads the bins through a second parameter: bound to the same memory, the
// bins must stay shared, or the reads would miss the increments.
TEST(PrivatisedReductions, ABufferThatIsReadThroughAnotherArgumentStaysShared) {
  const char* src = R"(
kernel void alias(global uint* bins, global const uint* view, global uint* seen) {
  atomic_inc(&bins[0]);
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) seen[get_group_id(0)] = view[0];
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> bins(1, 0), seen(4, 0);
  LaunchResult r = prog->launch("alias", range1(64, 16),
                                {bufferOf(bins), bufferOf(bins), bufferOf(seen)}, withThreads(1));
  EXPECT_TRUE(r.privatised.empty());
  EXPECT_EQ(bins[0], 64u);
  for (uint32_t g = 0; g < 4; ++g) EXPECT_EQ(seen[g], 16 * (g + 1)) << g;  // one thread: in order
  // Through a buffer of its own, the view does not see the bins: they are privatised.
  std::vector<uint32_t> other(1, 7);
  bins[0] = 0;
  r = prog->launch("alias", range1(64, 16), {bufferOf(bins), bufferOf(other), bufferOf(seen)},
                   withThreads(1));
  EXPECT_TRUE(privatises(r, 0));
  EXPECT_EQ(bins[0], 64u);
  EXPECT_EQ(seen, std::vector<uint32_t>(4, 7));
}

TEST(PrivatisedReductions, OverlappingBuffersStayShared) {
  auto prog = Program::load(testing::compileOpenCL(kTwoHistograms, "-O2"));
  std::vector<uint32_t> data(10, 0);
  // a is data[2..6), b is data[0..8): they share data[2..6).
  LaunchResult r = prog->launch(
      "two", range1(800, 16),
      {ArgBinding::buffer(reinterpret_cast<uint8_t*>(data.data() + 2), 16), bufferOf(data)},
      withThreads(4));
  EXPECT_TRUE(r.privatised.empty());
  EXPECT_EQ(data, std::vector<uint32_t>({100, 100, 300, 300, 300, 300, 100, 100, 0, 0}));
  // Apart, both are privatised.
  std::vector<uint32_t> a(4, 0), b(8, 0);
  r = prog->launch("two", range1(800, 16), {bufferOf(a), bufferOf(b)}, withThreads(4));
  EXPECT_EQ(r.privatised.size(), 2u);
  EXPECT_EQ(a, std::vector<uint32_t>(4, 200));
  EXPECT_EQ(b, std::vector<uint32_t>(8, 100));
}

TEST(PrivatisedReductions, APointerPassedToAFunctionKeepsTheBufferShared) {
  const char* src = R"(
__attribute__((noinline)) void bump(global uint* p) { atomic_inc(p); }
kernel void callee(global uint* bins) { bump(&bins[get_global_id(0) % 3]); }
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> bins(3, 0);
  LaunchResult r = prog->launch("callee", range1(90, 10), {bufferOf(bins)}, withThreads(2));
  EXPECT_TRUE(r.privatised.empty());
  EXPECT_EQ(bins, std::vector<uint32_t>(3, 30));
}

// Relaxed device-scope increments that nothing else touches: no two of them can race or
// synchronise, so the checkers let them bypass (ReductionTarget::unordered) and the bins
// are privatised with every checker on, with no report and the host model's counts.
TEST(PrivatisedReductions, CheckersLetRelaxedDeviceWideReductionsBypassThem) {
  const char* src = R"(
kernel void h(global const uint* in, global atomic_uint* bins) {
  atomic_fetch_add_explicit(&bins[in[get_global_id(0)] % 8], 1u, memory_order_relaxed,
                            memory_scope_device);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in = pseudoRandom(200), bins(8, 0), want(8, 0);
  for (uint32_t v : in) ++want[v % 8];
  LaunchOptions o = withThreads(2);
  o.observers =
      check::observersFor({.races = true, .uninitialized = true, .undefinedValues = true});
  LaunchResult r = prog->launch("h", range1(in.size(), 20), {bufferOf(in), bufferOf(bins)}, o);
  EXPECT_TRUE(privatises(r, 1));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(bins, want);
}

// An observer that counts the atomics it sees and says nothing of reductions (the
// default: it must see every access).
struct AtomicCounter final : ExecutionObserver {
  explicit AtomicCounter(uint64_t& n) : n(n) {}
  void access(SubGroup&, const MemoryAccess& a) override { n += a.kind == AccessKind::AtomicRmw; }
  uint64_t& n;
};
struct AtomicCounterFactory final : ObserverFactory {
  explicit AtomicCounterFactory(uint64_t& n) : n(n) {}
  bool serial() const override { return true; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<AtomicCounter>(n);
  }
  uint64_t& n;
};

// Where the checkers could judge something on a reduction's atomics, they see every one
// of them: the buffer stays shared. Ordering semantics (seq_cst) and a fence in the call
// tree let them synchronise; work-group scope between work-groups is what the race
// checker reports (here as a possibly legacy atomic's warning); a buffer the host never initialised
// has the undefined-value checker's shadow to keep; any other observer sees every atomic.
TEST(PrivatisedReductions, CheckersSeeReductionsThatCanSynchroniseOrRace) {
  const char* src = R"(
kernel void sc(global const uint* in, global atomic_uint* bins) {
  atomic_fetch_add(&bins[in[get_global_id(0)] % 8], 1u);
}
kernel void fenced(global const uint* in, global atomic_uint* bins, global uint* out) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
  atomic_fetch_add_explicit(&bins[in[i] % 8], 1u, memory_order_relaxed, memory_scope_device);
}
kernel void group_scope(global const uint* in, global atomic_uint* bins) {
  atomic_fetch_add_explicit(&bins[in[get_global_id(0)] % 8], 1u, memory_order_relaxed,
                            memory_scope_work_group);
}
// llvm-spirv gives OpenCL 1.x atomic_inc Workgroup scope (possibly legacy: the race
// checker judges it as Device scope and warns between work-groups).
kernel void legacy(global const uint* in, global uint* bins) {
  atomic_inc(&bins[in[get_global_id(0)] % 8]);
}
kernel void relaxed(global const uint* in, global atomic_uint* bins) {
  atomic_fetch_add_explicit(&bins[in[get_global_id(0)] % 8], 1u, memory_order_relaxed,
                            memory_scope_device);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in = pseudoRandom(200), want(8, 0);
  for (uint32_t v : in) ++want[v % 8];
  const auto races = check::observersFor({.races = true});
  struct Case {
    const char* kernel;
    std::vector<std::shared_ptr<const ObserverFactory>> observers;
    bool noinit;
  };
  uint64_t seen = 0;
  const std::vector<std::shared_ptr<const ObserverFactory>> counter = {
      std::make_shared<AtomicCounterFactory>(seen)};
  for (const Case& c : {Case{"sc", races, false}, Case{"fenced", races, false},
                        Case{"group_scope", races, false}, Case{"legacy", races, false},
                        Case{"relaxed", check::observersFor({.undefinedValues = true}), true},
                        Case{"relaxed", counter, false}}) {
    std::vector<uint32_t> bins(8, 0), out(in.size());
    std::vector<ArgBinding> args = {bufferOf(in), bufferOf(bins)};
    args[1].uninitialized = c.noinit;
    if (std::string(c.kernel) == "fenced") args.push_back(bufferOf(out));
    LaunchOptions o = withThreads(2);
    o.observers = c.observers;
    LaunchResult r = prog->launch(c.kernel, range1(in.size(), 20), args, o);
    EXPECT_TRUE(r.privatised.empty()) << c.kernel;
    EXPECT_EQ(bins, want) << c.kernel;
    const std::string k = c.kernel;
    if (k == "group_scope" || k == "legacy") {
      ASSERT_FALSE(r.diagnostics.empty()) << c.kernel;
      // Both are relaxed Workgroup-scope atomics on global memory in this compiler's
      // module: possibly legacy, so judged as Device scope with a warning.
      EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::InsufficientScope) << describe(r);
      EXPECT_EQ(r.diagnostics[0].severity, Severity::Warning) << describe(r);
    } else if (!c.noinit) {
      EXPECT_TRUE(r.diagnostics.empty()) << c.kernel << ": " << describe(r);
    }
  }
  EXPECT_EQ(seen, in.size());  // the counter saw each work-item's increment
}

// The copies count against --max-memory: a limit that one work-group slot with them
// would pass turns privatisation off, and the launch runs with real atomics.
TEST(PrivatisedReductions, CopiesCountAgainstTheMemoryLimit) {
  const char* src = R"(
kernel void h(global const uint* in, global uint* bins) {
  atomic_inc(&bins[in[get_global_id(0)] % 1024]);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in = pseudoRandom(2048), bins(1024, 0), want(1024, 0);
  for (uint32_t v : in) ++want[v % 1024];
  const std::vector<ArgBinding> args = {bufferOf(in), bufferOf(bins)};
  LaunchOptions o = withThreads(2);
  o.maxMemory = uint64_t(1) << 30;
  const LaunchState roomy(*prog, prog->kernel("h"), range1(in.size(), 64), args, o);
  ASSERT_EQ(roomy.privatised().size(), 1u);
  o.maxMemory = roomy.slotBytes() - 1;  // the slot fits without the 4 KiB copy, not with it
  const LaunchState tight(*prog, prog->kernel("h"), range1(in.size(), 64), args, o);
  EXPECT_TRUE(tight.privatised().empty());
  EXPECT_EQ(tight.slotBytes(), roomy.slotBytes() - 4096);
  LaunchResult r = prog->launch("h", range1(in.size(), 64), args, o);
  EXPECT_TRUE(r.privatised.empty());
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(bins, want);
}

// OpenCL 2.0 atomics default to seq_cst: still privatised (a host fence keeps their
// ordering of the lanes' other accesses), with the same sums.
TEST(PrivatisedReductions, SequentiallyConsistentAtomicsArePrivatisedToo) {
  const char* src = R"(
kernel void sc(global const uint* in, global atomic_uint* bins) {
  atomic_fetch_add(&bins[in[get_global_id(0)] % 8], 3u);
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<uint32_t> in = pseudoRandom(500), bins(8, 1), want(8, 1);
  for (uint32_t v : in) want[v % 8] += 3;
  LaunchResult r =
      prog->launch("sc", range1(in.size(), 25), {bufferOf(in), bufferOf(bins)}, withThreads(3));
  EXPECT_TRUE(privatises(r, 1));
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(bins, want);
}

}  // namespace
}  // namespace spvsim
