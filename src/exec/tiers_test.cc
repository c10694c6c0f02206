// The fast paths against the reference tier (src/DESIGN.md, "Tiers"): each kernel below
// takes one or more fast paths in Tier::Fast (fused chain and access, affine and uniform
// accesses, register shapes, fast atomics, privatised reductions, work-groups split into
// sub-groups, Intel block reads, vloads), and must give what Tier::Reference gives, which
// takes none: the same buffers, the same diagnostics, the same instruction counts, at
// -O0..-O3 and -g, in full, partial and odd-sized sub-groups. Each kernel's outputs are
// also checked against a host model, so that both tiers being wrong the same way fails.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
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
using testing::valueOf;

// Compiled as users compile (the compile driver), not cached: the test's own inputs.
std::shared_ptr<Program> load(const char* source, const char* options) {
  return Program::load(
      compiler::compileOpenCL({.source = source, .options = options, .useCache = false}).words);
}

const char* const kOptLevels[] = {"-O0", "-O1", "-O2", "-O3", "-O2 -g"};

LaunchOptions tier(LaunchOptions::Tier t, uint32_t subGroupSize, unsigned threads = 2) {
  LaunchOptions o;
  o.tier = t;
  o.subGroupSize = subGroupSize;
  o.threads = threads;
  return o;
}

// Runs `launch` in both tiers and compares what they return and what they wrote
// (`outputs` reads the buffers back as bytes after each run).
struct TierRun {
  LaunchResult result;
  std::vector<std::vector<uint8_t>> outputs;
};

template <class Launch>
void expectTiersAgree(Launch launch) {
  TierRun fast = launch(LaunchOptions::Tier::Fast);
  TierRun reference = launch(LaunchOptions::Tier::Reference);
  EXPECT_EQ(describe(fast.result), describe(reference.result));
  EXPECT_EQ(fast.result.subGroupSteps, reference.result.subGroupSteps);
  EXPECT_EQ(fast.result.laneInstructions, reference.result.laneInstructions);
  EXPECT_EQ(fast.result.printfOutput, reference.result.printfOutput);
  ASSERT_EQ(fast.outputs.size(), reference.outputs.size());
  for (size_t k = 0; k < fast.outputs.size(); ++k)
    EXPECT_EQ(fast.outputs[k], reference.outputs[k]) << "output " << k;
}

template <class T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return {p, p + v.size() * sizeof(T)};
}

// Contiguous, uniform and strided accesses, a divergent branch (partial masks), a 2-D
// local tile (multi-index chains), a vload/vstore and a lane outside the buffer.
const char* kAccesses = R"(
kernel void accesses(global const int* in, global int* out, global int* strided,
                     global const int* table, int n) {
  local int tile[4][16];
  int i = get_global_id(0), l = get_local_id(0);
  int u = table[get_group_id(0) % 4];             // uniform load
  tile[l % 4][l / 4 % 16] = in[i] + u;            // two-index chain into local memory
  barrier(CLK_LOCAL_MEM_FENCE);
  int t = tile[(l + 1) % 4][l / 4 % 16];
  if (i % 3 != 0) out[i] = t * 2; else out[i] = -t; // divergent: partial masks
  strided[(i * 5) % n] = i;                        // scattered stores
  int4 v = vload4(i / 4, in);                      // vload of a shared block
  vstore4(v + (int4)(1, 2, 3, 4), i / 4, strided + n);
  if (i == n - 1) out[i] = in[i + 1];              // one lane past the buffer
}
)";

TEST(Tiers, AccessesAgree) {
  constexpr int kN = 96;
  std::vector<int32_t> in(kN), table = {5, 7, 11, 13};
  for (int i = 0; i < kN; ++i) in[i] = 3 * i - 40;
  for (const char* opt : kOptLevels) {
    auto prog = load(kAccesses, opt);
    // Also under random reconvergence: the fast paths take partial masks as they come.
    for (uint32_t sg : {16u, 8u, 5u, 1u})
      for (const bool randomReconvergence : {false, true}) {
        SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg) +
                     (randomReconvergence ? " reconvergence random:3" : ""));
        expectTiersAgree([&](LaunchOptions::Tier t) {
          std::vector<int32_t> out(kN, -1), strided(2 * kN, -1);
          TierRun run;
          LaunchOptions o = tier(t, sg);
          if (randomReconvergence) {
            o.reconvergence = LaunchOptions::Reconvergence::Random;
            o.reconvergenceSeed = 3;
          }
          run.result = prog->launch(
              "accesses", range1(kN, 64),
              {bufferOf(in), bufferOf(out), bufferOf(strided), bufferOf(table), valueOf(kN)}, o);
          // The host model of the lanes that stay in bounds.
          for (int i = 0; i < kN - 1; ++i) {
            const int l = i % 64, g = i / 64, src = (l + 1) % 4 + 4 * (l / 4 % 16);
            // tile[a][b] was written by the lane with l % 4 == a, l / 4 % 16 == b.
            int writer = -1;
            for (int m = 0; m < 64 && g * 64 + m < kN; ++m)
              if (m % 4 + 4 * (m / 4 % 16) == src) writer = g * 64 + m;
            if (writer < 0) continue;  // a tile cell nobody in a short group wrote
            const int t = in[writer] + table[g % 4];
            EXPECT_EQ(out[i], i % 3 != 0 ? t * 2 : -t) << i;
          }
          run.outputs = {bytesOf(out), bytesOf(strided)};
          return run;
        });
      }
  }
}

// Atomics: a histogram into a global buffer nothing else reads (privatised in the fast
// tier), a local counter (the fast local path), and a compare-exchange loop.
const char* kAtomics = R"(
kernel void atomics(global const uint* in, global uint* bins, global uint* firsts,
                    global int* maxima) {
  local uint count;
  if (get_local_id(0) == 0) count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  uint v = in[get_global_id(0)];
  atomic_inc(&bins[v % 16]);
  uint mine = atomic_add(&count, v & 3);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0) firsts[get_group_id(0)] = count;
  int old = maxima[v % 4], seen;
  while ((seen = atomic_cmpxchg(&maxima[v % 4], old, max(old, (int)v))) != old) old = seen;
}
)";

TEST(Tiers, AtomicsAgree) {
  constexpr int kN = 256, kGroups = kN / 64;
  std::vector<uint32_t> in(kN);
  for (int i = 0; i < kN; ++i) in[i] = uint32_t(i * 2654435761u >> 7);
  std::vector<uint32_t> wantBins(16, 0), wantFirsts(kGroups, 0);
  std::vector<int32_t> wantMax(4, 0);
  for (int i = 0; i < kN; ++i) {
    ++wantBins[in[i] % 16];
    wantFirsts[i / 64] += in[i] & 3;
    wantMax[in[i] % 4] = std::max(wantMax[in[i] % 4], int32_t(in[i]));
  }
  for (const char* opt : kOptLevels) {
    auto prog = load(kAtomics, opt);
    for (uint32_t sg : {16u, 7u}) {
      SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg));
      expectTiersAgree([&](LaunchOptions::Tier t) {
        std::vector<uint32_t> bins(16, 0), firsts(kGroups, 0);
        std::vector<int32_t> maxima(4, 0);
        TierRun run;
        run.result =
            prog->launch("atomics", range1(kN, 64),
                         {bufferOf(in), bufferOf(bins), bufferOf(firsts), bufferOf(maxima)},
                         tier(t, sg, 1));  // one thread: the CAS loop's counts are fixed
        EXPECT_EQ(bins, wantBins);
        EXPECT_EQ(firsts, wantFirsts);
        EXPECT_EQ(maxima, wantMax);
        // The fast tier privatises the histogram (nothing else reads `bins`) where the
        // analysis sees the pointer (not through -O0's stack slots).
        if (t == LaunchOptions::Tier::Reference) EXPECT_TRUE(run.result.privatised.empty());
        if (t == LaunchOptions::Tier::Fast && std::string(opt) != "-O0")
          EXPECT_FALSE(run.result.privatised.empty());
        run.outputs = {bytesOf(bins), bytesOf(firsts), bytesOf(maxima)};
        return run;
      });
    }
  }
}

// Sub-groups that nothing ties (no local memory, no barrier, no atomic) in few work-groups:
// the fast tier runs each sub-group as a unit of its own; shuffles and block reads stay
// within the sub-group.
const char* kIndependent = R"(
#pragma OPENCL EXTENSION cl_intel_subgroups : enable
kernel void independent(global const uint* in, global uint* out) {
  uint i = get_global_id(0);
  uint x = intel_sub_group_block_read(in + get_group_id(0) * get_local_size(0)
                                         + get_sub_group_id() * get_max_sub_group_size());
  uint y = intel_sub_group_shuffle_down(x, x, 1);
  out[i] = sub_group_reduce_add(x) + y * 3 + (x << 2);
}
)";

TEST(Tiers, IndependentSubGroupsAgree) {
  constexpr int kN = 128;
  std::vector<uint32_t> in(kN);
  for (int i = 0; i < kN; ++i) in[i] = uint32_t(i * 37 + 5);
  for (const char* opt : kOptLevels) {
    auto prog = load(kIndependent, opt);
    for (uint32_t sg : {16u, 8u}) {
      SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg));
      std::vector<uint32_t> want(kN);
      for (int i = 0; i < kN; ++i) {  // block read: lane l reads in[base + l]
        const int base = i / int(sg) * int(sg), l = i % int(sg);
        uint32_t sum = 0;
        for (int k = 0; k < int(sg); ++k) sum += in[base + k];
        const uint32_t x = in[i], y = l + 1 < int(sg) ? in[i + 1] : in[base];
        want[i] = sum + y * 3 + (x << 2);
      }
      expectTiersAgree([&](LaunchOptions::Tier t) {
        std::vector<uint32_t> out(kN, 0);
        TierRun run;
        run.result =
            prog->launch("independent", range1(kN, 64), {bufferOf(in), bufferOf(out)}, tier(t, sg));
        EXPECT_EQ(out, want);
        // Two work-groups of several sub-groups: the fast tier runs them apart.
        if (t == LaunchOptions::Tier::Reference) EXPECT_EQ(run.result.subGroupUnits, 0u);
        if (t == LaunchOptions::Tier::Fast) EXPECT_GT(run.result.subGroupUnits, 0u);
        run.outputs = {bytesOf(out)};
        return run;
      });
    }
  }
}

}  // namespace
}  // namespace spvsim
