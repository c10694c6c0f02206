// The executor's specialised handlers (composite element moves, ISA-dispatched
// element-wise loops, fused compare + branch) against host models, in full, partial and
// divergent sub-groups, at -O0 and -O2, with and without the checkers (the checkers run
// the handlers on shadow registers and turn fast paths off). Expected values come from the
// C++ models below, never from the simulator.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "spirv/loader.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "src/exec/testing/compile_cl.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;

// One configuration of a launch: sub-group size, work-group size, checkers.
struct Config {
  uint32_t subGroupSize;
  uint64_t local;
  bool checkers;
};

// Full sub-groups, a partial last sub-group (20 = 16 + 4, 20 = 8 + 8 + 4), odd sizes.
const Config kConfigs[] = {{16, 32, false}, {16, 20, false}, {8, 20, false},
                           {5, 20, false},  {1, 4, false},   {16, 20, true}};
constexpr uint64_t kItems = 40;

LaunchOptions optionsFor(const Config& c) {
  LaunchOptions o;
  o.subGroupSize = c.subGroupSize;
  o.threads = 1;
  if (c.checkers) o.observers = check::observersFor({.races = true, .undefinedValues = true});
  return o;
}

std::string configName(const Config& c, const char* opt) {
  return std::string(opt) + " sub-group " + std::to_string(c.subGroupSize) + " local " +
         std::to_string(c.local) + (c.checkers ? " checkers" : "");
}

// Lanes that take the work: divergent inside every sub-group.
bool selected(uint64_t i) { return i % 3 != 1; }

// ---- Composite construct / extract / insert / shuffle, 1-, 2-, 4- and 8-byte elements.

const char* kComposite = R"(
kernel void k(global const float* a, global const long* b, global const int* sel,
              global float4* o4, global float8* o8, global long4* l4, global long16* l16,
              global float* o3, global uchar4* c4, global short8* s8, global float* ex) {
  size_t i = get_global_id(0);
  if (sel[i] == 0) return;
  float x = a[i];
  float4 v = (float4)(x, x + 1.0f, x * 2.0f, -x);
  float4 w = v.wzyx;
  o8[i] = (float8)(v, w);
  v.y = x * 3.0f;
  o4[i] = v;
  long y = b[i];
  long4 q = (long4)(y, y ^ 1, y << 1, 7);
  q.z = y + 5;
  l4[i] = q.yxwz;
  long16 h = (long16)(q, q.wzyx, q + 1, q * 2);
  l16[i] = h.sfedcba9876543210;
  float3 t = (float3)(x, 1.0f, 2.0f);
  vstore3(t.zyx, i, o3);
  uchar4 c = (uchar4)((uchar)y, (uchar)(y >> 8), 3, 4);
  c4[i] = c.wzyx;
  short8 s = (short8)((short)y, 1, 2, 3, (short)x, 5, 6, 7);
  s8[i] = s.s76543210;
  ex[i] = w.y + t.x;
}
)";

struct CompositeModel {
  std::vector<float> o4, o8, o3, ex;
  std::vector<int64_t> l4, l16;
  std::vector<uint8_t> c4;
  std::vector<int16_t> s8;
};

CompositeModel compositeModel(const std::vector<float>& a, const std::vector<int64_t>& b) {
  const size_t n = a.size();
  CompositeModel m{std::vector<float>(4 * n, -9.f),   std::vector<float>(8 * n, -9.f),
                   std::vector<float>(3 * n, -9.f),   std::vector<float>(n, -9.f),
                   std::vector<int64_t>(4 * n, -9),   std::vector<int64_t>(16 * n, -9),
                   std::vector<uint8_t>(4 * n, 0xee), std::vector<int16_t>(8 * n, -9)};
  for (size_t i = 0; i < n; ++i) {
    if (!selected(i)) continue;
    const float x = a[i];
    float v[4] = {x, x + 1.0f, x * 2.0f, -x};
    const float w[4] = {v[3], v[2], v[1], v[0]};
    for (int c = 0; c < 4; ++c) m.o8[8 * i + c] = v[c], m.o8[8 * i + 4 + c] = w[c];
    v[1] = x * 3.0f;
    for (int c = 0; c < 4; ++c) m.o4[4 * i + c] = v[c];
    const int64_t y = b[i];
    int64_t q[4] = {y, y ^ 1, int64_t(uint64_t(y) << 1), 7};
    q[2] = y + 5;
    const int64_t qs[4] = {q[1], q[0], q[3], q[2]};
    for (int c = 0; c < 4; ++c) m.l4[4 * i + c] = qs[c];
    int64_t h[16];
    for (int c = 0; c < 4; ++c) {
      h[c] = q[c];
      h[4 + c] = q[3 - c];
      h[8 + c] = q[c] + 1;
      h[12 + c] = q[c] * 2;
    }
    for (int c = 0; c < 16; ++c) m.l16[16 * i + c] = h[15 - c];
    const float t[3] = {x, 1.0f, 2.0f};
    for (int c = 0; c < 3; ++c) m.o3[3 * i + c] = t[2 - c];
    const uint8_t ch[4] = {uint8_t(y), uint8_t(y >> 8), 3, 4};
    for (int c = 0; c < 4; ++c) m.c4[4 * i + c] = ch[3 - c];
    const int16_t s[8] = {int16_t(y), 1, 2, 3, int16_t(x), 5, 6, 7};
    for (int c = 0; c < 8; ++c) m.s8[8 * i + c] = s[7 - c];
    m.ex[i] = w[1] + t[0];
  }
  return m;
}

TEST(FastPaths, CompositeMovesMatchTheHostModel) {
  std::vector<float> a(kItems);
  std::vector<int64_t> b(kItems);
  std::vector<int32_t> sel(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    a[i] = float(i) * 1.5f - 7.0f;
    b[i] = int64_t(i * 0x10001) - 300 + (int64_t(i) << 40);
    sel[i] = selected(i);
  }
  const CompositeModel want = compositeModel(a, b);
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kComposite, opt));
    for (const Config& c : kConfigs) {
      SCOPED_TRACE(configName(c, opt));
      CompositeModel got{
          std::vector<float>(4 * kItems, -9.f),   std::vector<float>(8 * kItems, -9.f),
          std::vector<float>(3 * kItems, -9.f),   std::vector<float>(kItems, -9.f),
          std::vector<int64_t>(4 * kItems, -9),   std::vector<int64_t>(16 * kItems, -9),
          std::vector<uint8_t>(4 * kItems, 0xee), std::vector<int16_t>(8 * kItems, -9)};
      LaunchResult r =
          prog->launch("k", range1(kItems, c.local),
                       {bufferOf(a), bufferOf(b), bufferOf(sel), bufferOf(got.o4), bufferOf(got.o8),
                        bufferOf(got.l4), bufferOf(got.l16), bufferOf(got.o3), bufferOf(got.c4),
                        bufferOf(got.s8), bufferOf(got.ex)},
                       optionsFor(c));
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(got.o4, want.o4);
      EXPECT_EQ(got.o8, want.o8);
      EXPECT_EQ(got.o3, want.o3);
      EXPECT_EQ(got.ex, want.ex);
      EXPECT_EQ(got.l4, want.l4);
      EXPECT_EQ(got.l16, want.l16);
      EXPECT_EQ(got.c4, want.c4);
      EXPECT_EQ(got.s8, want.s8);
    }
  }
}

}  // namespace
}  // namespace spvsim
