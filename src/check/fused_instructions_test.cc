// Fused instructions (src/DESIGN.md, "Fused chain and access"): a one-index access chain
// with the load or store that uses it, a built-in vector read with the extract of one
// component, and a shift pair that sign-extends, run as one handler outside the Reference
// tier. They must count, and interleave with other sub-groups, exactly as the unfused pair
// does (the Reference tier never fuses: its launches are the reference), fall back
// wherever a lane needs the checked path, and give the host model's values at every
// optimisation level.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "src/compiler/compile_driver.h"
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

LaunchOptions plain(unsigned threads, uint32_t subGroupSize = 16) {
  LaunchOptions o;
  o.threads = threads;
  o.subGroupSize = subGroupSize;
  return o;
}

// Unfused: the Reference tier never fuses (nor takes any other fast path).
LaunchOptions unfused(unsigned threads, uint32_t subGroupSize = 16) {
  LaunchOptions o = plain(threads, subGroupSize);
  o.tier = LaunchOptions::Tier::Reference;
  return o;
}

// Sub-groups of one work-group read and write one word with plain accesses: what each
// reads depends on where the scheduler switches, so any difference in how many
// instructions a turn holds shows in `seen`.
const char* kRacy = R"(
kernel void racy(global int* word, global int* seen, int one) {
  size_t i = get_global_id(0);
  int j = (int)get_group_id(0) * one;  // an int index: extension, chain and load fuse
  int x = word[j];
  seen[(int)i] = x;  // (long)(int)i: shl 32 and ashr 32, fused
  word[i / 64] = x + (int)get_local_id(0);
}
)";

TEST(FusedInstructions, CountAndInterleaveAsTheUnfusedPair) {
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kRacy, opt));
    for (uint64_t quantum : {1, 2, 3, 4, 5, 7, 11, 1000})
      for (auto schedule : {LaunchOptions::Schedule::RoundRobin, LaunchOptions::Schedule::Random}) {
        SCOPED_TRACE(std::string(opt) + " quantum " + std::to_string(quantum));
        LaunchResult results[2];
        std::vector<int32_t> word[2], seen[2];
        for (int fused = 0; fused < 2; ++fused) {
          LaunchOptions o = fused ? plain(1) : unfused(1);
          o.quantum = quantum;
          o.schedule = schedule;
          o.scheduleSeed = 7;
          word[fused].assign(2, 0);
          seen[fused].assign(128, -1);
          results[fused] =
              prog->launch("racy", range1(128, 64),
                           {bufferOf(word[fused]), bufferOf(seen[fused]), valueOf(1)}, o);
        }
        EXPECT_EQ(results[1].subGroupSteps, results[0].subGroupSteps);
        EXPECT_EQ(results[1].laneInstructions, results[0].laneInstructions);
        EXPECT_EQ(seen[1], seen[0]);
        EXPECT_EQ(word[1], word[0]);
      }
  }
}

// A 2-D five-point stencil (the bench's shape: chains of converted indices, built-in reads,
// borders in divergent code) on a grid whose rows are not a multiple of the sub-group.
const char* kStencil = R"(
kernel void st(global const float* in, global float* out, int width, int height) {
  int x = get_global_id(0), y = get_global_id(1), i = y * width + x;
  if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.5f * in[i] + 0.125f * ((in[i - 1] + in[i + 1]) + (in[i - width] + in[i + width]));
}
)";

std::vector<float> stencilModel(const std::vector<float>& in, int width, int height) {
  std::vector<float> out(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const int i = y * width + x;
      if (x == 0 || y == 0 || x == width - 1 || y == height - 1) {
        out[i] = in[i];
        continue;
      }
      const float sum = (in[i - 1] + in[i + 1]) + (in[i - width] + in[i + width]);
      out[i] = std::fma(0.5f, in[i], 0.125f * sum);  // OpenCL's mad may fuse: exact here
    }
  return out;
}

TEST(FusedInstructions, StencilMatchesTheHostModelAtEveryLevel) {
  constexpr int kWidth = 40, kHeight = 9;
  std::vector<float> in(kWidth * kHeight);
  for (size_t i = 0; i < in.size(); ++i) in[i] = float(i % 16) * 0.25f;  // exact sums
  const std::vector<float> want = stencilModel(in, kWidth, kHeight);
  NDRange r;
  r.global = {40, kHeight, 1};
  r.local = {20, 1, 1};
  r.localGiven = true;
  r.dims = 2;
  for (const char* opt : kOptLevels) {
    // As `spvsim compile` does: llvm-spirv-15 cannot translate what the SLP vectoriser
    // makes of the border test (a freeze of <4 x i1>).
    auto prog =
        Program::load(testing::compileOpenCL(kStencil, std::string(opt) + " -fno-slp-vectorize"));
    for (uint32_t sg : {16u, 8u, 5u})
      for (int fused = 0; fused < 2; ++fused) {
        SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg) +
                     (fused ? " fused" : " unfused"));
        std::vector<float> out(in.size(), -1.0f);
        LaunchResult res =
            prog->launch("st", r, {bufferOf(in), bufferOf(out), valueOf(kWidth), valueOf(kHeight)},
                         fused ? plain(2, sg) : unfused(2, sg));
        EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
        EXPECT_EQ(out, want);
      }
  }
}

// Sign extensions that clang writes as a shift pair (`(long)(int)v` is `shl 32; ashr 32`
// of the 64-bit v, `(int)(char)x` is `shl 24; ashr 24`), with negative values, in every
// lane and in a divergent loop, and of an index that wraps past INT_MAX.
const char* kSignExtend = R"(
kernel void sx(global const long* in, global long* wide, global long* loop, global int* narrow,
               int base) {
  size_t i = get_global_id(0);
  long v = in[i];
  int x = (int)v;
  wide[i] = (long)x - (long)(int)(v >> 7);
  long acc = (long)(int)(i + base);
  for (int k = 0; k < (int)(i % 4); ++k) acc += (long)(int)(v >> (8 * k));
  loop[i] = acc;
  narrow[i] = (int)(char)x + (int)(short)(x >> 9);
}
)";

int64_t sext32(uint64_t v) { return int64_t(int32_t(uint32_t(v))); }

TEST(FusedInstructions, ShiftPairSignExtensionsMatchTheHostModelAtEveryLevel) {
  constexpr size_t kItems = 150;
  constexpr int kBase = 2147483600;  // i + base wraps past INT_MAX within the launch
  std::vector<int64_t> in(kItems);
  uint64_t seed = 1;
  for (auto& v : in) v = int64_t(seed = seed * 6364136223846793005ull + 1442695040888963407ull);
  std::vector<int64_t> wantWide(kItems), wantLoop(kItems);
  std::vector<int32_t> wantNarrow(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    const uint64_t v = uint64_t(in[i]);
    const int32_t x = int32_t(uint32_t(v));
    wantWide[i] = int64_t(x) - sext32(uint64_t(in[i] >> 7));
    int64_t acc = sext32(i + kBase);
    for (size_t k = 0; k < i % 4; ++k) acc += sext32(uint64_t(in[i] >> (8 * k)));
    wantLoop[i] = acc;
    wantNarrow[i] =
        int32_t(int8_t(uint8_t(uint32_t(x)))) + int32_t(int16_t(uint16_t(uint32_t(x >> 9))));
  }
  for (const char* opt : kOptLevels) {
    // Through the compile driver, as users compile: raw llvm-spirv-15 fails on the debug
    // expressions -g gives these conversions.
    auto prog = Program::load(
        compiler::compileOpenCL({.source = kSignExtend, .options = opt, .useCache = false}).words);
    for (uint32_t sg : {16u, 8u, 5u})
      for (int fused = 0; fused < 2; ++fused) {
        SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg) +
                     (fused ? " fused" : " unfused"));
        std::vector<int64_t> wide(kItems, -1), loop(kItems, -1);
        std::vector<int32_t> narrow(kItems, -1);
        LaunchResult res = prog->launch("sx", range1(kItems, 50),
                                        {bufferOf(in), bufferOf(wide), bufferOf(loop),
                                         bufferOf(narrow), valueOf<int32_t>(kBase)},
                                        fused ? plain(2, sg) : unfused(2, sg));
        EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
        EXPECT_EQ(wide, wantWide);
        EXPECT_EQ(loop, wantLoop);
        EXPECT_EQ(narrow, wantNarrow);
      }
  }
}

// A tiled matrix product: two-index chains into local tiles (a uniform `As[ly][k]` and a
// contiguous `Bs[k][lx]`) fused with their loads, and the tiles' stores.
const char* kTiled = R"(
#define TS 8
kernel void mm(global const float* A, global const float* B, global float* C, int n) {
  local float As[TS][TS], Bs[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_group_id(0) * TS + lx, row = get_group_id(1) * TS + ly;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    As[ly][lx] = A[row * n + t + lx];
    Bs[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; ++k) acc = mad(As[ly][k], Bs[k][lx], acc);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
)";

TEST(FusedInstructions, TiledProductMatchesTheHostModelAtEveryLevel) {
  constexpr int kN = 24;
  std::vector<float> a(kN * kN), b(kN * kN), want(kN * kN, 0.0f);
  for (int i = 0; i < kN * kN; ++i) a[i] = float(i % 7) - 3.0f, b[i] = float(i % 5) - 2.0f;
  for (int r = 0; r < kN; ++r)  // small integers: every sum exact, in any order
    for (int c = 0; c < kN; ++c)
      for (int k = 0; k < kN; ++k) want[r * kN + c] += a[r * kN + k] * b[k * kN + c];
  NDRange range;
  range.dims = 2;
  range.global = {kN, kN, 1};
  range.local = {8, 8, 1};
  range.localGiven = true;
  for (const char* opt : kOptLevels) {
    auto prog = Program::load(testing::compileOpenCL(kTiled, opt));
    for (uint32_t sg : {16u, 8u, 5u})
      for (int fused = 0; fused < 2; ++fused) {
        SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(sg) +
                     (fused ? " fused" : " unfused"));
        std::vector<float> c(kN * kN, -1.0f);
        LaunchResult res =
            prog->launch("mm", range, {bufferOf(a), bufferOf(b), bufferOf(c), valueOf(kN)},
                         fused ? plain(3, sg) : unfused(3, sg));
        EXPECT_TRUE(res.diagnostics.empty()) << describe(res);
        EXPECT_EQ(c, want);
      }
  }
}

// The last item's load leaves the buffer: the fused handler falls back, and the load
// reports that lane alone; the others load their values.
TEST(FusedInstructions, ALaneOutsideTheBufferIsReportedAsUnfused) {
  const char* src = R"(
kernel void shift(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  out[i] = in[i + 1];
}
)";
  auto prog = Program::load(testing::compileOpenCL(src, "-O2"));
  std::vector<int32_t> in(64);
  for (int32_t i = 0; i < 64; ++i) in[i] = 3 * i;
  std::vector<int32_t> out(64, -1);
  LaunchResult r = prog->launch("shift", range1(64, 32), {bufferOf(in), bufferOf(out)}, plain(1));
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
  // Lane 63's address, in[64], alone.
  EXPECT_NE(r.diagnostics[0].message.find("read of 4 bytes at byte offset 256 "), std::string::npos)
      << r.diagnostics[0].message;
  for (int32_t i = 0; i < 63; ++i) EXPECT_EQ(out[i], 3 * (i + 1)) << i;
  EXPECT_EQ(out[63], 0);  // a failed load reads 0
}

}  // namespace
}  // namespace spvsim
