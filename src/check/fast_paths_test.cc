// The executor's specialised handlers (composite element moves, ISA-dispatched
// element-wise loops, fused compare + branch) against host models, in full, partial and
// divergent sub-groups, at -O0 and -O2, with and without the checkers (the checkers run
// the handlers on shadow registers and turn fast paths off). Expected values come from the
// C++ models below, never from the simulator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "spirv/loader.h"
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

using Config = check::testing::LaunchConfig;

// Full sub-groups, a partial last sub-group (20 = 16 + 4, 20 = 8 + 8 + 4), odd sizes.
const Config kConfigs[] = {{16, 32, false}, {16, 20, false}, {8, 20, false},
                           {5, 20, false},  {1, 4, false},   {16, 20, true}};
constexpr uint64_t kItems = 40;

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

// ---- Loads and stores under a partial mask (SubGroup::activeRegionBase): scattered,
// reversed and permuted addresses, 1- to 16-byte elements, global, constant and local
// memory; a lane out of bounds still reaches the per-lane path and its report.

const char* kDivergentAccess = R"(
kernel void d(global const int* idx, global const char* c, global const short* s,
              global const long* q, constant float4* cf, global int* oi, global long* oq,
              global float4* of4, global char* oc, global int* ol) {
  local int scratch[64], mine[64];
  size_t i = get_global_id(0), li = get_local_id(0), n = get_local_size(0);
  scratch[li] = (int)i * 3;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (i % 3 != 1) {
    int j = idx[i];
    oi[i] = c[j] + s[j] * 2 + scratch[(li * 7) % n];
    oq[j] = q[i] - 5;
    of4[i] = cf[j] * 2.0f;
    oc[get_global_size(0) - 1 - i] = c[i];
    mine[li] = -(int)i;
    ol[i] = mine[li] + scratch[(li + 1) % n];
  }
}
)";

struct DivergentModel {
  std::vector<int32_t> oi, ol;
  std::vector<int64_t> oq;
  std::vector<float> of4;
  std::vector<int8_t> oc;
};

// scratch holds 3 * (each item's global id) once the barrier is passed; only the branch
// writes `mine`, each item its own slot.
DivergentModel divergentModel(const std::vector<int32_t>& idx, const std::vector<int8_t>& c,
                              const std::vector<int16_t>& s, const std::vector<int64_t>& q,
                              const std::vector<float>& cf, uint64_t local) {
  const size_t n = idx.size();
  DivergentModel m{std::vector<int32_t>(n, -9), std::vector<int32_t>(n, -9),
                   std::vector<int64_t>(n, -9), std::vector<float>(4 * n, -9.f),
                   std::vector<int8_t>(n, -9)};
  for (size_t i = 0; i < n; ++i) {
    if (i % 3 == 1) continue;
    const size_t li = i % local, g0 = i - li;
    const size_t items = std::min<size_t>(local, n - g0);
    const int j = idx[i];
    m.oi[i] = c[j] + s[j] * 2 + int32_t(g0 + (li * 7) % items) * 3;
    m.oq[j] = q[i] - 5;
    for (int k = 0; k < 4; ++k) m.of4[4 * i + k] = cf[4 * j + k] * 2.0f;
    m.oc[n - 1 - i] = c[i];
    m.ol[i] = -int32_t(i) + int32_t(g0 + (li + 1) % items) * 3;
  }
  return m;
}

TEST(FastPaths, DivergentLoadsAndStoresMatchTheHostModel) {
  std::vector<int32_t> idx(kItems);
  std::vector<int8_t> c(kItems);
  std::vector<int16_t> s(kItems);
  std::vector<int64_t> q(kItems);
  std::vector<float> cf(4 * kItems);
  for (size_t i = 0; i < kItems; ++i) {
    idx[i] = int32_t((i * 17 + 5) % kItems);  // a permutation (17 and 40 are coprime)
    c[i] = int8_t(i * 7 - 100);
    s[i] = int16_t(i * 1000 - 20000);
    q[i] = (int64_t(i) << 36) - 77;
    for (int k = 0; k < 4; ++k) cf[4 * i + k] = float(i) + 0.25f * float(k);
  }
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kDivergentAccess, opt));
    for (const Config& cfg : kConfigs) {
      SCOPED_TRACE(configName(cfg, opt));
      const DivergentModel want = divergentModel(idx, c, s, q, cf, cfg.local);
      DivergentModel got{std::vector<int32_t>(kItems, -9), std::vector<int32_t>(kItems, -9),
                         std::vector<int64_t>(kItems, -9), std::vector<float>(4 * kItems, -9.f),
                         std::vector<int8_t>(kItems, -9)};
      LaunchResult r = prog->launch(
          "d", range1(kItems, cfg.local),
          {bufferOf(idx), bufferOf(c), bufferOf(s), bufferOf(q), bufferOf(cf), bufferOf(got.oi),
           bufferOf(got.oq), bufferOf(got.of4), bufferOf(got.oc), bufferOf(got.ol)},
          optionsFor(cfg));
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(got.oi, want.oi);
      EXPECT_EQ(got.oq, want.oq);
      EXPECT_EQ(got.of4, want.of4);
      EXPECT_EQ(got.oc, want.oc);
      EXPECT_EQ(got.ol, want.ol);
    }
  }
  // One selected item's index out of bounds: only its lane is reported, the others'
  // accesses still happen.
  idx[3] = int32_t(kItems + 1000);
  auto prog = Program::load(testing::compileOpenCL(kDivergentAccess, "-O2"));
  std::vector<int32_t> oi(kItems, -9), ol(kItems, -9);
  std::vector<int64_t> oq(kItems, -9);
  std::vector<float> of4(4 * kItems, -9.f);
  std::vector<int8_t> oc(kItems, -9);
  LaunchOptions o;
  o.subGroupSize = 8;
  o.threads = 1;
  LaunchResult r =
      prog->launch("d", range1(kItems, 8),
                   {bufferOf(idx), bufferOf(c), bufferOf(s), bufferOf(q), bufferOf(cf),
                    bufferOf(oi), bufferOf(oq), bufferOf(of4), bufferOf(oc), bufferOf(ol)},
                   o);
  ASSERT_FALSE(r.diagnostics.empty());
  for (const Diagnostic& d : r.diagnostics) {
    EXPECT_EQ(d.kind, DiagnosticKind::OutOfBounds) << describe(r);
    EXPECT_EQ(d.lanes, std::vector<uint32_t>{3}) << describe(r);
  }
  EXPECT_EQ(oi[0], c[idx[0]] + s[idx[0]] * 2 + int32_t((0 * 7) % 8) * 3);
  EXPECT_EQ(oi[2], c[idx[2]] + s[idx[2]] * 2 + int32_t((2 * 7) % 8) * 3);
}

// ---- Splats: one scalar repeated in every element ((T)(x) at -O0, a zero-mask
// shufflevector at -O2), 1-, 2-, 4- and 8-byte elements, 2 to 16 per vector, in every lane
// and under the divergent mask of `selected` (the splat's own handler).

const char* kSplat = R"(
kernel void s(global const float* a, global const long* b, global const int* sel,
              global float4* f4, global long2* l2, global uchar16* c16, global short8* s8,
              global float4* all) {
  size_t i = get_global_id(0);
  all[i] = (float4)(a[i] * 0.5f);
  if (sel[i] == 0) return;
  float x = a[i];
  long y = b[i];
  f4[i] = (float4)(x * 5.0f);
  l2[i] = (long2)(y + 3);
  c16[i] = (uchar16)((uchar)(y >> 3));
  s8[i] = (short8)((short)(y * 3));
}
)";

TEST(FastPaths, SplatsMatchTheHostModel) {
  std::vector<float> a(kItems);
  std::vector<int64_t> b(kItems);
  std::vector<int32_t> sel(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    a[i] = float(i) * 1.25f - 9.0f;
    b[i] = int64_t(i * 0x10203) - 77 + (int64_t(i) << 35);
    sel[i] = selected(i);
  }
  std::vector<float> f4(4 * kItems, -9.f), all(4 * kItems);
  std::vector<int64_t> l2(2 * kItems, -9);
  std::vector<uint8_t> c16(16 * kItems, 0xee);
  std::vector<int16_t> s8(8 * kItems, -9);
  for (size_t i = 0; i < kItems; ++i) {
    for (size_t c = 0; c < 4; ++c) all[4 * i + c] = a[i] * 0.5f;
    if (!selected(i)) continue;
    for (size_t c = 0; c < 4; ++c) f4[4 * i + c] = a[i] * 5.0f;
    for (size_t c = 0; c < 2; ++c) l2[2 * i + c] = b[i] + 3;
    for (size_t c = 0; c < 16; ++c) c16[16 * i + c] = uint8_t(b[i] >> 3);
    for (size_t c = 0; c < 8; ++c) s8[8 * i + c] = int16_t(b[i] * 3);
  }
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kSplat, opt));
    for (const Config& c : kConfigs) {
      SCOPED_TRACE(configName(c, opt));
      std::vector<float> gf4(4 * kItems, -9.f), gall(4 * kItems, -9.f);
      std::vector<int64_t> gl2(2 * kItems, -9);
      std::vector<uint8_t> gc16(16 * kItems, 0xee);
      std::vector<int16_t> gs8(8 * kItems, -9);
      LaunchResult r = prog->launch("s", range1(kItems, c.local),
                                    {bufferOf(a), bufferOf(b), bufferOf(sel), bufferOf(gf4),
                                     bufferOf(gl2), bufferOf(gc16), bufferOf(gs8), bufferOf(gall)},
                                    optionsFor(c));
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(gf4, f4);
      EXPECT_EQ(gl2, l2);
      EXPECT_EQ(gc16, c16);
      EXPECT_EQ(gs8, s8);
      EXPECT_EQ(gall, all);
    }
  }
}

// ---- Element-wise families: float and integer arithmetic, compares (ordered and
// unordered NaN forms, signed and unsigned edges), select, shifts, conversions; scalars and
// float4/int4 (register lengths that are and are not multiples of the loops' blocks).

const char* kElementwise = R"(
#pragma OPENCL FP_CONTRACT OFF
kernel void e(global const float* a, global const float* b, global const int* x,
              global const int* y, global const int* sel, global uchar* cmp, global float* f,
              global int* iv, global float4* f4, global int4* i4) {
  size_t i = get_global_id(0);
  if (sel[i] == 0) return;
  float p = a[i], q = b[i];
  int s = x[i], t = y[i];
  uint u = (uint)s, v = (uint)t;
  uchar* c = cmp + 16 * i;
  c[0] = p == q;
  c[1] = p != q;
  c[2] = p < q;
  c[3] = p <= q;
  c[4] = p > q;
  c[5] = p >= q;
  c[6] = !(p < q);
  c[7] = isunordered(p, q);
  c[8] = islessgreater(p, q);
  c[9] = s < t;
  c[10] = u < v;
  c[11] = s >= t;
  c[12] = u > v;
  c[13] = s == t;
  c[14] = isordered(p, q);
  c[15] = !(p >= q);
  float* g = f + 8 * i;
  g[0] = p + q;
  g[1] = p - q;
  g[2] = p * q;
  g[3] = p / q;
  g[4] = -p;
  g[5] = p < q ? p : q;
  g[6] = (float)s;
  g[7] = (float)u;
  int* h = iv + 8 * i;
  h[0] = s + t;
  h[1] = s * t;
  h[2] = s ^ t;
  h[3] = s << (t & 31);
  h[4] = s >> (t & 31);
  h[5] = (int)(u >> (v & 31));
  h[6] = convert_int_sat(p);
  h[7] = s < t ? t - s : s - t;
  float4 P = (float4)(p, q, p * 2.0f, 1.0f), Q = (float4)(q, p, 3.0f, q);
  f4[i] = select(P * Q + Q, P - Q, P < Q);
  int4 S = (int4)(s, t, s ^ 7, t + 1), T = (int4)(t, s, 5, s);
  i4[i] = (S + T) * S - (T << 3) + (int4)(S > T);
}
)";

struct ElementwiseModel {
  std::vector<uint8_t> cmp;
  std::vector<float> f, f4;
  std::vector<int32_t> iv, i4;
};

int32_t wrapping(int64_t v) { return int32_t(uint32_t(uint64_t(v))); }

int32_t saturatingInt(float p) {
  if (std::isnan(p)) return 0;
  if (p >= 2147483648.0f) return std::numeric_limits<int32_t>::max();
  if (p <= -2147483648.0f) return std::numeric_limits<int32_t>::min();
  return int32_t(std::trunc(p));
}

ElementwiseModel elementwiseModel(const std::vector<float>& a, const std::vector<float>& b,
                                  const std::vector<int32_t>& x, const std::vector<int32_t>& y) {
  const size_t n = a.size();
  ElementwiseModel m{std::vector<uint8_t>(16 * n, 0xee), std::vector<float>(8 * n, -9.f),
                     std::vector<float>(4 * n, -9.f), std::vector<int32_t>(8 * n, -9),
                     std::vector<int32_t>(4 * n, -9)};
  for (size_t i = 0; i < n; ++i) {
    if (!selected(i)) continue;
    const float p = a[i], q = b[i];
    const int32_t s = x[i], t = y[i];
    const uint32_t u = uint32_t(s), v = uint32_t(t);
    const bool unordered = std::isnan(p) || std::isnan(q);
    const uint8_t c[16] = {p == q,
                           !(p == q),
                           p<q, p <= q, p>
                               q,
                           p >= q,
                           !(p < q),
                           unordered,
                           !unordered && p != q,
                           s < t,
                           u<v, s >= t, u>
                               v,
                           s == t,
                           !unordered,
                           !(p >= q)};
    std::memcpy(&m.cmp[16 * i], c, 16);
    const float g[8] = {p + q, p - q, p * q, p / q, -p, p < q ? p : q, float(s), float(u)};
    std::memcpy(&m.f[8 * i], g, sizeof g);
    const int32_t h[8] = {wrapping(int64_t(s) + t),
                          wrapping(int64_t(s) * t),
                          s ^ t,
                          int32_t(u << (v & 31)),
                          s >> (t & 31),
                          int32_t(u >> (v & 31)),
                          saturatingInt(p),
                          s < t ? wrapping(int64_t(t) - s) : wrapping(int64_t(s) - t)};
    std::memcpy(&m.iv[8 * i], h, sizeof h);
    const float P[4] = {p, q, p * 2.0f, 1.0f}, Q[4] = {q, p, 3.0f, q};
    const int32_t S[4] = {s, t, s ^ 7, wrapping(int64_t(t) + 1)}, T[4] = {t, s, 5, s};
    for (int k = 0; k < 4; ++k) {
      const float pq = P[k] * Q[k];
      m.f4[4 * i + k] = P[k] < Q[k] ? P[k] - Q[k] : pq + Q[k];  // select(a, b, c): c ? b : a
      const uint32_t st = uint32_t(S[k]) + uint32_t(T[k]);
      m.i4[4 * i + k] = int32_t(st * uint32_t(S[k]) - (uint32_t(T[k]) << 3) +
                                uint32_t(S[k] > T[k] ? -1 : 0));  // vector true is -1
    }
  }
  return m;
}

TEST(FastPaths, ElementwiseFamiliesMatchTheHostModel) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const float fs[] = {0.0f,   -0.0f, 1.5f, -2.25f, nan,     inf,          -inf,   1e-42f,
                      3.0e9f, -3e9f, 7.0f, 0.1f,   -1e-40f, 2147483520.f, 100.5f, -0.5f};
  const int32_t is[] = {0,
                        -1,
                        1,
                        std::numeric_limits<int32_t>::min(),
                        std::numeric_limits<int32_t>::max(),
                        31,
                        32,
                        -32,
                        12345,
                        -7,
                        65536,
                        3};
  std::vector<float> a(kItems), b(kItems);
  std::vector<int32_t> x(kItems), y(kItems), sel(kItems);
  for (size_t i = 0; i < kItems; ++i) {
    a[i] = fs[i % 16];
    b[i] = fs[(i * 7 + 3) % 16];
    if (i % 5 == 0) b[i] = a[i];  // equal operands, NaN with itself included
    x[i] = is[i % 12];
    y[i] = is[(i * 5 + 1) % 12];
    if (i % 7 == 0) y[i] = x[i];
    sel[i] = selected(i);
  }
  const ElementwiseModel want = elementwiseModel(a, b, x, y);
  // Bit patterns: NaNs and signed zeros included.
  auto same = [](const std::vector<float>& g, const std::vector<float>& w) {
    std::string diff;
    for (size_t k = 0; k < w.size(); ++k)
      if (std::memcmp(&g[k], &w[k], 4) != 0)
        diff += "[" + std::to_string(k) + "] " + std::to_string(g[k]) + " want " +
                std::to_string(w[k]) + "\n";
    return diff;
  };
  for (const char* opt : {"-O0", "-O2"}) {
    auto prog = Program::load(testing::compileOpenCL(kElementwise, opt));
    for (const Config& c : kConfigs) {
      SCOPED_TRACE(configName(c, opt));
      ElementwiseModel got{
          std::vector<uint8_t>(16 * kItems, 0xee), std::vector<float>(8 * kItems, -9.f),
          std::vector<float>(4 * kItems, -9.f), std::vector<int32_t>(8 * kItems, -9),
          std::vector<int32_t>(4 * kItems, -9)};
      LaunchResult r = prog->launch(
          "e", range1(kItems, c.local),
          {bufferOf(a), bufferOf(b), bufferOf(x), bufferOf(y), bufferOf(sel), bufferOf(got.cmp),
           bufferOf(got.f), bufferOf(got.iv), bufferOf(got.f4), bufferOf(got.i4)},
          optionsFor(c));
      EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
      EXPECT_EQ(got.cmp, want.cmp);
      EXPECT_EQ(same(got.f, want.f), "");
      EXPECT_EQ(same(got.f4, want.f4), "");
      EXPECT_EQ(got.iv, want.iv);
      EXPECT_EQ(got.i4, want.i4);
    }
  }
}

}  // namespace
}  // namespace spvsim
