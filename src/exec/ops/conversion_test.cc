// Conversion instructions end to end: OpenCL C kernels compiled at test time (clang-15 +
// llvm-spirv-15), run through spvsim::Program. Expected values are worked out by hand
// from the OpenCL C conversion rules (6.4.3: rounding modes, saturation) and IEEE 754
// formats; half results are written as bit patterns (sign | 5-bit exponent | 10-bit
// fraction). Float -> int conversions without _sat that are out of range are undefined
// in OpenCL C; spvsim saturates them (NaN -> 0), and the tests pin that choice down.
#include <bit>
#include <climits>
#include <cmath>
#include <limits>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(Conversion, FloatToInt) {
  auto p = loadOpenCl(R"(
    kernel void k(global const float* f, global int* rtz, global int* rte, global int* rtp,
                  global int* rtn, global uchar* ucs, global char* cs, global int* srte,
                  global ulong* uls) {
      size_t i = get_global_id(0);
      float x = f[i];
      rtz[i] = convert_int(x);
      rte[i] = convert_int_rte(x);
      rtp[i] = convert_int_rtp(x);
      rtn[i] = convert_int_rtn(x);
      ucs[i] = convert_uchar_sat(x);
      cs[i] = convert_char_sat(x);
      srte[i] = convert_int_sat_rte(x);
      uls[i] = convert_ulong_sat(x);
    })",
                      "f2i");
  std::vector<float> f = {1.25f, -1.25f, 2.5f, -2.5f, 3.5f,   300.75f,     -300.75f, kNan,
                          3e9f,  -3e9f,  0.5f, -0.5f, 255.5f, 16777216.0f, 1e20f,    -0.0f};
  const size_t n = f.size();
  std::vector<int32_t> rtz(n), rte(n), rtp(n), rtn(n), srte(n);
  std::vector<uint8_t> ucs(n);
  std::vector<int8_t> cs(n);
  std::vector<uint64_t> uls(n);
  auto r = run(*p, "k", n, f, rtz, rte, rtp, rtn, ucs, cs, srte, uls);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const int32_t M = INT_MAX, m = INT_MIN;
  EXPECT_EQ(rtz,
            (std::vector<int32_t>{1, -1, 2, -2, 3, 300, -300, 0, M, m, 0, 0, 255, 16777216, M, 0}));
  EXPECT_EQ(rte,
            (std::vector<int32_t>{1, -1, 2, -2, 4, 301, -301, 0, M, m, 0, 0, 256, 16777216, M, 0}));
  EXPECT_EQ(rtp,
            (std::vector<int32_t>{2, -1, 3, -2, 4, 301, -300, 0, M, m, 1, 0, 256, 16777216, M, 0}));
  EXPECT_EQ(
      rtn, (std::vector<int32_t>{1, -2, 2, -3, 3, 300, -301, 0, M, m, 0, -1, 255, 16777216, M, 0}));
  EXPECT_EQ(ucs, (std::vector<uint8_t>{1, 0, 2, 0, 3, 255, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0}));
  EXPECT_EQ(
      cs, (std::vector<int8_t>{1, -1, 2, -2, 3, 127, -128, 0, 127, -128, 0, 0, 127, 127, 127, 0}));
  EXPECT_EQ(srte, rte);
  EXPECT_EQ(uls, (std::vector<uint64_t>{1, 0, 2, 0, 3, 300, 0, 0, 3000000000u, 0, 0, 0, 255,
                                        16777216, UINT64_MAX, 0}));
}

TEST(Conversion, IntToFloatRounding) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int* s, global const uint* u, global float* o) {
      size_t i = get_global_id(0);
      o[8 * i + 0] = convert_float(s[i]);
      o[8 * i + 1] = convert_float_rtz(s[i]);
      o[8 * i + 2] = convert_float_rtp(s[i]);
      o[8 * i + 3] = convert_float_rtn(s[i]);
      o[8 * i + 4] = convert_float(u[i]);
      o[8 * i + 5] = convert_float_rtz(u[i]);
      o[8 * i + 6] = convert_float_rtp(u[i]);
      o[8 * i + 7] = convert_float_rtn(u[i]);
    })",
                      "i2f");
  // Near 2^24 floats are 2 apart, near 2^31 128 apart, near 2^32 256 apart.
  std::vector<int32_t> s = {16777217, -16777217, 16777219, INT_MAX};
  std::vector<uint32_t> u = {16777217u, 4294967295u, 16777219u, 7u};
  std::vector<float> o(32);
  auto r = run(*p, "k", 4, s, u, o);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  std::vector<float> want = {16777216,
                             16777216,
                             16777218,
                             16777216,
                             16777216,
                             16777216,
                             16777218,
                             16777216,
                             -16777216,
                             -16777216,
                             -16777216,
                             -16777218,
                             4294967296.0f,
                             4294967040.0f,
                             4294967296.0f,
                             4294967040.0f,
                             16777220,
                             16777218,
                             16777220,
                             16777218,
                             16777220,
                             16777218,
                             16777220,
                             16777218,
                             2147483648.0f,
                             2147483520.0f,
                             2147483648.0f,
                             2147483520.0f,
                             7,
                             7,
                             7,
                             7};
  EXPECT_EQ(o, want);
}

TEST(Conversion, SixtyFourBitToFloatAndDouble) {
  auto p = loadOpenCl(R"(
    kernel void k(global const long* l, global const ulong* u, global double* d,
                  global float* f) {
      size_t i = get_global_id(0);
      d[3 * i + 0] = convert_double_rtp(l[i]);
      d[3 * i + 1] = convert_double_rtn(l[i]);
      d[3 * i + 2] = convert_double(u[i]);
      f[2 * i + 0] = convert_float(u[i]);
      f[2 * i + 1] = convert_float_rtz(u[i]);
    })",
                      "l2f");
  // 2^53 + 1 lies between the doubles 2^53 and 2^53 + 2.
  std::vector<int64_t> l = {9007199254740993LL, -9007199254740993LL};
  std::vector<uint64_t> u = {UINT64_MAX, 3};
  std::vector<double> d(6);
  std::vector<float> f(4);
  auto r = run(*p, "k", 2, l, u, d, f);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(d, (std::vector<double>{9007199254740994.0, 9007199254740992.0, 0x1p64,
                                    -9007199254740992.0, -9007199254740994.0, 3.0}));
  // UINT64_MAX: RTE gives 2^64, RTZ the float below it, 2^64 - 2^40.
  EXPECT_EQ(f, (std::vector<float>{0x1p64f, 0x1p64f - 0x1p40f, 3.0f, 3.0f}));
}

TEST(Conversion, FloatToHalfRounding) {
  auto p = loadOpenCl(R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void k(global const float* f, global half* h) {
      size_t i = get_global_id(0);
      h[4 * i + 0] = convert_half(f[i]);
      h[4 * i + 1] = convert_half_rtz(f[i]);
      h[4 * i + 2] = convert_half_rtp(f[i]);
      h[4 * i + 3] = convert_half_rtn(f[i]);
    })",
                      "f2h");
  // 1 + 2^-11: the tie between 1 (0x3C00) and 1 + 2^-10 (0x3C01); 1 + 3*2^-12 is above
  // it. 65520 is the tie between 65504 (0x7BFF, the largest half) and 2^16 (overflow).
  // 1e-8 is below half of 2^-24 (0x0001, the smallest subnormal).
  std::vector<float> f = {1.00048828125f, 1.000732421875f, 65520.0f, -65520.0f,
                          1e-8f,          -1e-8f,          -2.0f,    0.1f};
  std::vector<uint16_t> h(32);
  auto r = run(*p, "k", f.size(), f, h);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  std::vector<uint16_t> want = {
      0x3C00, 0x3C00, 0x3C01, 0x3C00,  // 1 + 2^-11
      0x3C01, 0x3C00, 0x3C01, 0x3C00,  // 1 + 3*2^-12
      0x7C00, 0x7BFF, 0x7C00, 0x7BFF,  // 65520
      0xFC00, 0xFBFF, 0xFBFF, 0xFC00,  // -65520
      0x0000, 0x0000, 0x0001, 0x0000,  // 1e-8
      0x8000, 0x8000, 0x8000, 0x8001,  // -1e-8
      0xC000, 0xC000, 0xC000, 0xC000,  // -2 (exact)
      0x2E66, 0x2E66, 0x2E67, 0x2E66,  // 0.1 = 1.6 * 2^-4: fraction 614.4 / 1024
  };
  EXPECT_EQ(h, want);
}

TEST(Conversion, DoubleToFloatAndHalf) {
  auto p = loadOpenCl(R"(
    #pragma OPENCL EXTENSION cl_khr_fp16 : enable
    kernel void k(global const double* d, global float* f, global half* h) {
      size_t i = get_global_id(0);
      f[3 * i + 0] = convert_float(d[i]);
      f[3 * i + 1] = convert_float_rtp(d[i]);
      f[3 * i + 2] = convert_float_rtz(d[i]);
      h[i] = convert_half(d[i]);
    })",
                      "d2f");
  // 1 + 2^-11 + 2^-40: just above the half tie (rounding through float would lose
  // 2^-40 and give 1.0); 1e300 overflows float; 1 + 2^-30 is between two floats.
  std::vector<double> d = {1.0 + 0x1p-11 + 0x1p-40, 1e300, 1.0 + 0x1p-30, -1e300};
  std::vector<float> f(12);
  std::vector<uint16_t> h(4);
  auto r = run(*p, "k", d.size(), d, f, h);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float inf = INFINITY, fmax = 0x1.fffffep127f;
  EXPECT_EQ(
      f, (std::vector<float>{1.0f + 0x1p-11f, 1.0f + 0x1p-11f + 0x1p-23f, 1.0f + 0x1p-11f, inf, inf,
                             fmax, 1.0f, 1.0f + 0x1p-23f, 1.0f, -inf, -fmax, -fmax}));
  EXPECT_EQ(h, (std::vector<uint16_t>{0x3C01, 0x7C00, 0x3C00, 0xFC00}));
}

// Every rounding mode with double operands, as CL_DEVICE_DOUBLE_FP_CONFIG claims them
// (ROUND_TO_NEAREST | ROUND_TO_ZERO | ROUND_TO_INF). Worked by hand: 1 + 2^-24 is the tie
// between the floats 1 and 1 + 2^-23, 1 + 3 * 2^-25 lies above it; 2^-150 is the tie
// between 0 and the smallest float subnormal 2^-149, 3 * 2^-151 above it; 1e300
// overflows float (to infinity or FLT_MAX by mode).
TEST(Conversion, DoubleRoundingModes) {
  auto p = loadOpenCl(R"(
    kernel void k(global const double* d, global float* f, global int* n) {
      size_t i = get_global_id(0);
      f[4 * i + 0] = convert_float_rte(d[i]);
      f[4 * i + 1] = convert_float_rtz(d[i]);
      f[4 * i + 2] = convert_float_rtp(d[i]);
      f[4 * i + 3] = convert_float_rtn(d[i]);
      n[4 * i + 0] = convert_int_sat_rte(d[i]);
      n[4 * i + 1] = convert_int_sat_rtz(d[i]);
      n[4 * i + 2] = convert_int_sat_rtp(d[i]);
      n[4 * i + 3] = convert_int_sat_rtn(d[i]);
    })",
                      "d2fmodes");
  std::vector<double> d = {1.0 + 0x1p-24, -(1.0 + 0x1p-24), 1.0 + 3 * 0x1p-25, 1e300, -1e300,
                           0x1p-150,      3 * 0x1p-151,     2.5,               -2.5,  -0.5};
  std::vector<float> f(4 * d.size());
  std::vector<int32_t> n(4 * d.size());
  auto r = run(*p, "k", d.size(), d, f, n);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float inf = INFINITY, fmax = 0x1.fffffep127f, up = 1.0f + 0x1p-23f, tiny = 0x1p-149f;
  const int32_t M = INT_MAX, m = INT_MIN;
  EXPECT_EQ(f, (std::vector<float>{1.0f,  1.0f,  up,    1.0f,    // 1 + 2^-24
                                   -1.0f, -1.0f, -1.0f, -up,     // -(1 + 2^-24)
                                   up,    1.0f,  up,    1.0f,    // 1 + 3 * 2^-25
                                   inf,   fmax,  inf,   fmax,    // 1e300
                                   -inf,  -fmax, -fmax, -inf,    // -1e300
                                   0.0f,  0.0f,  tiny,  0.0f,    // 2^-150
                                   tiny,  0.0f,  tiny,  0.0f,    // 3 * 2^-151
                                   2.5f,  2.5f,  2.5f,  2.5f,    // exact
                                   -2.5f, -2.5f, -2.5f, -2.5f,   // exact
                                   -0.5f, -0.5f, -0.5f, -0.5f}));
  EXPECT_EQ(n, (std::vector<int32_t>{1,  1,  2,  1,  -1, -1, -1, -2, 1,  1,  2,  1,  M,  M,
                                     M,  M,  m,  m,  m,  m,  0,  0,  1,  0,  0,  0,  1,  0,
                                     2,  2,  3,  2,  -2, -2, -2, -3, 0,  0,  0,  -1}));
}

// Integers to double in every mode: 2^53 + 1 is the tie between 2^53 and 2^53 + 2;
// 2^62 + 2^9 + 1 lies just above the tie of 2^62 and 2^62 + 2^10; 2^64 - 1 is between
// 2^64 - 2^11 and 2^64.
TEST(Conversion, IntegersToDoubleRoundingModes) {
  auto p = loadOpenCl(R"(
    kernel void k(global const long* l, global const ulong* u, global double* d) {
      size_t i = get_global_id(0);
      d[8 * i + 0] = convert_double_rte(l[i]);
      d[8 * i + 1] = convert_double_rtz(l[i]);
      d[8 * i + 2] = convert_double_rtp(l[i]);
      d[8 * i + 3] = convert_double_rtn(l[i]);
      d[8 * i + 4] = convert_double_rte(u[i]);
      d[8 * i + 5] = convert_double_rtz(u[i]);
      d[8 * i + 6] = convert_double_rtp(u[i]);
      d[8 * i + 7] = convert_double_rtn(u[i]);
    })",
                      "i2dmodes");
  const int64_t t53 = (int64_t(1) << 53) + 1, t62 = (int64_t(1) << 62) + 512 + 1;
  std::vector<int64_t> l = {t53, -t53, t62};
  std::vector<uint64_t> u = {uint64_t(t53), UINT64_MAX, 7};
  std::vector<double> d(24);
  auto r = run(*p, "k", 3, l, u, d);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const double a = 0x1p53, b = 0x1p53 + 2, c = 0x1p62, e = 0x1p62 + 0x1p10;
  EXPECT_EQ(d, (std::vector<double>{a,  a,  b,  a,  a,      a,          b,      a,
                                    -a, -a, -a, -b, 0x1p64, 0x1p64 - 0x1p11, 0x1p64,
                                    0x1p64 - 0x1p11, e, c, e, c, 7, 7, 7, 7}));
}

TEST(Conversion, IntegerSaturation) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int* i, global const uint* u, global const long* l,
                  global const ulong* ul, global uchar* uc, global char* c, global short* s,
                  global int* o, global ulong* ol, global long* sl) {
      size_t g = get_global_id(0);
      uc[2 * g] = convert_uchar_sat(i[g]);
      uc[2 * g + 1] = convert_uchar(i[g]);
      c[2 * g] = convert_char_sat(u[g]);
      c[2 * g + 1] = convert_char(i[g]);
      s[g] = convert_short_sat(l[g]);
      o[g] = convert_int_sat(ul[g]);
      ol[2 * g] = convert_ulong_sat(l[g]);
      ol[2 * g + 1] = convert_ulong(u[g]);
      sl[g] = convert_long(i[g]);
    })",
                      "i2i");
  std::vector<int32_t> i = {300, -5, 255, 200};
  std::vector<uint32_t> u = {200, 127, 4000000000u, 0};
  std::vector<int64_t> l = {100000, -100000, -7, 5};
  std::vector<uint64_t> ul = {1ull << 40, 5, 0x80000000u, 0x7fffffffu};
  std::vector<uint8_t> uc(8);
  std::vector<int8_t> c(8);
  std::vector<int16_t> s(4);
  std::vector<int32_t> o(4);
  std::vector<uint64_t> ol(8);
  std::vector<int64_t> sl(4);
  auto r = run(*p, "k", 4, i, u, l, ul, uc, c, s, o, ol, sl);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  // 300 mod 256 = 44; -5 mod 256 = 251; 200 as char = 200 - 256 = -56.
  EXPECT_EQ(uc, (std::vector<uint8_t>{255, 44, 0, 251, 255, 255, 200, 200}));
  EXPECT_EQ(c, (std::vector<int8_t>{127, 44, 127, -5, 127, -1, 0, -56}));
  EXPECT_EQ(s, (std::vector<int16_t>{32767, -32768, -7, 5}));
  EXPECT_EQ(o, (std::vector<int32_t>{INT_MAX, 5, INT_MAX, INT_MAX}));
  EXPECT_EQ(ol, (std::vector<uint64_t>{100000, 200, 0, 127, 0, 4000000000u, 5, 0}));
  EXPECT_EQ(sl, (std::vector<int64_t>{300, -5, 255, 200}));
}

TEST(Conversion, Vectors) {
  auto p = loadOpenCl(R"(
    kernel void k(global const float4* f, global int4* rte, global uchar16* uc,
                  global float* f3, global const int* i3) {
      size_t g = get_global_id(0);
      rte[g] = convert_int4_sat_rte(f[g]);
      int16 wide = (int16)(convert_int4(f[g]), (int4)(-1, 256, 1000, 7),
                           (int4)(g), (int4)(0, 1, 2, 3));
      uc[g] = convert_uchar16_sat(wide);
      vstore3(convert_float3(vload3(g, i3)) * 0.5f, g, f3);
    })",
                      "vec");
  std::vector<float> f = {0.5f, 1.5f, -2.5f, 3e10f, 7.25f, -0.75f, 255.5f, kNan};
  std::vector<int32_t> rte(8);
  std::vector<uint8_t> uc(32);
  std::vector<float> f3(6);
  std::vector<int32_t> i3 = {1, -3, 5, 7, 16777217, -1};
  auto r = run(*p, "k", 2, f, rte, uc, f3, i3);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(rte, (std::vector<int32_t>{0, 2, -2, INT_MAX, 7, -1, 256, 0}));
  EXPECT_EQ(uc, (std::vector<uint8_t>{0, 1, 0,   255, 0, 255, 255, 7, 0, 0, 0, 0, 0, 1, 2, 3,
                                      7, 0, 255, 0,   0, 255, 255, 7, 1, 1, 1, 1, 0, 1, 2, 3}));
  // 16777217 -> 16777216 (RTE), halved exactly.
  EXPECT_EQ(f3, (std::vector<float>{0.5f, -1.5f, 2.5f, 3.5f, 8388608.0f, -0.5f}));
}

TEST(Conversion, BitcastsAndAsType) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int* i, global float* f, global uint4* u4, global ulong* ul,
                  global const float4* f4, global short* s) {
      size_t g = get_global_id(0);
      f[g] = as_float(i[g]);
      u4[g] = as_uint4(f4[g]);
      ul[g] = as_ulong((int2)(i[g], -1));
      short2 pair = as_short2(i[g]);
      s[2 * g] = pair.x;
      s[2 * g + 1] = pair.y;
    })",
                      "bitcast");
  std::vector<int32_t> i = {0x3F800000, (int32_t)0xC0490FDB};
  std::vector<float> f(2);
  std::vector<uint32_t> u4(8);
  std::vector<uint64_t> ul(2);
  std::vector<float> f4 = {1.0f, -0.0f, 2.0f, 0.5f, -2.0f, 0.0f, 1.5f, 0.25f};
  std::vector<int16_t> s(4);
  auto r = run(*p, "k", 2, i, f, u4, ul, f4, s);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(f[0], 1.0f);
  EXPECT_EQ(std::bit_cast<uint32_t>(f[1]), 0xC0490FDBu);  // -3.14159274
  EXPECT_EQ(u4, (std::vector<uint32_t>{0x3F800000, 0x80000000, 0x40000000, 0x3F000000, 0xC0000000,
                                       0x00000000, 0x3FC00000, 0x3E800000}));
  // (int2)(x, -1) in memory: x in the low word, 0xFFFFFFFF in the high word.
  EXPECT_EQ(ul, (std::vector<uint64_t>{0xFFFFFFFF3F800000ull, 0xFFFFFFFFC0490FDBull}));
  EXPECT_EQ(s, (std::vector<int16_t>{0, 0x3F80, 0x0FDB, (int16_t)0xC049}));
}

// Bitcasts of every lane of full sub-groups (one register copy) and of the odd lanes only
// (a divergent branch): each lane's own bits, every element of a vector.
TEST(Conversion, BitcastsOfFullAndDivergentSubGroups) {
  auto p = loadOpenCl(R"(
    kernel void k(global const uint4* in, global float4* all, global ulong2* odd,
                  global uchar* bytes) {
      size_t g = get_global_id(0);
      uint4 v = in[g];
      all[g] = as_float4(v);
      if (g & 1) {
        odd[g] = as_ulong2(v);
      } else {
        uchar4 b = as_uchar4(v.x);
        vstore4(b, g, bytes);
      }
    })",
                      "bitcast_lanes");
  const size_t n = 40;
  std::vector<uint32_t> in(4 * n);
  for (size_t k = 0; k < in.size(); ++k) in[k] = uint32_t(0x3F800000u + k * 0x01010101u);
  std::vector<float> all(4 * n, -1.0f);
  std::vector<uint64_t> odd(2 * n, 7);
  std::vector<uint8_t> bytes(4 * n, 9);
  auto r = run(*p, "k", n, in, all, odd, bytes);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (size_t g = 0; g < n; ++g) {
    for (size_t c = 0; c < 4; ++c)
      EXPECT_EQ(std::bit_cast<uint32_t>(all[4 * g + c]), in[4 * g + c]) << g << "." << c;
    for (size_t c = 0; c < 2; ++c) {
      const uint64_t want = g & 1 ? uint64_t(in[4 * g + 2 * c + 1]) << 32 | in[4 * g + 2 * c] : 7;
      EXPECT_EQ(odd[2 * g + c], want) << g << "." << c;
    }
    for (size_t c = 0; c < 4; ++c) {
      const uint8_t want = g & 1 ? 9 : uint8_t(in[4 * g] >> (8 * c));
      EXPECT_EQ(bytes[4 * g + c], want) << g << "." << c;
    }
  }
}

TEST(Conversion, PointerCasts) {
  auto p = loadOpenCl(R"(
    kernel void k(global int* g, local int* l, global int* out) {
      size_t i = get_global_id(0);
      int x = (int)i;
      l[i] = 10 + (int)i;
      generic int* gen = (i & 1) ? (generic int*)&g[i] : (generic int*)&l[i];
      generic int* priv = (i & 2) ? (generic int*)&x : (generic int*)&g[i];
      out[4 * i + 0] = to_global(gen) != 0;
      out[4 * i + 1] = to_local(gen) != 0 ? *to_local(gen) : -1;
      out[4 * i + 2] = to_private(priv) != 0 ? *to_private(priv) : -1;
      global int* back = (global int*)((ulong)g + 4 * i);  // ConvertPtrToU/UToPtr
      out[4 * i + 3] = *back;
    })",
                      "ptrcast");
  std::vector<int32_t> g = {100, 101, 102, 103};
  std::vector<int32_t> out(16);
  NDRange range;
  range.global[0] = 4;
  range.local[0] = 4;
  range.localGiven = true;
  auto r = p->launch("k", range, {testing::bind(g), ArgBinding::local(16), testing::bind(out)});
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(out,
            (std::vector<int32_t>{0, 10, -1, 100, 1, -1, -1, 101, 0, 12, 2, 102, 1, -1, 3, 103}));
}

// Instructions OpenCL C does not produce this way: SConvert + SaturatedConversion on a
// 3-vector, a decorated vector FConvert, and the non-explicit OpGenericCastToPtr.
TEST(Conversion, AssembledVectorsAndGenericCast) {
  auto p = Program::load(spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int16
               OpCapability Float64
               OpCapability GenericPointer
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %narrow SaturatedConversion
               OpDecorate %down FPRoundingMode RTN
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
     %ushort = OpTypeInt 16 0
        %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %double = OpTypeFloat 64
      %float = OpTypeFloat 32
    %v3ulong = OpTypeVector %ulong 3
   %v3ushort = OpTypeVector %ushort 3
   %v2double = OpTypeVector %double 2
    %v2float = OpTypeVector %float 2
     %pl3 = OpTypePointer CrossWorkgroup %v3ulong
     %ps3 = OpTypePointer CrossWorkgroup %v3ushort
     %pd2 = OpTypePointer CrossWorkgroup %v2double
     %pf2 = OpTypePointer CrossWorkgroup %v2float
     %pu  = OpTypePointer CrossWorkgroup %uint
     %gu  = OpTypePointer Generic %uint
     %lu  = OpTypePointer Workgroup %uint
    %uint_1 = OpConstant %uint 1
    %uint_0 = OpConstant %uint 0
   %ulong_0 = OpConstant %ulong 0
      %fnty = OpTypeFunction %void %pl3 %ps3 %pd2 %pf2 %pu
          %k = OpFunction %void None %fnty
         %a = OpFunctionParameter %pl3
         %b = OpFunctionParameter %ps3
         %c = OpFunctionParameter %pd2
         %d = OpFunctionParameter %pf2
         %e = OpFunctionParameter %pu
      %entry = OpLabel
         %lv = OpLoad %v3ulong %a Aligned 32
     %narrow = OpSConvert %v3ushort %lv
               OpStore %b %narrow Aligned 8
         %dv = OpLoad %v2double %c Aligned 16
       %down = OpFConvert %v2float %dv
               OpStore %d %down Aligned 8
         %g  = OpPtrCastToGeneric %gu %e
         %bk = OpGenericCastToPtr %pu %g
         %lo = OpGenericCastToPtr %lu %g
         %bi = OpConvertPtrToU %ulong %lo
         %is0 = OpIEqual %bool %bi %ulong_0
         %one = OpSelect %uint %is0 %uint_1 %uint_0
               OpStore %bk %one Aligned 4
               OpReturn
               OpFunctionEnd
)"));
  std::vector<int64_t> a = {-100000, 70000, 5, 0};  // long3, padded to 4
  std::vector<int16_t> b(4);
  std::vector<double> c = {1.0 + 0x1p-30, -(1.0 + 0x1p-30)};
  std::vector<float> d(2);
  std::vector<uint32_t> e = {7};
  auto r = run(*p, "k", 1, a, b, c, d, e);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  b.resize(3);  // the store of a short3 also writes its padding element
  EXPECT_EQ(b, (std::vector<int16_t>{-32768, 32767, 5}));
  // RTN: 1 + 2^-30 -> 1; -(1 + 2^-30) -> -(1 + 2^-23).
  EXPECT_EQ(d, (std::vector<float>{1.0f, -(1.0f + 0x1p-23f)}));
  EXPECT_EQ(e[0], 1u);  // the global pointer cast to local space is null
}

}  // namespace
}  // namespace spvsim
