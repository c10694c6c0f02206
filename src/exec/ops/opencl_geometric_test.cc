// OpenCL.std geometric instructions and OpDot end to end (kernels compiled at test
// time). Expected values are worked out by hand or from a double computation on the
// host rounded once.
#include <cmath>
#include <limits>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;
using testing::sameFloat;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(OpenclGeometric, DotLengthDistanceCross) {
  std::vector<float> a = {1, 2, 3, 4}, b = {5, 6, 7, 8}, s(6), c4(4), c3(4);
  auto p = loadOpenCl(
      "kernel void k(global const float4* a, global const float4* b, global float* s,"
      " global float4* c4, global float3* c3) {\n"
      "  s[0] = dot(*a, *b); s[1] = length(*a); s[2] = distance(*a, *b);\n"
      "  s[3] = fast_length(a->xy); s[4] = dot(a->xyz, b->xyz); s[5] = fast_distance(*a, *b);\n"
      "  *c4 = cross(*a, *b); *c3 = cross(a->xyz, b->xyz); }\n",
      "geometric");
  auto r = run(*p, "k", 1, a, b, s, c4, c3);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_TRUE(sameFloat(70.0f, s[0]));                   // 5 + 12 + 21 + 32
  EXPECT_TRUE(sameFloat(float(std::sqrt(30.0)), s[1]));  // 1 + 4 + 9 + 16
  EXPECT_TRUE(sameFloat(8.0f, s[2]));                    // sqrt(4 * 16)
  EXPECT_TRUE(sameFloat(float(std::sqrt(5.0)), s[3]));
  EXPECT_TRUE(sameFloat(38.0f, s[4]));
  EXPECT_TRUE(sameFloat(8.0f, s[5]));
  // (2*7 - 3*6, 3*5 - 1*7, 1*6 - 2*5) = (-4, 8, -4), w = 0
  const float cross[] = {-4, 8, -4, 0};
  for (int c = 0; c < 4; ++c) EXPECT_TRUE(sameFloat(cross[c], c4[c]));
  for (int c = 0; c < 3; ++c) EXPECT_TRUE(sameFloat(cross[c], c3[c]));
}

// Sums of squares do not overflow or underflow in float: length(1e30, 1e30) and
// length(1e-30, 1e-30) are sqrt(2) * 1e+-30.
TEST(OpenclGeometric, LengthAvoidsOverflowAndUnderflow) {
  std::vector<float> v = {1e30f, 1e30f, 1e-30f, 1e-30f}, s(2);
  auto p = loadOpenCl(
      "kernel void k(global const float2* v, global float* s) {"
      " s[0] = length(v[0]); s[1] = length(v[1]); }",
      "length_range");
  auto r = run(*p, "k", 1, v, s);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_TRUE(sameFloat(float(std::sqrt(2.0) * double(1e30f)), s[0]));
  EXPECT_TRUE(sameFloat(float(std::sqrt(2.0) * double(1e-30f)), s[1]));
}

TEST(OpenclGeometric, NormalizeSpecialCases) {
  std::vector<float> v = {3, 0, 4, 0, 0, 0, 0, 0, kInf, 1, -kInf, 2, 1, kNan, 0, 0};
  std::vector<float> o(16);
  auto p = loadOpenCl(
      "kernel void k(global const float4* v, global float4* o) {\n"
      "  size_t i = get_global_id(0); o[i] = i == 3 ? fast_normalize(v[i]) : normalize(v[i]); }",
      "normalize");
  auto r = run(*p, "k", 4, v, o);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float h = float(std::sqrt(0.5));
  const float expect[] = {0.6f, 0, 0.8f, 0, 0, 0, 0, 0, h, 0, -h, 0, kNan, kNan, kNan, kNan};
  for (int k = 0; k < 16; ++k) EXPECT_TRUE(sameFloat(expect[k], o[k])) << k;
}

TEST(OpenclGeometric, DoubleDot) {
  std::vector<double> a = {1.0, 1e-200, 3.0, 1e200}, s(2);
  auto p = loadOpenCl(
      "kernel void k(global const double2* a, global double* s) {"
      " s[0] = dot(a[0], a[1]); s[1] = length(a[1]); }",
      "double_dot");
  auto r = run(*p, "k", 1, a, s);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ(3.0 + 1.0, s[0]);  // 1*3 + 1e-200*1e200
  EXPECT_EQ(1e200, s[1]);      // 1e400 would overflow a double sum of squares
}

}  // namespace
}  // namespace spvsim
