// SPVSIM_MAX_MEMORY through the real loader: this test runs with a limit of 256 KiB and
// diagnostics appended to a file. A launch whose work-groups need more memory than the
// limit does not run: its event completes with CL_OUT_OF_RESOURCES (the spec's code for
// "a failure to allocate resources required by the OpenCL implementation on the
// device") and the diagnostics say why; smaller launches run as usual.
#include "runtime/tests/programs/program_fixture.h"
// (program_fixture.h first: it selects the ICD.)
#include <cstdlib>

namespace spvsim::rt::test {
namespace {

std::string diagnosticsPath() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir ? dir : "/tmp") + "/max_memory_test.diagnostics";
}

// Before the ICD reads its settings (on first use, after main starts).
const bool kSettings = [] {
  setenv("SPVSIM_MAX_MEMORY", "256K", 1);
  setenv("SPVSIM_DIAGNOSTICS", diagnosticsPath().c_str(), 1);
  std::remove(diagnosticsPath().c_str());
  return true;
}();

const char* const kSource = R"(
kernel void small(global int* out) { out[get_global_id(0)] = 7; }
kernel void big_private(global int* out, int n) {
  volatile int scratch[8192];  // 32 KiB per work-item: 512 KiB per sub-group of 16
  for (int i = 0; i < n; ++i) scratch[i] = i;
  out[get_global_id(0)] = scratch[n - 1];
}
)";

using MaxMemory = ProgramTest;

TEST_F(MaxMemory, ALaunchBeyondTheLimitEndsOutOfResourcesWithADiagnostic) {
  cl_program p = built(kSource);
  cl_mem out = bufferOf(std::vector<int>(16, 0));
  const size_t global = 16;

  cl_kernel big = kernel(p, "big_private");
  setArg(big, 0, out);
  setArg(big, 1, cl_int{8192});
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, big, 1, nullptr, &global, nullptr, 0, nullptr, &e),
            CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  cl_int status = 0;
  EXPECT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(status, CL_OUT_OF_RESOURCES);
  EXPECT_EQ(clReleaseEvent(e), CL_SUCCESS);
  EXPECT_EQ(read<int>(out, 16), std::vector<int>(16, 0));  // it did not run
  const std::string log = readFile(diagnosticsPath());
  EXPECT_NE(log.find("error: out-of-memory:"), std::string::npos) << log;
  EXPECT_NE(log.find("SPVSIM_MAX_MEMORY"), std::string::npos) << log;

  cl_kernel small = kernel(p, "small");
  setArg(small, 0, out);
  run(small, global);
  EXPECT_EQ(read<int>(out, 16), std::vector<int>(16, 7));
}

// Program-scope variables live as long as the program, so the build allocates them: past
// the limit the build fails with CL_OUT_OF_RESOURCES ("a failure to allocate resources
// required by the OpenCL implementation on the device") and the log says why.
TEST_F(MaxMemory, ProgramScopeVariablesBeyondTheLimitFailTheBuild) {
  cl_program p = source(R"(
global int table[1 << 20];  // 4 MiB
kernel void k(global int* out) { out[0] = table[get_global_id(0)]; }
)");
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, "-cl-std=CL3.0", nullptr, nullptr),
            CL_OUT_OF_RESOURCES);
  const std::string log = buildLog(p);
  EXPECT_NE(log.find("program-scope variables"), std::string::npos) << log;
  EXPECT_NE(log.find("SPVSIM_MAX_MEMORY"), std::string::npos) << log;
  EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
}

}  // namespace
}  // namespace spvsim::rt::test
