// SPVSIM_CHECKS=undefined: buffers that nothing wrote (created without a host pointer and
// never written by a command, a write map or a kernel) are never initialised for the
// undefined-value checker; anything that writes them makes them initialised. The knobs
// are read once, so this binary sets them before any OpenCL call.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)

namespace spvsim::rt::test {
namespace {

std::string diagnosticsPath() { return ::testing::TempDir() + "/spvsim-undefined.txt"; }

const bool kKnobsSet = [] {
  setenv("SPVSIM_SUB_GROUP_SIZE", "8", 1);
  setenv("SPVSIM_DIAGNOSTICS", diagnosticsPath().c_str(), 1);
  setenv("SPVSIM_CHECKS", "undefined", 1);
  return true;
}();

constexpr const char* kKernels = R"(
kernel void copy(global const int* in, global int* out) {
  out[get_global_id(0)] = in[get_global_id(0)] + 1;
}
)";

class UndefinedChecksTest : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    program = built(kKernels);
  }
  // Runs copy(in, out) over 8 work-items; the diagnostics it wrote.
  std::string launch(cl_mem in) {
    std::remove(diagnosticsPath().c_str());
    cl_kernel k = kernel(program, "copy");
    cl_mem out = buffer(8 * 4);
    setArg(k, 0, in);
    setArg(k, 1, out);
    const size_t global = 8;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &global, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    return readFile(diagnosticsPath());
  }
  cl_program program = nullptr;
};

TEST_F(UndefinedChecksTest, BufferNothingWroteIsReportedOnce) {
  cl_mem in = buffer(8 * 4);
  const std::string text = launch(in);
  EXPECT_EQ(text.rfind("error: uninitialized-value: ", 0), 0u) << text;
  EXPECT_NE(text.find("stored to global memory"), std::string::npos) << text;
  // The kernel was given `in`: a later launch takes it as initialised.
  EXPECT_EQ(launch(in), "");
}

TEST_F(UndefinedChecksTest, HostPointerWriteFillAndWriteMapInitialise) {
  std::vector<cl_int> host(8, 3);
  EXPECT_EQ(launch(buffer(8 * 4, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.data())), "");
  cl_mem written = buffer(8 * 4);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, written, CL_TRUE, 0, 4, host.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(launch(written), "");
  cl_mem filled = buffer(8 * 4);
  const cl_int zero = 0;
  EXPECT_EQ(clEnqueueFillBuffer(queue, filled, &zero, 4, 0, 32, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(launch(filled), "");
  cl_mem mapped = buffer(8 * 4);
  cl_int err = CL_SUCCESS;
  void* p =
      clEnqueueMapBuffer(queue, mapped, CL_TRUE, CL_MAP_WRITE, 0, 32, 0, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clEnqueueUnmapMemObject(queue, mapped, p, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(launch(mapped), "");
}

}  // namespace
}  // namespace spvsim::rt::test
