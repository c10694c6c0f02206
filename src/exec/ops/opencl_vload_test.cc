// vloadn/vstoren and the half loads/stores end to end (OpenCL C "Vector Data Load and
// Store Functions"), compiled at test time. Addresses: vloadn reads p + offset * n
// elements; vloada_half3/vstorea_half3 use offset * 4. Half values are bit patterns
// (sign | 5-bit exponent | 10-bit fraction); rounding as in IEEE 754.
#include <algorithm>
#include <bit>
#include <cmath>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

const char* kHalfPragma = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";

TEST(Vload, VloadnVstoren) {
  auto p = loadOpenCl(R"(
    kernel void k(global const float* f, global float4* o4, global float* o3,
                  global const char* c, global char16* c16, global const ulong* u,
                  global ulong* u2, global short* s3) {
      size_t i = get_global_id(0);
      o4[i] = vload4(i, f);
      vstore3(vload3(i, f) + 1.0f, i, o3);
      c16[i] = vload16(i, c);
      vstore2(vload2(i, u) * 2ul, i, u2);
      short priv[6] = {1, 2, 3, 4, 5, 6};
      vstore3(vload3(i, priv), i, s3);
    })",
                      "vloadn");
  std::vector<float> f(16);
  for (int k = 0; k < 16; ++k) f[k] = float(k);
  std::vector<float> o4(8), o3(6);
  std::vector<int8_t> c(32), c16(32);
  for (int k = 0; k < 32; ++k) c[k] = int8_t(k - 16);
  std::vector<uint64_t> u = {1, 2, 3, 1ull << 62}, u2(4);
  std::vector<int16_t> s3(6);
  auto r = run(*p, "k", 2, f, o4, o3, c, c16, u, u2, s3);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(o4, (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_EQ(o3, (std::vector<float>{1, 2, 3, 4, 5, 6}));  // f[0..2], f[3..5], plus 1
  EXPECT_EQ(c16, c);
  EXPECT_EQ(u2, (std::vector<uint64_t>{2, 4, 6, 1ull << 63}));
  EXPECT_EQ(s3, (std::vector<int16_t>{1, 2, 3, 4, 5, 6}));
}

TEST(Vload, HalfLoads) {
  auto p = loadOpenCl(std::string(kHalfPragma) + R"(
    kernel void k(global const half* h, global float* one, global float4* four,
                  global float* three, global float* athree) {
      size_t i = get_global_id(0);
      one[i] = vload_half(i, h);
      four[i] = vload_half4(i, h);
      vstore3(vload_half3(i, h), i, three);
      vstore3(vloada_half3(i, h), i, athree);
    })",
                      "vload_half");
  // 1, -2, 0.5, +inf, 2^-24 (smallest subnormal), 65504 (largest), 0x3555, -0.
  std::vector<uint16_t> h = {0x3C00, 0xC000, 0x3800, 0x7C00, 0x0001, 0x7BFF, 0x3555, 0x8000};
  std::vector<float> one(2), four(8), three(6), athree(6);
  auto r = run(*p, "k", 2, h, one, four, three, athree);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float inf = INFINITY, tiny = 0x1p-24f;
  const float third = 0x1.554p-2f;  // 0x3555: exponent 13 - 15 = -2, fraction 0x155 / 1024
  EXPECT_EQ(one, (std::vector<float>{1.0f, -2.0f}));
  EXPECT_EQ(four, (std::vector<float>{1.0f, -2.0f, 0.5f, inf, tiny, 65504.0f, third, -0.0f}));
  EXPECT_TRUE(std::signbit(four[7]));
  EXPECT_EQ(three, (std::vector<float>{1.0f, -2.0f, 0.5f, inf, tiny, 65504.0f}));
  // vloada_half3(1, h) starts at element 4, not 3.
  EXPECT_EQ(athree, (std::vector<float>{1.0f, -2.0f, 0.5f, tiny, 65504.0f, third}));
}

TEST(Vload, HalfStoresRounding) {
  auto p = loadOpenCl(std::string(kHalfPragma) + R"(
    kernel void k(global const float* f, global half* h, global const double* d,
                  global half* hd, global half* h4, global half* a3) {
      size_t i = get_global_id(0);
      vstore_half(f[i], 4 * i, h);
      vstore_half_rtz(f[i], 4 * i + 1, h);
      vstore_half_rtp(f[i], 4 * i + 2, h);
      vstore_half_rtn(f[i], 4 * i + 3, h);
      vstore_half(d[i], i, hd);
      vstore_half4_rtp((float4)(f[i], -f[i], 1.0f, 65520.0f), i, h4);
      vstorea_half3((float3)(f[i], 2.0f, -0.0f), i, a3);
    })",
                      "vstore_half");
  // 1 + 2^-11: the tie between 0x3C00 and 0x3C01; 1 + 3*2^-12 is above it; 65520 is the
  // tie between 65504 (0x7BFF) and overflow.
  std::vector<float> f = {1.00048828125f, 1.000732421875f, 65520.0f, -1e-8f};
  std::vector<uint16_t> h(16);
  // 1 + 2^-11 + 2^-40 rounds up from double directly (not via float).
  std::vector<double> d = {1.0 + 0x1p-11 + 0x1p-40, 0.1, 1e10, -3.0};
  std::vector<uint16_t> hd(4), h4(16);
  std::vector<uint16_t> a3(16, 0xFFFF);
  auto r = run(*p, "k", 4, f, h, d, hd, h4, a3);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(h, (std::vector<uint16_t>{0x3C00, 0x3C00, 0x3C01, 0x3C00,  //
                                      0x3C01, 0x3C00, 0x3C01, 0x3C00,  //
                                      0x7C00, 0x7BFF, 0x7C00, 0x7BFF,  //
                                      0x8000, 0x8000, 0x8000, 0x8001}));
  EXPECT_EQ(hd, (std::vector<uint16_t>{0x3C01, 0x2E66, 0x7C00, 0xC200}));
  // RTP: -(1 + 2^-11) -> -1 (0xBC00); 65520 -> inf; -65520 -> -65504 (0xFBFF).
  EXPECT_EQ(h4, (std::vector<uint16_t>{0x3C01, 0xBC00, 0x3C00, 0x7C00,  //
                                       0x3C01, 0xBC00, 0x3C00, 0x7C00,  //
                                       0x7C00, 0xFBFF, 0x3C00, 0x7C00,  //
                                       0x8000, 0x0001, 0x3C00, 0x7C00}));
  // vstorea_half3 writes 3 halves at offset * 4 and leaves the fourth alone.
  std::vector<uint16_t> wantA3;
  for (int k = 0; k < 4; ++k) wantA3.insert(wantA3.end(), {h[4 * k], 0x4000, 0x8000, 0xFFFF});
  EXPECT_EQ(a3, wantA3);
}

TEST(Vload, OutOfBoundsAndMisaligned) {
  auto p = loadOpenCl(std::string(kHalfPragma) + R"(
    kernel void k(global const float* f, global float4* o, global half* h, global float4* m) {
      size_t i = get_global_id(0);
      o[i] = vload4(i, f);          // lane 3 reads past the end
      vstore_half(1.0f, 6 * i, h);  // lanes 2 and 3 write past the end
      if (i == 0) m[0] = vload4(0, (global const float*)((global const char*)f + 2));
    })",
                      "vload_oob");
  std::vector<float> f(12, 7.0f);
  std::vector<float> o(16, -1.0f), m(4);
  std::vector<uint16_t> h(8);
  auto r = run(*p, "k", 4, f, o, h, m);
  std::vector<std::pair<std::string, std::vector<uint32_t>>> seen;
  for (const auto& d : r.diagnostics) seen.push_back({std::string(kindName(d.kind)), d.lanes});
  std::sort(seen.begin(), seen.end());
  using Seen = std::vector<std::pair<std::string, std::vector<uint32_t>>>;
  EXPECT_EQ(seen,
            (Seen{{"misaligned-access", {0}}, {"out-of-bounds", {2, 3}}, {"out-of-bounds", {3}}}))
      << testing::describe(r);
  // Lane 3's failed load gives 0.
  EXPECT_EQ(o, (std::vector<float>{7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 0, 0, 0, 0}));
  EXPECT_EQ(h, (std::vector<uint16_t>{0x3C00, 0, 0, 0, 0, 0, 0x3C00, 0}));
  // The misaligned load is reported but still performed: bytes 2..17 of a buffer of
  // 7.0f (bytes 00 00 E0 40 each) read as floats 0x000040E0.
  for (float x : m) EXPECT_EQ(std::bit_cast<uint32_t>(x), 0x000040E0u);
}

}  // namespace
}  // namespace spvsim
