// The ICD's knobs and kernel diagnostics: SPVSIM_SUB_GROUP_SIZE, SPVSIM_DIAGNOSTICS (a
// file here), SPVSIM_INSTRUCTION_BUDGET, and the event status of a launch that a fatal
// error stopped. The knobs are read once, so this binary sets them before any OpenCL call.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)

namespace spvsim::rt::test {
namespace {

std::string diagnosticsPath() { return ::testing::TempDir() + "/spvsim-diagnostics.txt"; }

const bool kKnobsSet = [] {
  setenv("SPVSIM_SUB_GROUP_SIZE", "4", 1);
  setenv("SPVSIM_DIAGNOSTICS", diagnosticsPath().c_str(), 1);
  setenv("SPVSIM_INSTRUCTION_BUDGET", "100000", 1);
  return true;
}();

constexpr const char* kKernels = R"(
kernel void shift_left(global const int* in, global int* out) {
  size_t i = get_global_id(0); out[i] = in[i + 1];
}
kernel void spin(global int* a) { while (a[0] == 0) { a[1]++; } }
kernel void sizes(global uint* out) {
  out[2 * get_global_id(0)] = get_sub_group_size();
  out[2 * get_global_id(0) + 1] = get_num_sub_groups();
}
)";

class DiagnosticsTest : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    std::remove(diagnosticsPath().c_str());
    program = built(kKernels);
  }
  cl_program program = nullptr;
};

TEST_F(DiagnosticsTest, ErrorsGoToTheDiagnosticsFileAndTheLaunchCompletes) {
  cl_kernel k = kernel(program, "shift_left");
  cl_mem in = bufferOf(std::vector<int>(8, 1)), out = buffer(8 * 4);
  setArg(k, 0, in);
  setArg(k, 1, out);
  const size_t global = 8;
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  cl_int status = 1;
  ASSERT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(status, CL_COMPLETE);  // reported, not fatal
  clReleaseEvent(e);
  const std::string text = readFile(diagnosticsPath());
  EXPECT_EQ(text.rfind("error: out-of-bounds: read of 4 bytes at byte offset 32 of argument 0", 0),
            0u)
      << text;
  EXPECT_NE(text.find("kernel shift_left"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1) << text;  // one line
}

// CL_MEM_READ_ONLY / CL_MEM_WRITE_ONLY bind the kernel (OpenCL 3.0 API, clCreateBuffer:
// writing a read-only buffer or reading a write-only one in a kernel is undefined): both
// accesses are `access-violation`s, and both happen, as on a device (src/DESIGN.md,
// "Access flags"): out holds in's ones afterwards.
TEST_F(DiagnosticsTest, KernelAccessesTheCreationFlagsForbidAreReported) {
  cl_kernel k = kernel(program, "shift_left");
  std::vector<int> zeros(8, 0), ones(9, 1);
  cl_mem in = buffer(9 * 4, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, ones.data());
  cl_mem out = buffer(8 * 4, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, zeros.data());
  setArg(k, 0, in);
  setArg(k, 1, out);
  const size_t global = 8;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  const std::string text = readFile(diagnosticsPath());
  EXPECT_NE(text.find("error: access-violation: read of 4 bytes from a write-only buffer"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("error: access-violation: write of 4 bytes to a read-only buffer"),
            std::string::npos)
      << text;
  std::vector<int> after(8, -1);
  ASSERT_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 8 * 4, after.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(after, std::vector<int>(8, 1));
}

// A component store to a write-only vector buffer (clang: load the vector, insert, store it
// back) keeps the other components and reports nothing: the load is the compiler's.
TEST_F(DiagnosticsTest, AComponentStoreToAWriteOnlyBufferIsNoRead) {
  for (const char* options : {"-cl-opt-disable", "", "-g"}) {
    SCOPED_TRACE(options);
    std::remove(diagnosticsPath().c_str());
    cl_program p = built(R"(
kernel void parts(global float4* out) {
  size_t i = get_global_id(0);
  out[i].y = 42.0f;
  out[i].z = 7.0f;
})",
                         options);
    cl_kernel k = kernel(p, "parts");
    std::vector<float> init{1, 2, 3, 4, 5, 6, 7, 8};
    cl_mem out = buffer(8 * 4, CL_MEM_WRITE_ONLY | CL_MEM_COPY_HOST_PTR, init.data());
    setArg(k, 0, out);
    const size_t global = 2;
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
    std::vector<float> after(8, -1);
    ASSERT_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 8 * 4, after.data(), 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(after, (std::vector<float>{1, 42, 7, 4, 5, 42, 7, 8}));
    EXPECT_EQ(readFile(diagnosticsPath()), "");
  }
}

TEST_F(DiagnosticsTest, AFatalErrorFailsTheEvent) {
  cl_kernel k = kernel(program, "spin");
  cl_mem a = bufferOf(std::vector<int>{0, 0});
  setArg(k, 0, a);
  const size_t global = 1;
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, &e),
            CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 1;
  ASSERT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(status, CL_OUT_OF_RESOURCES);
  clReleaseEvent(e);
  // clang turns the loop into `if (a[0] == 0) for (;;);`: a spin nothing in the
  // work-group can end, which the scheduler reports as a deadlock (fatal).
  EXPECT_NE(readFile(diagnosticsPath()).find("error: deadlock:"), std::string::npos);
}

TEST_F(DiagnosticsTest, TheConfiguredSubGroupSize) {
  cl_kernel k = kernel(program, "sizes");
  const size_t local = 10;
  size_t size = 0, count = 0;
  ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                    sizeof local, &local, sizeof size, &size, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof local,
                                    &local, sizeof count, &count, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(count, 3u);
  cl_mem out = buffer(10 * 8);
  setArg(k, 0, out);
  run(k, 10, 10);
  const std::vector<uint32_t> v = read<uint32_t>(out, 20);
  for (size_t i = 0; i < 10; ++i) {
    EXPECT_EQ(v[2 * i], i < 8 ? 4u : 2u) << i;
    EXPECT_EQ(v[2 * i + 1], count) << i;
  }
  EXPECT_EQ(readFile(diagnosticsPath()), "");  // a clean launch reports nothing
}

}  // namespace
}  // namespace spvsim::rt::test
