// clCompileProgram and clLinkProgram through the ICD loader: embedded headers, compiled
// objects, libraries, binaries of each kind, the uniform-work-group rule, and errors.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)

namespace spvsim::rt::test {
namespace {

constexpr const char* kUser = R"(
#include "helpers/scale.h"
int helper(int x);
kernel void user(global int* a) { size_t i = get_global_id(0); a[i] = helper(a[i]) + SCALE; }
)";
constexpr const char* kHelper = "int helper(int x) { return 3 * x; }\n";

class LinkTest : public ProgramTest {
 protected:
  // A compiled object of `text`; the test fails (with the log) if compiling does.
  cl_program compiled(const char* text, const std::string& options = "-cl-std=CL3.0",
                      std::vector<cl_program> headers = {}, std::vector<const char*> names = {}) {
    cl_program p = source(text);
    const cl_int err =
        clCompileProgram(p, 0, nullptr, options.c_str(), static_cast<cl_uint>(headers.size()),
                         headers.empty() ? nullptr : headers.data(),
                         names.empty() ? nullptr : names.data(), nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << buildLog(p);
    return p;
  }

  cl_program userObject() {
    return compiled(kUser, "-cl-std=CL3.0", {source("#define SCALE 100\n")}, {"helpers/scale.h"});
  }

  cl_program link(std::vector<cl_program> inputs, const char* options, cl_int expected) {
    cl_int err = CL_SUCCESS - 1;
    cl_program p = clLinkProgram(context, 0, nullptr, options, static_cast<cl_uint>(inputs.size()),
                                 inputs.data(), nullptr, nullptr, &err);
    EXPECT_EQ(err, expected);
    return own(p);
  }

  // Runs `user` of an executable over {1, 2, 3}.
  std::vector<int> runUser(cl_program executable) {
    cl_kernel k = kernel(executable, "user");
    cl_mem a = bufferOf(std::vector<int>{1, 2, 3});
    setArg(k, 0, a);
    run(k, 3);
    return read<int>(a, 3);
  }
};

TEST_F(LinkTest, CompiledObjectsWithEmbeddedHeadersLinkAndRun) {
  cl_program user = userObject();
  EXPECT_EQ(buildInfo<cl_program_binary_type>(user, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  EXPECT_EQ(buildInfo<cl_build_status>(user, CL_PROGRAM_BUILD_STATUS), CL_BUILD_SUCCESS);
  size_t n = 0;  // a compiled object is no executable
  EXPECT_EQ(clGetProgramInfo(user, CL_PROGRAM_NUM_KERNELS, sizeof n, &n, nullptr),
            CL_INVALID_PROGRAM_EXECUTABLE);
  cl_program exe = link({user, compiled(kHelper)}, "", CL_SUCCESS);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(exe, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(programString(exe, CL_PROGRAM_KERNEL_NAMES), "user");
  EXPECT_EQ(runUser(exe), (std::vector<int>{103, 106, 109}));
}

TEST_F(LinkTest, ModulesOfDifferentSpirvVersionsLink) {
  // The helper's module needs SPIR-V 1.4 (a local array listed in the entry point
  // interface), the user's does not: the linker needs one version.
  cl_program local = compiled(R"(
int helper(int x) { return x + 1; }
kernel void other(global int* a) { local int t[4]; t[get_local_id(0)] = 1;
  barrier(CLK_LOCAL_MEM_FENCE); a[0] = t[0]; }
)");
  cl_program exe = link({userObject(), local}, "", CL_SUCCESS);
  EXPECT_EQ(runUser(exe), (std::vector<int>{102, 103, 104}));
}

TEST_F(LinkTest, LibrariesLinkLikeObjects) {
  cl_program library =
      link({compiled(kHelper)}, "-create-library -enable-link-options", CL_SUCCESS);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(library, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  cl_program exe = link({userObject(), library}, "-cl-fast-relaxed-math", CL_SUCCESS);
  EXPECT_EQ(runUser(exe), (std::vector<int>{103, 106, 109}));
}

TEST_F(LinkTest, BinariesKeepTheirKind) {
  cl_program object = fromBinary(binaryOf(userObject()));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(object, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  cl_program library =
      fromBinary(binaryOf(link({compiled(kHelper)}, "-create-library", CL_SUCCESS)));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(library, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_LIBRARY});
  EXPECT_EQ(runUser(link({object, library}, nullptr, CL_SUCCESS)),
            (std::vector<int>{103, 106, 109}));
}

TEST_F(LinkTest, SpirvFromElsewhereIsAnExecutableOrACompiledObject) {
  // Binaries without this ICD's markers: unresolved imports make a compiled object.
  auto bytesOf = [](const std::vector<uint32_t>& w) {
    const auto* b = reinterpret_cast<const unsigned char*>(w.data());
    return std::vector<unsigned char>(b, b + w.size() * 4);
  };
  cl_program object =
      fromBinary(bytesOf(compileSource("int helper(int);\nkernel void k(global int* a) { a[0] = "
                                       "helper(1); }",
                                       "")
                             .words));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(object, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  cl_program exe =
      fromBinary(bytesOf(compileSource("kernel void k(global int* a) { a[0] = 1; }", "").words));
  EXPECT_EQ(buildInfo<cl_program_binary_type>(exe, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_EXECUTABLE});
  EXPECT_EQ(clBuildProgram(exe, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
}

TEST_F(LinkTest, CompileFailures) {
  cl_program bad = source("kernel void k() { oops; }");
  EXPECT_EQ(clCompileProgram(bad, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(bad).find("oops"), std::string::npos);
  EXPECT_EQ(buildInfo<cl_build_status>(bad, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  cl_program p = source(kHelper);
  EXPECT_EQ(
      clCompileProgram(p, 0, nullptr, "-no-such-option", 0, nullptr, nullptr, nullptr, nullptr),
      CL_INVALID_COMPILER_OPTIONS);
  // A missing embedded header is a compile failure with the compiler's message.
  cl_program user = source(kUser);
  EXPECT_EQ(clCompileProgram(user, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_COMPILE_PROGRAM_FAILURE);
  EXPECT_NE(buildLog(user).find("helpers/scale.h"), std::string::npos) << buildLog(user);
}

TEST_F(LinkTest, CompileArgumentErrors) {
  cl_program p = source(kHelper);
  cl_program header = source("");
  const char* name = "h.h";
  EXPECT_EQ(clCompileProgram(p, 0, nullptr, "", 0, &header, nullptr, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(p, 0, nullptr, "", 1, nullptr, &name, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(p, 0, nullptr, "", 1, &header, nullptr, nullptr, nullptr),
            CL_INVALID_VALUE);
  int data = 0;
  EXPECT_EQ(clCompileProgram(p, 0, nullptr, "", 0, nullptr, nullptr, nullptr, &data),
            CL_INVALID_VALUE);
  EXPECT_EQ(clCompileProgram(p, 1, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(icd()->clCompileProgram(bogus<cl_program>(), 0, nullptr, "", 0, nullptr, nullptr,
                                    nullptr, nullptr),
            CL_INVALID_PROGRAM);
  // Only source and IL can be compiled.
  cl_program binary = fromBinary(binaryOf(built(kHelper)));
  EXPECT_EQ(clCompileProgram(binary, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr),
            CL_INVALID_OPERATION);
}

TEST_F(LinkTest, LinkFailureReturnsAProgramWithTheLog) {
  cl_program p = link({userObject()}, "", CL_LINK_PROGRAM_FAILURE);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(buildInfo<cl_build_status>(p, CL_PROGRAM_BUILD_STATUS), CL_BUILD_ERROR);
  EXPECT_NE(buildLog(p).find("helper"), std::string::npos) << buildLog(p);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(p, "user", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM_EXECUTABLE);
  // A linked program cannot be built again.
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "", nullptr, nullptr), CL_INVALID_OPERATION);
}

TEST_F(LinkTest, LinkArgumentErrors) {
  cl_program object = compiled(kHelper);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 0, &object, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 1, nullptr, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  int data = 0;
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 1, &object, nullptr, &data, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "-cl-std=CL3.0", 1, &object, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_LINKER_OPTIONS);
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "-enable-link-options", 1, &object, nullptr, nullptr,
                          &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_LINKER_OPTIONS);
  cl_program notAProgram = reinterpret_cast<cl_program>(queue);
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 1, &notAProgram, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM);
  EXPECT_EQ(
      icd()->clLinkProgram(bogus<cl_context>(), 0, nullptr, "", 1, &object, nullptr, nullptr, &err),
      nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  // Inputs must all be compiled objects or libraries.
  cl_program plain = source(kHelper);
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 1, &plain, nullptr, nullptr, &err) != nullptr,
            true);  // none compiled: nothing to link, no executable
  EXPECT_EQ(err, CL_SUCCESS);
  cl_program mixed[] = {object, plain};
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 2, mixed, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  cl_program executable = built(kHelper);
  EXPECT_EQ(clLinkProgram(context, 0, nullptr, "", 1, &executable, nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
}

TEST_F(LinkTest, OpenCLC1xObjectsKeepWorkGroupsUniform) {
  // OpenCL C 1.2 (the default) has no non-uniform work-groups; linking keeps that.
  auto exe = [&](const char* options) {
    return link({compiled("kernel void k(global int* a) { a[get_global_id(0)] = 1; }", options)},
                "", CL_SUCCESS);
  };
  const size_t global = 10, local = 4;
  cl_mem a = buffer(64);
  cl_kernel uniform = kernel(exe(""), "k");
  setArg(uniform, 0, a);
  EXPECT_EQ(
      clEnqueueNDRangeKernel(queue, uniform, 1, nullptr, &global, &local, 0, nullptr, nullptr),
      CL_INVALID_WORK_GROUP_SIZE);
  cl_kernel free = kernel(exe("-cl-std=CL2.0"), "k");
  setArg(free, 0, a);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, free, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_SUCCESS);
  cl_kernel forced = kernel(exe("-cl-std=CL3.0 -cl-uniform-work-group-size"), "k");
  setArg(forced, 0, a);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, forced, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
}

TEST_F(LinkTest, ILCompilesToAnObject) {
  const std::vector<uint32_t> words = compileSource(kHelper, "").words;
  cl_program p = il(words);
  EXPECT_EQ(clCompileProgram(p, 0, nullptr, "", 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(buildInfo<cl_program_binary_type>(p, CL_PROGRAM_BINARY_TYPE),
            cl_program_binary_type{CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT});
  EXPECT_EQ(runUser(link({userObject(), p}, "", CL_SUCCESS)), (std::vector<int>{103, 106, 109}));
}

}  // namespace
}  // namespace spvsim::rt::test
