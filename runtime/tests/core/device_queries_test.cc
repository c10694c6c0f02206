// Device queries the conformance suites check, with values from the specs: the double
// rounding modes cl_khr_fp64 requires, the clock, Intel's sub-group sizes with
// intel_reqd_sub_group_size choosing per kernel (and the kernel queries that follow
// from it), and cl_ext_float_atomics' capabilities.
#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "runtime/tests/core/cl_fixture.h"

namespace spvsim::rt::test {
namespace {

size_t configuredSubGroupSize() {
  const char* env = std::getenv("SPVSIM_SUB_GROUP_SIZE");
  return env && *env ? std::strtoul(env, nullptr, 0) : 16;
}

bool hasWord(const std::string& list, const std::string& word) {
  size_t at = 0;
  while ((at = list.find(word, at)) != std::string::npos) {
    const size_t end = at + word.size();
    if ((at == 0 || list[at - 1] == ' ') && (end == list.size() || list[end] == ' ')) return true;
    at = end;
  }
  return false;
}

TEST(DeviceQueries, DoubleRoundingModesAsCtsExpects) {
  // OpenCL 3.0 API, CL_DEVICE_DOUBLE_FP_CONFIG: the minimum for a device with double.
  const cl_device_fp_config want = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                                   CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
  EXPECT_EQ(deviceValue<cl_device_fp_config>(spvsimDevice(), CL_DEVICE_DOUBLE_FP_CONFIG), want);
}

TEST(DeviceQueries, ClockAndConformanceVersion) {
  cl_device_id d = spvsimDevice();
  EXPECT_GT(deviceValue<cl_uint>(d, CL_DEVICE_MAX_CLOCK_FREQUENCY), 0u);
  // vYYYY-MM-DD-XX (OpenCL 3.0 API); spvsim has passed no conformance run.
  EXPECT_EQ(deviceString(d, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED), "v0000-01-01-00");
}

TEST(DeviceQueries, IntelSubGroupSizes) {
  cl_device_id d = spvsimDevice();
  std::vector<size_t> want{8, 16, 32};
  if (!std::count(want.begin(), want.end(), configuredSubGroupSize()))
    want.push_back(configuredSubGroupSize());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(deviceVector<size_t>(d, CL_DEVICE_SUB_GROUP_SIZES_INTEL), want);
  // A largest work-group (1024) at the smallest size any kernel may use.
  EXPECT_EQ(deviceValue<cl_uint>(d, CL_DEVICE_MAX_NUM_SUB_GROUPS),
            cl_uint((1024 + want.front() - 1) / want.front()));
}

TEST(DeviceQueries, FloatAtomicsCapabilities) {
  cl_device_id d = spvsimDevice();
  EXPECT_TRUE(hasWord(deviceString(d, CL_DEVICE_EXTENSIONS), "cl_ext_float_atomics"));
  // CL_DEVICE_{SINGLE,DOUBLE,HALF}_FP_ATOMIC_CAPABILITIES_EXT: global and local
  // load/store (bits 0, 16), add (1, 17) and min/max (2, 18) for float and double.
  const cl_bitfield all = 0x7 | (0x7 << 16);
  EXPECT_EQ(deviceValue<cl_bitfield>(d, 0x4231), all);
  EXPECT_EQ(deviceValue<cl_bitfield>(d, 0x4232), all);
  EXPECT_EQ(deviceValue<cl_bitfield>(d, 0x4233), cl_bitfield{0});
  for (const char* e : {"cl_khr_expect_assume", "cl_khr_spirv_no_integer_wrap_decoration"})
    EXPECT_TRUE(hasWord(deviceString(d, CL_DEVICE_EXTENSIONS), e)) << e;
}

// intel_reqd_sub_group_size(N) chooses the kernel's size; the queries agree with what
// the kernel observes.
class ReqdSubGroupSize : public ClTest {};

TEST_F(ReqdSubGroupSize, ChoosesPerKernel) {
  const char* source = R"(
    __attribute__((intel_reqd_sub_group_size(32)))
    kernel void wide(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); }
    __attribute__((intel_reqd_sub_group_size(8)))
    kernel void narrow(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); }
    kernel void plain(global uint* out) { out[get_global_id(0)] = get_sub_group_size(); })";
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  if (err != CL_SUCCESS ||
      clBuildProgram(program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr) != CL_SUCCESS)
    GTEST_SKIP() << "programs from source are not available";
  cl_mem out = buffer(64 * sizeof(cl_uint));
  for (auto [name, width] : {std::pair{"wide", size_t(32)}, std::pair{"narrow", size_t(8)},
                             std::pair{"plain", configuredSubGroupSize()}}) {
    cl_kernel k = clCreateKernel(program, name, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    size_t compiled = 99, maxSize = 0, maxNum = 0;
    cl_ulong spillBytes = 99;
    const size_t local = 64;
    ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                      sizeof compiled, &compiled, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(compiled, std::string(name) == "plain" ? 0 : width) << name;
    ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                      sizeof local, &local, sizeof maxSize, &maxSize, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(maxSize, width) << name;
    ASSERT_EQ(clGetKernelSubGroupInfo(k, device, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                      sizeof maxNum, &maxNum, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(maxNum, (1024 + width - 1) / width) << name;
    EXPECT_LE(maxNum, deviceValue<cl_uint>(device, CL_DEVICE_MAX_NUM_SUB_GROUPS)) << name;
    ASSERT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_SPILL_MEM_SIZE_INTEL, sizeof spillBytes,
                                       &spillBytes, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(spillBytes, 0u);
    ASSERT_EQ(clSetKernelArg(k, 0, sizeof out, &out), CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &local, &local, 0, nullptr, nullptr),
              CL_SUCCESS);
    std::vector<cl_uint> seen(64);
    ASSERT_EQ(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, 64 * sizeof(cl_uint), seen.data(), 0,
                                  nullptr, nullptr),
              CL_SUCCESS);
    EXPECT_EQ(seen, std::vector<cl_uint>(64, cl_uint(width))) << name;
    clReleaseKernel(k);
  }
  clReleaseMemObject(out);
  clReleaseProgram(program);
}

}  // namespace
}  // namespace spvsim::rt::test
