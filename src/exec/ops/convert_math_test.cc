// Rounding and saturation of the conversion helpers. Expected values are worked out
// by hand from IEEE 754 binary16/32/64 and the OpenCL C conversion rules; half bit
// patterns: sign | 5-bit exponent (bias 15) | 10-bit fraction.
#include "src/exec/ops/convert_math.h"

#include <gtest/gtest.h>

#include <cstring>

namespace spvsim::ops {
namespace {

uint16_t bitsOf(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
uint32_t bitsOf(float f) { return std::bit_cast<uint32_t>(f); }

constexpr Round kRte = Round::RTE, kRtz = Round::RTZ, kRtp = Round::RTP, kRtn = Round::RTN;

TEST(FloatToInt, DefaultTruncatesAndSaturates) {
  EXPECT_EQ((floatToInt<int32_t>(1.75f, kRtz)), 1);
  EXPECT_EQ((floatToInt<int32_t>(-1.75f, kRtz)), -1);
  EXPECT_EQ((floatToInt<uint8_t>(300.0f, kRtz)), 255);
  EXPECT_EQ((floatToInt<uint8_t>(-5.0f, kRtz)), 0);
  EXPECT_EQ((floatToInt<uint8_t>(-0.5f, kRtz)), 0);
  EXPECT_EQ((floatToInt<int8_t>(-200.0, kRtz)), -128);
  EXPECT_EQ((floatToInt<int32_t>(NAN, kRtz)), 0);
  EXPECT_EQ((floatToInt<int32_t>(INFINITY, kRtz)), 2147483647);
  EXPECT_EQ((floatToInt<int32_t>(-INFINITY, kRtz)), INT32_MIN);
  // 2^31 is one past INT_MAX; 2^31 - 128 is the largest float below it.
  EXPECT_EQ((floatToInt<int32_t>(2147483648.0f, kRtz)), 2147483647);
  EXPECT_EQ((floatToInt<int32_t>(2147483520.0f, kRtz)), 2147483520);
  EXPECT_EQ((floatToInt<uint64_t>(1.8446744073709552e19, kRtz)), UINT64_MAX);   // 2^64
  EXPECT_EQ((floatToInt<int64_t>(-9.223372036854775808e18, kRtz)), INT64_MIN);  // -2^63
  EXPECT_EQ((floatToInt<int64_t>(9.223372036854775808e18, kRtz)), INT64_MAX);
  EXPECT_EQ((floatToInt<int16_t>(_Float16(-3.5), kRtz)), -3);
}

TEST(FloatToInt, RoundingModes) {
  EXPECT_EQ((floatToInt<int32_t>(1.25f, kRtp)), 2);
  EXPECT_EQ((floatToInt<int32_t>(-1.25f, kRtp)), -1);
  EXPECT_EQ((floatToInt<int32_t>(1.75f, kRtn)), 1);
  EXPECT_EQ((floatToInt<int32_t>(-1.25f, kRtn)), -2);
  EXPECT_EQ((floatToInt<int32_t>(2.5f, kRte)), 2);
  EXPECT_EQ((floatToInt<int32_t>(3.5f, kRte)), 4);
  EXPECT_EQ((floatToInt<int32_t>(-2.5f, kRte)), -2);
  EXPECT_EQ((floatToInt<int32_t>(-3.5f, kRte)), -4);
  EXPECT_EQ((floatToInt<int32_t>(2.5000002f, kRte)), 3);
  EXPECT_EQ((floatToInt<uint8_t>(255.5f, kRte)), 255);  // 256 saturates
  EXPECT_EQ((floatToInt<uint8_t>(254.5f, kRte)), 254);
  EXPECT_EQ((floatToInt<uint8_t>(-0.7f, kRtp)), 0);
}

TEST(IntToInt, Saturation) {
  EXPECT_EQ((intToInt<uint8_t, int32_t>(300, true)), 255);
  EXPECT_EQ((intToInt<uint8_t, int32_t>(300, false)), 44);  // 300 - 256
  EXPECT_EQ((intToInt<uint8_t, int32_t>(-1, true)), 0);
  EXPECT_EQ((intToInt<int8_t, int32_t>(-129, true)), -128);
  EXPECT_EQ((intToInt<int8_t, uint8_t>(200, true)), 127);
  EXPECT_EQ((intToInt<int32_t, uint64_t>(UINT64_MAX, true)), INT32_MAX);
  EXPECT_EQ((intToInt<uint64_t, int32_t>(-7, true)), 0u);
  EXPECT_EQ((intToInt<uint64_t, int32_t>(-7, false)), UINT64_MAX - 6);
  EXPECT_EQ((intToInt<int64_t, int16_t>(-5, true)), -5);
}

TEST(IntToFloat, RoundingModesFloat) {
  // 2^24 + 1 = 16777217 lies halfway between 16777216 and 16777218.
  EXPECT_EQ((intToFloat<float>(16777217, kRte)), 16777216.0f);
  EXPECT_EQ((intToFloat<float>(16777217, kRtp)), 16777218.0f);
  EXPECT_EQ((intToFloat<float>(16777217, kRtz)), 16777216.0f);
  EXPECT_EQ((intToFloat<float>(-16777217, kRtn)), -16777218.0f);
  EXPECT_EQ((intToFloat<float>(-16777217, kRtz)), -16777216.0f);
  EXPECT_EQ((intToFloat<float>(-16777217, kRtp)), -16777216.0f);
  // 2^24 + 3 is halfway between 2^24 + 2 and 2^24 + 4: ties to the even mantissa.
  EXPECT_EQ((intToFloat<float>(16777219, kRte)), 16777220.0f);
  EXPECT_EQ((intToFloat<float>(UINT64_MAX, kRtz)), 18446742974197923840.0f);  // 2^64-2^40
  EXPECT_EQ((intToFloat<float>(UINT64_MAX, kRte)), 18446744073709551616.0f);  // 2^64
  EXPECT_EQ((intToFloat<double>(int64_t(9007199254740993), kRtp)), 9007199254740994.0);
  EXPECT_EQ((intToFloat<double>(int64_t(9007199254740993), kRtn)), 9007199254740992.0);
}

TEST(IntToFloat, Half) {
  // 2049 is halfway between the halves 2048 and 2050 (11 significant bits).
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(2049, kRte)), 0x6800);  // 2048 = 2^11
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(2049, kRtp)), 0x6801);  // 2050
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(2051, kRte)), 0x6802);  // 2052 (even)
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(-1, kRte)), 0xBC00);
  // 65504 is the largest half; 65519 rounds down to it, 65520 to infinity (RTE).
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(65519, kRte)), 0x7BFF);
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(65520, kRte)), 0x7C00);
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(70000, kRtz)), 0x7BFF);
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(70000, kRtp)), 0x7C00);
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(-70000, kRtp)), 0xFBFF);
  EXPECT_EQ(bitsOf(intToFloat<_Float16>(UINT64_MAX, kRtn)), 0x7BFF);
}

TEST(FloatToFloat, DoubleToFloat) {
  double justAboveOne = 1.0 + 0x1p-30;  // between 1 and 1 + 2^-23
  EXPECT_EQ(bitsOf(floatToFloat<float>(justAboveOne, kRte)), 0x3F800000u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(justAboveOne, kRtp)), 0x3F800001u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(-justAboveOne, kRtn)), 0xBF800001u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(-justAboveOne, kRtz)), 0xBF800000u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(1e300, kRtz)), 0x7F7FFFFFu);  // FLT_MAX
  EXPECT_EQ(bitsOf(floatToFloat<float>(1e300, kRte)), 0x7F800000u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(-1e300, kRtp)), 0xFF7FFFFFu);
  // Subnormals: 2^-149 is the smallest float; 2^-150 ties to 0, 2^-150 * 1.5 rounds up.
  EXPECT_EQ(bitsOf(floatToFloat<float>(0x1p-150, kRte)), 0u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(0x1.8p-150, kRte)), 1u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(0x1p-160, kRtp)), 1u);
  EXPECT_EQ(bitsOf(floatToFloat<float>(-0x1p-160, kRtz)), 0x80000000u);
  EXPECT_TRUE(std::isnan(floatToFloat<float>(std::nan(""), kRtz)));
}

TEST(FloatToFloat, ToHalf) {
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(1.0f, kRte)), 0x3C00);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10.
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(1.0f + 0x1p-11f, kRte)), 0x3C00);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(1.0f + 0x1p-11f, kRtp)), 0x3C01);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(1.0f + 0x1.8p-11f, kRte)), 0x3C01);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(1.0f + 0x1.8p-11f, kRtz)), 0x3C00);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(-(1.0f + 0x1p-12f), kRtn)), 0xBC01);
  // Double rounding trap: 1 + 2^-11 + 2^-40 is above the tie, so RTE rounds up; going
  // through float first would lose 2^-40 and round to 1.
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(1.0 + 0x1p-11 + 0x1p-40, kRte)), 0x3C01);
  // Half subnormals: 2^-24 is the smallest (0x0001); 2^-25 ties to even (0).
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0x1p-24f, kRte)), 0x0001);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0x1p-25f, kRte)), 0x0000);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0x1.8p-25f, kRte)), 0x0001);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0x1p-30f, kRtp)), 0x0001);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0x1p-14f, kRte)), 0x0400);  // smallest normal
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(65536.0f, kRtz)), 0x7BFF);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(65536.0f, kRte)), 0x7C00);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(-INFINITY, kRtz)), 0xFC00);
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0.1, kRte)), 0x2E66);  // 0.0999755859375
  EXPECT_EQ(bitsOf(floatToFloat<_Float16>(0.1, kRtp)), 0x2E67);
}

}  // namespace
}  // namespace spvsim::ops
