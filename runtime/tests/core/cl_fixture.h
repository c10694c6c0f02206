// Common setup of the core host tests: the spvsim platform and device, a context and
// an in-order queue, all through the real ICD loader.
#pragma once

#include "runtime/tests/icd_test_env.h"
// (icd_test_env.h first: it selects the ICD and the OpenCL header version.)
#include <CL/cl_icd.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace spvsim::rt::test {

inline cl_platform_id spvsimPlatform() {
  cl_platform_id p = nullptr;
  cl_uint n = 0;
  EXPECT_EQ(clGetPlatformIDs(1, &p, &n), CL_SUCCESS);
  EXPECT_EQ(n, 1u);
  return p;
}

inline cl_device_id spvsimDevice() {
  cl_device_id d = nullptr;
  EXPECT_EQ(clGetDeviceIDs(spvsimPlatform(), CL_DEVICE_TYPE_ALL, 1, &d, nullptr), CL_SUCCESS);
  return d;
}

// The dispatch table an ICD object starts with (CL/cl_icd.h).
inline const cl_icd_dispatch* dispatchOf(const void* handle) {
  return *static_cast<const cl_icd_dispatch* const*>(handle);
}

inline std::string deviceString(cl_device_id d, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, param, 0, nullptr, &size), CL_SUCCESS);
  std::string s(size, '\0');
  EXPECT_EQ(clGetDeviceInfo(d, param, size, s.data(), nullptr), CL_SUCCESS);
  if (!s.empty()) s.pop_back();  // the terminating NUL
  return s;
}

template <class T>
T deviceValue(cl_device_id d, cl_device_info param) {
  T v{};
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, param, sizeof v, &v, &size), CL_SUCCESS);
  EXPECT_EQ(size, sizeof v);
  return v;
}

template <class T>
std::vector<T> deviceVector(cl_device_id d, cl_device_info param) {
  size_t size = 0;
  EXPECT_EQ(clGetDeviceInfo(d, param, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size % sizeof(T), 0u);
  std::vector<T> v(size / sizeof(T));
  EXPECT_EQ(clGetDeviceInfo(d, param, size, v.data(), nullptr), CL_SUCCESS);
  return v;
}

// A context and an in-order queue on the spvsim device.
class ClTest : public ::testing::Test {
 protected:
  void SetUp() override {
    platform = spvsimPlatform();
    device = spvsimDevice();
    cl_int err = CL_INVALID_VALUE;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
  }
  void TearDown() override {
    if (queue) EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    if (context) EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
  }

  cl_mem buffer(size_t size, cl_mem_flags flags = CL_MEM_READ_WRITE, void* host = nullptr) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem m = clCreateBuffer(context, flags, size, host, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return m;
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
};

}  // namespace spvsim::rt::test
