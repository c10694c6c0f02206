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

}  // namespace
}  // namespace spvsim
