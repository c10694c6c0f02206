// OpenCL.std integer instructions end to end (OpenCL C "Integer Functions"), compiled at
// test time with clang-15 + llvm-spirv-15. Expected values are worked out by hand from
// the function definitions in the OpenCL C spec (saturation, the non-overflowing
// (x + y) >> 1 of hadd/rhadd, mul_hi as the high half of the double-width product, ...).
#include <climits>
#include <cstdint>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

// out[f * n + i] = function f of (a[i], b[i], c[i]) for the functions in `body`.
template <class T, class R = T>
std::vector<R> runFunctions(const std::string& type, const std::string& resultType,
                            const std::vector<std::string>& exprs, std::vector<T> a,
                            std::vector<T> b, std::vector<T> c, const std::string& name) {
  std::string body;
  for (size_t f = 0; f < exprs.size(); ++f)
    body += "  out[" + std::to_string(f) + " * n + i] = " + exprs[f] + ";\n";
  auto p = loadOpenCl("kernel void k(global const " + type + "* A, global const " + type +
                          "* B, global const " + type + "* C, global " + resultType +
                          "* out) {\n  size_t i = get_global_id(0), n = get_global_size(0);\n  " +
                          type + " a = A[i], b = B[i], c = C[i];\n" + body + "}\n",
                      name);
  std::vector<R> out(exprs.size() * a.size());
  auto r = run(*p, "k", a.size(), a, b, c, out);
  EXPECT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  return out;
}

// Splits runFunctions' output into one row per function.
template <class R>
std::vector<std::vector<R>> rows(const std::vector<R>& out, size_t n) {
  std::vector<std::vector<R>> r;
  for (size_t k = 0; k < out.size(); k += n) r.emplace_back(out.begin() + k, out.begin() + k + n);
  return r;
}

TEST(OpenclInteger, Int) {
  std::vector<int32_t> a = {INT_MAX, INT_MIN, -7, 0, 123456789, -1};
  std::vector<int32_t> b = {1, -1, 3, 0, 987654321, -1};
  std::vector<int32_t> c = {5, -3, 100, 0, -1, 2};
  auto out =
      rows(runFunctions<int32_t>("int", "int",
                                 {"abs(a)", "abs_diff(a, b)", "add_sat(a, b)", "sub_sat(a, b)",
                                  "hadd(a, b)", "rhadd(a, b)", "clamp(a, -5, 50)", "clz(a)",
                                  "ctz(a)", "popcount(a)", "mul_hi(a, b)", "mad_hi(a, b, c)",
                                  "mad_sat(a, b, c)", "max(a, b)", "min(a, b)", "rotate(a, b)"},
                                 a, b, c, "int_ops"),
           a.size());
  const int32_t M = INT_MAX, m = INT_MIN;
  // abs and abs_diff return uint: INT_MIN's magnitude 2^31 reads back as INT_MIN.
  EXPECT_EQ(out[0], (std::vector<int32_t>{M, m, 7, 0, 123456789, 1}));
  EXPECT_EQ(out[1], (std::vector<int32_t>{2147483646, M, 10, 0, 864197532, 0}));
  EXPECT_EQ(out[2], (std::vector<int32_t>{M, m, -4, 0, 1111111110, -2}));
  EXPECT_EQ(out[3], (std::vector<int32_t>{2147483646, -2147483647, -10, 0, -864197532, 0}));
  // floor((a + b) / 2) and floor((a + b + 1) / 2) of the exact sums.
  EXPECT_EQ(out[4], (std::vector<int32_t>{1073741824, -1073741825, -2, 0, 555555555, -1}));
  EXPECT_EQ(out[5], (std::vector<int32_t>{1073741824, -1073741824, -2, 0, 555555555, -1}));
  EXPECT_EQ(out[6], (std::vector<int32_t>{50, -5, -5, 0, 50, -1}));
  EXPECT_EQ(out[7], (std::vector<int32_t>{1, 0, 0, 32, 5, 0}));  // 123456789 = 0x075BCD15
  EXPECT_EQ(out[8], (std::vector<int32_t>{0, 31, 0, 32, 0, 0}));
  EXPECT_EQ(out[9], (std::vector<int32_t>{31, 1, 30, 0, 16, 32}));
  // 123456789 * 987654321 = 121932631112635269 = 28389652 * 2^32 + ...
  EXPECT_EQ(out[10], (std::vector<int32_t>{0, 0, -1, 0, 28389652, 0}));
  EXPECT_EQ(out[11], (std::vector<int32_t>{5, -3, 99, 0, 28389651, 2}));
  EXPECT_EQ(out[12], (std::vector<int32_t>{M, 2147483645, 79, 0, M, 3}));
  EXPECT_EQ(out[13], (std::vector<int32_t>{M, -1, 3, 0, 987654321, -1}));
  EXPECT_EQ(out[14], (std::vector<int32_t>{1, m, -7, 0, 123456789, -1}));
  // rotate by b mod 32: 0x7FFFFFFF<<<1 = 0xFFFFFFFE; 0x80000000<<<31 = 0x40000000;
  // 0xFFFFFFF9<<<3 = 0xFFFFFFCF; 0x075BCD15<<<17 = 0x9A2A0EB7.
  EXPECT_EQ(out[15], (std::vector<int32_t>{-2, 1073741824, -49, 0, -1708519753, -1}));
}

TEST(OpenclInteger, Char) {
  std::vector<int8_t> a = {127, -128, -7, 100};
  std::vector<int8_t> b = {1, -1, 3, 100};
  std::vector<int8_t> c = {5, -3, 100, -50};
  auto out = rows(runFunctions<int8_t>("char", "char",
                                       {"abs(a)", "add_sat(a, b)", "sub_sat(a, b)", "hadd(a, b)",
                                        "rhadd(a, b)", "mul_hi(a, b)", "mad_sat(a, b, c)", "clz(a)",
                                        "ctz(a)", "popcount(a)", "rotate(a, b)"},
                                       a, b, c, "char_ops"),
                  a.size());
  EXPECT_EQ(out[0], (std::vector<int8_t>{127, -128, 7, 100}));  // uchar 128 reads as -128
  EXPECT_EQ(out[1], (std::vector<int8_t>{127, -128, -4, 127}));
  EXPECT_EQ(out[2], (std::vector<int8_t>{126, -127, -10, 0}));
  EXPECT_EQ(out[3], (std::vector<int8_t>{64, -65, -2, 100}));
  EXPECT_EQ(out[4], (std::vector<int8_t>{64, -64, -2, 100}));
  EXPECT_EQ(out[5], (std::vector<int8_t>{0, 0, -1, 39}));  // 10000 = 0x2710
  EXPECT_EQ(out[6], (std::vector<int8_t>{127, 125, 79, 127}));
  EXPECT_EQ(out[7], (std::vector<int8_t>{1, 0, 0, 1}));
  EXPECT_EQ(out[8], (std::vector<int8_t>{0, 7, 0, 2}));
  EXPECT_EQ(out[9], (std::vector<int8_t>{7, 1, 6, 3}));
  // 0x7F<<<1 = 0xFE; 0x80<<<7 = 0x40; 0xF9<<<3 = 0xCF; 0x64<<<4 = 0x46.
  EXPECT_EQ(out[10], (std::vector<int8_t>{-2, 64, -49, 70}));
}

TEST(OpenclInteger, Unsigned) {
  std::vector<uint32_t> a = {4000000000u, 5, UINT_MAX, 65536};
  std::vector<uint32_t> b = {400000000u, 7, UINT_MAX, 65536};
  std::vector<uint32_t> c = {0, 1, 0, 5};
  auto out =
      rows(runFunctions<uint32_t>("uint", "uint",
                                  {"add_sat(a, b)", "sub_sat(a, b)", "hadd(a, b)", "rhadd(a, c)",
                                   "mul_hi(a, b)", "mad_sat(a, b, c)", "abs_diff(a, b)",
                                   "max(a, b)", "min(a, b)", "clamp(a, 5u, 10u)", "abs(a)"},
                                  a, b, c, "uint_ops"),
           a.size());
  const uint32_t M = UINT_MAX;
  EXPECT_EQ(out[0], (std::vector<uint32_t>{M, 12, M, 131072}));
  EXPECT_EQ(out[1], (std::vector<uint32_t>{3600000000u, 0, 0, 0}));
  EXPECT_EQ(out[2], (std::vector<uint32_t>{2200000000u, 6, M, 65536}));
  EXPECT_EQ(out[3], (std::vector<uint32_t>{2000000000u, 3, 2147483648u, 32771}));
  // (2^32 - 1)^2 = 2^64 - 2^33 + 1: high word 2^32 - 2. 4e9 * 4e8 = 1.6e18.
  EXPECT_EQ(out[4], (std::vector<uint32_t>{372529029, 0, 4294967294u, 1}));
  EXPECT_EQ(out[5], (std::vector<uint32_t>{M, 36, M, M}));
  EXPECT_EQ(out[6], (std::vector<uint32_t>{3600000000u, 2, 0, 0}));
  EXPECT_EQ(out[7], (std::vector<uint32_t>{4000000000u, 7, M, 65536}));
  EXPECT_EQ(out[8], (std::vector<uint32_t>{400000000u, 5, M, 65536}));
  EXPECT_EQ(out[9], (std::vector<uint32_t>{10, 5, 10, 10}));
  EXPECT_EQ(out[10], a);
}

TEST(OpenclInteger, Long) {
  const int64_t M = INT64_MAX, m = INT64_MIN;
  std::vector<int64_t> a = {m, M, 1, -1};
  std::vector<int64_t> b = {2, M, M, m};
  std::vector<int64_t> c = {0, 0, -1, 5};
  auto out = rows(runFunctions<int64_t>(
                      "long", "long",
                      {"mul_hi(a, b)", "add_sat(a, b)", "mad_sat(a, b, c)", "clz(a)", "popcount(a)",
                       "abs(a)", "abs_diff(a, b)", "hadd(a, b)", "rotate(a, c)"},
                      a, b, c, "long_ops"),
                  a.size());
  // (2^63 - 1)^2 = 2^126 - 2^64 + 1: high half 2^62 - 1. -2^63 * 2 = -2^64: high -1.
  // -1 * -2^63 = 2^63: high 0.
  EXPECT_EQ(out[0], (std::vector<int64_t>{-1, 4611686018427387903LL, 0, 0}));
  EXPECT_EQ(out[1], (std::vector<int64_t>{m + 2, M, M, m}));
  EXPECT_EQ(out[2], (std::vector<int64_t>{m, M, M - 1, M}));
  EXPECT_EQ(out[3], (std::vector<int64_t>{0, 1, 63, 0}));
  EXPECT_EQ(out[4], (std::vector<int64_t>{1, 63, 1, 64}));
  EXPECT_EQ(out[5], (std::vector<int64_t>{m, M, 1, 1}));
  // |m - 2| = 2^63 + 2; |1 - M| = M - 1; |-1 - m| = M.
  EXPECT_EQ(out[6], (std::vector<int64_t>{m + 2, 0, M - 1, M}));
  EXPECT_EQ(out[7], (std::vector<int64_t>{-4611686018427387903LL, M, 4611686018427387904LL,
                                          -4611686018427387905LL}));
  // rotate by c mod 64: by 0; by 0; 1 <<< 63 = 2^63; -1 <<< 5 = -1.
  EXPECT_EQ(out[8], (std::vector<int64_t>{m, M, m, -1}));
}

TEST(OpenclInteger, UpsampleMul24AndVectors) {
  auto p = loadOpenCl(R"(
    kernel void k(global const char* hc, global const uchar* lc, global short* s,
                  global const uint* hi, global const uint* lo, global ulong* l,
                  global const int4* v, global int4* clamped, global const uchar16* bytes,
                  global uchar16* counts, global int* m24) {
      size_t i = get_global_id(0);
      s[i] = upsample(hc[i], lc[i]);
      l[i] = upsample(hi[i], lo[i]);
      clamped[i] = clamp(v[i], -10, 10);
      counts[i] = popcount(bytes[i]);
      m24[3 * i + 0] = mul24(-3000 * (int)(i + 1), 2000);
      m24[3 * i + 1] = mad24(-3000, 2000 * (int)(i + 1), 7);
      m24[3 * i + 2] = (int)mad24(4000u * (uint)(i + 1), 4000u, 1u);
    })",
                      "upsample");
  std::vector<int8_t> hc = {127, -128};
  std::vector<uint8_t> lc = {1, 255};
  std::vector<int16_t> s(2);
  std::vector<uint32_t> hi = {0x7FFFFFFF, 0x80000000}, lo = {1, 0xFFFFFFFF};
  std::vector<uint64_t> l(2);
  std::vector<int32_t> v = {-100, 5, 100, -10, 0, 11, -11, 10};
  std::vector<int32_t> clamped(8);
  std::vector<uint8_t> bytes(32), counts(32);
  for (int k = 0; k < 32; ++k) bytes[k] = uint8_t(k * 37);
  std::vector<int32_t> m24(6);
  auto r = run(*p, "k", 2, hc, lc, s, hi, lo, l, v, clamped, bytes, counts, m24);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  // (127 << 8) | 1 = 0x7F01; (0x80 << 8) | 0xFF = 0x80FF.
  EXPECT_EQ(s, (std::vector<int16_t>{0x7F01, (int16_t)0x80FF}));
  EXPECT_EQ(l, (std::vector<uint64_t>{0x7FFFFFFF00000001ull, 0x80000000FFFFFFFFull}));
  EXPECT_EQ(clamped, (std::vector<int32_t>{-10, 5, 10, -10, 0, 10, -10, 10}));
  for (int k = 0; k < 32; ++k) {
    int bits = 0;
    for (int x = uint8_t(k * 37); x; x >>= 1) bits += x & 1;
    EXPECT_EQ(counts[k], bits) << k;
  }
  EXPECT_EQ(m24,
            (std::vector<int32_t>{-6000000, -5999993, 16000001, -12000000, -11999993, 32000001}));
}

}  // namespace
}  // namespace spvsim
