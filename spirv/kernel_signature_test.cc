// Kernel signatures from hand-written modules; the expected answers are the
// clGetKernelArgInfo rules of the OpenCL API spec and the SPIR-V encodings, worked by hand.
#include "spirv/kernel_signature.h"

#include <gtest/gtest.h>

#include "spirv/loader.h"
#include "spirv/module.h"
#include "spirv/parser.h"

namespace spvsim::spirv {
namespace {

// kernel void k(global const int* restrict a, read_only image2d_t img, local float* l,
//               struct S s, int n)
//   __attribute__((reqd_work_group_size(8, 4, 1), work_group_size_hint(2, 2, 1),
//                  vec_type_hint(float4), intel_reqd_sub_group_size(16)))
// as llvm-spirv writes it without the source's strings: `const` as NoWrite, `restrict`
// as NoAlias, the struct as a ByVal pointer to a private copy. VecTypeHint 262149 is
// float (5) in the low 16 bits and 4 components in the high 16.
constexpr const char* kModule = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability ImageBasic
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpExecutionMode %k LocalSize 8 4 1
               OpExecutionMode %k LocalSizeHint 2 2 1
               OpExecutionMode %k VecTypeHint 262149
               OpExecutionMode %k SubgroupSize 16
               %STRINGS%
               OpName %a "a"
               OpName %img "img"
               OpName %l "l"
               OpName %s "s"
               OpName %S "struct.S"
               OpDecorate %a FuncParamAttr NoWrite
               OpDecorate %a FuncParamAttr NoAlias
               OpDecorate %s FuncParamAttr ByVal
       %void = OpTypeVoid
        %int = OpTypeInt 32 0
      %float = OpTypeFloat 32
          %S = OpTypeStruct %int %float
      %image = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
       %gptr = OpTypePointer CrossWorkgroup %int
       %lptr = OpTypePointer Workgroup %float
       %sptr = OpTypePointer Function %S
         %fn = OpTypeFunction %void %gptr %image %lptr %sptr %int
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %gptr
        %img = OpFunctionParameter %image
          %l = OpFunctionParameter %lptr
          %s = OpFunctionParameter %sptr
          %n = OpFunctionParameter %int
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

// spvsim refuses images at load time (ImageBasic); the signature is the parser's.
KernelSignature signatureOf(const std::string& strings) {
  std::string text = kModule;
  text.replace(text.find("%STRINGS%"), 9, strings);
  const Module m = parseModule(assemble(text));
  return m.entryPoints.at(0).signature;
}

TEST(KernelSignature, FromSpirvTypesAndDecorations) {
  const KernelSignature sig = signatureOf("");
  EXPECT_EQ(sig.name, "k");
  ASSERT_EQ(sig.params.size(), 5u);

  const ParamSignature& a = sig.params[0];  // global const int* restrict a
  EXPECT_EQ(a.kind, ParamKind::GlobalPointer);
  EXPECT_EQ(a.addressSpace, AddressSpace::Global);
  EXPECT_EQ(a.typeName, "int*");
  EXPECT_EQ(a.qualifiers, kQualConst | kQualRestrict);
  EXPECT_EQ(a.access, AccessQualifier::None);
  EXPECT_TRUE(a.readOnly);
  EXPECT_EQ(a.pointeeSize, 4u);
  EXPECT_FALSE(a.pointeeFloating);
  EXPECT_EQ(a.declaration(), "global int* a");

  const ParamSignature& img = sig.params[1];  // read_only image2d_t img
  EXPECT_EQ(img.kind, ParamKind::Image);
  EXPECT_EQ(img.typeName, "image2d_t");
  EXPECT_EQ(img.access, AccessQualifier::ReadOnly);
  EXPECT_EQ(img.addressSpace, AddressSpace::Global);  // images are global memory objects
  EXPECT_EQ(img.qualifiers, 0u);
  EXPECT_TRUE(img.isOpaque());

  const ParamSignature& l = sig.params[2];  // local float* l
  EXPECT_EQ(l.kind, ParamKind::LocalPointer);
  EXPECT_EQ(l.addressSpace, AddressSpace::Local);
  EXPECT_EQ(l.typeName, "float*");
  EXPECT_EQ(l.qualifiers, 0u);

  const ParamSignature& s = sig.params[3];  // struct S s: {int, float} is 8 bytes
  EXPECT_EQ(s.kind, ParamKind::ByValStruct);
  EXPECT_EQ(s.typeName, "struct S");
  EXPECT_EQ(s.addressSpace, AddressSpace::Private);
  EXPECT_EQ(s.size, 8u);

  const ParamSignature& n = sig.params[4];  // int n, unnamed in the module
  EXPECT_EQ(n.kind, ParamKind::Value);
  EXPECT_EQ(n.name, "arg4");
  EXPECT_FALSE(n.named);
  EXPECT_EQ(n.size, 4u);
  EXPECT_FALSE(n.isFloating);
  EXPECT_EQ(n.typeName, "int");
  EXPECT_EQ(n.label(), "argument 4 (arg4)");
}

TEST(KernelSignature, LaunchAttributes) {
  const KernelSignature sig = signatureOf("");
  EXPECT_EQ(sig.requiredWorkGroupSize, (std::array<uint32_t, 3>{8, 4, 1}));
  EXPECT_EQ(sig.workGroupSizeHint, (std::array<uint32_t, 3>{2, 2, 1}));
  EXPECT_EQ(sig.vecTypeHint, "float4");
  EXPECT_EQ(sig.requiredSubGroupSize, 16u);
}

// Programs built from source carry clang's kernel_arg_type / kernel_arg_type_qual
// metadata as strings (llvm-spirv --preserve-ocl-kernel-arg-type-metadata-through-string);
// they win over what the SPIR-V types say (which has no signedness: uint reads as int).
TEST(KernelSignature, SourceStringsWin) {
  const KernelSignature sig = signatureOf(
      R"(%s1 = OpString "kernel_arg_type.k.uint*,image2d_t,float*,struct S,uint,"
         %s2 = OpString "kernel_arg_type_qual.k.restrict,,volatile,,,")");
  EXPECT_EQ(sig.params[0].typeName, "uint*");
  EXPECT_EQ(sig.params[0].qualifiers, kQualRestrict);  // not const: the source says so
  EXPECT_EQ(sig.params[2].qualifiers, kQualVolatile);
  EXPECT_EQ(sig.params[4].typeName, "uint");
  EXPECT_EQ(sig.params[4].qualifiers, 0u);
}

// "CL_KERNEL_ARG_TYPE_CONST is returned ... if the argument is declared with the
// constant address space qualifier", whatever the decorations or strings say.
TEST(KernelSignature, ConstantPointersAreConst) {
  const Module m = loadModule(assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %c "c"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
     %float4 = OpTypeVector %float 4
       %cptr = OpTypePointer UniformConstant %float4
         %fn = OpTypeFunction %void %cptr %float4
          %k = OpFunction %void None %fn
          %c = OpFunctionParameter %cptr
          %v = OpFunctionParameter %float4
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  const KernelSignature& sig = m.entryPoints.at(0).signature;
  EXPECT_EQ(sig.params[0].kind, ParamKind::ConstantPointer);
  EXPECT_EQ(sig.params[0].qualifiers, kQualConst);
  EXPECT_TRUE(sig.params[0].readOnly);
  EXPECT_EQ(sig.params[0].typeName, "float4*");
  EXPECT_EQ(sig.params[0].pointeeSize, 16u);
  EXPECT_TRUE(sig.params[0].pointeeFloating);
  EXPECT_EQ(sig.params[1].size, 16u);
  EXPECT_TRUE(sig.params[1].isFloating);
  EXPECT_FALSE(sig.requiredWorkGroupSize);
}

TEST(KernelSignature, Names) {
  EXPECT_EQ(qualifierNames(kQualConst | kQualVolatile), "const volatile");
  EXPECT_EQ(qualifierNames(0), "");
  EXPECT_EQ(vecTypeHintName(2), "int");  // i32, 1 component
  EXPECT_EQ(vecTypeHintName(6 | (8u << 16)), "double8");
}

}  // namespace
}  // namespace spvsim::spirv
