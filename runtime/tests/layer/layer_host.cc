// A plain OpenCL host program (links only the ICD loader) for the layer's tests, here
// over PoCL and on other machines over their drivers: it runs one scenario on the first
// device of the platform whose name contains PLATFORM and prints what the device
// computed, one line per element, then "status OK" or what failed. It never looks at what
// the layer reports: the tests compare its output with and without the layer (the layer
// must not change the application's results) and read the layer's diagnostics.
//
//   layer_host SCENARIO [--platform NAME] [--il FILE.spv]
//
// Scenarios (kernels in kSource; with --il the program is that module instead):
//   correct   c[i] = a[i] * 3 + b[i] over 64 ints in work-groups of 16 (checked here)
//   oob       y[i] = x[i + 4]: the last 4 work-items read past x's 64 ints
//   wo        y[i] = y[i] + 1 on a CL_MEM_WRITE_ONLY buffer: the kernel reads it
//   partial   out[i] = get_sub_group_size() with intel_reqd_sub_group_size(16), one
//             work-group of 20: sub-groups of 16 and 4 (checked here against the spec)
//   subbuffer c[i] = a[i] * 3 + b[i] on windows of one buffer (sub-buffers)
//   userevent `correct` gated by a user event set after the enqueue, then once more
//             ungated (the layer must not block the first: it would wait for the host)
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

const char* kSource = R"(
kernel void correct(global const int *a, global const int *b, global int *c) {
  size_t i = get_global_id(0);
  c[i] = a[i] * 3 + b[i];
}
kernel void oob(global const int *x, global int *y) {
  size_t i = get_global_id(0);
  y[i] = x[i + 4];
}
kernel void wo(global int *y) {
  size_t i = get_global_id(0);
  y[i] = y[i] + 1;
}
#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)
#ifdef cl_intel_required_subgroup_size
__attribute__((intel_reqd_sub_group_size(16)))
#endif
kernel void partial(global uint *out) {
  out[get_global_id(0)] = get_sub_group_size();
}
#endif
)";

struct Host {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
  cl_program program = nullptr;
};

[[noreturn]] void fail(const std::string& what, cl_int err) {
  std::printf("status FAILED: %s (%d)\n", what.c_str(), err);
  std::exit(1);
}

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) fail(what, err);
}

Host open(const std::string& platformName, const std::string& il) {
  cl_uint n = 0;
  check(clGetPlatformIDs(0, nullptr, &n), "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(n);
  check(clGetPlatformIDs(n, platforms.data(), nullptr), "clGetPlatformIDs");
  Host h;
  for (cl_platform_id p : platforms) {
    char name[256] = {};
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name, name, nullptr);
    if (std::string(name).find(platformName) == std::string::npos) continue;
    if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &h.device, nullptr) != CL_SUCCESS) continue;
    std::fprintf(stderr, "layer_host: platform %s\n", name);
    break;
  }
  if (!h.device) fail("no platform named " + platformName, 0);
  cl_int err = CL_SUCCESS;
  h.context = clCreateContext(nullptr, 1, &h.device, nullptr, nullptr, &err);
  check(err, "clCreateContext");
  h.queue = clCreateCommandQueueWithProperties(h.context, h.device, nullptr, &err);
  check(err, "clCreateCommandQueueWithProperties");
  if (il.empty()) {
    h.program = clCreateProgramWithSource(h.context, 1, &kSource, nullptr, &err);
  } else {
    std::ifstream in(il, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), {}};
    if (bytes.empty()) fail("cannot read " + il, 0);
    h.program = clCreateProgramWithIL(h.context, bytes.data(), bytes.size(), &err);
  }
  check(err, "creating the program");
  err = clBuildProgram(h.program, 1, &h.device, "-cl-std=CL3.0", nullptr, nullptr);
  if (err != CL_SUCCESS) {
    char log[8192] = {};
    clGetProgramBuildInfo(h.program, h.device, CL_PROGRAM_BUILD_LOG, sizeof log, log, nullptr);
    std::fprintf(stderr, "%s\n", log);
    fail("clBuildProgram", err);
  }
  return h;
}

cl_mem buffer(const Host& h, cl_mem_flags flags, std::vector<int>& values) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(h.context, flags | CL_MEM_COPY_HOST_PTR, values.size() * sizeof(int),
                            values.data(), &err);
  check(err, "clCreateBuffer");
  return m;
}

std::vector<int> run(const Host& h, const char* name, const std::vector<cl_mem>& args,
                     cl_mem result, size_t count, size_t global, size_t local) {
  cl_int err = CL_SUCCESS;
  cl_kernel k = clCreateKernel(h.program, name, &err);
  check(err, "clCreateKernel");
  for (cl_uint i = 0; i < args.size(); ++i)
    check(clSetKernelArg(k, i, sizeof(cl_mem), &args[i]), "clSetKernelArg");
  check(clEnqueueNDRangeKernel(h.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
        "clEnqueueNDRangeKernel");
  std::vector<int> out(count);
  check(clEnqueueReadBuffer(h.queue, result, CL_TRUE, 0, count * sizeof(int), out.data(), 0,
                            nullptr, nullptr),
        "clEnqueueReadBuffer");
  clReleaseKernel(k);
  return out;
}

void print(const std::vector<int>& values) {
  for (size_t i = 0; i < values.size(); ++i) std::printf("%zu %d\n", i, values[i]);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: layer_host correct|oob|wo|partial|subbuffer|userevent "
                 "[--platform NAME] [--il FILE.spv]\n");
    return 2;
  }
  const std::string scenario = argv[1];
  std::string platform, il;
  for (int i = 2; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--platform") == 0) platform = argv[i + 1];
    if (std::strcmp(argv[i], "--il") == 0) il = argv[i + 1];
  }
  const Host h = open(platform, il);
  std::vector<int> a(64), b(64), zero(64, 0);
  for (int i = 0; i < 64; ++i) a[i] = i, b[i] = 1000 - 7 * i;
  bool ok = true;
  if (scenario == "correct") {
    const cl_mem ma = buffer(h, CL_MEM_READ_ONLY, a), mb = buffer(h, CL_MEM_READ_ONLY, b),
                 mc = buffer(h, CL_MEM_READ_WRITE, zero);
    const std::vector<int> c = run(h, "correct", {ma, mb, mc}, mc, 64, 64, 16);
    print(c);
    for (int i = 0; i < 64; ++i) ok = ok && c[i] == a[i] * 3 + b[i];
  } else if (scenario == "subbuffer") {
    // One buffer of 3 windows of 64 ints (each 256 bytes: aligned for any device).
    std::vector<int> all(192, 0);
    std::copy(a.begin(), a.end(), all.begin());
    std::copy(b.begin(), b.end(), all.begin() + 64);
    const cl_mem whole = buffer(h, CL_MEM_READ_WRITE, all);
    cl_mem windows[3];
    for (int w = 0; w < 3; ++w) {
      const cl_buffer_region region{size_t(w) * 256, 256};
      cl_int err = CL_SUCCESS;
      windows[w] =
          clCreateSubBuffer(whole, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
      check(err, "clCreateSubBuffer");
    }
    const std::vector<int> c =
        run(h, "correct", {windows[0], windows[1], windows[2]}, windows[2], 64, 64, 16);
    print(c);
    for (int i = 0; i < 64; ++i) ok = ok && c[i] == a[i] * 3 + b[i];
  } else if (scenario == "userevent") {
    const cl_mem ma = buffer(h, CL_MEM_READ_ONLY, a), mb = buffer(h, CL_MEM_READ_ONLY, b),
                 mc = buffer(h, CL_MEM_READ_WRITE, zero);
    cl_int err = CL_SUCCESS;
    cl_kernel k = clCreateKernel(h.program, "correct", &err);
    check(err, "clCreateKernel");
    for (cl_uint i = 0; i < 3; ++i) {
      const cl_mem m = i == 0 ? ma : i == 1 ? mb : mc;
      check(clSetKernelArg(k, i, sizeof m, &m), "clSetKernelArg");
    }
    cl_event gate = clCreateUserEvent(h.context, &err);
    check(err, "clCreateUserEvent");
    const size_t global = 64, local = 16;
    check(clEnqueueNDRangeKernel(h.queue, k, 1, nullptr, &global, &local, 1, &gate, nullptr),
          "clEnqueueNDRangeKernel gated");
    check(clSetUserEventStatus(gate, CL_COMPLETE), "clSetUserEventStatus");
    check(clEnqueueNDRangeKernel(h.queue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
          "clEnqueueNDRangeKernel");
    std::vector<int> c(64);
    check(clEnqueueReadBuffer(h.queue, mc, CL_TRUE, 0, 64 * sizeof(int), c.data(), 0, nullptr,
                              nullptr),
          "clEnqueueReadBuffer");
    print(c);
    for (int i = 0; i < 64; ++i) ok = ok && c[i] == a[i] * 3 + b[i];
    clReleaseEvent(gate);
    clReleaseKernel(k);
  } else if (scenario == "oob") {
    const cl_mem mx = buffer(h, CL_MEM_READ_ONLY, a), my = buffer(h, CL_MEM_READ_WRITE, zero);
    print(run(h, "oob", {mx, my}, my, 60, 64, 16));  // the in-bounds part is defined
  } else if (scenario == "wo") {
    const cl_mem my = buffer(h, CL_MEM_WRITE_ONLY, a);
    print(run(h, "wo", {my}, my, 64, 64, 16));
  } else if (scenario == "partial") {
    cl_int err = CL_SUCCESS;
    cl_kernel probe = clCreateKernel(h.program, "partial", &err);
    if (!probe) {
      std::printf("status SKIPPED: the device has no sub-groups\n");
      return 0;
    }
    clReleaseKernel(probe);
    const cl_mem out = buffer(h, CL_MEM_READ_WRITE, zero);
    const std::vector<int> s = run(h, "partial", {out}, out, 20, 20, 20);
    print(s);
    // OpenCL C 3.0 get_sub_group_size: "the number of work-items in the sub-group", and
    // only the last sub-group of a work-group may be smaller: 16 of 16, then 4 of 4.
    for (int i = 0; i < 20; ++i) ok = ok && s[i] == (i < 16 ? 16 : 4);
  } else {
    std::fprintf(stderr, "layer_host: unknown scenario %s\n", scenario.c_str());
    return 2;
  }
  std::printf("status %s\n", ok ? "OK" : "WRONG (the device's values differ from the spec's)");
  return 0;
}
