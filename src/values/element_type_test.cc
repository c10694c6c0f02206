#include "src/values/element_type.h"

#include <gtest/gtest.h>

#include <cmath>

#include "src/values/half.h"

namespace spvsim::values {
namespace {

TEST(ElementType, ParsesScalars) {
  EXPECT_EQ(parseElementType("int"), (ElementType{Scalar::Int, 1}));
  EXPECT_EQ(parseElementType("uchar"), (ElementType{Scalar::UChar, 1}));
  EXPECT_EQ(parseElementType("char"), (ElementType{Scalar::Char, 1}));
  EXPECT_EQ(parseElementType("ulong"), (ElementType{Scalar::ULong, 1}));
  EXPECT_EQ(parseElementType("half"), (ElementType{Scalar::Half, 1}));
  EXPECT_EQ(parseElementType("size_t"), (ElementType{Scalar::SizeT, 1}));
}

TEST(ElementType, ParsesVectors) {
  EXPECT_EQ(parseElementType("uint4"), (ElementType{Scalar::UInt, 4}));
  EXPECT_EQ(parseElementType("uchar16"), (ElementType{Scalar::UChar, 16}));
  EXPECT_EQ(parseElementType("float3"), (ElementType{Scalar::Float, 3}));
  EXPECT_EQ(parseElementType("double8"), (ElementType{Scalar::Double, 8}));
}

TEST(ElementType, RejectsOthers) {
  for (const char* bad : {"", "in", "integer", "int5", "int0", "int04", "int1", "float32",
                          "size_t4", "bool", "int ", "Int"})
    EXPECT_FALSE(parseElementType(bad)) << bad;
}

TEST(ElementType, Sizes) {
  EXPECT_EQ((ElementType{Scalar::Char, 1}).size(), 1u);
  EXPECT_EQ((ElementType{Scalar::Short, 2}).size(), 4u);
  EXPECT_EQ((ElementType{Scalar::Float, 3}).size(), 16u);  // vec3 occupies 4 components
  EXPECT_EQ((ElementType{Scalar::Float, 3}).storedLanes(), 4u);
  EXPECT_EQ((ElementType{Scalar::Double, 16}).size(), 128u);
  EXPECT_EQ((ElementType{Scalar::Half, 8}).size(), 16u);
  EXPECT_EQ((ElementType{Scalar::SizeT, 1}).size(), 8u);
}

TEST(ElementType, Names) {
  EXPECT_EQ((ElementType{Scalar::Float, 4}).name(), "float4");
  EXPECT_EQ((ElementType{Scalar::UShort, 1}).name(), "ushort");
  EXPECT_EQ((ElementType{Scalar::SizeT, 1}).name(), "size_t");
}

// Half bit patterns worked out from the binary16 layout: sign | exponent+15 (5 bits) |
// 10 mantissa bits.
TEST(Half, RoundsToNearestEven) {
  EXPECT_EQ(toHalf(1.5), 0x3E00);
  EXPECT_EQ(toHalf(1.0), 0x3C00);
  EXPECT_EQ(toHalf(-2.0), 0xC000);
  EXPECT_EQ(toHalf(0.1), 0x2E66);  // 1.6 * 2^-4: mantissa 614.4 -> 614
  EXPECT_EQ(toHalf(65504.0), 0x7BFF);
  EXPECT_EQ(toHalf(65519.0), 0x7BFF);
  EXPECT_EQ(toHalf(65520.0), 0x7C00);           // halfway to 2^16: ties to even = infinity
  EXPECT_EQ(toHalf(1.0 + 1.0 / 2048), 0x3C00);  // tie between 0x3C00 and 0x3C01
  EXPECT_EQ(toHalf(1.0 + 3.0 / 2048), 0x3C02);  // tie between 0x3C01 and 0x3C02
  EXPECT_EQ(toHalf(0.0), 0x0000);
  EXPECT_EQ(toHalf(-0.0), 0x8000);
}

TEST(Half, Subnormals) {
  const double tiny = 1.0 / (1 << 24);  // 2^-24, the smallest subnormal
  EXPECT_EQ(toHalf(tiny), 0x0001);
  EXPECT_EQ(toHalf(tiny / 2), 0x0000);         // tie between 0 and 1 -> 0
  EXPECT_EQ(toHalf(tiny * 1.5), 0x0002);       // tie between 1 and 2 -> 2
  EXPECT_EQ(toHalf(tiny * 1023), 0x03FF);      // largest subnormal
  EXPECT_EQ(toHalf(1.0 / (1 << 14)), 0x0400);  // smallest normal
}

TEST(Half, SpecialValues) {
  EXPECT_EQ(toHalf(INFINITY), 0x7C00);
  EXPECT_EQ(toHalf(-INFINITY), 0xFC00);
  EXPECT_EQ(toHalf(1e10), 0x7C00);
  EXPECT_EQ(toHalf(std::nan("")), 0x7E00);
}

TEST(Half, Widens) {
  EXPECT_EQ(fromHalf(0x3E00), 1.5);
  EXPECT_EQ(fromHalf(0xC000), -2.0);
  EXPECT_EQ(fromHalf(0x7BFF), 65504.0);
  EXPECT_EQ(fromHalf(0x0001), 1.0 / (1 << 24));
  EXPECT_EQ(fromHalf(0x0400), 1.0 / (1 << 14));
  EXPECT_EQ(fromHalf(0xFC00), -INFINITY);
  EXPECT_TRUE(std::isnan(fromHalf(0x7E00)));
}

TEST(PointeeTypeName, QualifiersPointersArraysAndUnsignedSpellings) {
  EXPECT_EQ(pointeeTypeName("const float4 *"), "float4");
  EXPECT_EQ(pointeeTypeName("float*"), "float");
  EXPECT_EQ(pointeeTypeName("__global const volatile int*"), "int");
  EXPECT_EQ(pointeeTypeName("local uchar[16]"), "uchar");
  EXPECT_EQ(pointeeTypeName("restrict global  short2**"), "short2");
  EXPECT_EQ(pointeeTypeName("unsigned int*"), "uint");  // OpenCL C: the same type as uint
  EXPECT_EQ(pointeeTypeName("const unsigned char"), "uchar");
  EXPECT_EQ(pointeeTypeName("struct pair*"), "struct pair");
  EXPECT_EQ(pointeeTypeName("constantine"), "constantine");  // a name, not a qualifier
  EXPECT_EQ(pointeeTypeName(""), "");
}

}  // namespace
}  // namespace spvsim::values
