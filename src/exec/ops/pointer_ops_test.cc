// OpPtrEqual/OpPtrNotEqual compare the addresses pointers hold. OpPtrDiff (SPIR-V 1.4)
// within one object and across two. Within: the element count
// between the pointers. Across: undefined (the pointers must point into the same
// object), so it is reported, and the result is what a device with one flat address
// space computes: the distance between the two buffers' storage (here the host vectors
// the test binds, whose addresses the test knows), in elements.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "spirv/loader.h"
#include "src/exec/program.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;
using testing::range1;

// diff(a, b, out): out[2i] = (a + i) - a, out[2i + 1] = (a + i) - b, in uints.
constexpr const char* kDiff = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "diff" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %v3ulong = OpTypeVector %ulong 3
  %ptr_input = OpTypePointer Input %v3ulong
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
  %ptr_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %ptr_uint %ptr_uint %ptr_ulong
        %gid = OpVariable %ptr_input Input
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_uint
          %b = OpFunctionParameter %ptr_uint
        %out = OpFunctionParameter %ptr_ulong
      %entry = OpLabel
         %g3 = OpLoad %v3ulong %gid
          %i = OpCompositeExtract %ulong %g3 0
         %ai = OpInBoundsPtrAccessChain %ptr_uint %a %i
       %same = OpPtrDiff %ulong %ai %a
      %cross = OpPtrDiff %ulong %ai %b
         %i2 = OpIMul %ulong %i %ulong_2
        %i21 = OpIAdd %ulong %i2 %ulong_1
         %o0 = OpInBoundsPtrAccessChain %ptr_ulong %out %i2
               OpStore %o0 %same Aligned 8
         %o1 = OpInBoundsPtrAccessChain %ptr_ulong %out %i21
               OpStore %o1 %cross Aligned 8
               OpReturn
               OpFunctionEnd
)";

TEST(PointerOps, PtrDiffWithinAndAcrossObjects) {
  auto program = Program::load(spirv::assemble(kDiff));
  std::vector<uint32_t> a(8), b(8);
  std::vector<int64_t> out(8, -1);
  LaunchOptions options;
  options.subGroupSize = 4;
  LaunchResult r =
      program->launch("diff", range1(4, 4), {bufferOf(a), bufferOf(b), bufferOf(out)}, options);
  // Both vectors' storage is aligned to more than 4 bytes: the distance is whole uints.
  const int64_t apart = int64_t(reinterpret_cast<uintptr_t>(a.data())) -
                        int64_t(reinterpret_cast<uintptr_t>(b.data()));
  ASSERT_EQ(apart % 4, 0);
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(out[2 * i], i) << "within a, lane " << i;
    EXPECT_EQ(out[2 * i + 1], apart / 4 + i) << "a to b, lane " << i;
  }
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::OutOfBounds);
  EXPECT_NE(d.message.find("OpPtrDiff of pointers into different objects"), std::string::npos)
      << d.message;
  EXPECT_EQ(d.lanes, (std::vector<uint32_t>{0, 1, 2, 3}));
}

// The same kernel in a 32-bit module (src/DESIGN.md "32-bit modules"): within an object
// the element count, across two the difference of their 32-bit addresses, reported.
TEST(PointerOps, PtrDiffAcrossObjectsInA32BitModuleIsReported) {
  constexpr const char* kDiff32 = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical32 OpenCL
               OpEntryPoint Kernel %k "diff" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %v3uint = OpTypeVector %uint 3
  %ptr_input = OpTypePointer Input %v3uint
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_uint %ptr_uint %ptr_uint
        %gid = OpVariable %ptr_input Input
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_uint
          %b = OpFunctionParameter %ptr_uint
        %out = OpFunctionParameter %ptr_uint
      %entry = OpLabel
         %g3 = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %g3 0
         %ai = OpInBoundsPtrAccessChain %ptr_uint %a %i
       %same = OpPtrDiff %uint %ai %a
      %cross = OpPtrDiff %uint %ai %b
         %i2 = OpIMul %uint %i %uint_2
        %i21 = OpIAdd %uint %i2 %uint_1
         %o0 = OpInBoundsPtrAccessChain %ptr_uint %out %i2
               OpStore %o0 %same Aligned 4
         %o1 = OpInBoundsPtrAccessChain %ptr_uint %out %i21
               OpStore %o1 %cross Aligned 4
               OpReturn
               OpFunctionEnd
)";
  auto program = Program::load(spirv::assemble(kDiff32));
  std::vector<uint32_t> a(8), b(8), out(8, 0xdeadbeef);
  LaunchOptions options;
  options.subGroupSize = 4;
  LaunchResult r =
      program->launch("diff", range1(4, 4), {bufferOf(a), bufferOf(b), bufferOf(out)}, options);
  for (uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(out[2 * i], i) << "within a, lane " << i;
    EXPECT_EQ(out[2 * i + 1] - out[1], i) << "a to b, lane " << i;
  }
  EXPECT_NE(out[1], 0u);  // two objects have two addresses
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_EQ(r.diagnostics[0].kind, DiagnosticKind::OutOfBounds);
  EXPECT_NE(r.diagnostics[0].message.find("32-bit addresses"), std::string::npos)
      << r.diagnostics[0].message;
  EXPECT_EQ(r.diagnostics[0].lanes, (std::vector<uint32_t>{0, 1, 2, 3}));
}

// The same object reached twice is no misuse: b is a's storage again (one buffer bound
// to two arguments), so (a + i) - b is i and nothing is reported.
TEST(PointerOps, PtrDiffOfOneBufferBoundTwice) {
  auto program = Program::load(spirv::assemble(kDiff));
  std::vector<uint32_t> a(8);
  std::vector<int64_t> out(8, -1);
  LaunchOptions options;
  options.subGroupSize = 4;
  LaunchResult r =
      program->launch("diff", range1(4, 4), {bufferOf(a), bufferOf(a), bufferOf(out)}, options);
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (int64_t i = 0; i < 4; ++i) {
    EXPECT_EQ(out[2 * i], i);
    EXPECT_EQ(out[2 * i + 1], i);
  }
}

// cmp(a, b, out): out[0] = a == b, out[1] = a != b, out[2] = (a + 1) == (b + 1).
constexpr const char* kCompare = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "cmp"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr_uint %ptr_uint %ptr_uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ptr_uint
          %b = OpFunctionParameter %ptr_uint
        %out = OpFunctionParameter %ptr_uint
      %entry = OpLabel
         %eq = OpPtrEqual %bool %a %b
        %eq1 = OpSelect %uint %eq %uint_1 %uint_0
               OpStore %out %eq1 Aligned 4
         %ne = OpPtrNotEqual %bool %a %b
        %ne1 = OpSelect %uint %ne %uint_1 %uint_0
         %o1 = OpInBoundsPtrAccessChain %ptr_uint %out %ulong_1
               OpStore %o1 %ne1 Aligned 4
         %a1 = OpInBoundsPtrAccessChain %ptr_uint %a %ulong_1
         %b1 = OpInBoundsPtrAccessChain %ptr_uint %b %ulong_1
        %eq2 = OpPtrEqual %bool %a1 %b1
        %eq3 = OpSelect %uint %eq2 %uint_1 %uint_0
         %o2 = OpInBoundsPtrAccessChain %ptr_uint %out %ulong_2
               OpStore %o2 %eq3 Aligned 4
               OpReturn
               OpFunctionEnd
)";

// Pointers compare by the address they hold: one buffer bound to two arguments gives
// equal pointers (the conformance suite's spirv14_ptrops passes one buffer twice), two
// buffers unequal ones.
TEST(PointerOps, PtrEqualComparesAddresses) {
  auto program = Program::load(spirv::assemble(kCompare));
  std::vector<uint32_t> a(4), b(4), out(3, 7);
  LaunchResult r = program->launch("cmp", range1(1, 1), {bufferOf(a), bufferOf(a), bufferOf(out)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<uint32_t>{1, 0, 1})) << "one buffer twice";
  r = program->launch("cmp", range1(1, 1), {bufferOf(a), bufferOf(b), bufferOf(out)});
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  EXPECT_EQ(out, (std::vector<uint32_t>{0, 1, 0})) << "two buffers";
}

}  // namespace
}  // namespace spvsim
