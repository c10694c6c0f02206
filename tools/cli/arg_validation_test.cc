// The command line's arguments (--arg specs) through the one argument check
// (src/exec/arg_check.h) against kernel signatures.
#include <gtest/gtest.h>

#include "spirv/error.h"
#include "spirv/loader.h"
#include "src/exec/arg_check.h"
#include "tools/cli/arg_spec.h"
#include "tools/cli/arg_value.h"

namespace spvsim::tools {
namespace {

using Kind = spirv::ParamKind;

// A kernel k(global int* a, local float* l, int4 v, constant float* c, char s) with
// `c` NoWrite; `s` has no OpName.
constexpr const char* kKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpExecutionMode %k LocalSize 8 1 1
               OpName %a "a"
               OpName %l "l"
               OpName %v "v"
               OpName %c "c"
               OpDecorate %c FuncParamAttr NoWrite
       %void = OpTypeVoid
        %int = OpTypeInt 32 0
       %char = OpTypeInt 8 0
      %float = OpTypeFloat 32
       %int4 = OpTypeVector %int 4
       %gptr = OpTypePointer CrossWorkgroup %int
       %lptr = OpTypePointer Workgroup %float
       %cptr = OpTypePointer UniformConstant %float
         %fn = OpTypeFunction %void %gptr %lptr %int4 %cptr %char
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %gptr
          %l = OpFunctionParameter %lptr
          %v = OpFunctionParameter %int4
          %c = OpFunctionParameter %cptr
          %s = OpFunctionParameter %char
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

spirv::KernelSignature kernelSignature() {
  const spirv::Module m = spirv::loadModule(spirv::assemble(kKernel));
  return m.entryPoints.at(0).signature;
}

void validate(const spirv::KernelSignature& sig, std::vector<ArgValue> args) {
  validateArguments(sig, bindings(args));
}

std::vector<ArgValue> specs(std::initializer_list<const char*> texts) {
  std::vector<ArgValue> out;
  for (const char* t : texts) out.push_back(parseArgSpec(t));
  return out;
}

std::string errorOf(std::initializer_list<const char*> texts) {
  try {
    validate(kernelSignature(), specs(texts));
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidArgument);
    return e.what();
  }
  return "no error";
}

// The typed kind of the error the arguments give.
std::optional<ArgErrorKind> kindOf(std::initializer_list<const char*> texts) {
  try {
    validate(kernelSignature(), specs(texts));
  } catch (const ArgumentError& e) {
    return e.argKind();
  }
  return std::nullopt;
}

TEST(DescribeParams, FromModule) {
  const auto p = kernelSignature().params;
  ASSERT_EQ(p.size(), 5u);
  EXPECT_EQ(p[0].name, "a");
  EXPECT_EQ(p[0].kind, Kind::GlobalPointer);
  EXPECT_EQ(p[0].typeName, "int*");
  EXPECT_FALSE(p[0].readOnly);
  EXPECT_EQ(p[1].kind, Kind::LocalPointer);
  EXPECT_EQ(p[1].typeName, "float*");
  EXPECT_EQ(p[2].kind, Kind::Value);
  EXPECT_EQ(p[2].typeName, "int4");
  EXPECT_EQ(p[2].size, 16u);
  EXPECT_EQ(p[3].kind, Kind::ConstantPointer);
  EXPECT_TRUE(p[3].readOnly);
  EXPECT_EQ(p[4].name, "arg4");
  EXPECT_EQ(p[4].size, 1u);
  EXPECT_EQ(p[4].index, 4u);
  EXPECT_EQ(p[0].label(), "argument 0 (a)");
  EXPECT_EQ(p[1].declaration(), "local float* l");
  EXPECT_EQ(p[2].declaration(), "int4 v");
}

TEST(ValidateArgs, Accepts) {
  EXPECT_EQ(errorOf({"buffer:int[4]=zero", "local:64", "int4:1,2,3,4", "buffer:float[2]=fill(1)",
                     "char:3"}),
            "no error");
  EXPECT_EQ(errorOf({"null", "local:4", "uint4:0", "null", "uchar:200"}), "no error");
}

TEST(ValidateArgs, Count) {
  EXPECT_EQ(errorOf({"buffer:int[4]=zero"}),
            "kernel 'k' takes 5 arguments (global int* a, local float* l, int4 v, constant "
            "float* c, char arg4) but 1 was given");
}

TEST(ValidateArgs, KindMismatches) {
  EXPECT_EQ(errorOf({"int:1", "local:64", "int4:0", "null", "char:0"}),
            "argument 0 (a) is 'global int* a': give buffer:TYPE[N]=INIT or null, not 'int:1'");
  EXPECT_EQ(errorOf({"local:8", "local:64", "int4:0", "null", "char:0"}),
            "argument 0 (a) is 'global int* a': local:BYTES only fits local pointers");
  EXPECT_EQ(errorOf({"null", "buffer:float[4]", "int4:0", "null", "char:0"}),
            "argument 1 (l) is 'local float* l': give local:BYTES, not 'buffer:float[4]'");
  EXPECT_EQ(errorOf({"null", "null", "int4:0", "null", "char:0"}),
            "argument 1 (l) is 'local float* l': give local:BYTES, not 'null'");
  EXPECT_EQ(errorOf({"null", "local:4", "buffer:int[4]", "null", "char:0"}),
            "argument 2 (v) is 'int4 v', not a pointer: give a value such as int4:1, not "
            "'buffer:int[4]'");
  EXPECT_EQ(errorOf({"null", "local:4", "int4:0", "local:4", "char:0"}),
            "argument 3 (c) is 'constant float* c': local:BYTES only fits local pointers");
}

TEST(ValidateArgs, NoArgs) {
  try {
    validateArguments(kernelSignature(), {});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "kernel 'k' takes 5 arguments (global int* a, local float* l, int4 v, constant "
                 "float* c, char arg4) but none was given");
  }
}

TEST(ValidateArgs, FloatForInteger) {
  EXPECT_EQ(errorOf({"null", "local:4", "float4:0", "null", "char:0"}),
            "argument 2 (v) is 'int4 v' but 'float4:0' gives float4 (integer and floating-point "
            "bits differ)");
}

// Each mismatch has its kind, which the OpenCL runtime maps to an error code
// (runtime/arg_errors.h).
TEST(ValidateArgs, ErrorKinds) {
  EXPECT_EQ(kindOf({"null"}), ArgErrorKind::Count);
  EXPECT_EQ(kindOf({"int:1", "local:64", "int4:0", "null", "char:0"}), ArgErrorKind::Kind);
  EXPECT_EQ(kindOf({"null", "buffer:float[4]", "int4:0", "null", "char:0"}), ArgErrorKind::Kind);
  EXPECT_EQ(kindOf({"null", "local:4", "int:0", "null", "char:0"}), ArgErrorKind::Size);
  EXPECT_EQ(kindOf({"null", "local:4", "float4:0", "null", "char:0"}), ArgErrorKind::Type);
  EXPECT_EQ(kindOf({"null", "local:4", "int4:0", "null", "char:0"}), std::nullopt);
}

TEST(ValidateArgs, ValueSize) {
  EXPECT_EQ(errorOf({"null", "local:4", "int:0", "null", "char:0"}),
            "argument 2 (v) is 'int4 v' (16 bytes) but 'int:0' gives 4 bytes");
  EXPECT_EQ(errorOf({"null", "local:4", "int4:0", "null", "int:0"}),
            "argument 4 (arg4) is 'char arg4' (1 byte) but 'int:0' gives 4 bytes");
}

// kKernel's `a` is a global int* (4-byte integers), `c` a constant float*.
TEST(ArgumentWarnings, BufferElementsOtherThanThePointee) {
  const spirv::KernelSignature sig = kernelSignature();
  auto warnings = [&](const char* a, const char* c) {
    std::vector<ArgValue> args;
    for (const char* spec : {a, "local:4", "int4:0", c, "char:0"})
      args.push_back(parseArgSpec(spec));
    return argumentWarnings(sig, bindings(args));
  };
  EXPECT_EQ(warnings("buffer:int[4]", "buffer:float[2]"), "");
  EXPECT_EQ(warnings("buffer:uint[4]", "null"), "");  // signedness is the kernel's business
  EXPECT_EQ(warnings("buffer:float[4]", "buffer:float[2]"),
            "warning: argument-mismatch: argument 0 (a) is 'global int* a' but 'buffer:float[4]' "
            "holds float elements (4-byte floating-point components); the kernel reads the bytes "
            "as its own type\n");
  EXPECT_NE(warnings("buffer:int[4]", "buffer:double[2]").find("argument 3 (c)"),
            std::string::npos);
  EXPECT_NE(warnings("buffer:short[4]", "buffer:float[2]").find("2-byte integer"),
            std::string::npos);
}

// k(global float4* f4, global int3* i3, global half* h, global char* c): vector pointees.
constexpr const char* kVectorKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpCapability Float16Buffer
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %f4 "f4"
               OpName %i3 "i3"
               OpName %h "h"
               OpName %c "c"
       %void = OpTypeVoid
        %int = OpTypeInt 32 0
       %char = OpTypeInt 8 0
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
     %float4 = OpTypeVector %float 4
       %int3 = OpTypeVector %int 3
      %f4ptr = OpTypePointer CrossWorkgroup %float4
      %i3ptr = OpTypePointer CrossWorkgroup %int3
       %hptr = OpTypePointer CrossWorkgroup %half
       %cptr = OpTypePointer CrossWorkgroup %char
         %fn = OpTypeFunction %void %f4ptr %i3ptr %hptr %cptr
          %k = OpFunction %void None %fn
         %f4 = OpFunctionParameter %f4ptr
         %i3 = OpFunctionParameter %i3ptr
          %h = OpFunctionParameter %hptr
          %c = OpFunctionParameter %cptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

// Buffers are untyped: a buffer whose components are the pointee's components (same size,
// both integer or both floating-point) is what the kernel reads, whatever the vector
// widths; other components, or a size that leaves the kernel's last element partial, warn.
TEST(ArgumentWarnings, VectorPointeesTakeBuffersOfTheirComponents) {
  const spirv::Module m = spirv::loadModule(spirv::assemble(kVectorKernel));
  const spirv::KernelSignature& sig = m.entryPoints.at(0).signature;
  ASSERT_EQ(sig.params.size(), 4u);
  EXPECT_EQ(sig.params[0].pointeeComponentSize, 4u);
  EXPECT_EQ(sig.params[1].pointeeSize, 16u);  // int3 takes four ints
  auto warnings = [&](const char* f4, const char* i3 = "buffer:int[8]",
                      const char* h = "buffer:half[2]", const char* c = "buffer:int[2]") {
    std::vector<ArgValue> args;
    for (const char* spec : {f4, i3, h, c}) args.push_back(parseArgSpec(spec));
    return argumentWarnings(sig, bindings(args));
  };
  // The same components, whole elements: no warning.
  EXPECT_EQ(warnings("buffer:float[8]"), "");
  EXPECT_EQ(warnings("buffer:float2[6]"), "");
  EXPECT_EQ(warnings("buffer:float4[3]", "buffer:uint4[2]"), "");
  EXPECT_EQ(warnings("buffer:float16[1]", "buffer:int3[1]", "buffer:half4[1]"), "");
  // Other components.
  EXPECT_EQ(warnings("buffer:int[8]"),
            "warning: argument-mismatch: argument 0 (f4) is 'global float4* f4' but "
            "'buffer:int[8]' holds int elements (4-byte integer components); the kernel reads the "
            "bytes as its own type\n");
  EXPECT_NE(warnings("buffer:double2[2]").find("holds double2 elements (8-byte floating-point"),
            std::string::npos);
  EXPECT_NE(warnings("buffer:half[8]").find("(2-byte floating-point"), std::string::npos);
  EXPECT_NE(warnings("buffer:float[8]", "buffer:char16[1]").find("argument 1 (i3)"),
            std::string::npos);
  EXPECT_NE(warnings("buffer:float[8]", "buffer:float4[1]").find("argument 1 (i3)"),
            std::string::npos);
  EXPECT_NE(warnings("buffer:float[8]", "buffer:int[4]", "buffer:short[2]").find("argument 2 (h)"),
            std::string::npos);
  // The same components, but the kernel's last element partial.
  EXPECT_EQ(warnings("buffer:float[6]"),
            "warning: argument-mismatch: argument 0 (f4) is 'global float4* f4' but "
            "'buffer:float[6]' holds 24 bytes, not a whole number of its 16-byte elements\n");
  EXPECT_NE(warnings("buffer:float[8]", "buffer:int[3]").find("argument 1 (i3)"),
            std::string::npos);  // vec3 elements packed as 3 components: int3 takes 16 bytes
  // char pointers take anything.
  EXPECT_EQ(warnings("buffer:float[8]", "buffer:int[8]", "buffer:half[1]", "buffer:double[3]"), "");
}

// k(struct {int; float} s) passed by value: ByVal pointer to a private copy.
constexpr const char* kStructKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %s "s"
               OpDecorate %s FuncParamAttr ByVal
       %void = OpTypeVoid
        %int = OpTypeInt 32 0
      %float = OpTypeFloat 32
          %S = OpTypeStruct %int %float
       %sptr = OpTypePointer Function %S
         %fn = OpTypeFunction %void %sptr
          %k = OpFunction %void None %fn
          %s = OpFunctionParameter %sptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(ValidateArgs, StructsByValue) {
  const spirv::Module m = spirv::loadModule(spirv::assemble(kStructKernel));
  const spirv::KernelSignature& sig = m.entryPoints.at(0).signature;
  ASSERT_EQ(sig.params.size(), 1u);
  EXPECT_EQ(sig.params[0].kind, Kind::ByValStruct);
  EXPECT_EQ(sig.params[0].size, 8u);
  EXPECT_NO_THROW(validate(sig, {parseArgSpec("struct:int,float=1,2.5")}));
  auto error = [&](const char* spec) {
    try {
      validate(sig, {parseArgSpec(spec)});
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(
      error("struct:int=1").find("(8 bytes) but 'struct:int=1' gives 4 bytes as struct {int}"),
      std::string::npos)
      << error("struct:int=1");
  EXPECT_NE(
      error("int:1").find("a struct passed by value: give struct:TYPE,...=V,..., not 'int:1'"),
      std::string::npos)
      << error("int:1");
}

// Image and sampler parameters: the image's type must be the parameter's (depth types
// take CL_DEPTH images only), its access must allow the qualifier's.
spirv::ParamSignature opaqueParam(Kind kind, std::string type, spirv::AccessQualifier access) {
  spirv::ParamSignature p;
  p.index = 0;
  p.name = "img";
  p.typeName = std::move(type);
  p.kind = kind;
  p.access = access;
  p.addressSpace = spirv::AddressSpace::Global;
  p.size = 8;
  return p;
}

std::string imageError(const spirv::ParamSignature& p, ArgBinding b) {
  auto e = checkArgument(p, b);
  return e ? e->what() : "no error";
}

TEST(ArgValidation, ImagesAndSamplers) {
  using AQ = spirv::AccessQualifier;
  std::vector<ArgValue> args = {parseArgSpec("image2d:RGBA,UNORM_INT8[2,2]"),
                                parseArgSpec("image3d:R,FLOAT[2,2,2]"),
                                parseArgSpec("sampler:NORMALIZED,CLAMP,LINEAR")};
  const std::vector<ArgBinding> b = bindings(args);
  const auto wo2d = opaqueParam(Kind::Image, "image2d_t", AQ::WriteOnly);
  EXPECT_EQ(imageError(wo2d, b[0]), "no error");
  EXPECT_EQ(b[0].image.data, args[0].bytes.data());
  EXPECT_EQ(imageError(wo2d, b[1]),
            "argument 0 (img) is 'global image2d_t img' but "
            "'image3d:R,FLOAT[2,2,2]' is an image3d_t");
  EXPECT_NE(imageError(wo2d, b[2]).find("give an image (image2d:ORDER,TYPE[...])"),
            std::string::npos);
  EXPECT_NE(imageError(opaqueParam(Kind::Image, "image2d_depth_t", AQ::ReadOnly), b[0])
                .find("is an image2d_t"),
            std::string::npos);
  // The ICD's CL_MEM_READ_ONLY image for a write_only parameter, and the reverse.
  ArgBinding readOnly = b[0];
  readOnly.writable = false;
  EXPECT_NE(imageError(wo2d, readOnly).find("was created read-only (CL_MEM_READ_ONLY)"),
            std::string::npos);
  EXPECT_EQ(imageError(opaqueParam(Kind::Image, "image2d_t", AQ::ReadOnly), readOnly), "no error");
  ArgBinding writeOnly = b[0];
  writeOnly.readable = false;
  EXPECT_NE(imageError(opaqueParam(Kind::Image, "image2d_t", AQ::ReadWrite), writeOnly)
                .find("was created write-only (CL_MEM_WRITE_ONLY)"),
            std::string::npos);
  const auto sampler = opaqueParam(Kind::Sampler, "sampler_t", AQ::None);
  EXPECT_EQ(imageError(sampler, b[2]), "no error");
  EXPECT_EQ(b[2].sampler.filter, 0x1141u);
  EXPECT_NE(imageError(sampler, b[0]).find("give sampler:"), std::string::npos);
}

}  // namespace
}  // namespace spvsim::tools
