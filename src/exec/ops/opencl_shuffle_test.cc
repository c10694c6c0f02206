// shuffle and shuffle2 end to end (OpenCL C "Miscellaneous Vector Functions"): result
// component i is x[mask[i] mod m] or, for shuffle2, component mask[i] mod 2m of x
// followed by y, for m-component x; the host model applies exactly that definition.
#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;

TEST(Shuffle, ConstantAndComputedMasks) {
  auto p = loadOpenCl(R"(
    kernel void k(global const int8* in, global int2* picked, global int4* mixed,
                  global uchar16* bytes, global float4* floats) {
      size_t i = get_global_id(0);
      int8 v = in[i];
      int4 a = v.lo, b = v.hi;
      picked[i] = shuffle(a, (uint2)(3, 1));
      mixed[i] = shuffle2(a, b, (uint4)(7, 0, 5, (uint)i * 9));
      uchar16 c = as_uchar16(v.s0123);
      bytes[i] = shuffle(c, (uchar16)(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0) ^
                            (uchar16)((uchar)i & 15));
      floats[i] = shuffle(convert_float8(v), (uint4)(i, i + 8, i + 17, 0xffffffffu));
    })",
                      "shuffle");
  const int n = 4;
  std::vector<int32_t> in(8 * n);
  for (int k = 0; k < 8 * n; ++k) in[k] = 100 * (k / 8) + k % 8;  // v.sj = 100 i + j
  std::vector<int32_t> picked(2 * n), mixed(4 * n);
  std::vector<uint8_t> bytes(16 * n);
  std::vector<float> floats(4 * n);
  auto r = run(*p, "k", n, in, picked, mixed, bytes, floats);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  for (int i = 0; i < n; ++i) {
    const int32_t* v = &in[8 * i];  // a = v[0..3], b = v[4..7]
    EXPECT_EQ(picked[2 * i], v[3]);
    EXPECT_EQ(picked[2 * i + 1], v[1]);
    const uint32_t m2[4] = {7, 0, 5, uint32_t(i) * 9};
    for (int c = 0; c < 4; ++c) EXPECT_EQ(mixed[4 * i + c], v[m2[c] % 8]) << i << " " << c;
    uint8_t c16[16];
    std::memcpy(c16, v, 16);
    for (int c = 0; c < 16; ++c)
      EXPECT_EQ(bytes[16 * i + c], c16[(15 - c) ^ (i & 15)]) << i << " " << c;
    const uint32_t mf[4] = {uint32_t(i), uint32_t(i) + 8, uint32_t(i) + 17, 0xffffffffu};
    for (int c = 0; c < 4; ++c) EXPECT_EQ(floats[4 * i + c], float(v[mf[c] % 8])) << i << " " << c;
  }
}

// Every element type OpenCL C gives shuffle and shuffle2, with x of m and results (and
// masks) of n components for every m, n in {2, 4, 8, 16}, at -O0 and -O2. Masks take all
// bit patterns of their element type: only the low log2(m) (shuffle) or log2(2m)
// (shuffle2) bits select. Elements are compared as bytes.
struct ShuffleType {
  const char* type;
  const char* mask;
  size_t bytes;
};

std::string shuffleKernel(const ShuffleType& t) {
  std::string s = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
  s += std::string("kernel void k(global const ") + t.type + "* xs, global const " + t.type +
       "* ys, global const " + t.mask + "* ms, global " + t.type + "* out) {\n" +
       "  size_t g = get_global_id(0);\n  xs += 16 * g; ys += 16 * g; ms += 16 * g;" +
       " out += 256 * g;\n";
  size_t off = 0;
  for (int m : {2, 4, 8, 16})
    for (int n : {2, 4, 8, 16}) {
      const std::string M = std::to_string(m), N = std::to_string(n);
      s += "  { " + std::string(t.type) + M + " x = vload" + M + "(0, xs), y = vload" + M +
           "(0, ys); " + t.mask + N + " k = vload" + N + "(0, ms);\n    vstore" + N +
           "(shuffle(x, k), 0, out + " + std::to_string(off) + "); vstore" + N +
           "(shuffle2(x, y, k), 0, out + " + std::to_string(off + n) + "); }\n";
      off += 2 * n;
    }
  return s + "}\n";
}

TEST(Shuffle, EveryTypeAndSize) {
  const ShuffleType types[] = {
      {"char", "uchar", 1},  {"uchar", "uchar", 1}, {"short", "ushort", 2}, {"ushort", "ushort", 2},
      {"half", "ushort", 2}, {"int", "uint", 4},    {"uint", "uint", 4},    {"float", "uint", 4},
      {"long", "ulong", 8},  {"ulong", "ulong", 8}, {"double", "ulong", 8},
  };
  const size_t groups = 3;
  for (const ShuffleType& t : types)
    for (const char* opt : {"-O0", "-O2"}) {
      SCOPED_TRACE(std::string(t.type) + " " + opt);
      auto p = Program::load(testing::compileOpenCL(shuffleKernel(t), opt));
      const size_t e = t.bytes;
      std::vector<uint8_t> xs(groups * 16 * e), ys(groups * 16 * e), ms(groups * 16 * e);
      uint32_t seed = 12345;
      auto next = [&] { return uint8_t((seed = seed * 1103515245u + 12345u) >> 16); };
      for (auto* v : {&xs, &ys, &ms})
        for (uint8_t& b : *v) b = next();
      std::vector<uint8_t> out(groups * 256 * e, 0);
      auto r = run(*p, "k", groups, xs, ys, ms, out);
      ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
      for (size_t g = 0; g < groups; ++g) {
        size_t off = 0;
        for (uint64_t m : {2, 4, 8, 16})
          for (uint64_t n : {2, 4, 8, 16}) {
            for (uint64_t i = 0; i < n; ++i) {
              uint64_t mask = 0;  // little-endian element i of the mask
              std::memcpy(&mask, &ms[(g * 16 + i) * e], e);
              const uint64_t one = mask & (m - 1), two = mask & (2 * m - 1);
              const uint8_t* want1 = &xs[(g * 16 + one) * e];
              const uint8_t* want2 =
                  two < m ? &xs[(g * 16 + two) * e] : &ys[(g * 16 + two - m) * e];
              EXPECT_EQ(0, std::memcmp(&out[(g * 256 + off + i) * e], want1, e))
                  << "shuffle m=" << m << " n=" << n << " i=" << i;
              EXPECT_EQ(0, std::memcmp(&out[(g * 256 + off + n + i) * e], want2, e))
                  << "shuffle2 m=" << m << " n=" << n << " i=" << i;
            }
            off += 2 * n;
          }
      }
    }
}

}  // namespace
}  // namespace spvsim
