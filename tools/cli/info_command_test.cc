#include "tools/cli/info_command.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::tools {
namespace {

// Two kernels: k(global int* a, local float* l, int4 v, constant float* c) with
// LocalSize 8 1 1 and SubgroupSize 16, and one(global float* out) with no modes.
constexpr const char* kModule = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability SubgroupDispatch
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpEntryPoint Kernel %one "one"
               OpExecutionMode %k LocalSize 8 1 1
               OpExecutionMode %k SubgroupSize 16
               OpName %a "a"
               OpName %l "l"
               OpName %v "v"
               OpName %c "c"
               OpName %out "out"
               OpDecorate %c FuncParamAttr NoWrite
       %void = OpTypeVoid
        %int = OpTypeInt 32 0
      %float = OpTypeFloat 32
       %int4 = OpTypeVector %int 4
       %gptr = OpTypePointer CrossWorkgroup %int
      %gfptr = OpTypePointer CrossWorkgroup %float
       %lptr = OpTypePointer Workgroup %float
       %cptr = OpTypePointer UniformConstant %float
         %fn = OpTypeFunction %void %gptr %lptr %int4 %cptr
        %fn1 = OpTypeFunction %void %gfptr
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %gptr
          %l = OpFunctionParameter %lptr
          %v = OpFunctionParameter %int4
          %c = OpFunctionParameter %cptr
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
        %one = OpFunction %void None %fn1
        %out = OpFunctionParameter %gfptr
     %entry1 = OpLabel
               OpReturn
               OpFunctionEnd
)";

spirv::Module module() { return spirv::loadModule(spirv::assemble(kModule)); }

TEST(ModuleInfo, OneKernel) {
  const spirv::Module m = module();
  const std::string text = formatModuleInfo(m, "k");
  const std::string header = fmt::format("SPIR-V {}.{}, generator 0x{:08x}\n", m.majorVersion(),
                                         m.minorVersion(), m.generator);
  EXPECT_EQ(text, header +
                      "capabilities: Addresses Kernel SubgroupDispatch\n"
                      "extensions: (none)\n"
                      "\n"
                      "kernel k\n"
                      "  execution modes: LocalSize 8 1 1, SubgroupSize 16\n"
                      "  arg name  type    space    access     qualifiers  argument\n"
                      "  0   a     int*    global   none       -           buffer\n"
                      "  1   l     float*  local    none       -           local memory\n"
                      "  2   v     int4    private  none       -           value, 16 bytes\n"
                      // constant pointers are const (clGetKernelArgInfo's rule)
                      "  3   c     float*  constant none       const       buffer\n");
}

TEST(ModuleInfo, AllKernels) {
  const std::string text = formatModuleInfo(module(), "");
  EXPECT_NE(text.find("kernel k\n"), std::string::npos);
  EXPECT_NE(text.find("\nkernel one\n  execution modes: (none)\n"
                      "  arg name  type    space    access     qualifiers  argument\n"
                      "  0   out   float*  global   none       -           buffer\n"),
            std::string::npos);
}

TEST(ModuleInfo, UnknownKernel) {
  try {
    formatModuleInfo(module(), "nope");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Usage);
    EXPECT_STREQ(e.what(), "no kernel 'nope' in the module (kernels: k, one)");
  }
}

TEST(KernelList, Names) { EXPECT_EQ(kernelList(module()), "k, one"); }

}  // namespace
}  // namespace spvsim::tools
