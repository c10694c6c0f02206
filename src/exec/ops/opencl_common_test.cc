// OpenCL.std common instructions end to end (kernels compiled at test time). Expected
// values are worked out by hand from the OpenCL C definitions of the functions.
#include <cmath>
#include <limits>

#include "src/exec/ops/opencl_test_util.h"

namespace spvsim {
namespace {

using testing::loadOpenCl;
using testing::run;
using testing::sameFloat;

constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

TEST(OpenclCommon, ScalarFunctions) {
  std::vector<float> x = {-2.0f, 0.5f, 3.0f, -0.0f, kNan, 0.0f};
  std::vector<float> out(9 * x.size());
  auto p = loadOpenCl(
      "kernel void k(global const float* in, global float* o) {\n"
      "  size_t i = get_global_id(0); float x = in[i]; o += 9 * i;\n"
      "  o[0] = clamp(x, -1.0f, 1.0f); o[1] = mix(2.0f, 4.0f, x); o[2] = step(0.5f, x);\n"
      "  o[3] = smoothstep(0.0f, 2.0f, x); o[4] = sign(x); o[5] = max(x, 0.25f);\n"
      "  o[6] = min(x, 0.25f); o[7] = degrees(x); o[8] = radians(x); }\n",
      "common_scalar");
  auto r = run(*p, "k", x.size(), x, out);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  auto at = [&](int i, int k) { return out[9 * i + k]; };
  // x = -2
  EXPECT_TRUE(sameFloat(-1.0f, at(0, 0)));
  EXPECT_TRUE(sameFloat(-2.0f, at(0, 1)));  // 2 + 2 * -2
  EXPECT_TRUE(sameFloat(0.0f, at(0, 2)));
  EXPECT_TRUE(sameFloat(0.0f, at(0, 3)));  // t clamped to 0
  EXPECT_TRUE(sameFloat(-1.0f, at(0, 4)));
  EXPECT_TRUE(sameFloat(0.25f, at(0, 5)));
  EXPECT_TRUE(sameFloat(-2.0f, at(0, 6)));
  EXPECT_TRUE(sameFloat(float(-2.0 * 180.0 / M_PI), at(0, 7)));
  EXPECT_TRUE(sameFloat(float(-2.0 * M_PI / 180.0), at(0, 8)));
  // x = 0.5: smoothstep t = 0.25 -> 0.0625 * 2.5 = 0.15625
  EXPECT_TRUE(sameFloat(0.5f, at(1, 0)));
  EXPECT_TRUE(sameFloat(3.0f, at(1, 1)));
  EXPECT_TRUE(sameFloat(1.0f, at(1, 2)));  // x == edge is not below it
  EXPECT_TRUE(sameFloat(0.15625f, at(1, 3)));
  EXPECT_TRUE(sameFloat(1.0f, at(1, 4)));
  // x = 3
  EXPECT_TRUE(sameFloat(1.0f, at(2, 0)));
  EXPECT_TRUE(sameFloat(8.0f, at(2, 1)));
  EXPECT_TRUE(sameFloat(1.0f, at(2, 3)));  // t clamped to 1: 1 * 1 * (3 - 2)
  // x = -0, NaN, +0: sign keeps signed zeros and maps NaN to 0.
  EXPECT_TRUE(sameFloat(-0.0f, at(3, 4)));
  EXPECT_TRUE(sameFloat(0.0f, at(4, 4)));
  EXPECT_TRUE(sameFloat(0.0f, at(5, 4)));
  EXPECT_TRUE(sameFloat(float(M_PI / 180.0 * 180.0 / M_PI * 0.0), at(5, 8)));
}

// clamp(float4, float, float), mix(float4, float4, float), step(float, float4): the
// scalar arguments arrive splatted by clang; float3 and double vectors too.
TEST(OpenclCommon, VectorForms) {
  std::vector<float> v = {-3, -0.5f, 0.5f, 3}, lo = {-1, 0, 0, 0}, o(4 * 4);
  std::vector<double> d = {0.0, 10.0, 2.0, 4.0, 0.25, 0.75};
  auto p = loadOpenCl(
      "kernel void k(global const float4* v, global const float4* lo, global float4* o,"
      " global double2* d) {\n"
      "  o[0] = clamp(*v, -1.0f, 1.0f); o[1] = mix(*v, *lo, 0.5f); o[2] = step(0.0f, *v);\n"
      "  o[3] = clamp(*v, *lo, 2.0f);\n"
      "  d[0] = mix(d[0], d[1], d[2]); }\n",
      "common_vector");
  auto r = run(*p, "k", 1, v, lo, o, d);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  const float clamp1[] = {-1, -0.5f, 0.5f, 1}, mix[] = {-2, -0.25f, 0.25f, 1.5f},
              step[] = {0, 0, 1, 1}, clamp2[] = {-1, 0, 0.5f, 2};
  for (int c = 0; c < 4; ++c) {
    EXPECT_TRUE(sameFloat(clamp1[c], o[c]));
    EXPECT_TRUE(sameFloat(mix[c], o[4 + c]));
    EXPECT_TRUE(sameFloat(step[c], o[8 + c]));
    EXPECT_TRUE(sameFloat(clamp2[c], o[12 + c]));
  }
  EXPECT_EQ(0.0 + (2.0 - 0.0) * 0.25, d[0]);
  EXPECT_EQ(10.0 + (4.0 - 10.0) * 0.75, d[1]);
}

// clang turns max/min of floats into fmax/fmin, so fmax_common and fmin_common come
// from assembly: max = "y if x < y, else x", min = "y if y < x, else x".
TEST(OpenclCommon, FmaxCommonAndFminCommonFromAssembly) {
  const char* text = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
          %1 = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
      %ulong = OpTypeInt 64 0
    %v2float = OpTypeVector %float 2
        %ptr = OpTypePointer CrossWorkgroup %v2float
         %fn = OpTypeFunction %void %ptr
    %float_2 = OpConstant %float 2
   %float_m3 = OpConstant %float -3
    %ulong_1 = OpConstant %ulong 1
          %x = OpConstantComposite %v2float %float_2 %float_m3
          %y = OpConstantComposite %v2float %float_m3 %float_2
          %k = OpFunction %void None %fn
          %o = OpFunctionParameter %ptr
          %e = OpLabel
          %a = OpExtInst %v2float %1 fmax_common %x %y
          %b = OpExtInst %v2float %1 fmin_common %x %y
         %o1 = OpInBoundsPtrAccessChain %ptr %o %ulong_1
               OpStore %o %a Aligned 8
               OpStore %o1 %b Aligned 8
               OpReturn
               OpFunctionEnd
)";
  auto p = Program::load(spirv::assemble(text));
  std::vector<float> o(4);
  auto r = run(*p, "k", 1, o);
  ASSERT_TRUE(r.diagnostics.empty()) << testing::describe(r);
  EXPECT_EQ((std::vector<float>{2, 2, -3, -3}), o);
}

}  // namespace
}  // namespace spvsim
