// Programs through the ICD loader: creation from source, IL and binary, building,
// program and build queries, specialization constants, and their error codes.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)
#include <cstring>
#include <sstream>

#include "spirv/loader.h"

namespace spvsim::rt::test {
namespace {

constexpr const char* kSquare = R"(
kernel void square(global int* a) { size_t i = get_global_id(0); a[i] = a[i] * a[i]; }
kernel void twice(global int* a) { size_t i = get_global_id(0); a[i] = 2 * a[i]; }
)";

std::vector<uint32_t> spirvOf(const std::string& source, const std::string& options) {
  return compileSource(source, options).words;
}

std::vector<uint32_t> specConstantModule() {
  return spirv::assemble(readFile(runfile("runtime/tests/programs/spec_constants.spvasm")));
}

using ProgramCreation = ProgramTest;

TEST_F(ProgramCreation, SourceIsTheConcatenationOfTheStrings) {
  const char* strings[] = {"kernel void k", "(global int* a) {XX", " a[0] = 1; }"};
  const size_t lengths[] = {0, 17, 0};  // 0: NUL-terminated; 17 drops "XX"
  cl_int err = CL_INVALID_VALUE;
  cl_program p = own(clCreateProgramWithSource(context, 3, strings, lengths, &err));
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(programString(p, CL_PROGRAM_SOURCE), "kernel void k(global int* a) { a[0] = 1; }");
  EXPECT_EQ(programInfo<cl_context>(p, CL_PROGRAM_CONTEXT), context);
  EXPECT_EQ(programInfo<cl_uint>(p, CL_PROGRAM_NUM_DEVICES), 1u);
  EXPECT_EQ(programInfo<cl_device_id>(p, CL_PROGRAM_DEVICES), device);
  EXPECT_EQ(programInfo<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT), 1u);
  size_t ilSize = 7;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, 0, nullptr, &ilSize), CL_SUCCESS);
  EXPECT_EQ(ilSize, 0u);  // not an IL program
}

TEST_F(ProgramCreation, SourceErrors) {
  const char* s = "kernel void k() {}";
  const char* nullString = nullptr;
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithSource(context, 0, &s, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithSource(context, 1, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithSource(context, 1, &nullString, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  // A live object of another kind (the loader dispatches through it to the ICD).
  EXPECT_EQ(clCreateProgramWithSource(reinterpret_cast<cl_context>(queue), 1, &s, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(icd()->clCreateProgramWithSource(bogus<cl_context>(), 1, &s, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(ProgramCreation, ILKeepsTheModuleAndBuilds) {
  const std::vector<uint32_t> words = spirvOf(kSquare, "");
  cl_program p = il(words);
  std::vector<uint8_t> back(words.size() * 4);
  size_t size = 0;
  ASSERT_EQ(clGetProgramInfo(p, CL_PROGRAM_IL, back.size(), back.data(), &size), CL_SUCCESS);
  EXPECT_EQ(size, words.size() * 4);
  EXPECT_EQ(std::memcmp(back.data(), words.data(), size), 0);
  EXPECT_EQ(programString(p, CL_PROGRAM_SOURCE), "");
  ASSERT_EQ(clBuildProgram(p, 1, &device, "", nullptr, nullptr), CL_SUCCESS) << buildLog(p);
  EXPECT_EQ(programString(p, CL_PROGRAM_KERNEL_NAMES), "square;twice");
  cl_kernel k = kernel(p, "square");
  cl_mem a = bufferOf(std::vector<int>{1, 2, 3, 4});
  setArg(k, 0, a);
  run(k, 4);
  EXPECT_EQ(read<int>(a, 4), (std::vector<int>{1, 4, 9, 16}));
}

TEST_F(ProgramCreation, BigEndianILIsAccepted) {
  std::vector<uint32_t> words = spirvOf(kSquare, "");
  for (uint32_t& w : words) w = __builtin_bswap32(w);
  cl_program p = il(words);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS) << buildLog(p);
}

TEST_F(ProgramCreation, ILErrors) {
  const std::vector<uint32_t> words = spirvOf(kSquare, "");
  const uint32_t garbage[8] = {0x07230203, 0x00010000, 0, 5, 0, 0xdeadbeef, 1, 2};
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context, nullptr, 20, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context, words.data(), 0, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context, words.data(), words.size() * 4 - 2, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context, garbage, sizeof garbage, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithIL(context, "not spir-v at all....", 20, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(icd()->clCreateProgramWithIL(bogus<cl_context>(), words.data(), words.size() * 4, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(ProgramCreation, ILOfAnUnsupportedCapabilityFailsToBuildNamingIt) {
  const std::vector<uint32_t> words = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Pipes
               OpCapability PipeStorage
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)");
  cl_program p = il(words);  // well-formed SPIR-V: accepted
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(p).find("capability PipeStorage is not supported"), std::string::npos)
      << buildLog(p);
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
}

// The device reports 64 address bits: a 32-bit module is not for it (the CTS gives a
// 64-bit device its .spvasm64 files); the command line runs such modules.
TEST_F(ProgramCreation, ILOfThePhysical32AddressingModelFailsToBuildNamingIt) {
  const std::vector<uint32_t> words = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical32 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)");
  cl_program p = il(words);  // well-formed SPIR-V: accepted
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(p).find("Physical32"), std::string::npos) << buildLog(p);
  EXPECT_NE(buildLog(p).find("CL_DEVICE_ADDRESS_BITS is 64"), std::string::npos) << buildLog(p);
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
}

// OpenCL forbids recursion (OpenCL C 6.11; the OpenCL SPIR-V environment's validation
// rules: no cycle in an entry point's static call graph): such a module fails to build.
TEST_F(ProgramCreation, ILWithRecursionFailsToBuildNamingTheCycle) {
  const std::vector<uint32_t> words = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %sum "sum"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
      %kfunc = OpTypeFunction %void %ptr_uint
      %ffunc = OpTypeFunction %uint %uint
        %sum = OpFunction %uint None %ffunc
          %n = OpFunctionParameter %uint
      %entry = OpLabel
       %zero = OpIEqual %bool %n %uint_0
               OpBranchConditional %zero %base %step
       %base = OpLabel
               OpReturnValue %uint_0
       %step = OpLabel
         %n1 = OpISub %uint %n %uint_1
          %r = OpFunctionCall %uint %sum %n1
          %s = OpIAdd %uint %n %r
               OpReturnValue %s
               OpFunctionEnd
          %k = OpFunction %void None %kfunc
          %a = OpFunctionParameter %ptr_uint
         %ke = OpLabel
         %a0 = OpLoad %uint %a Aligned 4
          %v = OpFunctionCall %uint %sum %a0
               OpStore %a %v Aligned 4
               OpReturn
               OpFunctionEnd
)");
  cl_program p = il(words);  // well-formed SPIR-V: accepted
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(p).find("error: invalid-module: recursion is not allowed (OpenCL C 6.11"),
            std::string::npos)
      << buildLog(p);
  EXPECT_NE(buildLog(p).find(": %sum -> %sum (kernel k)"), std::string::npos) << buildLog(p);
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(p, "k", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
}

// A single module is loaded as it is, without SPIRV-Tools' linker, which would merge the
// two identical struct types and leave OpCopyLogical copying a type to itself (invalid).
// The CPacked pair checks the copy between layouts: %P's uint is at byte 1, %Q's at 4.
TEST_F(ProgramCreation, ILWithOpCopyLogicalBetweenIdenticalStructs) {
  std::vector<uint32_t> words = spirv::assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "copy_logical"
               OpDecorate %P CPacked
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
      %ulong = OpTypeInt 64 0
         %S1 = OpTypeStruct %uint %uint
         %S2 = OpTypeStruct %uint %uint
          %P = OpTypeStruct %uchar %uint
          %Q = OpTypeStruct %uchar %uint
       %gptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %gptr
     %uint_7 = OpConstant %uint 7
     %uint_9 = OpConstant %uint 9
   %uint_300 = OpConstant %uint 300
    %uchar_3 = OpConstant %uchar 3
    %ulong_1 = OpConstant %ulong 1
    %ulong_2 = OpConstant %ulong 2
    %ulong_3 = OpConstant %ulong 3
         %s1 = OpConstantComposite %S1 %uint_7 %uint_9
          %p = OpConstantComposite %P %uchar_3 %uint_300
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %gptr
          %l = OpLabel
         %s2 = OpCopyLogical %S2 %s1
          %q = OpCopyLogical %Q %p
         %a0 = OpCompositeExtract %uint %s2 0
         %a1 = OpCompositeExtract %uint %s2 1
         %q0 = OpCompositeExtract %uchar %q 0
         %q1 = OpCompositeExtract %uint %q 1
        %q0w = OpUConvert %uint %q0
               OpStore %out %a0 Aligned 4
         %o1 = OpInBoundsPtrAccessChain %gptr %out %ulong_1
               OpStore %o1 %a1 Aligned 4
         %o2 = OpInBoundsPtrAccessChain %gptr %out %ulong_2
               OpStore %o2 %q0w Aligned 4
         %o3 = OpInBoundsPtrAccessChain %gptr %out %ulong_3
               OpStore %o3 %q1 Aligned 4
               OpReturn
               OpFunctionEnd
)");
  words[1] = 0x00010400;  // OpCopyLogical is SPIR-V 1.4
  cl_program p = il(words);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS) << buildLog(p);
  cl_kernel k = kernel(p, "copy_logical");
  cl_mem out = bufferOf(std::vector<cl_uint>(4, 0));
  setArg(k, 0, out);
  run(k, 1);
  EXPECT_EQ(read<cl_uint>(out, 4), (std::vector<cl_uint>{7, 9, 3, 300}));
}

TEST_F(ProgramCreation, ILThroughTheKhrExtensionFunction) {
  auto create = reinterpret_cast<clCreateProgramWithILKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR"));
  ASSERT_NE(create, nullptr);
  const std::vector<uint32_t> words = spirvOf(kSquare, "");
  cl_int err = CL_INVALID_VALUE;
  cl_program p = own(create(context, words.data(), words.size() * 4, &err));
  EXPECT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetExtensionFunctionAddressForPlatform(platform, "clNoSuchFunctionKHR"), nullptr);
  EXPECT_NE(clGetExtensionFunctionAddressForPlatform(platform, "clGetKernelSubGroupInfoKHR"),
            nullptr);
  EXPECT_EQ(icd()->clGetExtensionFunctionAddressForPlatform(bogus<cl_platform_id>(),
                                                            "clCreateProgramWithILKHR"),
            nullptr);
}

TEST_F(ProgramCreation, ExecutableBinaryRoundTrip) {
  cl_program p = built(kSquare);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(p, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  const std::vector<unsigned char> bytes = binaryOf(p);
  ASSERT_GT(bytes.size(), 20u);
  uint32_t magic = 0;
  std::memcpy(&magic, bytes.data(), 4);
  EXPECT_EQ(magic, 0x07230203u);  // the binary format is SPIR-V
  cl_program b = fromBinary(bytes);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(b, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(buildInfo<cl_build_status>(b, CL_PROGRAM_BUILD_STATUS), CL_BUILD_NONE);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(b, "twice", &err), nullptr);  // not built yet
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
  ASSERT_EQ(clBuildProgram(b, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = kernel(b, "twice");
  cl_mem a = bufferOf(std::vector<int>{5, 6});
  setArg(k, 0, a);
  run(k, 2);
  EXPECT_EQ(read<int>(a, 2), (std::vector<int>{10, 12}));
}

TEST_F(ProgramCreation, BinaryErrors) {
  const std::vector<unsigned char> good = binaryOf(built(kSquare));
  const unsigned char* ptr = good.data();
  const unsigned char junk[24] = {1, 2, 3};
  const unsigned char* junkPtr = junk;
  const size_t size = good.size(), junkSize = sizeof junk, zero = 0;
  cl_int status = CL_SUCCESS, err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithBinary(context, 0, &device, &size, &ptr, &status, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, nullptr, &size, &ptr, &status, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, nullptr, &ptr, &status, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, &zero, &ptr, &status, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(status, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &device, &junkSize, &junkPtr, &status, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_BINARY);
  EXPECT_EQ(status, CL_INVALID_BINARY);
  cl_device_id notADevice = reinterpret_cast<cl_device_id>(queue);
  EXPECT_EQ(clCreateProgramWithBinary(context, 1, &notADevice, &size, &ptr, &status, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);
}

TEST_F(ProgramCreation, NoBuiltInKernels) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(context, 1, &device, "anything", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clCreateProgramWithBuiltInKernels(context, 0, nullptr, "anything", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(icd()->clCreateProgramWithBuiltInKernels(bogus<cl_context>(), 1, &device, "x", &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

using ProgramBuild = ProgramTest;

TEST_F(ProgramBuild, QueriesBeforeABuild) {
  cl_program p = source(kSquare);
  size_t n = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &n),
            CL_INVALID_PROGRAM_EXECUTABLE);
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_NONE);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(p, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_NONE});
  EXPECT_EQ(buildLog(p), "");
  EXPECT_EQ(programInfo<size_t>(p, CL_PROGRAM_BINARY_SIZES), 0u);
}

TEST_F(ProgramBuild, KernelNamesOptionsAndStatus) {
  cl_program p = built(kSquare, "-cl-std=CL2.0 -DUNUSED=1");
  EXPECT_EQ(programInfo<size_t>(p, CL_PROGRAM_NUM_KERNELS), 2u);
  EXPECT_EQ(programString(p, CL_PROGRAM_KERNEL_NAMES), "square;twice");
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  char options[64] = {};
  EXPECT_EQ(
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_OPTIONS, sizeof options, options, nullptr),
      CL_SUCCESS);
  EXPECT_STREQ(options, "-cl-std=CL2.0 -DUNUSED=1");
  EXPECT_EQ(programInfo<cl_bool>(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT), CL_FALSE);
  EXPECT_EQ(programInfo<cl_bool>(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT), CL_FALSE);
  EXPECT_EQ(buildInfo<size_t>(p, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), 0u);
}

TEST_F(ProgramBuild, OptionsReachTheCompiler) {
  // -D defines; without -cl-std the language is OpenCL C 1.2 (the API spec's default).
  cl_program p = built(R"(
#if __OPENCL_C_VERSION__ != 120
#error expected OpenCL C 1.2
#endif
kernel void k(global int* a) { a[0] = N; }
)",
                       "-D N=42");
  cl_kernel k = kernel(p, "k");
  cl_mem a = bufferOf(std::vector<int>{0});
  setArg(k, 0, a);
  run(k, 1);
  EXPECT_EQ(read<int>(a, 1)[0], 42);
  built("#if __OPENCL_C_VERSION__ != 300\n#error\n#endif\nkernel void k() {}", "-cl-std=CL3.0");
  built("kernel void k(global int* a) { a[0] = 1; }", "-cl-opt-disable -w -Werror");
}

TEST_F(ProgramBuild, EveryCompilerOptionOfTheApiSpecIsAccepted) {
  const char* text = "kernel void k(global float* a) { a[0] = sqrt(a[1]) / 3.0f; }";
  for (const char* options : {"-D X",
                              "-D X=1 -DY=2",
                              "-I .",
                              "-cl-single-precision-constant",
                              "-cl-denorms-are-zero",
                              "-cl-fp32-correctly-rounded-divide-sqrt",
                              "-cl-opt-disable",
                              "-cl-mad-enable",
                              "-cl-no-signed-zeros",
                              "-cl-unsafe-math-optimizations",
                              "-cl-finite-math-only",
                              "-cl-fast-relaxed-math",
                              "-cl-uniform-work-group-size",
                              "-cl-no-subgroup-ifp",
                              "-w",
                              "-Werror",
                              "-cl-std=CL1.1",
                              "-cl-std=CL1.2",
                              "-cl-std=CL2.0",
                              "-cl-std=CL3.0",
                              "-cl-kernel-arg-info",
                              "-g",
                              "-cl-std=CL3.0 -g -cl-opt-disable -cl-fast-relaxed-math"}) {
    cl_program p = source(text);
    EXPECT_EQ(clBuildProgram(p, 0, nullptr, options, nullptr, nullptr), CL_SUCCESS)
        << options << "\n"
        << buildLog(p);
  }
}

// Kernels see exactly the device's OpenCL C: a macro for every extension with one (all but
// the API extensions cl_khr_icd and cl_khr_il_program) and every feature the device
// reports, and none of what it lacks although clang-15 defines it for spir64.
TEST_F(ProgramBuild, PredefinedMacrosAreWhatTheDeviceReports) {
  size_t size = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size), CL_SUCCESS);
  std::string extensions(size, '\0');
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size), CL_SUCCESS);
  std::vector<cl_name_version> features(size / sizeof(cl_name_version));
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr),
            CL_SUCCESS);
  std::vector<std::string> names;
  std::istringstream words(extensions.c_str());
  for (std::string w; words >> w;)
    if (w != "cl_khr_icd" && w != "cl_khr_il_program") names.push_back(w);
  for (const cl_name_version& f : features) names.emplace_back(f.name);
  std::string probe;
  for (const std::string& n : names)
    probe += "#ifndef " + n + "\n#error " + n + " is not predefined\n#endif\n";
  for (const char* absent : {"cl_khr_integer_dot_product"})
    probe += std::string("#ifdef ") + absent + "\n#error " + absent + " is predefined\n#endif\n";
  probe += "kernel void k(global int* a) { a[0] = 1; }\n";
  EXPECT_GT(names.size(), 20u);
  built(probe, "-cl-std=CL3.0");  // fails, with the #error lines in the log, otherwise
  for (const char* std : {"-cl-std=CL1.2", "-cl-std=CL2.0"}) {
    std::string extensionsOnly;
    for (const std::string& n : names)
      // cl_ext_float_atomics extends OpenCL C 2.0's atomics, which 1.2 does not have.
      if (n.rfind("__opencl_c_", 0) != 0 &&
          !(n == "cl_ext_float_atomics" && std::string(std) == "-cl-std=CL1.2"))
        extensionsOnly += "#ifndef " + n + "\n#error " + n + " is not predefined\n#endif\n";
    built(extensionsOnly + "kernel void k(global int* a) { a[0] = 1; }\n", std);
  }
}

TEST_F(ProgramBuild, FailureLeavesALogAndNoExecutable) {
  cl_program p = source("kernel void k(global int* a) { a[0] = undeclared; }");
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(p).find("use of undeclared identifier 'undeclared'"), std::string::npos)
      << buildLog(p);
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(p, "k", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_F(ProgramBuild, AnUndefinedFunctionFailsTheBuild) {
  cl_program p = source("int helper(int);\nkernel void k(global int* a) { a[0] = helper(1); }");
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(p).find("helper"), std::string::npos) << buildLog(p);
}

// Mutual recursion: at -O0 the calls stay and the build fails naming the cycle (as
// clCompileProgram does); at -O2 clang turns them into a loop and the program runs.
TEST_F(ProgramBuild, RecursionFailsTheBuildUnlessOptimisedAway) {
  const char* kMutual = R"(
int is_even(int n);
int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
kernel void k(global int* a) { a[get_global_id(0)] = is_even(a[get_global_id(0)]); }
)";
  cl_program p = source(kMutual);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0 -O0", nullptr, nullptr),
            CL_BUILD_PROGRAM_FAILURE);
  const std::string log = buildLog(p);
  EXPECT_NE(log.find("recursion is not allowed (OpenCL C 6.11"), std::string::npos) << log;
  EXPECT_NE(log.find(": %is_even -> %is_odd -> %is_even (kernel k)"), std::string::npos) << log;
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  cl_program c = source(kMutual);
  EXPECT_EQ(
      clCompileProgram(c, 0, nullptr, "-cl-std=CL3.0 -O0", 0, nullptr, nullptr, nullptr, nullptr),
      CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(c).find(": %is_even -> %is_odd -> %is_even (kernel k)"), std::string::npos)
      << buildLog(c);

  cl_kernel k = kernel(built(kMutual, "-cl-std=CL3.0 -O2"), "k");
  const std::vector<int> n = {0, 1, 7, 10, 33, 100};
  cl_mem a = bufferOf(n);
  setArg(k, 0, a);
  run(k, n.size());
  EXPECT_EQ(read<int>(a, n.size()), (std::vector<int>{1, 0, 0, 1, 0, 1}));
}

TEST_F(ProgramBuild, InvalidOptions) {
  cl_program p = source(kSquare);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-no-such-option", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-DX=\"unclosed", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-cl-std=CL9.9", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-create-library", nullptr, nullptr),
            CL_INVALID_BUILD_OPTIONS);  // a link option
}

TEST_F(ProgramBuild, NoRebuildWhileKernelsAreAttached) {
  cl_program p = built(kSquare);
  cl_int err = CL_INVALID_VALUE;
  cl_kernel k = clCreateKernel(p, "square", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(programInfo<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT), 2u);  // the kernel's
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clCompileProgram(p, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);
}

void CL_CALLBACK countCall(cl_program, void* counter) { ++*static_cast<int*>(counter); }

TEST_F(ProgramBuild, NotifiesAndChecksItsArguments) {
  cl_program p = source(kSquare);
  int calls = 0;
  EXPECT_EQ(clBuildProgram(p, 1, &device, "", countCall, &calls), CL_SUCCESS);
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, &calls), CL_INVALID_VALUE);
  EXPECT_EQ(clBuildProgram(p, 1, nullptr, "", nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clBuildProgram(p, 0, &device, "", nullptr, nullptr), CL_INVALID_VALUE);
  cl_device_id notADevice = reinterpret_cast<cl_device_id>(context);
  EXPECT_EQ(clBuildProgram(p, 1, &notADevice, "", nullptr, nullptr), CL_INVALID_DEVICE);
  EXPECT_EQ(icd()->clBuildProgram(bogus<cl_program>(), 0, nullptr, "", nullptr, nullptr),
            CL_INVALID_PROGRAM);
}

TEST_F(ProgramBuild, ProgramScopeVariablesPersistAcrossLaunches) {
  cl_program p = built(R"(
global int counter[4];
kernel void bump(global int* out) { out[0] = ++counter[1]; }
)");
  EXPECT_EQ(buildInfo<size_t>(p, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE), 16u);
  cl_kernel k = kernel(p, "bump");
  cl_mem out = bufferOf(std::vector<int>{0});
  setArg(k, 0, out);
  run(k, 1);
  run(k, 1);
  EXPECT_EQ(read<int>(out, 1)[0], 2);
}

TEST_F(ProgramBuild, QueryErrors) {
  cl_program p = built(kSquare);
  cl_uint refs = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, 1, &refs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramInfo(p, 0x7fff, sizeof refs, &refs, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(icd()->clGetProgramInfo(bogus<cl_program>(), CL_PROGRAM_REFERENCE_COUNT, sizeof refs,
                                    &refs, nullptr),
            CL_INVALID_PROGRAM);
  cl_build_status s = 0;
  EXPECT_EQ(clGetProgramBuildInfo(p, device, 0x7fff, sizeof s, &s, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clGetProgramBuildInfo(p, reinterpret_cast<cl_device_id>(context),
                                  CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr),
            CL_INVALID_DEVICE);
  EXPECT_EQ(
      icd()->clGetProgramBuildInfo(p, nullptr, CL_PROGRAM_BUILD_STATUS, sizeof s, &s, nullptr),
      CL_INVALID_DEVICE);
  EXPECT_EQ(icd()->clRetainProgram(bogus<cl_program>()), CL_INVALID_PROGRAM);
  EXPECT_EQ(icd()->clReleaseProgram(bogus<cl_program>()), CL_INVALID_PROGRAM);
  EXPECT_EQ(clRetainProgram(p), CL_SUCCESS);
  EXPECT_EQ(programInfo<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

TEST_F(ProgramBuild, ReleaseCallbacksAndCompilerUnloading) {
  cl_program p = source(kSquare);
  int calls = 0;
  // No program-scope constructors or destructors: the deprecated callback is refused.
  EXPECT_EQ(clSetProgramReleaseCallback(p, countCall, &calls), CL_INVALID_OPERATION);
  EXPECT_EQ(clSetProgramReleaseCallback(p, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(icd()->clSetProgramReleaseCallback(bogus<cl_program>(), countCall, nullptr),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(clUnloadPlatformCompiler(platform), CL_SUCCESS);
  EXPECT_EQ(icd()->clUnloadPlatformCompiler(bogus<cl_platform_id>()), CL_INVALID_PLATFORM);
  EXPECT_EQ(icd()->clUnloadCompiler(), CL_SUCCESS);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS);  // reloads
}

using SpecConstants = ProgramTest;

TEST_F(SpecConstants, DefaultsThenSetValues) {
  cl_program p = il(specConstantModule());
  auto runSpec = [&] {
    EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_SUCCESS) << buildLog(p);
    cl_int err = CL_INVALID_VALUE;
    cl_kernel k = clCreateKernel(p, "spec", &err);
    EXPECT_EQ(err, CL_SUCCESS);
    cl_mem out = bufferOf(std::vector<uint32_t>(5, 0));
    setArg(k, 0, out);
    run(k, 1);
    clReleaseKernel(k);
    return read<uint32_t>(out, 5);
  };
  EXPECT_EQ(runSpec(), (std::vector<uint32_t>{7, 1, 2, 1, 9}));
  const cl_uint u = 123;
  const cl_uchar f = 0;
  const cl_ulong l = 0x500000004ull;
  const cl_ushort s = 65535;
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 3, sizeof u, &u), CL_SUCCESS);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 4, sizeof f, &f), CL_SUCCESS);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 5, sizeof l, &l), CL_SUCCESS);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 6, sizeof s, &s), CL_SUCCESS);
  EXPECT_EQ(runSpec(), (std::vector<uint32_t>{123, 0, 4, 5, 65535}));
  const cl_uchar t = 2;  // any non-zero value is true
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 4, sizeof t, &t), CL_SUCCESS);
  EXPECT_EQ(runSpec()[1], 1u);
}

TEST_F(SpecConstants, Errors) {
  cl_program p = il(specConstantModule());
  const cl_uint u = 1;
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 99, sizeof u, &u), CL_INVALID_SPEC_ID);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 3, 2, &u), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 4, sizeof u, &u), CL_INVALID_VALUE);  // bool: 1
  EXPECT_EQ(clSetProgramSpecializationConstant(p, 3, sizeof u, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clSetProgramSpecializationConstant(source(kSquare), 3, sizeof u, &u),
            CL_INVALID_PROGRAM);
  EXPECT_EQ(icd()->clSetProgramSpecializationConstant(bogus<cl_program>(), 3, sizeof u, &u),
            CL_INVALID_PROGRAM);
}

}  // namespace
}  // namespace spvsim::rt::test
