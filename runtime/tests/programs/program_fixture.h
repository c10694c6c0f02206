// Common setup of the programs-and-kernels host tests: the spvsim platform, device,
// a context and an in-order queue through the real ICD loader, and helpers to build
// programs, run kernels and read buffers.
#pragma once

#include "runtime/tests/icd_test_env.h"
// (icd_test_env.h first: it selects the ICD and the OpenCL header version.)
#include <CL/cl_icd.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "src/compiler/compile_driver.h"

namespace spvsim::rt::test {

// OpenCL C compiled by the compile driver the ICD uses, outside the ICD (SPIR-V for
// clCreateProgramWithIL and binaries "from elsewhere").
inline compiler::CompileResult compileSource(const std::string& source,
                                             const std::string& options) {
  return compiler::compileOpenCL({.source = source, .options = options});
}

// A file of the test's runfiles, by its workspace-relative path.
inline std::string runfile(const std::string& path) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  return std::string(srcdir ? srcdir : ".") + "/" + (workspace ? workspace : "spvsim") + "/" + path;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The dispatch table an ICD object starts with: calling through it reaches the ICD
// without the loader, so that tests can pass handles the loader would dereference.
inline const cl_icd_dispatch* dispatchOf(const void* handle) {
  return *static_cast<const cl_icd_dispatch* const*>(handle);
}

// A pointer that is no OpenCL object (the ICD must reject it without dereferencing).
template <class T>
T bogus() {
  static int notAnObject = 0;
  return reinterpret_cast<T>(&notAnObject);
}

class ProgramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    cl_uint n = 0;
    ASSERT_EQ(clGetPlatformIDs(1, &platform, &n), CL_SUCCESS);
    ASSERT_EQ(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), CL_SUCCESS);
    cl_int err = CL_INVALID_VALUE;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
  }
  void TearDown() override {
    for (cl_kernel k : kernels_) clReleaseKernel(k);
    for (cl_program p : programs_) clReleaseProgram(p);
    for (cl_mem m : buffers_) clReleaseMemObject(m);
    if (queue) {
      EXPECT_EQ(clReleaseCommandQueue(queue), CL_SUCCESS);
    }
    if (context) {
      EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
    }
  }

  const cl_icd_dispatch* icd() const { return dispatchOf(context); }

  // A program from source, released at the end of the test.
  cl_program source(const std::string& text) {
    const char* s = text.c_str();
    cl_int err = CL_INVALID_VALUE;
    cl_program p = clCreateProgramWithSource(context, 1, &s, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return own(p);
  }

  cl_program il(const std::vector<uint32_t>& words) {
    cl_int err = CL_INVALID_VALUE;
    cl_program p = clCreateProgramWithIL(context, words.data(), words.size() * 4, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return own(p);
  }

  cl_program own(cl_program p) {
    if (p) programs_.push_back(p);
    return p;
  }

  std::string buildLog(cl_program p) {
    size_t size = 0;
    EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size),
              CL_SUCCESS);
    std::string log(size, '\0');
    EXPECT_EQ(clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr),
              CL_SUCCESS);
    if (!log.empty()) log.pop_back();
    return log;
  }

  // Source built with `options`; the test fails (showing the log) if the build does.
  cl_program built(const std::string& text, const std::string& options = "-cl-std=CL3.0") {
    cl_program p = source(text);
    const cl_int err = clBuildProgram(p, 0, nullptr, options.c_str(), nullptr, nullptr);
    EXPECT_EQ(err, CL_SUCCESS) << buildLog(p);
    return p;
  }

  cl_kernel kernel(cl_program p, const char* name) {
    cl_int err = CL_INVALID_VALUE;
    cl_kernel k = clCreateKernel(p, name, &err);
    EXPECT_EQ(err, CL_SUCCESS) << name;
    if (k) kernels_.push_back(k);
    return k;
  }

  cl_mem buffer(size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE, void* host = nullptr) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem m = clCreateBuffer(context, flags, bytes, host, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    if (m) buffers_.push_back(m);
    return m;
  }

  template <class T>
  cl_mem bufferOf(const std::vector<T>& values) {
    return buffer(values.size() * sizeof(T), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                  const_cast<T*>(values.data()));
  }

  template <class T>
  std::vector<T> read(cl_mem m, size_t count) {
    std::vector<T> v(count);
    EXPECT_EQ(
        clEnqueueReadBuffer(queue, m, CL_TRUE, 0, count * sizeof(T), v.data(), 0, nullptr, nullptr),
        CL_SUCCESS);
    return v;
  }

  template <class T>
  void setArg(cl_kernel k, cl_uint index, const T& value) {
    ASSERT_EQ(clSetKernelArg(k, index, sizeof(T), &value), CL_SUCCESS) << "argument " << index;
  }

  // Runs a 1-D NDRange to completion.
  void run(cl_kernel k, size_t global, size_t local = 0) {
    ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, local ? &local : nullptr, 0,
                                     nullptr, nullptr),
              CL_SUCCESS);
    ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  }

  template <class T>
  T programInfo(cl_program p, cl_program_info param) {
    T v{};
    EXPECT_EQ(clGetProgramInfo(p, param, sizeof v, &v, nullptr), CL_SUCCESS);
    return v;
  }

  std::string programString(cl_program p, cl_program_info param) {
    size_t size = 0;
    EXPECT_EQ(clGetProgramInfo(p, param, 0, nullptr, &size), CL_SUCCESS);
    std::string s(size, '\0');
    EXPECT_EQ(clGetProgramInfo(p, param, size, s.data(), nullptr), CL_SUCCESS);
    if (!s.empty()) s.pop_back();
    return s;
  }

  template <class T>
  T buildInfo(cl_program p, cl_program_build_info param) {
    T v{};
    EXPECT_EQ(clGetProgramBuildInfo(p, device, param, sizeof v, &v, nullptr), CL_SUCCESS);
    return v;
  }

  // The program's one binary (CL_PROGRAM_BINARIES).
  std::vector<unsigned char> binaryOf(cl_program p) {
    size_t size = 0;
    EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr),
              CL_SUCCESS);
    std::vector<unsigned char> bytes(size);
    unsigned char* ptr = bytes.data();
    EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr), CL_SUCCESS);
    return bytes;
  }

  cl_program fromBinary(const std::vector<unsigned char>& bytes) {
    const unsigned char* ptr = bytes.data();
    const size_t size = bytes.size();
    cl_int status = CL_INVALID_VALUE, err = CL_INVALID_VALUE;
    cl_program p = clCreateProgramWithBinary(context, 1, &device, &size, &ptr, &status, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(status, CL_SUCCESS);
    return own(p);
  }

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;

 private:
  std::vector<cl_kernel> kernels_;
  std::vector<cl_program> programs_;
  std::vector<cl_mem> buffers_;
};

}  // namespace spvsim::rt::test
