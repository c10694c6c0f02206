// Lowering starts at the kernel body that an llvm-spirv wrapper forwards its parameters
// to (src/DESIGN.md, "Kernel wrappers"); any other entry function runs as written.
#include <gtest/gtest.h>

#include <string>

#include "spirv/loader.h"
#include "src/exec/program.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::range1;

// body(dst, src): dst[i] = src[i] * 3 + 1, with i = get_global_id(0). The wrapper %k
// calls it with `callArgs` (the parameters of %k are %a, %b); kernel "k" is `entry`, and
// with entry %body there is no wrapper (a function may not be both an entry point and
// called).
std::string wrapped(const std::string& callArgs, const std::string& entry = "%k") {
  return R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel )" +
         entry + R"( "k" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
      %v3ul = OpTypeVector %ulong 3
     %ptr_in = OpTypePointer Input %v3ul
       %void = OpTypeVoid
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
      %kfunc = OpTypeFunction %void %ptr_uint %ptr_uint
     %uint_1 = OpConstant %uint 1
     %uint_3 = OpConstant %uint 3
        %gid = OpVariable %ptr_in Input
       %body = OpFunction %void None %kfunc
        %dst = OpFunctionParameter %ptr_uint
        %src = OpFunctionParameter %ptr_uint
         %be = OpLabel
         %id = OpLoad %v3ul %gid Aligned 32
          %i = OpCompositeExtract %ulong %id 0
         %sp = OpInBoundsPtrAccessChain %ptr_uint %src %i
          %v = OpLoad %uint %sp Aligned 4
         %v3 = OpIMul %uint %v %uint_3
         %v4 = OpIAdd %uint %v3 %uint_1
         %dp = OpInBoundsPtrAccessChain %ptr_uint %dst %i
               OpStore %dp %v4 Aligned 4
               OpReturn
               OpFunctionEnd
)" +
         (entry == "%body" ? ""
                           : R"(
          %k = OpFunction %void None %kfunc
          %a = OpFunctionParameter %ptr_uint
          %b = OpFunctionParameter %ptr_uint
         %ke = OpLabel
       %call = OpFunctionCall %void %body )" +
                                 callArgs + R"(
               OpReturn
               OpFunctionEnd
)");
}

constexpr uint32_t kItems = 16, kLocal = 8, kWidth = 8;

LaunchResult launchOn(const std::string& callArgs, std::vector<uint32_t>& a,
                      std::vector<uint32_t>& b, const std::string& entry = "%k") {
  auto prog = Program::load(spirv::assemble(wrapped(callArgs, entry)));
  LaunchOptions o;
  o.subGroupSize = kWidth;
  return prog->launch("k", range1(kItems, kLocal), {bufferOf(a), bufferOf(b)}, o);
}

std::vector<uint32_t> inputs() {
  std::vector<uint32_t> v(kItems);
  for (uint32_t i = 0; i < kItems; ++i) v[i] = 7 * i + 2;
  return v;
}

TEST(KernelWrapper, AForwardingWrapperCostsNoInstructions) {
  std::vector<uint32_t> a(kItems, 0), b = inputs();
  const LaunchResult r = launchOn("%a %b", a, b);
  ASSERT_TRUE(r.diagnostics.empty());
  for (uint32_t i = 0; i < kItems; ++i) EXPECT_EQ(a[i], b[i] * 3 + 1) << i;
  // Each sub-group runs the body only, as when the body is the entry point itself: no
  // call into it, no return from the wrapper.
  std::vector<uint32_t> x(kItems, 0), y = inputs();
  const LaunchResult direct = launchOn("", x, y, "%body");
  ASSERT_TRUE(direct.diagnostics.empty());
  EXPECT_EQ(x, a);
  EXPECT_EQ(r.subGroupSteps, direct.subGroupSteps);
}

TEST(KernelWrapper, SwappedArgumentsAreCalledAsWritten) {
  std::vector<uint32_t> a = inputs(), b(kItems, 0);
  const LaunchResult r = launchOn("%b %a", a, b);
  ASSERT_TRUE(r.diagnostics.empty());
  for (uint32_t i = 0; i < kItems; ++i) EXPECT_EQ(b[i], a[i] * 3 + 1) << i;
  std::vector<uint32_t> x(kItems, 0), y = inputs();
  const LaunchResult direct = launchOn("", x, y, "%body");
  EXPECT_GT(r.subGroupSteps, direct.subGroupSteps);  // the call and the wrapper's return
}

TEST(KernelWrapper, AnArgumentPassedTwiceIsCalledAsWritten) {
  std::vector<uint32_t> a = inputs(), b(kItems, 0);
  const LaunchResult r = launchOn("%a %a", a, b);
  ASSERT_TRUE(r.diagnostics.empty());
  for (uint32_t i = 0; i < kItems; ++i) EXPECT_EQ(a[i], (7 * i + 2) * 3 + 1) << i;
  EXPECT_EQ(b, std::vector<uint32_t>(kItems, 0));
}

}  // namespace
}  // namespace spvsim
