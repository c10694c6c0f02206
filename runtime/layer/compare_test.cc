#include "runtime/layer/compare.h"

#include <gtest/gtest.h>

#include <cstring>

#include "runtime/layer/images.h"

namespace spvsim::layer {
namespace {

template <class T>
std::vector<uint8_t> bytesOf(std::initializer_list<T> values) {
  std::vector<uint8_t> out(values.size() * sizeof(T));
  std::memcpy(out.data(), std::data(values), out.size());
  return out;
}

TEST(LayerCompare, PointeeTypes) {
  const ElementType f4 = pointeeElement("const float4*");
  EXPECT_EQ(f4.scalar, ElementType::Scalar::Float);
  EXPECT_EQ(f4.bytes, 4u);
  EXPECT_EQ(f4.lanes, 4u);
  EXPECT_EQ(pointeeElement("int3*").lanes, 4u);  // a 3-vector takes 4 components
  EXPECT_EQ(pointeeElement("uchar*").scalar, ElementType::Scalar::Unsigned);
  EXPECT_EQ(pointeeElement("long*").bytes, 8u);
  EXPECT_EQ(pointeeElement("half*").bytes, 2u);
  EXPECT_EQ(pointeeElement("struct Pair*").scalar, ElementType::Scalar::Bytes);
  EXPECT_EQ(pointeeElement("void*").scalar, ElementType::Scalar::Bytes);
  EXPECT_EQ(pointeeElement("interval*").scalar, ElementType::Scalar::Bytes);  // not "int"
}

// Distances worked from the IEEE encodings: 1.0f is 0x3f800000, the next float up
// 0x3f800001; -0 and +0 are the same point; the largest float and +inf are neighbours.
TEST(LayerCompare, UlpDistance) {
  EXPECT_EQ(ulpDistance(0x3f800000, 0x3f800001, 4), 1u);
  EXPECT_EQ(ulpDistance(0x3f800001, 0x3f800000, 4), 1u);
  EXPECT_EQ(ulpDistance(0x80000000, 0x00000000, 4), 0u);
  EXPECT_EQ(ulpDistance(0x80000001, 0x00000001, 4), 2u);  // -min subnormal to +min subnormal
  EXPECT_EQ(ulpDistance(0x7f7fffff, 0x7f800000, 4), 1u);
  EXPECT_EQ(ulpDistance(0x7fc00000, 0x7fc00001, 4), 0u);  // two NaNs
  EXPECT_EQ(ulpDistance(0x7fc00000, 0x3f800000, 4), UINT64_MAX);
  EXPECT_EQ(ulpDistance(0x3ff0000000000000ull, 0x3ff0000000000003ull, 8), 3u);
  EXPECT_EQ(ulpDistance(0x3c00, 0x3c01, 2), 1u);  // half 1.0 and its neighbour
}

TEST(LayerCompare, IntegersExactlyWithTheFirstDifferences) {
  const Comparison c = compareElements(pointeeElement("int*"), bytesOf<int32_t>({1, -2, 3, 4}),
                                       bytesOf<int32_t>({1, 2, 3, 5}), 1);
  EXPECT_EQ(c.differing, 2u);
  EXPECT_FALSE(c.onlyFloats);
  ASSERT_EQ(c.first.size(), 1u);  // kept: 1
  EXPECT_EQ(c.first[0].element, 1u);
  EXPECT_EQ(c.first[0].device, "-2");
  EXPECT_EQ(c.first[0].spvsim, "2");
  EXPECT_FALSE(c.first[0].ulps);
}

TEST(LayerCompare, FloatVectorsByLaneWithUlps) {
  // float2 elements; element 1's lane 1 differs: 2.0f (0x40000000) vs the float below
  // (0x3fffffff): 1 ulp. Another element's NaN payloads differ: equal.
  const Comparison c = compareElements(pointeeElement("float2*"),
                                       bytesOf<uint32_t>({0x3f800000, 0x7fc00000, 0, 0x40000000}),
                                       bytesOf<uint32_t>({0x3f800000, 0x7fc00123, 0, 0x3fffffff}));
  EXPECT_EQ(c.differing, 1u);
  EXPECT_TRUE(c.onlyFloats);
  EXPECT_EQ(c.maxUlps, 1u);
  ASSERT_EQ(c.first.size(), 1u);
  EXPECT_EQ(c.first[0].element, 1u);
  EXPECT_EQ(c.first[0].lane, 1u);
  EXPECT_EQ(c.first[0].ulps, 1u);
}

TEST(LayerCompare, SizesThatDifferAreADifference) {
  const Comparison c = compareElements(pointeeElement("uchar*"), {1, 2, 3}, {1, 2});
  EXPECT_EQ(c.differing, 1u);
}

// OpenCL C 3.0 section 7.4's single-precision table: exp 3 ulp, pow 16, x / y 2.5;
// native_* and mix have no bound; integer built-ins compute no floats.
TEST(LayerCompare, AllowedUlpsOfTheBuiltInsCalled) {
  EXPECT_EQ(allowedUlps({"exp"}), 3.0);
  EXPECT_EQ(allowedUlps({"exp", "pow", "fdiv"}), 16.0);
  EXPECT_EQ(allowedUlps({"fdiv"}), 2.5);
  EXPECT_EQ(allowedUlps({"fabs", "s_max", "vload4"}), 0.0);
  EXPECT_EQ(allowedUlps({"half_exp"}), 8192.0);
  EXPECT_EQ(allowedUlps({"exp", "native_exp"}), std::nullopt);
  EXPECT_EQ(allowedUlps({"mix"}), std::nullopt);
  EXPECT_EQ(allowedUlps({}), 0.0);
}

// Normalized image channels compare as integers; one unit apart (a conversion's rounding)
// is told apart from a real difference. Pixels of RGBA UNORM_INT8: 4 bytes each.
TEST(LayerCompare, NormalizedChannelsOneUnitApart) {
  const ElementType unorm = pixelElement({CL_RGBA, CL_UNORM_INT8});
  EXPECT_TRUE(unorm.normalized);
  EXPECT_EQ(unorm.lanes, 4u);
  const Comparison close = compareElements(unorm, {64, 128, 191, 255}, {64, 128, 192, 255});
  EXPECT_EQ(close.differing, 1u);
  EXPECT_TRUE(close.onlyRounding);
  EXPECT_EQ(close.first.at(0).lane, 2u);
  EXPECT_FALSE(compareElements(unorm, {64, 128, 191, 255}, {64, 128, 193, 255}).onlyRounding);
  // SNORM: -1 and 0 are one unit apart (0xff and 0x00 as bytes).
  const ElementType snorm = pixelElement({CL_R, CL_SNORM_INT8});
  EXPECT_TRUE(compareElements(snorm, {0xff}, {0x00}).onlyRounding);
  // Integer channels are exact: one unit is a difference like any other.
  EXPECT_FALSE(compareElements(pixelElement({CL_R, CL_UNSIGNED_INT8}), {1}, {2}).onlyRounding);
  EXPECT_EQ(pixelBytes({CL_RGBA, CL_FLOAT}), 16u);
  EXPECT_EQ(pixelBytes({CL_RGB, CL_UNORM_SHORT_565}), 2u);
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D_ARRAY;
  desc.image_width = 8;
  desc.image_height = 4;
  desc.image_array_size = 3;
  EXPECT_EQ(packedBytes({CL_RG, CL_HALF_FLOAT}, desc), 8u * 4 * 3 * 4);
}

}  // namespace
}  // namespace spvsim::layer
