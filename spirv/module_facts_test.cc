#include "spirv/module_facts.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

// Two kernels: kA calls onlyA and shared, onlyA calls shared again; kB calls shared.
// Workgroup arrays: shared_tile (float[4], used by shared), a_tile (float[16], onlyA),
// b_tile (float[100], kB) and unused_tile (float[4], no function). kB's OpSwitch has a
// case literal CASE, which the tests set to unused_tile's id: a literal, not a use.
// Function variables: kA's count (uint) and shared's scratch (float[4]). kA also loads
// the constant pointer pp, whose initializer is the address of the global g.
const char* kTwoKernels = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kA "kA"
               OpEntryPoint Kernel %kB "kB"
               OpName %shared_tile "shared_tile"
               OpName %a_tile "a_tile"
               OpName %b_tile "b_tile"
               OpName %unused_tile "unused_tile"
               OpName %g "g"
               OpName %pp "pp"
               OpName %kA "kA"
               OpName %kB "kB"
               OpName %shared "shared"
               OpName %onlyA "onlyA"
               OpName %outA "outA"
               OpName %sum "sum"
               OpName %uint "uint"
               OpName %uint_4 "uint_4"
               OpName %ptr_g "ptr_g"
               OpName %ptr_w16 "ptr_w16"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
     %uint_4 = OpConstant %uint 4
    %uint_16 = OpConstant %uint 16
   %uint_100 = OpConstant %uint 100
    %float_1 = OpConstant %float 1
   %float4a = OpTypeArray %float %uint_4
  %float16a = OpTypeArray %float %uint_16
 %float100a = OpTypeArray %float %uint_100
     %ptr_w4 = OpTypePointer Workgroup %float4a
    %ptr_w16 = OpTypePointer Workgroup %float16a
   %ptr_w100 = OpTypePointer Workgroup %float100a
     %ptr_wf = OpTypePointer Workgroup %float
     %ptr_fu = OpTypePointer Function %uint
     %ptr_f4 = OpTypePointer Function %float4a
      %ptr_g = OpTypePointer CrossWorkgroup %uint
     %ptr_pg = OpTypePointer UniformConstant %ptr_g
    %fn_void = OpTypeFunction %void
       %fn_k = OpTypeFunction %void %ptr_g
%shared_tile = OpVariable %ptr_w4 Workgroup
     %a_tile = OpVariable %ptr_w16 Workgroup
     %b_tile = OpVariable %ptr_w100 Workgroup
%unused_tile = OpVariable %ptr_w4 Workgroup
          %g = OpVariable %ptr_g CrossWorkgroup %uint_0
         %pp = OpVariable %ptr_pg UniformConstant %g
     %shared = OpFunction %void None %fn_void
    %s_entry = OpLabel
    %scratch = OpVariable %ptr_f4 Function
         %sp = OpInBoundsAccessChain %ptr_wf %shared_tile %uint_0
         %sv = OpLoad %float %sp Aligned 4
               OpReturn
               OpFunctionEnd
      %onlyA = OpFunction %void None %fn_void
    %o_entry = OpLabel
         %ap = OpInBoundsAccessChain %ptr_wf %a_tile %uint_0
               OpStore %ap %float_1 Aligned 4
         %c4 = OpFunctionCall %void %shared
               OpReturn
               OpFunctionEnd
         %kA = OpFunction %void None %fn_k
       %outA = OpFunctionParameter %ptr_g
    %a_entry = OpLabel
      %count = OpVariable %ptr_fu Function
         %c2 = OpFunctionCall %void %onlyA
         %c3 = OpFunctionCall %void %shared
          %x = OpLoad %uint %count Aligned 4
        %sum = OpIAdd %uint %x %uint_4
          %q = OpLoad %ptr_g %pp Aligned 8
               OpStore %outA %sum Aligned 4
               OpReturn
               OpFunctionEnd
         %kB = OpFunction %void None %fn_k
       %outB = OpFunctionParameter %ptr_g
    %b_entry = OpLabel
         %c1 = OpFunctionCall %void %shared
         %bp = OpInBoundsAccessChain %ptr_wf %b_tile %uint_0
         %bv = OpLoad %float %bp Aligned 4
               OpSwitch %uint_0 %b_done CASE %b_case
     %b_case = OpLabel
               OpBranch %b_done
     %b_done = OpLabel
               OpReturn
               OpFunctionEnd
)";

Id idNamed(const Module& m, const std::string& name) {
  for (const auto& [id, n] : m.names)
    if (n == name) return id;
  ADD_FAILURE() << "no id named " << name;
  return 0;
}

std::string withCase(uint32_t literal) {
  std::string text = kTwoKernels;
  text.replace(text.find("CASE"), 4, std::to_string(literal));
  return text;
}

// The module with kB's case literal equal to unused_tile's id (ids are numbered in order
// of first appearance, so the literal's value does not change them).
Module twoKernels() {
  const Id unused = idNamed(loadModule(assemble(withCase(1))), "unused_tile");
  return loadModule(assemble(withCase(unused)));
}

class ModuleFactsTest : public ::testing::Test {
 protected:
  Module m = twoKernels();
  ModuleFacts facts{m};
  Id id(const std::string& name) const { return idNamed(m, name); }
  const KernelFacts& kernel(const std::string& name) const {
    return facts.kernel(*facts.findEntryPoint(name));
  }
};

TEST_F(ModuleFactsTest, CallTreesListEachReachedFunctionOnce) {
  // Depth-first from the entry: kA calls onlyA first, which reaches shared.
  EXPECT_EQ(kernel("kA").functions, (std::vector<Id>{id("kA"), id("onlyA"), id("shared")}));
  EXPECT_EQ(kernel("kB").functions, (std::vector<Id>{id("kB"), id("shared")}));
}

TEST_F(ModuleFactsTest, WorkgroupVariablesAreThoseOfTheCallTree) {
  EXPECT_EQ(kernel("kA").workgroupVariables, (std::vector<Id>{id("shared_tile"), id("a_tile")}));
  EXPECT_EQ(kernel("kA").workgroupBytes, 4u * 4 + 16u * 4);
  // unused_tile's id appears in kB only as a switch literal.
  EXPECT_EQ(kernel("kB").workgroupVariables, (std::vector<Id>{id("shared_tile"), id("b_tile")}));
  EXPECT_EQ(kernel("kB").workgroupBytes, 4u * 4 + 100u * 4);
}

TEST_F(ModuleFactsTest, VariablesIncludeAddressesInitializersHold) {
  // pp's initializer is g's address: kA needs g placed too. Declaration order.
  EXPECT_EQ(kernel("kA").variables,
            (std::vector<Id>{id("shared_tile"), id("a_tile"), id("g"), id("pp")}));
  EXPECT_EQ(kernel("kB").variables, (std::vector<Id>{id("shared_tile"), id("b_tile")}));
}

TEST_F(ModuleFactsTest, FunctionVariableBytesSumTheCallTree) {
  EXPECT_EQ(kernel("kA").functionVariableBytes, 4u + 16u);  // count + shared's scratch
  EXPECT_EQ(kernel("kB").functionVariableBytes, 16u);
}

TEST_F(ModuleFactsTest, ValueTypes) {
  EXPECT_EQ(facts.valueType(id("sum")), id("uint"));        // an instruction's result
  EXPECT_EQ(facts.valueType(id("outA")), id("ptr_g"));      // a parameter
  EXPECT_EQ(facts.valueType(id("uint_4")), id("uint"));     // a constant
  EXPECT_EQ(facts.valueType(id("a_tile")), id("ptr_w16"));  // a module-scope variable
  EXPECT_EQ(facts.valueType(id("uint")), 0u);               // a type is no value
}

TEST_F(ModuleFactsTest, FindsEntryPointsByName) {
  EXPECT_EQ(facts.findEntryPoint("kB"), &m.entryPoints[1]);
  EXPECT_EQ(facts.findEntryPoint("kC"), nullptr);
}

// Ids as `spvsim dis` names them (SPIRV-Tools' friendly names): OpNames, types and
// constants spelled from their definitions, a second "x" made unique, numbers for the
// rest. Only `in`, `x` and `y` have OpNames here.
const char* kNames = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %in "in"
               OpName %x "x"
               OpName %y "x"
          %t_void = OpTypeVoid
          %t_uint = OpTypeInt 32 0
          %t_ptr = OpTypePointer CrossWorkgroup %t_uint
          %c7 = OpConstant %t_uint 7
          %t_fn = OpTypeFunction %t_void %t_ptr
          %k = OpFunction %t_void None %t_fn
         %in = OpFunctionParameter %t_ptr
      %entry = OpLabel
          %x = OpLoad %t_uint %in Aligned 4
          %y = OpIAdd %t_uint %x %c7
          %z = OpIMul %t_uint %y %y
               OpStore %in %z Aligned 4
               OpReturn
               OpFunctionEnd
)";

TEST(IdNames, AsSpvsimDisNamesThem) {
  const Module m = loadModule(assemble(kNames));
  const ModuleFacts facts(m);
  const Id uint = facts.idNamed("uint");
  ASSERT_NE(uint, 0u);
  EXPECT_EQ(m.type(uint).kind, TypeKind::Int);
  EXPECT_EQ(facts.idName(uint), "%uint");
  const Id ptr = facts.idNamed("_ptr_CrossWorkgroup_uint");
  ASSERT_NE(ptr, 0u);
  EXPECT_EQ(m.type(ptr).element, uint);
  EXPECT_NE(facts.idNamed("uint_7"), 0u);
  Id in = 0;
  std::vector<Id> xs;
  for (const auto& [id, name] : m.names) {
    if (name == "in") in = id;
    if (name == "x") xs.push_back(id);
  }
  ASSERT_EQ(xs.size(), 2u);
  EXPECT_EQ(facts.idName(in), "%in");
  EXPECT_EQ(facts.idNamed("in"), in);
  // The store's operands: %in and z's id, which has no name (it stays a number).
  const Instruction* store = nullptr;
  for (const auto& i : m.functions[0].blocks[0].instructions)
    if (i.opcode == spv::Op::OpStore) store = &i;
  ASSERT_NE(store, nullptr);
  const Id z = store->operands[1];
  EXPECT_EQ(facts.idName(z), "%" + std::to_string(z));
  EXPECT_EQ(facts.idNamed(std::to_string(z)), 0u);
  EXPECT_EQ(facts.instructionText(store->index),
            "OpStore %in %" + std::to_string(z) + " Aligned 4");
  // Two values named "x": distinct names, "%x" and "%x_" with a number.
  const std::string a = facts.idName(xs[0]), b = facts.idName(xs[1]);
  EXPECT_NE(a, b);
  EXPECT_TRUE(a == "%x" ? b.rfind("%x_", 0) == 0 : b == "%x" && a.rfind("%x_", 0) == 0) << a << b;
}

}  // namespace
}  // namespace spvsim::spirv
