// The undefined-value checker leaves as lowered every instruction that can never see an
// undefined value in the launch (src/check/shadow_static.h). What it must still follow:
// undefined values passed to a function, returned from one along some paths only, and
// carried around a loop by a phi whose undefined operand is defined after the phi. Each
// kernel's expected diagnostics are worked by hand (which lanes hold what).
#include <gtest/gtest.h>

#include <vector>

#include "spirv/loader.h"
#include "src/check/observers.h"
#include "src/exec/program.h"
#include "src/exec/testing/launch_args.h"

namespace spvsim {
namespace {

using testing::bufferOf;
using testing::describe;

const char* kAssembled = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %callee "callee" %lid
               OpEntryPoint Kernel %returns "returns" %lid
               OpEntryPoint Kernel %loop "loop" %lid
               OpEntryPoint Kernel %defined "defined" %lid
               OpName %x "x"
               OpName %v "v"
               OpName %acc "acc"
               OpDecorate %lid BuiltIn SubgroupLocalInvocationId
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
         %pu = OpTypePointer CrossWorkgroup %uint
        %piu = OpTypePointer Input %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
         %uu = OpUndef %uint
        %lid = OpVariable %piu Input
       %kty = OpTypeFunction %void %pu
       %fty = OpTypeFunction %void %uint
       %gty = OpTypeFunction %uint %uint

; f(x): branches on x.
          %f = OpFunction %void None %fty
          %x = OpFunctionParameter %uint
         %fe = OpLabel
         %fc = OpUGreaterThan %bool %x %uint_3
               OpSelectionMerge %fm None
               OpBranchConditional %fc %ft %fm
         %ft = OpLabel
               OpBranch %fm
         %fm = OpLabel
               OpReturn
               OpFunctionEnd

; g(x): undefined for odd x, x for even x.
          %g = OpFunction %uint None %gty
         %gx = OpFunctionParameter %uint
         %ge = OpLabel
        %odd = OpBitwiseAnd %uint %gx %uint_1
      %isodd = OpINotEqual %bool %odd %uint_0
               OpSelectionMerge %gm None
               OpBranchConditional %isodd %gt %gm
         %gt = OpLabel
               OpReturnValue %uu
         %gm = OpLabel
               OpReturnValue %gx
               OpFunctionEnd

; f(undefined), then f(lane id): only the first call's branch is on an undefined value.
     %callee = OpFunction %void None %kty
        %co = OpFunctionParameter %pu
         %ce = OpLabel
         %cl = OpLoad %uint %lid
         %c1 = OpFunctionCall %void %f %uu
         %c2 = OpFunctionCall %void %f %cl
               OpReturn
               OpFunctionEnd

; out[l] = g(l): undefined in odd lanes.
    %returns = OpFunction %void None %kty
        %ro = OpFunctionParameter %pu
         %re = OpLabel
         %rl = OpLoad %uint %lid
          %v = OpFunctionCall %uint %g %rl
         %rp = OpInBoundsPtrAccessChain %pu %ro %rl
               OpStore %rp %v
               OpReturn
               OpFunctionEnd

; acc = l; twice: acc += (i == 1 ? undefined : 1); out[l] = acc: undefined in every lane.
       %loop = OpFunction %void None %kty
        %lo = OpFunctionParameter %pu
         %le = OpLabel
         %ll = OpLoad %uint %lid
               OpBranch %lh
         %lh = OpLabel
          %i = OpPhi %uint %uint_0 %le %i1 %lb
        %acc = OpPhi %uint %ll %le %acc1 %lb
         %lc = OpULessThan %bool %i %uint_2
               OpLoopMerge %lx %lb None
               OpBranchConditional %lc %lb %lx
         %lb = OpLabel
      %isone = OpIEqual %bool %i %uint_1
        %add = OpSelect %uint %isone %uu %uint_1
       %acc1 = OpIAdd %uint %acc %add
         %i1 = OpIAdd %uint %i %uint_1
               OpBranch %lh
         %lx = OpLabel
         %lp = OpInBoundsPtrAccessChain %pu %lo %ll
               OpStore %lp %acc
               OpReturn
               OpFunctionEnd

; The same loop without the undefined operand: out[l] = l + 2, nothing to report.
    %defined = OpFunction %void None %kty
        %do = OpFunctionParameter %pu
         %de = OpLabel
         %dl = OpLoad %uint %lid
               OpBranch %dh
         %dh = OpLabel
         %di = OpPhi %uint %uint_0 %de %di1 %db
        %dac = OpPhi %uint %dl %de %dac1 %db
         %dc = OpULessThan %bool %di %uint_2
               OpLoopMerge %dx %db None
               OpBranchConditional %dc %db %dx
         %db = OpLabel
       %dac1 = OpIAdd %uint %dac %uint_1
        %di1 = OpIAdd %uint %di %uint_1
               OpBranch %dh
         %dx = OpLabel
         %dp = OpInBoundsPtrAccessChain %pu %do %dl
               OpStore %dp %dac
               OpReturn
               OpFunctionEnd
)";

class ShadowStatic : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { program_ = Program::load(spirv::assemble(kAssembled)); }
  static void TearDownTestSuite() { program_.reset(); }

  LaunchResult run(const std::string& kernel) {
    out.assign(8, 0);
    NDRange r;
    r.global = {8, 1, 1};
    r.local = {8, 1, 1};
    r.localGiven = true;
    LaunchOptions o;
    o.subGroupSize = 8;
    o.observers = check::observersFor({.undefinedValues = true});
    return program_->launch(kernel, r, {bufferOf(out)}, o);
  }

  std::vector<uint32_t> out;
  static std::shared_ptr<Program> program_;
};

std::shared_ptr<Program> ShadowStatic::program_;

TEST_F(ShadowStatic, UndefinedArgumentReachesTheCalleesBranchOnlyInItsCall) {
  LaunchResult r = run("callee");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_EQ(d.kind, DiagnosticKind::UninitializedValue);
  EXPECT_EQ(d.repeats, 0u) << describe(r);  // the second call's argument is defined
  EXPECT_NE(d.message.find("used as a branch condition"), std::string::npos) << d.message;
  EXPECT_EQ(d.lanes, std::vector<uint32_t>({0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(ShadowStatic, ValueReturnedUndefinedAlongOnePathOnly) {
  LaunchResult r = run("returns");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  const Diagnostic& d = r.diagnostics[0];
  EXPECT_NE(d.message.find("value %v stored to global memory"), std::string::npos) << d.message;
  EXPECT_EQ(d.lanes, std::vector<uint32_t>({1, 3, 5, 7}));
  for (uint32_t l = 0; l < 8; l += 2) EXPECT_EQ(out[l], l) << l;
}

TEST_F(ShadowStatic, LoopPhiCarriesAValueMadeUndefinedAfterIt) {
  LaunchResult r = run("loop");
  ASSERT_EQ(r.diagnostics.size(), 1u) << describe(r);
  EXPECT_NE(r.diagnostics[0].message.find("value %acc stored to global memory"), std::string::npos)
      << describe(r);
  EXPECT_EQ(r.diagnostics[0].lanes, std::vector<uint32_t>({0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST_F(ShadowStatic, DefinedLoopReportsNothing) {
  LaunchResult r = run("defined");
  EXPECT_TRUE(r.diagnostics.empty()) << describe(r);
  for (uint32_t l = 0; l < 8; ++l) EXPECT_EQ(out[l], l + 2) << l;
}

}  // namespace
}  // namespace spvsim
