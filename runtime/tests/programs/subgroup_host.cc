// A plain OpenCL host program (no spvsim code: only the OpenCL API through the ICD
// loader) that runs subgroup_kernel.cl's reduce_shuffle, a kernel using
// sub_group_reduce_add and intel_sub_group_shuffle, and prints its buffers the way
// `spvsim run --dump` does, so that subgroup_host_test.py can compare the two.
//
//   subgroup_host KERNEL.cl GLOBAL LOCAL DELTA     (GLOBAL, LOCAL: X[,Y[,Z]])
//
// The input is in[i] = -50 + 3 i (spvsim run's range(-50,3)). Exit status 0, or 1 with a
// message on stderr for any OpenCL error.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

void check(cl_int err, const char* what) {
  if (err == CL_SUCCESS) return;
  std::fprintf(stderr, "subgroup_host: %s failed with %d\n", what, err);
  std::exit(1);
}

std::vector<size_t> sizes(const char* text) {
  std::vector<size_t> v;
  std::stringstream s(text);
  for (std::string part; std::getline(s, part, ',');) v.push_back(std::stoul(part));
  return v;
}

std::string readFile(const char* path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void dump(int index, const std::vector<cl_int>& values) {
  std::printf("arg%d int[%zu] =", index, values.size());
  for (cl_int v : values) std::printf(" %d", v);
  std::printf("\n");
}

cl_program buildProgram(cl_context context, cl_device_id device, const std::string& source) {
  const char* text = source.c_str();
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &err);
  check(err, "clCreateProgramWithSource");
  err = clBuildProgram(program, 1, &device, "-cl-std=CL3.0", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    char log[16384] = {};
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, nullptr);
    std::fprintf(stderr, "%s\n", log);
  }
  check(err, "clBuildProgram");
  return program;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: subgroup_host KERNEL.cl GLOBAL LOCAL DELTA\n");
    return 1;
  }
  const std::vector<size_t> global = sizes(argv[2]), local = sizes(argv[3]);
  const cl_uint delta = static_cast<cl_uint>(std::stoul(argv[4]));
  size_t items = 1;
  for (size_t g : global) items *= g;

  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
  check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
  cl_int err = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  check(err, "clCreateCommandQueueWithProperties");
  cl_program program = buildProgram(context, device, readFile(argv[1]));
  cl_kernel kernel = clCreateKernel(program, "reduce_shuffle", &err);
  check(err, "clCreateKernel");

  std::vector<cl_int> in(items), sums(items), rotated(items);
  for (size_t i = 0; i < items; ++i) in[i] = -50 + 3 * static_cast<cl_int>(i);
  const size_t bytes = items * sizeof(cl_int);
  cl_mem inBuf =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, in.data(), &err);
  check(err, "clCreateBuffer");
  cl_mem sumBuf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  check(err, "clCreateBuffer");
  cl_mem rotBuf = clCreateBuffer(context, CL_MEM_WRITE_ONLY, bytes, nullptr, &err);
  check(err, "clCreateBuffer");
  check(clSetKernelArg(kernel, 0, sizeof inBuf, &inBuf), "clSetKernelArg");
  check(clSetKernelArg(kernel, 1, sizeof sumBuf, &sumBuf), "clSetKernelArg");
  check(clSetKernelArg(kernel, 2, sizeof rotBuf, &rotBuf), "clSetKernelArg");
  check(clSetKernelArg(kernel, 3, sizeof delta, &delta), "clSetKernelArg");
  check(clEnqueueNDRangeKernel(queue, kernel, static_cast<cl_uint>(global.size()), nullptr,
                               global.data(), local.data(), 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  check(clEnqueueReadBuffer(queue, sumBuf, CL_TRUE, 0, bytes, sums.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  check(clEnqueueReadBuffer(queue, rotBuf, CL_TRUE, 0, bytes, rotated.data(), 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
  dump(0, in);
  dump(1, sums);
  dump(2, rotated);

  for (cl_mem m : {inBuf, sumBuf, rotBuf}) clReleaseMemObject(m);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
