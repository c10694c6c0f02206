// Whole sub-group accesses reported as one event (ExecutionObserver::accessRun,
// SubGroup::observedRun) against the same launch lane by lane: the Reference tier never
// makes a run, so each kernel runs with every checker in both tiers and must give the
// same diagnostics (text, lanes, repeats, in order) and the same buffers. A counting
// observer checks that the Fast tier did take runs where the kernel has them.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "src/check/observers.h"
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::bind;
using testing::loadOpenCl;
using testing::range1;

const char* kKernels = R"(
// Contiguous reads of inputs, contiguous writes of an output: quiet runs.
kernel void triad(global float* a, global const float* b, global const float* c) {
  size_t i = get_global_id(0);
  a[i] = b[i] + 2.0f * c[i];
}

// A tile in local memory, a barrier, neighbours read; one address read by every lane.
kernel void tile(global const int* in, global int* out, local int* t) {
  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  t[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[(l + 1) % n] + t[0] + in[0];
}

// In place: each work-item reads and rewrites its own element (ordered: program order),
// then reads its right neighbour's, which another work-item rewrote (a race unless the
// neighbour is the same work-item).
kernel void in_place(global int* a) {
  size_t i = get_global_id(0);
  a[i] = a[i] * 3;
  int v = a[(i + 1) % get_global_size(0)];
  a[i] = v + 1;
}

// Each work-item reads its own element and its neighbour's, then writes its own: the
// contiguous write meets the lanes' reads of their own bytes (no conflict) and of their
// neighbours' (a race with each neighbour's write).
kernel void swap_neighbours(global int* a) {
  size_t i = get_global_id(0);
  int v = a[i] + a[i ^ 1];
  a[i] = v;
}

// Every sub-group (of 16) writes the same contiguous range: lanes of later sub-groups
// race with earlier ones, some storing the values already there (even sub-groups write
// l, odd ones 2 * l: lane 0 always 0).
kernel void same_range(global int* out) {
  size_t l = get_global_id(0) % 16, s = get_global_id(0) / 16;
  out[l] = s % 2 ? (int)(2 * l) : (int)l;
}

// A local tile written only in part before it is read: uninitialised reads and values.
kernel void partial_tile(global int* out, local int* t) {
  size_t l = get_local_id(0), g = get_global_id(0);
  if (l % 3) t[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[l];
}

// A reduction in local memory: reads and writes of the same bytes after barriers.
kernel void reduce(global const int* in, global int* out, local int* s) {
  size_t l = get_local_id(0), n = get_local_size(0);
  s[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t h = n / 2; h > 0; h /= 2) {
    if (l < h) s[l] += s[l + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = s[0];
}

// After a barrier every lane reads sub-group 0's half of the tile (contiguous) and one
// address (every lane the same): quiet reads, each sub-group's kept as one read run.
// Sub-group 1 then overwrites that half without a barrier: its writes race with sub-group
// 0's reads, and with its own other lanes' reads of t[3].
kernel void reads_then_overwritten(global int* out, local int* t) {
  size_t l = get_local_id(0);
  t[l] = (int)l;
  barrier(CLK_LOCAL_MEM_FENCE);
  int v = t[l % 16] + t[3];
  if (l >= 16) t[l - 16] = v;
  out[get_global_id(0)] = v;
}

// A sub-group reads what another sub-group writes without a barrier.
kernel void no_barrier(global int* out, local int* t) {
  size_t l = get_local_id(0), n = get_local_size(0);
  t[l] = (int)l;
  out[get_global_id(0)] = t[(l + 16) % n];
}
)";

struct RunCounter final : ExecutionObserver {
  explicit RunCounter(uint64_t& n) : n(n) {}
  void accessRun(SubGroup&, const MemoryAccess&, uint64_t, uint32_t) override { ++n; }
  uint64_t& n;
};

struct RunCounterFactory final : ObserverFactory {
  explicit RunCounterFactory(uint64_t& n) : n(n) {}
  uint32_t spaces(const LaunchContext&) const override {
    return spaceBit(Space::Global) | spaceBit(Space::Local);
  }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<RunCounter>(n);
  }
  uint64_t& n;
};

LaunchOptions checking(LaunchOptions::Tier tier, uint64_t* runs) {
  LaunchOptions o;
  o.subGroupSize = 16;
  o.threads = 1;
  o.tier = tier;
  o.observers =
      check::observersFor({.races = true, .uninitialized = true, .undefinedValues = true});
  if (runs) o.observers.push_back(std::make_shared<RunCounterFactory>(*runs));
  return o;
}

std::vector<std::string> texts(const LaunchResult& r) {
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diagnostics) {
    std::string lanes;
    for (uint32_t l : d.lanes) lanes += std::to_string(l) + ",";
    out.push_back(formatText(d) + " lanes " + lanes + " repeats " + std::to_string(d.repeats));
  }
  return out;
}

struct Case {
  const char* kernel;
  size_t buffers;  // int buffers of 64 elements, then one local argument if `local`
  bool local;
  bool takesRuns;
};

class AccessRuns : public ::testing::TestWithParam<Case> {};

TEST_P(AccessRuns, SameDiagnosticsAndResultsAsLaneByLane) {
  static auto program = loadOpenCl(kKernels, "access runs");
  const Case& c = GetParam();
  std::vector<std::vector<int>> results;
  std::vector<std::vector<std::string>> reports;
  for (auto tier : {LaunchOptions::Tier::Fast, LaunchOptions::Tier::Reference}) {
    std::vector<std::vector<int>> bufs(c.buffers, std::vector<int>(64));
    for (size_t b = 0; b < c.buffers; ++b)
      for (int i = 0; i < 64; ++i) bufs[b][i] = int(b * 100 + i);
    std::vector<ArgBinding> args;
    for (auto& b : bufs) args.push_back(bind(b));
    if (c.local) args.push_back(ArgBinding::local(32 * 4));
    uint64_t runs = 0;
    const bool fast = tier == LaunchOptions::Tier::Fast;
    const LaunchResult r =
        program->launch(c.kernel, range1(64, 32), args, checking(tier, fast ? &runs : nullptr));
    if (fast) EXPECT_EQ(runs > 0, c.takesRuns) << c.kernel << ": " << runs << " runs";
    reports.push_back(texts(r));
    std::vector<int> all;
    for (auto& b : bufs) all.insert(all.end(), b.begin(), b.end());
    results.push_back(all);
  }
  EXPECT_EQ(reports[0], reports[1]) << c.kernel;
  EXPECT_EQ(results[0], results[1]) << c.kernel;
}

INSTANTIATE_TEST_SUITE_P(
    Kernels, AccessRuns,
    ::testing::Values(Case{"triad", 3, false, true}, Case{"tile", 2, true, true},
                      Case{"in_place", 1, false, true}, Case{"same_range", 1, false, true},
                      Case{"swap_neighbours", 1, false, true}, Case{"partial_tile", 1, true, true},
                      Case{"reduce", 2, true, true}, Case{"no_barrier", 1, true, true},
                      Case{"reads_then_overwritten", 1, true, true}),
    [](const auto& info) { return std::string(info.param.kernel); });

// The kernels above that must report something do, so that the comparison compares
// reports and not two empty lists.
TEST(AccessRuns, RacyKernelsReport) {
  static auto program = loadOpenCl(kKernels, "access runs");
  for (const char* kernel : {"in_place", "same_range", "swap_neighbours"}) {
    std::vector<int> a(64);
    const LaunchResult r = program->launch(kernel, range1(64, 32), {bind(a)},
                                           checking(LaunchOptions::Tier::Fast, nullptr));
    EXPECT_FALSE(r.diagnostics.empty()) << kernel;
  }
  for (const char* kernel : {"partial_tile", "reads_then_overwritten"}) {
    std::vector<int> out(64);
    const LaunchResult r =
        program->launch(kernel, range1(64, 32), {bind(out), ArgBinding::local(32 * 4)},
                        checking(LaunchOptions::Tier::Fast, nullptr));
    EXPECT_FALSE(r.diagnostics.empty()) << kernel;
  }
}

}  // namespace
}  // namespace spvsim
