// How often each program call goes over a module's words (ProgramState::parses, the test
// seam): building, compiling, linking and creating from IL or a binary load a module at
// most once and decode it no other way; queries, specialization constants and kernels
// read the facts that load left. Linked against the runtime library and calling its
// entry points directly, so the test can read the program objects.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <sstream>

#include "runtime/core_api.h"
#include "runtime/program.h"
#include "runtime/program_api.h"
#include "spirv/loader.h"

namespace spvsim::rt {
namespace {

constexpr const char* kUser =
    "int helper(int x);\n"
    "kernel void user(global int* a) { a[0] = helper(a[0]); }\n";
constexpr const char* kHelper = "int helper(int x) { return 3 * x; }\n";

std::vector<uint32_t> specModule() {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  std::ifstream in(std::string(srcdir ? srcdir : ".") +
                   "/spvsim/runtime/tests/programs/spec_constants.spvasm");
  std::stringstream s;
  s << in.rdbuf();
  return spirv::assemble(s.str());
}

const ParseCount& parsesOf(cl_program p) { return static_cast<_cl_program*>(p)->state.parses; }

// The decodes a link of `inputs` needs: the linker takes modules of one SPIR-V version,
// and raising one from below 1.4 lists its variables in the entry points' interfaces.
uint32_t versionDecodes(const std::vector<cl_program>& inputs) {
  constexpr uint32_t k14 = 0x00010400;
  uint32_t newest = 0, below14 = 0;
  for (cl_program p : inputs) {
    const uint32_t v = static_cast<_cl_program*>(p)->state.facts.version;
    newest = std::max(newest, v);
    below14 += v < k14;
  }
  return newest >= k14 ? below14 : 0;
}

// "loads/decodes/leading" for messages that say which count differs.
std::string str(const ParseCount& c) {
  return std::to_string(c.loads) + "/" + std::to_string(c.decodes) + "/" +
         std::to_string(c.leading);
}
std::string str(uint32_t loads, uint32_t decodes, uint32_t leading) {
  return str(ParseCount{loads, decodes, leading});
}

class ProgramParses : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(rt::clGetPlatformIDs(1, &platform_, nullptr), CL_SUCCESS);
    ASSERT_EQ(rt::clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr), CL_SUCCESS);
    cl_int err = CL_INVALID_VALUE;
    context_ = rt::clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
  }
  void TearDown() override {
    for (cl_program p : programs_) rt::clReleaseProgram(p);
    rt::clReleaseContext(context_);
  }

  cl_program own(cl_program p) {
    EXPECT_NE(p, nullptr);
    programs_.push_back(p);
    return p;
  }
  cl_program source(const char* text) {
    cl_int err = CL_INVALID_VALUE;
    return own(rt::clCreateProgramWithSource(context_, 1, &text, nullptr, &err));
  }
  cl_program il(const std::vector<uint32_t>& words) {
    cl_int err = CL_INVALID_VALUE;
    cl_program p = rt::clCreateProgramWithIL(context_, words.data(), words.size() * 4, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return own(p);
  }
  cl_program compiled(const char* text) {
    cl_program p = source(text);
    EXPECT_EQ(
        rt::clCompileProgram(p, 0, nullptr, "-cl-std=CL3.0", 0, nullptr, nullptr, nullptr, nullptr),
        CL_SUCCESS);
    return p;
  }
  cl_program link(std::vector<cl_program> inputs, const char* options) {
    cl_int err = CL_INVALID_VALUE;
    cl_program p =
        rt::clLinkProgram(context_, 0, nullptr, options, static_cast<cl_uint>(inputs.size()),
                          inputs.data(), nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return own(p);
  }
  cl_int build(cl_program p) { return rt::clBuildProgram(p, 0, nullptr, "", nullptr, nullptr); }
  std::vector<unsigned char> binaryOf(cl_program p) {
    size_t size = 0;
    EXPECT_EQ(rt::clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> bytes(size);
    unsigned char* ptr = bytes.data();
    EXPECT_EQ(rt::clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
    return bytes;
  }
  cl_program fromBinary(const std::vector<unsigned char>& bytes) {
    const unsigned char* ptr = bytes.data();
    const size_t size = bytes.size();
    cl_int err = CL_INVALID_VALUE;
    return own(rt::clCreateProgramWithBinary(context_, 1, &device_, &size, &ptr, nullptr, &err));
  }
  cl_program_binary_type typeOf(cl_program p) {
    cl_program_binary_type t = 0;
    rt::clGetProgramBuildInfo(p, device_, CL_PROGRAM_BINARY_TYPE, sizeof t, &t, nullptr);
    return t;
  }

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  std::vector<cl_program> programs_;
};

TEST_F(ProgramParses, BuildFromSourceLoadsOnce) {
  cl_program p = source(
      "kernel void k(global int* a) { a[0] = 1; }\n"
      "kernel void j(global int* a) { a[1] = 2; }\n");
  ASSERT_EQ(build(p), CL_SUCCESS);
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 0));
  // Queries and kernels read the facts: the count stays the build's.
  char names[16] = {};
  ASSERT_EQ(rt::clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof names, names, nullptr),
            CL_SUCCESS);
  EXPECT_STREQ(names, "k;j");
  size_t n = 0;
  ASSERT_EQ(rt::clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr), CL_SUCCESS);
  EXPECT_EQ(n, 2u);
  cl_int err = CL_INVALID_VALUE;
  cl_kernel k = rt::clCreateKernel(p, "j", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  rt::clReleaseKernel(k);
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 0));
}

TEST_F(ProgramParses, IlLoadsOnceAtCreationAndOnceAtBuild) {
  cl_program p = il(specModule());
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 1));  // the load, and the markers an IL may carry
  const cl_uint value = 5;
  ASSERT_EQ(rt::clSetProgramSpecializationConstant(p, 3, sizeof value, &value), CL_SUCCESS);
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 1));
  ASSERT_EQ(build(p), CL_SUCCESS);
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 0));
  // The build loaded the specialized module: its constant has the value set.
  const std::shared_ptr<Program> exe = executableOf(p);
  const auto& specs = static_cast<_cl_program*>(p)->ilModule.specConstants;
  const spirv::Constant& c = exe->module().constants.at(specs.at(3).resultId);
  uint32_t got = 0;
  std::memcpy(&got, c.bytes.data(), sizeof got);
  EXPECT_EQ(got, value);
}

TEST_F(ProgramParses, BinariesLoadOnceAtCreationAndOnceAtBuild) {
  cl_program built = source("kernel void k(global int* a) { a[0] = 1; }");
  ASSERT_EQ(build(built), CL_SUCCESS);
  cl_program p = fromBinary(binaryOf(built));
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 1));  // the markers, then the load
  EXPECT_EQ(typeOf(p), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  ASSERT_EQ(build(p), CL_SUCCESS);
  EXPECT_EQ(str(parsesOf(p)), str(1, 0, 0));
  // The binary handed out again is the one that came in.
  EXPECT_EQ(binaryOf(p), binaryOf(built));
}

TEST_F(ProgramParses, CompileAndLinkLoadOnlyTheExecutable) {
  cl_program user = compiled(kUser), helper = compiled(kHelper);
  EXPECT_EQ(str(parsesOf(user)), str(0, 0, 0));  // the compile driver validated it
  cl_program exe = link({user, helper}, "");
  // Linkage needs a look at the linked module's leading instructions.
  EXPECT_EQ(str(parsesOf(exe)), str(1, versionDecodes({user, helper}), 1));
  cl_program library = link({helper}, "-create-library");
  EXPECT_EQ(str(parsesOf(library)), str(0, 0, 0));
  EXPECT_EQ(typeOf(library), cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  cl_program again = link({user, library}, "");
  EXPECT_EQ(str(parsesOf(again)), str(1, versionDecodes({user, library}), 1));
  cl_program one = link({user}, "-create-library");
  EXPECT_EQ(str(parsesOf(one)), str(0, 0, 0));
}

TEST_F(ProgramParses, CompiledIlIsNotLoadedAgain) {
  cl_program p = il(specModule());
  ASSERT_EQ(rt::clCompileProgram(p, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(str(parsesOf(p)), str(0, 0, 0));
  cl_program exe = link({p}, "");  // one module: loaded as it is
  EXPECT_EQ(str(parsesOf(exe)), str(1, 0, 0));
}

// Each kind of binary comes back as that kind, with its uniform-work-group fact.
TEST_F(ProgramParses, BinaryKindsRoundTrip) {
  cl_program object = compiled(kUser);
  cl_program library = link({compiled(kHelper)}, "-create-library");
  cl_program exe = link({object, library}, "");
  for (cl_program p : {object, library, exe}) {
    cl_program back = fromBinary(binaryOf(p));
    EXPECT_EQ(typeOf(back), typeOf(p));
    EXPECT_EQ(requiresUniformWorkGroups(back), requiresUniformWorkGroups(p));
  }
  cl_program old = compiled("kernel void k(global int* a) { a[0] = 1; }");  // CL1.2 below
  cl_program uniform = source("kernel void k(global int* a) { a[0] = 1; }");
  ASSERT_EQ(rt::clCompileProgram(uniform, 0, nullptr, "-cl-std=CL1.2", 0, nullptr, nullptr, nullptr,
                                 nullptr),
            CL_SUCCESS);
  EXPECT_FALSE(requiresUniformWorkGroups(old));
  EXPECT_TRUE(requiresUniformWorkGroups(uniform));
  EXPECT_TRUE(requiresUniformWorkGroups(fromBinary(binaryOf(uniform))));
}

}  // namespace
}  // namespace spvsim::rt
