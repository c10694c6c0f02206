#include "src/values/scalar_codec.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "spirv/error.h"

namespace spvsim::values {
namespace {

// Little-endian bytes of a sequence of values of one type.
template <typename T>
std::vector<uint8_t> bytesOf(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  size_t i = 0;
  for (T v : values) std::memcpy(out.data() + sizeof(T) * i++, &v, sizeof(T));
  return out;
}

std::vector<uint8_t> store(Scalar s, std::string_view text, IntegerBase base = IntegerBase::Auto) {
  std::vector<uint8_t> out(scalarSize(s));
  storeLiteral(s, text, out.data(), base);
  return out;
}

std::string errorOf(Scalar s, std::string_view text) {
  try {
    store(s, text);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidArgument);
    return e.what();
  }
  return "no error";
}

TEST(StoreLiteral, Integers) {
  EXPECT_EQ(store(Scalar::Int, "5"), (std::vector<uint8_t>{5, 0, 0, 0}));
  EXPECT_EQ(store(Scalar::Int, "+7"), (std::vector<uint8_t>{7, 0, 0, 0}));
  EXPECT_EQ(store(Scalar::Int, "-1"), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(store(Scalar::Int, "-2147483648"), (std::vector<uint8_t>{0, 0, 0, 0x80}));
  EXPECT_EQ(store(Scalar::Int, "0x12345678"), (std::vector<uint8_t>{0x78, 0x56, 0x34, 0x12}));
  EXPECT_EQ(store(Scalar::Short, "-2"), (std::vector<uint8_t>{0xfe, 0xff}));
  EXPECT_EQ(store(Scalar::UChar, "255"), (std::vector<uint8_t>{0xff}));
  EXPECT_EQ(store(Scalar::Char, "-128"), (std::vector<uint8_t>{0x80}));
  EXPECT_EQ(store(Scalar::ULong, "18446744073709551615"), std::vector<uint8_t>(8, 0xff));
  EXPECT_EQ(store(Scalar::SizeT, "256"), (std::vector<uint8_t>{0, 1, 0, 0, 0, 0, 0, 0}));
}

TEST(StoreLiteral, HexSpellsAnyBitPattern) {
  EXPECT_EQ(store(Scalar::Int, "0xffffffff"), (std::vector<uint8_t>{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(store(Scalar::Char, "0x80"), (std::vector<uint8_t>{0x80}));
  EXPECT_EQ(store(Scalar::Int, "ff", IntegerBase::Hex), (std::vector<uint8_t>{0xff, 0, 0, 0}));
  EXPECT_EQ(store(Scalar::Int, "0x10", IntegerBase::Hex), (std::vector<uint8_t>{0x10, 0, 0, 0}));
}

TEST(StoreLiteral, IntegerErrors) {
  EXPECT_EQ(errorOf(Scalar::Int, "2147483648"),
            "2147483648 is out of range for int (-2147483648..2147483647)");
  EXPECT_EQ(errorOf(Scalar::UChar, "256"), "256 is out of range for uchar (0..255)");
  EXPECT_EQ(errorOf(Scalar::UChar, "-1"), "-1 is out of range for uchar (0..255)");
  EXPECT_EQ(errorOf(Scalar::Char, "128"), "128 is out of range for char (-128..127)");
  EXPECT_EQ(errorOf(Scalar::Int, "0x100000000"),
            "0x100000000 is out of range for int (-2147483648..2147483647)");
  EXPECT_EQ(errorOf(Scalar::ULong, "18446744073709551616"),
            "18446744073709551616 is out of range for ulong (0..18446744073709551615)");
  EXPECT_EQ(errorOf(Scalar::Int, "1.5"), "'1.5' is not a valid int value");
  EXPECT_EQ(errorOf(Scalar::Int, ""), "'' is not a valid int value");
  EXPECT_EQ(errorOf(Scalar::Int, "-"), "'-' is not a valid int value");
  EXPECT_EQ(errorOf(Scalar::Short, "abc"), "'abc' is not a valid short value");
  EXPECT_EQ(errorOf(Scalar::Int, "--5"), "'--5' is not a valid int value");
  EXPECT_EQ(errorOf(Scalar::Int, "0x"), "'0x' is not a valid int value");
}

TEST(StoreLiteral, Floats) {
  EXPECT_EQ(store(Scalar::Float, "2.5"), bytesOf<uint32_t>({0x40200000}));
  EXPECT_EQ(store(Scalar::Float, "-1"), bytesOf<uint32_t>({0xbf800000}));
  EXPECT_EQ(store(Scalar::Float, "0x1.8p1"), bytesOf<uint32_t>({0x40400000}));  // 3.0
  EXPECT_EQ(store(Scalar::Float, "inf"), bytesOf<uint32_t>({0x7f800000}));
  EXPECT_EQ(store(Scalar::Float, "-Infinity"), bytesOf<uint32_t>({0xff800000}));
  EXPECT_EQ(store(Scalar::Double, "1"), bytesOf<uint64_t>({0x3ff0000000000000}));
  EXPECT_EQ(store(Scalar::Double, "1e-3"), bytesOf<uint64_t>({0x3f50624dd2f1a9fc}));
  EXPECT_EQ(store(Scalar::Half, "1.5"), bytesOf<uint16_t>({0x3E00}));
  EXPECT_EQ(store(Scalar::Half, "-2"), bytesOf<uint16_t>({0xC000}));
  const auto nan = store(Scalar::Float, "nan");
  EXPECT_EQ(nan[3] & 0x7f, 0x7f);
  EXPECT_NE(nan[2] & 0x40, 0);
}

TEST(StoreLiteral, FloatErrors) {
  EXPECT_EQ(errorOf(Scalar::Float, "x"), "'x' is not a valid float value");
  EXPECT_EQ(errorOf(Scalar::Float, "1.5f"), "'1.5f' is not a valid float value");
  EXPECT_EQ(errorOf(Scalar::Double, ""), "'' is not a valid double value");
  EXPECT_EQ(errorOf(Scalar::Double, "1e400"), "1e400 is out of range for double");
}

TEST(LoadBits, SignExtends) {
  const auto b = bytesOf<uint16_t>({0xfffe});
  EXPECT_EQ(loadBits(Scalar::Short, b.data()), ~uint64_t{1});
  EXPECT_EQ(loadBits(Scalar::UShort, b.data()), 0xfffeu);
}

TEST(FormatScalar, Integers) {
  EXPECT_EQ(formatScalar(Scalar::Int, bytesOf<int32_t>({-1}).data()), "-1");
  EXPECT_EQ(formatScalar(Scalar::UInt, bytesOf<int32_t>({-1}).data()), "4294967295");
  EXPECT_EQ(formatScalar(Scalar::Char, bytesOf<uint8_t>({0x80}).data()), "-128");
  EXPECT_EQ(formatScalar(Scalar::UChar, bytesOf<uint8_t>({0x80}).data()), "128");
  EXPECT_EQ(formatScalar(Scalar::Long, bytesOf<int64_t>({-5}).data()), "-5");
  EXPECT_EQ(formatScalar(Scalar::Int, bytesOf<int32_t>({255}).data(), true), "0x000000ff");
  EXPECT_EQ(formatScalar(Scalar::Short, bytesOf<int16_t>({-1}).data(), true), "0xffff");
}

TEST(FormatScalar, FloatsShortestRoundTrip) {
  EXPECT_EQ(formatScalar(Scalar::Float, bytesOf<float>({0.1f}).data()), "0.1");
  EXPECT_EQ(formatScalar(Scalar::Float, bytesOf<float>({2.5f}).data()), "2.5");
  EXPECT_EQ(formatScalar(Scalar::Float, bytesOf<float>({100.0f}).data()), "100");
  EXPECT_EQ(formatScalar(Scalar::Float, bytesOf<float>({1e20f}).data()), "1e+20");
  EXPECT_EQ(formatScalar(Scalar::Float, bytesOf<float>({-INFINITY}).data()), "-inf");
  EXPECT_EQ(formatScalar(Scalar::Double, bytesOf<double>({0.1}).data()), "0.1");
  EXPECT_EQ(formatScalar(Scalar::Double, bytesOf<double>({1.0 / 3}).data()), "0.3333333333333333");
  EXPECT_EQ(formatScalar(Scalar::Half, bytesOf<uint16_t>({0x3E00}).data()), "1.5");
  EXPECT_EQ(formatScalar(Scalar::Half, bytesOf<uint16_t>({0x2E66}).data()), "0.099975586");
  EXPECT_EQ(formatScalar(Scalar::Float, bytesOf<float>({2.5f}).data(), true), "2.5");
}

TEST(FormatElement, Vectors) {
  const ElementType int4{Scalar::Int, 4}, int3{Scalar::Int, 3};
  EXPECT_EQ(formatElement(int4, bytesOf<int32_t>({1, 2, 3, 4}).data()), "(1,2,3,4)");
  EXPECT_EQ(formatElement(int3, bytesOf<int32_t>({1, 2, 3, 99}).data()), "(1,2,3)");
  EXPECT_EQ(formatElement({Scalar::Float, 2}, bytesOf<float>({0.5f, -1}).data()), "(0.5,-1)");
}

TEST(JsonElement, NumbersArraysAndNonFinite) {
  EXPECT_EQ(jsonElement({Scalar::Int, 1}, bytesOf<int32_t>({-3}).data()), "-3");
  EXPECT_EQ(jsonElement({Scalar::Float, 4}, bytesOf<float>({1, 2.5f, 0, -1}).data()),
            "[1,2.5,0,-1]");
  EXPECT_EQ(jsonElement({Scalar::Float, 1}, bytesOf<float>({NAN}).data()), "\"NaN\"");
  EXPECT_EQ(jsonElement({Scalar::Double, 1}, bytesOf<double>({-INFINITY}).data()), "\"-Infinity\"");
  EXPECT_EQ(jsonElement({Scalar::UChar, 2}, bytesOf<uint8_t>({255, 0}).data()), "[255,0]");
}

}  // namespace
}  // namespace spvsim::values
