#include "tools/cli/buffer_init.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>

#include "spirv/error.h"
#include "tools/cli/test_util.h"

namespace spvsim::tools {
namespace {

using testing::bytesOf;

std::vector<uint8_t> zeroed(const ElementType& t, uint64_t n) {
  return std::vector<uint8_t>(t.size() * n, 0);
}

const ElementType kInt{Scalar::Int, 1};

// Published splitmix64 outputs for seed 1234567 (Rosetta Code, "Pseudo-random numbers/
// Splitmix64").
TEST(Splitmix64, MatchesReferenceSequence) {
  uint64_t state = 1234567;
  EXPECT_EQ(splitmix64(state), 6457827717110365317ull);
  EXPECT_EQ(splitmix64(state), 3203168211198807973ull);
  EXPECT_EQ(splitmix64(state), 9817491932198370423ull);
  EXPECT_EQ(splitmix64(state), 4593380528125082431ull);
  EXPECT_EQ(splitmix64(state), 16408922859458223821ull);
}

TEST(RandomBuffer, IntegersAreDrawMod100) {
  auto b = zeroed(kInt, 5);
  randomBuffer(kInt, 1234567, b);
  EXPECT_EQ(b, bytesOf<int32_t>({17, 73, 23, 31, 21}));
}

TEST(RandomBuffer, FloatsTakeTheTopBits) {
  const ElementType f{Scalar::Float, 1};
  auto b = zeroed(f, 2);
  randomBuffer(f, 1234567, b);
  // 6457827717110365317 >> 40 = 5873360; 3203168211198807973 >> 40 = 2913264.
  EXPECT_EQ(b, bytesOf<float>({5873360.0f / (1 << 24), 2913264.0f / (1 << 24)}));
  const ElementType h{Scalar::Half, 1};
  auto hb = zeroed(h, 1);
  randomBuffer(h, 1234567, hb);
  // 6457827717110365317 >> 53 = 716; 716 / 2048 = 0.349609375 = 1.3984375 * 2^-2:
  // exponent 13, mantissa 408 -> 0x3598.
  EXPECT_EQ(hb, bytesOf<uint16_t>({0x3598}));
}

TEST(RandomBuffer, VectorsDrawPerComponent) {
  const ElementType int3{Scalar::Int, 3};
  auto b = zeroed(int3, 1);
  randomBuffer(int3, 1234567, b);
  EXPECT_EQ(b, bytesOf<int32_t>({17, 73, 23, 0}));
}

// random(SEED,LO,HI) maps the same splitmix64 draws (seed 1234567, above): integers to
// LO + draw mod (HI - LO + 1), e.g. 6457827717110365317 mod 11 = 7 -> -5 + 7 = 2.
TEST(RandomBuffer, IntegerRangeIsInclusive) {
  auto b = zeroed(kInt, 5);
  randomRangeBuffer(kInt, 1234567, "-5", "5", b);
  EXPECT_EQ(b, bytesOf<int32_t>({2, -5, -2, -4, -4}));
  const ElementType u{Scalar::UInt, 1};
  auto ub = zeroed(u, 5);
  randomRangeBuffer(u, 1234567, "0", "2", ub);  // draws mod 3
  EXPECT_EQ(ub, bytesOf<uint32_t>({0, 1, 0, 1, 2}));
  const ElementType l{Scalar::Long, 1};
  // The whole range of long: LO + draw mod 2^64 = 6457827717110365317 + 2^63.
  auto lb = zeroed(l, 1);
  randomRangeBuffer(l, 1234567, "-9223372036854775808", "9223372036854775807", lb);
  EXPECT_EQ(lb, bytesOf<uint64_t>({15681199753965141125ull}));
}

// Floats: LO + f * (HI - LO) with random(SEED)'s fraction f = (draw >> 40) / 2^24, e.g.
// -1 + 2 * 5873360 / 2^24 = -2515248 / 2^23 exactly.
TEST(RandomBuffer, FloatRangeScalesTheFraction) {
  const ElementType f{Scalar::Float, 1};
  auto b = zeroed(f, 2);
  randomRangeBuffer(f, 1234567, "-1", "1", b);
  EXPECT_EQ(b, bytesOf<float>({-2515248.0f / (1 << 23), (2913264.0f - (1 << 23)) / (1 << 23)}));
}

// Rounding never reaches HI: floats near 1e8 are 8 apart, so 1e8 + f * 8 rounds to 1e8 or
// to HI = 1e8 + 8; the last draw's f = 14923828 / 2^24 ~ 0.89 rounds up to HI and is
// stepped down to 1e8, the largest float below HI. The same below zero with HI = 0.
TEST(RandomBuffer, FloatRangeStaysBelowHi) {
  const ElementType f{Scalar::Float, 1};
  auto b = zeroed(f, 5);
  randomRangeBuffer(f, 1234567, "100000000", "100000008", b);
  EXPECT_EQ(b, bytesOf<float>({1e8f, 1e8f, 1e8f, 1e8f, 1e8f}));
  auto neg = zeroed(f, 5);
  randomRangeBuffer(f, 1234567, "-1e-45", "0", neg);  // [-denorm_min, 0): only -denorm_min
  const float least = -std::numeric_limits<float>::denorm_min();
  EXPECT_EQ(neg, bytesOf<float>({least, least, least, least, least}));
}

TEST(RandomBuffer, RangeErrors) {
  auto b = zeroed(kInt, 1);
  EXPECT_THROW(randomRangeBuffer(kInt, 1, "5", "4", b), Error);
  EXPECT_THROW(randomRangeBuffer(kInt, 1, "0", "4294967296", b), Error);  // not an int
  const ElementType f{Scalar::Float, 1};
  auto fb = zeroed(f, 1);
  EXPECT_THROW(randomRangeBuffer(f, 1, "1", "1", fb), Error);
  EXPECT_THROW(randomRangeBuffer(f, 1, "0", "inf", fb), Error);
}

TEST(FillBuffer, ScalarAndVector) {
  auto b = zeroed(kInt, 3);
  fillBuffer(kInt, {"7"}, b);
  EXPECT_EQ(b, bytesOf<int32_t>({7, 7, 7}));
  const ElementType int3{Scalar::Int, 3};
  auto v = zeroed(int3, 2);
  fillBuffer(int3, {"1", "2", "3"}, v);
  EXPECT_EQ(v, bytesOf<int32_t>({1, 2, 3, 0, 1, 2, 3, 0}));
  auto one = zeroed(int3, 2);
  fillBuffer(int3, {"5"}, one);
  EXPECT_EQ(one, bytesOf<int32_t>({5, 5, 5, 0, 5, 5, 5, 0}));
}

template <class T>
std::vector<uint8_t> vectorBytes(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return {p, p + v.size() * sizeof(T)};
}

// Large buffers fill by doubling copies of the first element: every element of every
// count (not only powers of two), vectors per lane, the padding of a 3-vector left zero.
TEST(FillBuffer, EveryElementOfLargeBuffers) {
  for (uint64_t n : {1ull, 2ull, 3ull, 1000ull, 65537ull}) {
    const ElementType int4{Scalar::Int, 4};
    auto b = zeroed(int4, n);
    fillBuffer(int4, {"1", "-2", "3", "4"}, b);
    std::vector<int32_t> want;
    for (uint64_t e = 0; e < n; ++e) want.insert(want.end(), {1, -2, 3, 4});
    EXPECT_EQ(b, vectorBytes(want)) << n;
    const ElementType f3{Scalar::Float, 3};
    auto p = zeroed(f3, n);
    fillBuffer(f3, {"0.5"}, p);
    std::vector<float> wantF;
    for (uint64_t e = 0; e < n; ++e) wantF.insert(wantF.end(), {0.5f, 0.5f, 0.5f, 0.0f});
    EXPECT_EQ(p, vectorBytes(wantF)) << n;
  }
}

// The typed range loops agree with first + k * step at the far end of a large buffer,
// wrapping for integers narrower than the count.
TEST(RangeBuffer, LargeBuffersAndWrapping) {
  const ElementType f{Scalar::Float, 1};
  auto b = zeroed(f, 1 << 20);
  rangeBuffer(f, "-3", "0.25", b);
  float last;
  std::memcpy(&last, b.data() + b.size() - 4, 4);
  EXPECT_EQ(last, float(-3.0 + double((1 << 20) - 1) * 0.25));
  const ElementType uc{Scalar::UChar, 1};
  auto c = zeroed(uc, 600);
  rangeBuffer(uc, "250", "1", c);
  EXPECT_EQ(c[0], 250);
  EXPECT_EQ(c[5], 255);
  EXPECT_EQ(c[6], 0);  // 256 wraps
  EXPECT_EQ(c[599], uint8_t(250 + 599));
}

TEST(FillBuffer, WrongCount) {
  auto b = zeroed({Scalar::Int, 4}, 1);
  EXPECT_THROW(fillBuffer({Scalar::Int, 4}, {"1", "2"}, b), Error);
}

TEST(RangeBuffer, Integers) {
  auto b = zeroed(kInt, 4);
  rangeBuffer(kInt, "10", "-3", b);
  EXPECT_EQ(b, bytesOf<int32_t>({10, 7, 4, 1}));
  const ElementType u8{Scalar::UChar, 1};
  auto w = zeroed(u8, 8);
  rangeBuffer(u8, "250", "1", w);
  EXPECT_EQ(w, (std::vector<uint8_t>{250, 251, 252, 253, 254, 255, 0, 1}));
}

TEST(RangeBuffer, FloatsAndVectors) {
  const ElementType f{Scalar::Float, 1};
  auto b = zeroed(f, 4);
  rangeBuffer(f, "0", "0.5", b);
  EXPECT_EQ(b, bytesOf<float>({0, 0.5f, 1, 1.5f}));
  const ElementType int2{Scalar::Int, 2};
  auto v = zeroed(int2, 2);
  rangeBuffer(int2, "0", "1", v);
  EXPECT_EQ(v, bytesOf<int32_t>({0, 1, 2, 3}));
  const ElementType f3{Scalar::Float, 3};
  auto p = zeroed(f3, 2);
  rangeBuffer(f3, "1", "1", p);
  EXPECT_EQ(p, bytesOf<float>({1, 2, 3, 0, 4, 5, 6, 0}));
}

TEST(RangeBuffer, StartMustFitTheType) {
  auto b = zeroed({Scalar::UInt, 1}, 2);
  EXPECT_THROW(rangeBuffer({Scalar::UInt, 1}, "-1", "1", b), Error);
}

TEST(ValuesBuffer, ExactCount) {
  auto b = zeroed(kInt, 3);
  valuesBuffer(kInt, {"1", "-2", "3"}, b);
  EXPECT_EQ(b, bytesOf<int32_t>({1, -2, 3}));
  try {
    valuesBuffer(kInt, {"1", "2"}, b);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "values() has 2 values but the buffer has 3 elements");
  }
  EXPECT_THROW(valuesBuffer(kInt, {"1", "2", "3", "4"}, b), Error);
  const ElementType int3{Scalar::Int, 3};
  auto v = zeroed(int3, 1);
  valuesBuffer(int3, {"1", "2", "3"}, v);
  EXPECT_EQ(v, bytesOf<int32_t>({1, 2, 3, 0}));
}

}  // namespace
}  // namespace spvsim::tools
