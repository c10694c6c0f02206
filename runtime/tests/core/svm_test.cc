// Shared virtual memory through the ICD: clSVMAlloc's argument rules, SVM commands and
// their errors, kernel arguments set as SVM pointers (anywhere inside an allocation) and
// clSetKernelExecInfo, as the OpenCL 3.0 API spec states them for a device with
// coarse- and fine-grained buffer SVM and neither SVM atomics nor system SVM.
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "runtime/tests/core/cl_fixture.h"

namespace spvsim::rt::test {
namespace {

class SvmTest : public ClTest {
 protected:
  void TearDown() override {
    for (void* p : allocations) clSVMFree(context, p);
    if (kernel) clReleaseKernel(kernel);
    if (program) clReleaseProgram(program);
    ClTest::TearDown();
  }
  void* alloc(size_t size, cl_svm_mem_flags flags = CL_MEM_READ_WRITE, cl_uint align = 0) {
    void* p = clSVMAlloc(context, flags, size, align);
    if (p) allocations.push_back(p);
    return p;
  }
  // Builds `source` and its kernel `name`; false (the test skips) without a compiler.
  bool build(const char* source, const char* name) {
    cl_int err = CL_SUCCESS;
    program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
    if (err != CL_SUCCESS ||
        clBuildProgram(program, 1, &device, "-cl-std=CL2.0", nullptr, nullptr) != CL_SUCCESS)
      return false;
    kernel = clCreateKernel(program, name, &err);
    return err == CL_SUCCESS;
  }

  std::vector<void*> allocations;
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
};

TEST_F(SvmTest, DeviceReportsBufferSvmOnly) {
  EXPECT_EQ(deviceValue<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES),
            cl_device_svm_capabilities(CL_DEVICE_SVM_COARSE_GRAIN_BUFFER |
                                       CL_DEVICE_SVM_FINE_GRAIN_BUFFER));
}

TEST_F(SvmTest, AllocRules) {
  auto* p = static_cast<uint8_t*>(alloc(1000));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 128, 0u);  // alignment 0: the largest type's
  for (size_t i = 0; i < 1000; ++i) ASSERT_EQ(p[i], 0) << i;
  std::memset(p, 7, 1000);  // host-accessible memory
  auto* q = alloc(64, CL_MEM_READ_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER, 4096);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(q) % 4096, 0u);
  // SVM atomics are not supported: "returns NULL if ... values specified in flags are
  // not supported".
  EXPECT_EQ(alloc(64, CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS), nullptr);
  EXPECT_EQ(alloc(64, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY), nullptr);
  EXPECT_EQ(alloc(0), nullptr);
  EXPECT_EQ(alloc(64, CL_MEM_READ_WRITE, 3), nullptr);  // not a power of two
  EXPECT_EQ(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0), nullptr);
  cl_ulong maxAlloc = deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(alloc(maxAlloc + 1), nullptr);
  clSVMFree(context, nullptr);  // nothing happens
}

TEST_F(SvmTest, CommandsCopyFillAndMap) {
  auto* a = static_cast<int32_t*>(alloc(64 * 4));
  auto* b = static_cast<int32_t*>(alloc(64 * 4, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER));
  ASSERT_TRUE(a && b);
  ASSERT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_WRITE, a, 256, 0, nullptr, nullptr), CL_SUCCESS);
  for (int i = 0; i < 64; ++i) a[i] = i * 3;
  ASSERT_EQ(clEnqueueSVMUnmap(queue, a, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, b, a, 256, 0, nullptr, nullptr), CL_SUCCESS);
  for (int i = 0; i < 64; ++i) ASSERT_EQ(b[i], i * 3);
  const uint16_t pattern = 0xbeef;
  ASSERT_EQ(clEnqueueSVMMemFill(queue, b + 2, &pattern, 2, 8, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(uint32_t(b[1]), 3u);
  EXPECT_EQ(uint32_t(b[2]), 0xbeefbeefu);
  EXPECT_EQ(uint32_t(b[3]), 0xbeefbeefu);
  EXPECT_EQ(b[4], 12);
  const void* both[] = {a, b + 1};
  const size_t sizes[] = {0, 8};  // 0: the whole allocation
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 2, both, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr,
                                   nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
}

TEST_F(SvmTest, CommandErrors) {
  auto* a = static_cast<uint8_t*>(alloc(256));
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, a + 8, a, 16, 0, nullptr, nullptr),
            CL_MEM_COPY_OVERLAP);
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, nullptr, a, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const uint32_t pattern = 1;
  EXPECT_EQ(clEnqueueSVMMemFill(queue, a + 2, &pattern, 4, 8, 0, nullptr, nullptr),
            CL_INVALID_VALUE);  // not aligned to the pattern
  EXPECT_EQ(clEnqueueSVMMemFill(queue, a, &pattern, 4, 6, 0, nullptr, nullptr),
            CL_INVALID_VALUE);  // not a multiple of it
  EXPECT_EQ(clEnqueueSVMMemFill(queue, a, &pattern, 3, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMemFill(queue, a, nullptr, 4, 8, 0, nullptr, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, nullptr, 16, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, a, 16, 0,
                            nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMUnmap(queue, nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);
  void* ptrs[] = {a};
  EXPECT_EQ(clEnqueueSVMFree(queue, 0, ptrs, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const void* none[] = {nullptr};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, none, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const void* some[] = {a};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 0, some, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  const size_t tooBig[] = {257};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, some, tooBig, 0, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, some, nullptr, 0x100, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
}

// clEnqueueSVMFree frees the pointers, or hands them to the callback instead.
TEST_F(SvmTest, EnqueueFree) {
  void* p = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  void* q = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  ASSERT_TRUE(p && q);
  struct Seen {
    cl_command_queue queue = nullptr;
    std::vector<void*> pointers;
  } seen;
  auto callback = [](cl_command_queue queue, cl_uint n, void* ptrs[], void* data) {
    auto* s = static_cast<Seen*>(data);
    s->queue = queue;
    s->pointers.assign(ptrs, ptrs + n);
  };
  void* ptrs[] = {p};
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, ptrs, callback, &seen, 0, nullptr, nullptr), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(seen.queue, queue);
  EXPECT_EQ(seen.pointers, std::vector<void*>{p});
  clSVMFree(context, p);
  void* qs[] = {q};
  cl_event done = nullptr;
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, qs, nullptr, nullptr, 0, nullptr, &done), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  cl_command_type type = 0;
  ASSERT_EQ(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_command_type(CL_COMMAND_SVM_FREE));
  clReleaseEvent(done);
}

TEST_F(SvmTest, KernelArgumentsAndExecInfo) {
  if (!build("kernel void k(global int* a, int v) { a[get_global_id(0)] = v; }", "k"))
    GTEST_SKIP() << "programs from source are not available";
  auto* a = static_cast<int32_t*>(alloc(16 * 4, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER));
  ASSERT_NE(a, nullptr);
  int host[4];
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 0, host), CL_INVALID_ARG_VALUE);  // not SVM
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 2, a), CL_INVALID_ARG_INDEX);
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 1, a), CL_INVALID_ARG_INDEX);  // not a pointer
  // A pointer inside the allocation: the kernel writes a[4..8).
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, a + 4), CL_SUCCESS);
  const int v = 42;
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof v, &v), CL_SUCCESS);
  void* reached[] = {a};
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reached, reached),
            CL_SUCCESS);
  const size_t global = 4;
  ASSERT_EQ(
      clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(a[i], i >= 4 && i < 8 ? 42 : 0) << i;

  cl_bool yes = CL_TRUE, no = CL_FALSE;
  EXPECT_EQ(
      clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
      CL_INVALID_OPERATION);  // no device of the context has fine-grained system SVM
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof no, &no),
            CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(kernel, 0xdead, sizeof yes, &yes), CL_INVALID_VALUE);
  // The empty set (size 0, NULL) clears the list; NULL with a size is an error.
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr), CL_SUCCESS);
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reached, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 0, nullptr),
            CL_INVALID_VALUE);
  // The argument itself still reaches its allocation: a[0..4).
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, a), CL_SUCCESS);
  ASSERT_EQ(
      clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
      CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(a[i], i < 8 ? 42 : 0) << i;
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, reached),
            CL_INVALID_VALUE);
  void* notSvm[] = {host};
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof notSvm, notSvm),
            CL_INVALID_VALUE);
  // Freed SVM memory is no allocation's either.
  void* gone = clSVMAlloc(context, CL_MEM_READ_WRITE, 64, 0);
  ASSERT_NE(gone, nullptr);
  clSVMFree(context, gone);
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 0, gone), CL_INVALID_ARG_VALUE);
  void* freed[] = {gone};
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof freed, freed),
            CL_INVALID_VALUE);
}

// A launch queued behind a clEnqueueSVMFree of its argument's memory binds the
// allocations live when it runs: the freed one is none of them, so the kernel's stores
// through the stale pointer reach no memory (a diagnostic, not a host fault), and the
// other allocations keep their bytes.
TEST_F(SvmTest, LaunchQueuedBehindAFreeReachesNoFreedMemory) {
  if (!build("kernel void k(global int* a, int v) { a[get_global_id(0)] = v; }", "k"))
    GTEST_SKIP() << "programs from source are not available";
  auto* other = static_cast<int32_t*>(alloc(16 * 4));
  void* gone = clSVMAlloc(context, CL_MEM_READ_WRITE, 4096, 0);
  ASSERT_TRUE(other && gone);
  ASSERT_EQ(clSetKernelArgSVMPointer(kernel, 0, gone), CL_SUCCESS);
  const int v = 42;
  ASSERT_EQ(clSetKernelArg(kernel, 1, sizeof v, &v), CL_SUCCESS);
  cl_int err = CL_SUCCESS;
  cl_event gate = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  void* ptrs[] = {gone};
  ASSERT_EQ(clEnqueueSVMFree(queue, 1, ptrs, nullptr, nullptr, 1, &gate, nullptr), CL_SUCCESS);
  const size_t global = 4;
  cl_event launched = nullptr;
  ASSERT_EQ(
      clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &launched),
      CL_SUCCESS);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &launched), CL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(other[i], 0) << i;
  // The freed memory is free: a new allocation there starts zeroed.
  auto* again = static_cast<int32_t*>(alloc(4096));
  ASSERT_NE(again, nullptr);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(again[i], 0) << i;
  for (cl_event e : {gate, launched}) clReleaseEvent(e);
}

// A buffer over SVM memory (CL_MEM_USE_HOST_PTR) reports CL_MEM_USES_SVM_POINTER.
TEST_F(SvmTest, BufferOverSvm) {
  void* a = alloc(256);
  ASSERT_NE(a, nullptr);
  cl_mem over = buffer(128, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, static_cast<char*>(a) + 64);
  std::vector<char> host(256);
  cl_mem plain = buffer(128, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.data());
  cl_bool uses = CL_FALSE;
  ASSERT_EQ(clGetMemObjectInfo(over, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(uses, cl_bool(CL_TRUE));
  ASSERT_EQ(clGetMemObjectInfo(plain, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(uses, cl_bool(CL_FALSE));
  clReleaseMemObject(over);
  clReleaseMemObject(plain);
}

// The API spec: CL_INVALID_BUFFER_SIZE when host_ptr (CL_MEM_USE_HOST_PTR or
// CL_MEM_COPY_HOST_PTR) is an SVM allocation and size is more than it holds; from a
// pointer into its middle, more than the bytes left to its end.
TEST_F(SvmTest, BufferOverSvmNoLargerThanTheAllocation) {
  auto* a = static_cast<char*>(alloc(256));
  ASSERT_NE(a, nullptr);
  cl_int err = CL_SUCCESS;
  for (cl_mem_flags hostFlag : {CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR}) {
    SCOPED_TRACE(hostFlag == CL_MEM_USE_HOST_PTR ? "USE_HOST_PTR" : "COPY_HOST_PTR");
    EXPECT_EQ(clCreateBuffer(context, hostFlag, 512, a, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    EXPECT_EQ(clCreateBuffer(context, hostFlag, 257, a, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    EXPECT_EQ(clCreateBuffer(context, hostFlag, 193, a + 64, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_BUFFER_SIZE);
    for (auto [at, size] : {std::pair<char*, size_t>{a, 256}, {a + 64, 192}}) {
      cl_mem m = clCreateBuffer(context, hostFlag, size, at, &err);
      EXPECT_EQ(err, CL_SUCCESS);
      if (m) clReleaseMemObject(m);
    }
  }
}

}  // namespace
}  // namespace spvsim::rt::test
