// Register shapes (src/exec/register_shape.h): values the executor knows to be uniform
// or affine across a sub-group let loads, stores and access chains skip their per-lane
// scans. These kernels sit where that knowledge would be wrong if a handler claimed too
// much: an index that wraps around between lanes before it is widened, negative strides
// whose first lane is out of bounds, strided and broadcast accesses, and sub-groups that
// span rows of a 2-D work-group. Every one runs in full, partial, odd-sized and
// one-lane sub-groups, with and without the checkers (which turn the fast paths off), at
// -O0 and -O2; expected values and diagnostics are worked out by the host models here.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <utility>
#include <vector>

#include "src/check/launch_configs.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using check::testing::configName;
using check::testing::optionsFor;
using testing::bufferOf;
using testing::describe;
using testing::range1;
using testing::valueOf;

using Config = check::testing::LaunchConfig;

const Config kConfigs[] = {{16, 16, false}, {16, 32, false}, {8, 32, false}, {16, 20, false},
                           {5, 20, false},  {1, 4, false},   {16, 32, true}};

// The work-items (global ids) the first out-of-bounds diagnostic names, from its
// work-group, sub-group and lanes (repeats in later sub-groups are folded into it).
std::vector<uint64_t> firstOutOfBounds(const LaunchResult& r, const Config& c) {
  std::vector<uint64_t> items;
  for (const Diagnostic& d : r.diagnostics) {
    if (d.kind != DiagnosticKind::OutOfBounds || !d.workGroup || !d.subGroup) continue;
    for (uint32_t lane : d.lanes)
      items.push_back((*d.workGroup)[0] * c.local + *d.subGroup * c.subGroupSize + lane);
    break;
  }
  return items;
}

// The items of `bad` (ascending) in the sub-group of the first one: what
// firstOutOfBounds should say.
std::vector<uint64_t> firstSubGroupOf(const std::vector<uint64_t>& bad, const Config& c) {
  auto subGroup = [&](uint64_t g) { return g / c.local * 1000 + g % c.local / c.subGroupSize; };
  std::vector<uint64_t> items;
  for (uint64_t g : bad)
    if (subGroup(g) == subGroup(bad.front())) items.push_back(g);
  return items;
}

// No errors (the race checker's budget note in the checker configurations is none).
bool noErrors(const LaunchResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.severity == Severity::Error) return false;
  return true;
}

bool onlyOutOfBounds(const LaunchResult& r) {
  for (const Diagnostic& d : r.diagnostics)
    if (d.kind != DiagnosticKind::OutOfBounds) return false;
  return true;
}

// ---- A 32-bit index, affine across lanes, that passes INT_MAX (or UINT_MAX) in the
// middle of a sub-group and is then widened: past the wrap, a lane's index is 2^32 lower
// (signed) or higher (unsigned) than the line through lanes 0 and 1, far out of bounds.

const char* kWrap = R"(
kernel void wrap_signed(global const int* in, global int* out, int base) {
  size_t g = get_global_id(0);
  int i = (int)((uint)base + (uint)g);
  out[g] = in[(long)i - (long)base];
}
kernel void wrap_unsigned(global const int* in, global int* out, uint base) {
  size_t g = get_global_id(0);
  uint u = base + (uint)g;
  out[g] = in[(ulong)u - (ulong)base];
}
kernel void wrap_shift(global const int* in, global int* out, ulong base) {
  size_t g = get_global_id(0);
  int i = (int)(g + base);  // at -O2: shl 32, ashr 32 of the 64-bit sum
  out[g] = in[(long)i - (long)(int)base];
}
)";

constexpr uint64_t kItems = 64;
constexpr uint64_t kWrapAt = 6;  // the first item whose index wraps

TEST(RegisterShapes, WrappedIndicesAreOutOfBoundsInTheirOwnLanes) {
  std::vector<int32_t> in(kItems);
  for (uint64_t i = 0; i < kItems; ++i) in[i] = int32_t(1000 + 3 * i);
  std::vector<int32_t> want(kItems, 0);  // a failed lane's load reads 0
  std::vector<uint64_t> wantBad;
  for (uint64_t g = 0; g < kItems; ++g) {
    if (g < kWrapAt)
      want[g] = in[g];
    else
      wantBad.push_back(g);
  }
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kWrap, opt));
    for (const std::string kernel : {"wrap_signed", "wrap_unsigned", "wrap_shift"}) {
      for (const Config& c : kConfigs) {
        SCOPED_TRACE(configName(c, opt) + " " + kernel);
        std::vector<int32_t> out(kItems, -1);
        const ArgBinding base =
            kernel == "wrap_signed"  ? valueOf(int32_t(INT_MAX - int32_t(kWrapAt) + 1))
            : kernel == "wrap_shift" ? valueOf(uint64_t(INT_MAX - int32_t(kWrapAt) + 1))
                                     : valueOf(uint32_t(UINT_MAX - uint32_t(kWrapAt) + 1));
        LaunchResult r = prog->launch(kernel, range1(kItems, c.local),
                                      {bufferOf(in), bufferOf(out), base}, optionsFor(c));
        EXPECT_EQ(out, want);
        EXPECT_TRUE(onlyOutOfBounds(r)) << describe(r);
        EXPECT_EQ(firstOutOfBounds(r, c), firstSubGroupOf(wantBad, c)) << describe(r);
      }
    }
  }
}

// ---- Negative strides: lane 0 reads one past the end, every other lane in bounds (the
// smallest and largest addresses are the last and the first lane's).

const char* kReverse = R"(
kernel void reverse(global const float* in, global float* out, int n) {
  size_t g = get_global_id(0);
  out[g] = in[n - (int)g];
}
)";

TEST(RegisterShapes, ReversedAccessesCheckBothEnds) {
  const int n = int(kItems);
  std::vector<float> in(kItems);
  for (uint64_t i = 0; i < kItems; ++i) in[i] = float(i) * 0.5f + 1.0f;
  std::vector<float> want(kItems, 0.0f);
  for (uint64_t g = 1; g < kItems; ++g) want[g] = in[n - g];
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kReverse, opt));
    for (const Config& c : kConfigs) {
      SCOPED_TRACE(configName(c, opt));
      std::vector<float> out(kItems, -1.0f);
      LaunchResult r = prog->launch("reverse", range1(kItems, c.local),
                                    {bufferOf(in), bufferOf(out), valueOf(n)}, optionsFor(c));
      EXPECT_EQ(out, want);
      EXPECT_TRUE(onlyOutOfBounds(r)) << describe(r);
      EXPECT_EQ(firstOutOfBounds(r, c), std::vector<uint64_t>{0}) << describe(r);
    }
  }
}

// ---- A broadcast load (one address for every lane) feeding a strided load and a store of
// every other element; the last item's strided read is out of bounds when `at` says so.

const char* kStrided = R"(
kernel void strided(global const int* in, global int* out, global const int* at) {
  size_t g = get_global_id(0);
  int u = at[0];
  out[2 * g] = in[u + 2 * (int)g];
  out[2 * g + 1] = u * 7;
}
)";

TEST(RegisterShapes, BroadcastsAndStridesMatchTheHostModel) {
  std::vector<int32_t> in(2 * kItems + 8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * i) - 50;
  for (int32_t start : {0, 3, 9}) {  // 9: the last item reads in[2 * 63 + 9], past the end
    std::vector<int32_t> want(2 * kItems, 0);
    std::vector<uint64_t> wantBad;
    for (uint64_t g = 0; g < kItems; ++g) {
      const uint64_t at = start + 2 * g;
      if (at < in.size())
        want[2 * g] = in[at];
      else
        wantBad.push_back(g);
      want[2 * g + 1] = start * 7;
    }
    for (const char* opt : {"-O0", "-O2"}) {
      auto prog = Program::load(testing::compileOpenCL(kStrided, opt));
      for (const Config& c : kConfigs) {
        SCOPED_TRACE(configName(c, opt) + " start " + std::to_string(start));
        std::vector<int32_t> out(2 * kItems, -1), at{start};
        LaunchResult r = prog->launch("strided", range1(kItems, c.local),
                                      {bufferOf(in), bufferOf(out), bufferOf(at)}, optionsFor(c));
        EXPECT_EQ(out, want);
        EXPECT_TRUE(onlyOutOfBounds(r)) << describe(r);
        if (wantBad.empty())
          EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
        else
          EXPECT_EQ(firstOutOfBounds(r, c), firstSubGroupOf(wantBad, c)) << describe(r);
      }
    }
  }
}

// ---- Affine indices whose byte offsets leave the pointer's offset field (2^38 bytes per
// item here): every lane but the first is out of bounds, not moved into another object.

const char* kFar = R"(
typedef struct { int v[1024]; } Big;
kernel void far(global const Big* in, global int* out, long k) {
  size_t g = get_global_id(0);
  out[g] = in[g * k].v[0];
}
kernel void far64(global const Big* in, global int* out, long k) {
  size_t g = get_global_id(0);
  out[g] = ((global const int*)in)[(long)((ulong)g << 60) + k];  // steps of 2^60
}
)";

TEST(RegisterShapes, FarAffineIndicesAreOutOfBounds) {
  std::vector<int32_t> in(1024 * 2, 5);
  in[0] = 77;
  const uint64_t items = 32;
  // far: item g at g * 2^38 bytes, only item 0 inside. far64: index g * 2^60 modulo 2^64,
  // which is 0 (inside) for every 16th item.
  struct Far {
    const char* kernel;
    int64_t k;
    uint64_t period;  // the items inside: multiples of this
  };
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kFar, opt));
    for (const Config& c : kConfigs) {
      if (c.local > items) continue;
      for (const Far& f : {Far{"far", int64_t(1) << 26, items}, Far{"far64", 0, 16}}) {
        SCOPED_TRACE(configName(c, opt) + " " + f.kernel);
        std::vector<int32_t> out(items, -1), want(items, 0);
        std::vector<uint64_t> bad;
        for (uint64_t g = 0; g < items; ++g) {
          if (g % f.period == 0)
            want[g] = 77;
          else
            bad.push_back(g);
        }
        LaunchResult r = prog->launch(f.kernel, range1(items, c.local),
                                      {bufferOf(in), bufferOf(out), valueOf(f.k)}, optionsFor(c));
        EXPECT_EQ(out, want);
        EXPECT_TRUE(onlyOutOfBounds(r)) << describe(r);
        EXPECT_EQ(firstOutOfBounds(r, c), firstSubGroupOf(bad, c)) << describe(r);
      }
    }
  }
}

// ---- Chains of two and three indices into 2-D and 3-D arrays (m[group][lid] at -O2):
// the first indices are the same in every lane, the last affine. A buffer that ends just
// before the last item's element leaves only that item out of bounds (inside its array):
// only that lane is reported (the chain's end points are the first and the LAST lane).

const char* kGrid = R"(
kernel void grid2(global const int (*m)[32], global int* out, int plane) {
  size_t g = get_global_id(0);
  out[g] = m[get_group_id(0)][get_local_id(0)];
}
kernel void grid3(global const int (*m)[16][32], global int* out, int plane) {
  size_t g = get_global_id(0);
  out[g] = m[plane][get_group_id(0)][get_local_id(0)];
}
)";

TEST(RegisterShapes, ChainsOfSeveralIndicesCheckTheLastLane) {
  const uint64_t items = 48;
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kGrid, opt));
    for (const Config& c : kConfigs) {
      // Item g reads element (g / local) * 32 + g % local (plane 0).
      auto element = [&](uint64_t g) { return g / c.local * 32 + g % c.local; };
      for (const char* kernel : {"grid2", "grid3"}) {
        for (uint64_t size : {element(items - 1) + 1, element(items - 1)}) {
          SCOPED_TRACE(configName(c, opt) + " " + kernel + " " + std::to_string(size) + " ints");
          std::vector<int32_t> in(size);
          for (size_t i = 0; i < size; ++i) in[i] = int32_t(i * 7 + 3);
          std::vector<int32_t> out(items, -1), want(items, 0);
          std::vector<uint64_t> bad;
          for (uint64_t g = 0; g < items; ++g) {
            if (element(g) < size)
              want[g] = in[element(g)];
            else
              bad.push_back(g);
          }
          LaunchResult r =
              prog->launch(kernel, range1(items, c.local),
                           {bufferOf(in), bufferOf(out), valueOf(int32_t(0))}, optionsFor(c));
          EXPECT_EQ(out, want);
          if (bad.empty()) {
            EXPECT_TRUE(noErrors(r)) << describe(r);
          } else {
            EXPECT_TRUE(onlyOutOfBounds(r)) << describe(r);
            EXPECT_EQ(firstOutOfBounds(r, c), firstSubGroupOf(bad, c)) << describe(r);
          }
        }
      }
    }
  }
}

// ---- Loop counters are phis: their copies carry shapes only where every lane took the
// edge. Lanes leave the loop at different trips (the back edge then copies for some lanes
// only), and the counter indexes memory inside the loop and after it.

const char* kLoop = R"(
kernel void loop(global const int* in, global int* out, global const int* trips) {
  size_t g = get_global_id(0);
  int acc = 0, k = 0;
  for (; k < trips[g]; ++k) acc += in[2 * k + (int)g];
  out[g] = acc + in[k] * 1000;
}
)";

TEST(RegisterShapes, LoopCountersMatchTheHostModel) {
  std::vector<int32_t> in(3 * kItems + 8);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 7 % 23) - 5;
  for (bool same : {true, false}) {
    std::vector<int32_t> trips(kItems);
    for (uint64_t g = 0; g < kItems; ++g) trips[g] = same ? 9 : int32_t((g * 5) % 11);
    std::vector<int32_t> want(kItems);
    for (uint64_t g = 0; g < kItems; ++g) {
      int32_t acc = 0;
      for (int32_t k = 0; k < trips[g]; ++k) acc += in[2 * k + g];
      want[g] = acc + in[trips[g]] * 1000;
    }
    for (const char* opt : {"-O0", "-O1", "-O2", "-O3"}) {
      auto prog = Program::load(testing::compileOpenCL(kLoop, opt));
      for (const Config& c : kConfigs) {
        SCOPED_TRACE(configName(c, opt) + (same ? " same trips" : " divergent trips"));
        std::vector<int32_t> out(kItems, -1);
        LaunchResult r =
            prog->launch("loop", range1(kItems, c.local),
                         {bufferOf(in), bufferOf(out), bufferOf(trips)}, optionsFor(c));
        EXPECT_TRUE(noErrors(r)) << describe(r);
        EXPECT_EQ(out, want);
      }
    }
  }
}

// ---- A phi whose incoming values are each uniform, copied on divergent edges: the lanes
// hold one or the other.

const char* kJoin = R"(
kernel void join(global const int* in, global int* out, global int* marks,
                 global const int* at) {
  size_t g = get_global_id(0);
  int a = at[0], b = at[1], j;   // broadcast loads: uniform
  barrier(CLK_GLOBAL_MEM_FENCE);  // keeps them before the branch at -O2
  if (g % 3 == 0) {
    j = a;
    marks[g] = 1;  // a store: the branch stays a branch, j a phi
  } else {
    j = b;
  }
  out[g] = in[j + (int)g];
}
)";

TEST(RegisterShapes, JoinsOfUniformValuesMatchTheHostModel) {
  std::vector<int32_t> in(kItems + 16), at{9, 2};
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 11) - 3;
  std::vector<int32_t> want(kItems), wantMarks(kItems, 0);
  for (uint64_t g = 0; g < kItems; ++g) {
    want[g] = in[(g % 3 == 0 ? at[0] : at[1]) + g];
    if (g % 3 == 0) wantMarks[g] = 1;
  }
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kJoin, opt));
    for (const Config& c : kConfigs) {
      SCOPED_TRACE(configName(c, opt));
      std::vector<int32_t> out(kItems, -1), marks(kItems, 0);
      LaunchResult r =
          prog->launch("join", range1(kItems, c.local),
                       {bufferOf(in), bufferOf(out), bufferOf(marks), bufferOf(at)}, optionsFor(c));
      EXPECT_TRUE(noErrors(r)) << describe(r);
      EXPECT_EQ(out, want);
      EXPECT_EQ(marks, wantMarks);
    }
  }
}

// ---- 2-D: a sub-group spans rows of the work-group where it is wider than a row (no
// affine built-in then), and lies in one row where it is not.

const char* kRows = R"(
kernel void rows(global const int* in, global int* out, int width) {
  int x = get_global_id(0), y = get_global_id(1);
  out[y * width + x] = in[y * width + x] + in[x] * 1000;
}
)";

TEST(RegisterShapes, SubGroupsAcrossRowsMatchTheHostModel) {
  const int width = 16, height = 8;
  std::vector<int32_t> in(width * height);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t(i * 5 + 1);
  std::vector<int32_t> want(in.size());
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) want[y * width + x] = in[y * width + x] + in[x] * 1000;
  struct Rows {
    uint32_t subGroupSize;
    uint64_t local[2];
  };
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kRows, opt));
    for (const Rows& c : {Rows{16, {4, 4}}, Rows{16, {16, 2}}, Rows{8, {4, 8}}, Rows{4, {8, 2}},
                          Rows{16, {8, 4}}}) {
      SCOPED_TRACE(std::string(opt) + " sub-group " + std::to_string(c.subGroupSize) + " local " +
                   std::to_string(c.local[0]) + "x" + std::to_string(c.local[1]));
      std::vector<int32_t> out(in.size(), -1);
      NDRange range;
      range.dims = 2;
      range.global = {uint64_t(width), uint64_t(height), 1};
      range.local = {c.local[0], c.local[1], 1};
      range.localGiven = true;
      LaunchOptions o;
      o.subGroupSize = c.subGroupSize;
      o.threads = 1;
      LaunchResult r =
          prog->launch("rows", range, {bufferOf(in), bufferOf(out), valueOf(width)}, o);
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(out, want);
    }
  }
}

}  // namespace
}  // namespace spvsim
