// Launches that cannot run fail when they are enqueued, with the OpenCL 3.0 API spec's
// codes for clEnqueueNDRangeKernel, before anything runs: more work-items than size_t
// counts or more work-groups than spvsim runs (CL_INVALID_GLOBAL_WORK_SIZE), offset +
// size beyond SIZE_MAX (CL_INVALID_GLOBAL_OFFSET), more local memory than
// CL_DEVICE_LOCAL_MEM_SIZE (CL_OUT_OF_RESOURCES), however the sizes add up.
#include "runtime/tests/programs/program_fixture.h"
// (program_fixture.h first: it selects the ICD.)
#include <cstdint>

namespace spvsim::rt::test {
namespace {

const char* const kSource = R"(
kernel void ids(global ulong* out) {
  out[get_global_id(0) - get_global_offset(0)] = get_global_id(0);
}
kernel void count(global int* n) { atomic_inc(n); }
kernel void two_locals(global int* out, local int* a, local int* b) {
  a[0] = 1; b[0] = 2; out[0] = a[0] + b[0];
}
)";

class LaunchLimits : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    program = built(kSource);
    counter = bufferOf(std::vector<int>{0});
    countKernel = kernel(program, "count");
    setArg(countKernel, 0, counter);
  }

  // Enqueues `count` and checks the result; a failed enqueue hands out no event and
  // runs nothing.
  cl_int enqueueCount(cl_uint dims, const size_t* offset, const size_t* global,
                      const size_t* local) {
    cl_event e = nullptr;
    const cl_int err =
        clEnqueueNDRangeKernel(queue, countKernel, dims, offset, global, local, 0, nullptr, &e);
    if (err != CL_SUCCESS) {
      EXPECT_EQ(e, nullptr);
    }
    if (e) clReleaseEvent(e);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    return err;
  }

  cl_program program = nullptr;
  cl_mem counter = nullptr;
  cl_kernel countKernel = nullptr;
};

TEST_F(LaunchLimits, MoreWorkItemsThanSizeTCountsIsAnInvalidGlobalSize) {
  const size_t huge[3] = {4294967296, 4294967296, 16};  // 2^68 work-items
  const size_t ones[3] = {1, 1, 1};
  EXPECT_EQ(enqueueCount(3, nullptr, huge, ones), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(enqueueCount(3, nullptr, huge, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t maxTwice[2] = {SIZE_MAX, 2};
  EXPECT_EQ(enqueueCount(2, nullptr, maxTwice, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t allMax[3] = {SIZE_MAX, SIZE_MAX, SIZE_MAX};
  EXPECT_EQ(enqueueCount(3, nullptr, allMax, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  // Offsets do not make it valid, nor any local size.
  const size_t offset[3] = {1, 2, 3};
  const size_t local[3] = {16, 4, 4};
  EXPECT_EQ(enqueueCount(3, offset, huge, local), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(read<int>(counter, 1)[0], 0);  // nothing ran
}

// SIZE_MAX work-items fit size_t but need more work-groups than spvsim runs
// (kMaxWorkGroups, 2^40), with any local size the device allows.
TEST_F(LaunchLimits, MoreWorkGroupsThanSpvsimRunsIsAnInvalidGlobalSize) {
  const size_t global = SIZE_MAX;
  const size_t one = 1, most = 1024;
  EXPECT_EQ(enqueueCount(1, nullptr, &global, &one), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(enqueueCount(1, nullptr, &global, &most), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(enqueueCount(1, nullptr, &global, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  const size_t wide[2] = {size_t(1) << 32, size_t(1) << 32};
  EXPECT_EQ(enqueueCount(2, nullptr, wide, nullptr), CL_INVALID_GLOBAL_WORK_SIZE);
  EXPECT_EQ(read<int>(counter, 1)[0], 0);
}

TEST_F(LaunchLimits, OffsetPlusSizeBeyondSizeMaxIsAnInvalidOffset) {
  const size_t global = SIZE_MAX, one = 1;
  EXPECT_EQ(enqueueCount(1, &one, &global, nullptr), CL_INVALID_GLOBAL_OFFSET);
  const size_t eight = 8, past = SIZE_MAX - 7;  // ids up to SIZE_MAX + 0
  EXPECT_EQ(enqueueCount(1, &past, &eight, nullptr), CL_INVALID_GLOBAL_OFFSET);
  const size_t offset2[2] = {0, SIZE_MAX};
  const size_t global2[2] = {4, 1};
  EXPECT_EQ(enqueueCount(2, offset2, global2, nullptr), CL_INVALID_GLOBAL_OFFSET);
  EXPECT_EQ(read<int>(counter, 1)[0], 0);
}

// offset + size == SIZE_MAX is the largest valid range: its last id is SIZE_MAX - 1.
TEST_F(LaunchLimits, IdsUpToSizeMaxRun) {
  const size_t eight = 8, offset = SIZE_MAX - 8;
  cl_mem out = buffer(8 * sizeof(cl_ulong));
  cl_kernel k = kernel(program, "ids");
  setArg(k, 0, out);
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, &offset, &eight, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  std::vector<cl_ulong> expected;
  for (size_t i = 0; i < 8; ++i) expected.push_back(offset + i);
  EXPECT_EQ(read<cl_ulong>(out, 8), expected);
}

// clSetKernelArg takes any non-zero local size; the launch is what cannot run. Sizes
// whose sum wraps around 2^64 are no way around it.
TEST_F(LaunchLimits, LocalMemoryBeyondTheDeviceIsOutOfResourcesAtEnqueue) {
  cl_ulong localMem = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof localMem, &localMem, nullptr),
            CL_SUCCESS);
  cl_mem out = bufferOf(std::vector<int>{0});
  cl_kernel k = kernel(program, "two_locals");
  setArg(k, 0, out);
  const size_t one = 1;
  auto launch = [&](size_t a, size_t b) {
    EXPECT_EQ(clSetKernelArg(k, 1, a, nullptr), CL_SUCCESS);
    EXPECT_EQ(clSetKernelArg(k, 2, b, nullptr), CL_SUCCESS);
    const cl_int err =
        clEnqueueNDRangeKernel(queue, k, 1, nullptr, &one, &one, 0, nullptr, nullptr);
    EXPECT_EQ(clFinish(queue), CL_SUCCESS);
    return err;
  };
  EXPECT_EQ(launch(localMem / 2, localMem / 2), CL_SUCCESS);
  EXPECT_EQ(read<int>(out, 1)[0], 3);
  EXPECT_EQ(launch(localMem, 4), CL_OUT_OF_RESOURCES);
  EXPECT_EQ(launch(size_t(1) << 63, size_t(1) << 63), CL_OUT_OF_RESOURCES);  // sum 0 mod 2^64
  EXPECT_EQ(launch(SIZE_MAX, 2), CL_OUT_OF_RESOURCES);
  // CL_KERNEL_LOCAL_MEM_SIZE saturates instead of wrapping too.
  cl_ulong used = 0;
  EXPECT_EQ(
      clGetKernelWorkGroupInfo(k, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof used, &used, nullptr),
      CL_SUCCESS);
  EXPECT_GT(used, localMem);
}

TEST_F(LaunchLimits, BuffersBeyondTheLargestAllocationAreAnInvalidSize) {
  cl_ulong maxAlloc = 0;
  ASSERT_EQ(
      clGetDeviceInfo(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof maxAlloc, &maxAlloc, nullptr),
      CL_SUCCESS);
  for (size_t size : {size_t(maxAlloc) + 1, SIZE_MAX}) {
    cl_int err = CL_SUCCESS;
    EXPECT_EQ(clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
  }
}

}  // namespace
}  // namespace spvsim::rt::test
