// floatThroughLibmvec gives libm's float(f(double(x))) bit for bit: special values, a
// sample of every binade, and register-sized counts with tails. The whole float range is
// vector_libm_exhaustive's job (minutes); this is the quick guard against regressions.
#include "src/exec/ops/vector_libm.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace spvsim::ops {
namespace {

std::vector<float> sampleArguments() {
  std::vector<float> v;
  const float inf = std::numeric_limits<float>::infinity();
  for (float x : {0.0f,
                  -0.0f,
                  inf,
                  -inf,
                  std::numeric_limits<float>::quiet_NaN(),
                  std::numeric_limits<float>::denorm_min(),
                  std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::max(),
                  1.0f,
                  -1.0f,
                  0.5f,
                  2.0f,
                  10.0f,
                  3.14159265f,
                  1.57079632f,
                  88.72283f,
                  88.72284f,
                  -103.97208f,
                  -87.33654f,
                  1e-8f,
                  -1e-8f,
                  0.99999994f,
                  1.0000001f,
                  708.0f,
                  1e30f})
    v.push_back(x);
  // Arguments where libmvec's double rounds to another float than libm's (found by
  // vector_libm_exhaustive with glibc 2.36: acosh, asinh, atanh, cosh, exp2, log10, log1p):
  // the guard's cases.
  for (uint32_t bits : {0x5e68984eu, 0x6eb1a8ecu, 0xde68984eu, 0xeeb1a8ecu, 0x39b89ba2u,
                        0xb9b89ba2u, 0xbd609528u, 0x3d609528u, 0x3b429d37u, 0x13ae78d3u,
                        0x120b93dcu, 0x41078febu})
    v.push_back(std::bit_cast<float>(bits));
  // Every 65521st bit pattern (prime: all mantissa positions), both signs, every binade.
  for (uint64_t bits = 0; bits < (uint64_t(1) << 32); bits += 65521)
    v.push_back(std::bit_cast<float>(uint32_t(bits)));
  return v;
}

uint32_t bitsOf(float x) { return std::bit_cast<uint32_t>(x); }

class VectorLibmTest : public ::testing::TestWithParam<int> {};

TEST_P(VectorLibmTest, MatchesLibmBitForBit) {
  if (!hostHasLibmvec()) GTEST_SKIP() << "no AVX2 and FMA here";
  const auto f = LibmFunction(GetParam());
  const auto scalar = scalarLibm(f);
  const std::vector<float> in = sampleArguments();
  std::vector<float> out(in.size());
  floatThroughLibmvec(f, out.data(), in.data(), uint32_t(in.size()));
  int reported = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const float expected = float(scalar(double(in[i])));
    if (bitsOf(out[i]) != bitsOf(expected) && reported++ < 5)
      ADD_FAILURE() << libmName(f) << "(" << in[i] << " = 0x" << std::hex << bitsOf(in[i])
                    << ") gave 0x" << bitsOf(out[i]) << ", libm 0x" << bitsOf(expected);
  }
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, VectorLibmTest,
                         ::testing::Range(0, int(LibmFunction::kCount)),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(libmName(LibmFunction(info.param)));
                         });

// In place (r == a) and counts that leave a tail after the 4-lane blocks.
TEST(VectorLibm, InPlaceWithTail) {
  if (!hostHasLibmvec()) GTEST_SKIP() << "no AVX2 and FMA here";
  for (uint32_t count : {1u, 3u, 4u, 7u, 13u, 64u}) {
    std::vector<float> v(count);
    for (uint32_t i = 0; i < count; ++i) v[i] = 0.37f * float(i) - 2.0f;
    const std::vector<float> in = v;
    floatThroughLibmvec(LibmFunction::kSin, v.data(), v.data(), count);
    for (uint32_t i = 0; i < count; ++i)
      EXPECT_EQ(bitsOf(v[i]), bitsOf(float(std::sin(double(in[i]))))) << count << " " << i;
  }
}

}  // namespace
}  // namespace spvsim::ops
