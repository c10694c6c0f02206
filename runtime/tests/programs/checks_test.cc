// SPVSIM_CHECKS: the ICD runs the race and uninitialised-read checkers when asked, and
// their diagnostics reach SPVSIM_DIAGNOSTICS. The knobs are read once, so this binary
// sets them before any OpenCL call.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)

namespace spvsim::rt::test {
namespace {

std::string diagnosticsPath() { return ::testing::TempDir() + "/spvsim-checks.txt"; }

const bool kKnobsSet = [] {
  setenv("SPVSIM_SUB_GROUP_SIZE", "8", 1);
  setenv("SPVSIM_DIAGNOSTICS", diagnosticsPath().c_str(), 1);
  setenv("SPVSIM_CHECKS", "races,uninitialized", 1);
  return true;
}();

// Each work-item reads its right neighbour's slot of local memory: with `sync` a barrier
// orders the write before the read; without it they race (work-item 7 reads sub-group
// 1's slot 8, which nothing orders).
constexpr const char* kKernels = R"(
kernel void neighbour(global int* out, local int* tile, int sync) {
  int l = get_local_id(0);
  tile[l] = l + 100;
  if (sync) barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[(l + 1) % get_local_size(0)];
}
kernel void unwritten(global int* out, local int* tile) {
  out[get_global_id(0)] = tile[get_local_id(0)];
}
)";

class ChecksTest : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    std::remove(diagnosticsPath().c_str());
    program = built(kKernels);
  }
  std::string launch(const char* name, std::optional<int> sync) {
    cl_kernel k = kernel(program, name);
    cl_mem out = buffer(16 * 4);
    setArg(k, 0, out);
    EXPECT_EQ(clSetKernelArg(k, 1, 16 * 4, nullptr), CL_SUCCESS);
    if (sync) setArg(k, 2, *sync);
    const size_t global = 16, local = 16;
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    return readFile(diagnosticsPath());
  }
  cl_program program = nullptr;
};

TEST_F(ChecksTest, RaceIsReportedAndTheBarrierRemovesIt) {
  EXPECT_EQ(launch("neighbour", 1), "");
  const std::string text = launch("neighbour", 0);
  EXPECT_EQ(text.rfind("error: data-race: ", 0), 0u) << text;
  EXPECT_NE(text.find("argument 1 (tile) (local memory)"), std::string::npos) << text;
  EXPECT_NE(text.find("kernel neighbour"), std::string::npos) << text;
}

TEST_F(ChecksTest, UninitializedLocalReadIsReported) {
  const std::string text = launch("unwritten", std::nullopt);
  EXPECT_EQ(text.rfind("error: uninitialized-read: ", 0), 0u) << text;
}

// OpenCL 1.2 defines atomic_inc & co. as atomic across the device: a histogram whose
// work-groups all count into one global buffer has no race, at any optimisation level
// (llvm-spirv-15 alone would give the atomics Workgroup scope: insufficient-scope errors).
TEST_F(ChecksTest, LegacyAtomicHistogramAcrossWorkGroupsIsRaceFree) {
  const char* histogram = R"(
    kernel void histogram(global const uint* in, global uint* bins) {
      atomic_inc(&bins[in[get_global_id(0)] % 8]);
    })";
  for (const char* options : {"-O0", "-O2", "-cl-std=CL3.0 -O3"}) {
    cl_kernel k = kernel(built(histogram, options), "histogram");
    std::vector<cl_uint> in(64);
    for (cl_uint i = 0; i < 64; ++i) in[i] = i * 3;
    cl_mem bins = bufferOf(std::vector<cl_uint>(8, 0));
    setArg(k, 0, bufferOf(in));
    setArg(k, 1, bins);
    run(k, 64, 8);  // 8 work-groups
    // i * 3 % 8 visits every residue 8 times over 64 work-items.
    EXPECT_EQ(read<cl_uint>(bins, 8), std::vector<cl_uint>(8, 8)) << options;
    EXPECT_EQ(readFile(diagnosticsPath()), "") << options;
  }
}

}  // namespace
}  // namespace spvsim::rt::test
