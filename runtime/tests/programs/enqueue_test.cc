// clEnqueueNDRangeKernel and clEnqueueTask through the ICD loader: NDRange geometry
// (offsets, non-uniform work-groups, chosen local sizes), events, printf, buffers
// released while a launch is pending, and the error codes.
#include "runtime/tests/programs/program_fixture.h"
// (the fixture first: it selects the ICD)
#include <fcntl.h>

#include <thread>

namespace spvsim::rt::test {
namespace {

constexpr const char* kKernels = R"(
// Per work-item: global id, local id, group id, local size, enqueued local size,
// global offset, global size and work dimension, in dimension d of a linear slot.
kernel void geometry(global uint* out, uint d) {
  size_t i = get_global_linear_id();
  global uint* o = out + 8 * i;
  o[0] = get_global_id(d); o[1] = get_local_id(d); o[2] = get_group_id(d);
  o[3] = get_local_size(d); o[4] = get_enqueued_local_size(d); o[5] = get_global_offset(d);
  o[6] = get_global_size(d); o[7] = get_work_dim();
}
kernel void add(global int* a, int v) { a[get_global_id(0)] += v; }
kernel __attribute__((reqd_work_group_size(4, 1, 1))) void fixed(global int* a) {
  a[get_global_id(0)] = get_local_size(0);
}
kernel void hello(int tag) { printf("tag %d item %d\n", tag, (int)get_global_id(0)); }
kernel void uses_local(global int* out, local int* scratch) {
  scratch[get_local_id(0)] = 1; out[0] = scratch[0];
}
)";

class EnqueueTest : public ProgramTest {
 protected:
  void SetUp() override {
    ProgramTest::SetUp();
    program = built(kKernels);
  }

  // geometry's eight values for every work-item in dimension d.
  std::vector<uint32_t> geometry(cl_uint dims, std::vector<size_t> global,
                                 std::vector<size_t> offset, const size_t* local, cl_uint d) {
    cl_kernel k = kernel(program, "geometry");
    size_t items = 1;
    for (size_t g : global) items *= g;
    cl_mem out = buffer(items * 32);
    setArg(k, 0, out);
    setArg(k, 1, d);
    EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, dims, offset.empty() ? nullptr : offset.data(),
                                     global.data(), local, 0, nullptr, nullptr),
              CL_SUCCESS);
    return read<uint32_t>(out, items * 8);
  }

  cl_program program = nullptr;
};

TEST_F(EnqueueTest, OffsetsAndNonUniformWorkGroups) {
  // 2-D: global (10, 3) at offset (5, 7), local (4, 2): work-groups of 4, 4, 2 by 2, 1.
  const size_t local[2] = {4, 2};
  for (cl_uint d = 0; d < 2; ++d) {
    const std::vector<uint32_t> v = geometry(2, {10, 3}, {5, 7}, local, d);
    for (size_t y = 0; y < 3; ++y)
      for (size_t x = 0; x < 10; ++x) {
        SCOPED_TRACE(testing::Message() << "d=" << d << " x=" << x << " y=" << y);
        const uint32_t* o = &v[8 * (y * 10 + x)];  // linear id = x + y * 10
        const size_t id = d == 0 ? x : y, size = d == 0 ? 10 : 3, l = local[d];
        const size_t off = d == 0 ? 5 : 7;
        EXPECT_EQ(o[0], off + id);
        EXPECT_EQ(o[1], id % l);
        EXPECT_EQ(o[2], id / l);
        EXPECT_EQ(o[3], std::min(l, size - id / l * l));  // the last group is smaller
        EXPECT_EQ(o[4], l);
        EXPECT_EQ(o[5], off);
        EXPECT_EQ(o[6], size);
        EXPECT_EQ(o[7], 2u);
      }
  }
}

TEST_F(EnqueueTest, ThreeDimensions) {
  const size_t local[3] = {2, 3, 2};
  const std::vector<uint32_t> v = geometry(3, {4, 3, 4}, {}, local, 2);
  for (size_t i = 0; i < 48; ++i) {
    const size_t z = i / 12;
    EXPECT_EQ(v[8 * i], z);
    EXPECT_EQ(v[8 * i + 1], z % 2);
    EXPECT_EQ(v[8 * i + 7], 3u);
  }
}

TEST_F(EnqueueTest, WithoutALocalSizeSpvsimPicksOne) {
  const std::vector<uint32_t> v = geometry(1, {12}, {}, nullptr, 0);
  for (size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(v[8 * i], i);
    EXPECT_EQ(12 % v[8 * i + 3], 0u);  // uniform: a divisor of the global size
  }
  // The required work-group size when the kernel has one.
  cl_kernel k = kernel(program, "fixed");
  cl_mem a = buffer(8 * 4);
  setArg(k, 0, a);
  run(k, 8);
  EXPECT_EQ(read<int>(a, 8), std::vector<int>(8, 4));
}

TEST_F(EnqueueTest, EventsAndWaitLists) {
  cl_kernel k = kernel(program, "add");
  cl_mem a = bufferOf(std::vector<int>{1, 1, 1, 1});
  setArg(k, 0, a);
  setArg(k, 1, 10);
  cl_int err = CL_INVALID_VALUE;
  cl_event gate = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const size_t global = 4;
  cl_event done = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 1, &gate, &done),
            CL_SUCCESS);
  setArg(k, 1, 100);  // arguments are captured when the kernel is enqueued
  cl_int status = 0;
  ASSERT_EQ(
      clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
      CL_SUCCESS);
  EXPECT_GT(status, CL_COMPLETE);  // still waiting for the gate
  cl_command_type type = 0;
  ASSERT_EQ(clGetEventInfo(done, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_command_type{CL_COMMAND_NDRANGE_KERNEL});
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &done), CL_SUCCESS);
  ASSERT_EQ(
      clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
      CL_SUCCESS);
  EXPECT_EQ(status, CL_COMPLETE);
  EXPECT_EQ(read<int>(a, 4), std::vector<int>(4, 11));
  cl_event task = nullptr;
  ASSERT_EQ(clEnqueueTask(queue, k, 1, &done, &task), CL_SUCCESS);  // work-item 0 only
  ASSERT_EQ(clWaitForEvents(1, &task), CL_SUCCESS);
  ASSERT_EQ(clGetEventInfo(task, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr), CL_SUCCESS);
  EXPECT_EQ(type, cl_command_type{CL_COMMAND_TASK});
  EXPECT_EQ(read<int>(a, 4), (std::vector<int>{111, 11, 11, 11}));
  for (cl_event e : {gate, done, task}) clReleaseEvent(e);
}

TEST_F(EnqueueTest, BuffersReleasedWhileALaunchWaitsStayAlive) {
  std::vector<int> host(4, 1);
  cl_int err = CL_INVALID_VALUE;
  cl_mem a =
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, 16, host.data(), &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_kernel k = kernel(program, "add");
  setArg(k, 0, a);
  setArg(k, 1, 5);
  cl_event gate = clCreateUserEvent(context, &err);
  const size_t global = 4;
  ASSERT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 1, &gate, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clReleaseMemObject(a), CL_SUCCESS);  // the pending launch still holds it
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  EXPECT_EQ(host, std::vector<int>(4, 6));
  clReleaseEvent(gate);
}

TEST_F(EnqueueTest, EmptyRangesSucceedTrivially) {
  cl_kernel k = kernel(program, "add");
  cl_mem a = bufferOf(std::vector<int>{1});
  setArg(k, 0, a);
  setArg(k, 1, 1);
  const size_t zero[2] = {0, 4};
  cl_event e = nullptr;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 2, nullptr, zero, nullptr, 0, nullptr, &e),
            CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
            CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  EXPECT_EQ(read<int>(a, 1)[0], 1);
  clReleaseEvent(e);
}

TEST_F(EnqueueTest, PrintfGoesToStdoutInWorkGroupOrder) {
  cl_kernel k = kernel(program, "hello");
  setArg(k, 0, 7);
  std::fflush(stdout);
  const std::string path = ::testing::TempDir() + "/printf.txt";
  const int saved = dup(1);
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0);
  dup2(fd, 1);
  run(k, 4, 2);
  std::fflush(stdout);
  dup2(saved, 1);
  close(fd);
  close(saved);
  EXPECT_EQ(readFile(path), "tag 7 item 0\ntag 7 item 1\ntag 7 item 2\ntag 7 item 3\n");
}

TEST_F(EnqueueTest, ConcurrentLaunchesOnTwoQueues) {
  cl_int err = CL_INVALID_VALUE;
  cl_command_queue second = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_mem a = bufferOf(std::vector<int>(256, 0)), b = bufferOf(std::vector<int>(256, 0));
  auto work = [&](cl_command_queue q, cl_mem m, int v) {
    cl_int e = CL_INVALID_VALUE;
    cl_kernel k = clCreateKernel(program, "add", &e);
    clSetKernelArg(k, 0, sizeof m, &m);
    clSetKernelArg(k, 1, sizeof v, &v);
    const size_t global = 256, local = 64;
    for (int i = 0; i < 20; ++i)
      EXPECT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
                CL_SUCCESS);
    EXPECT_EQ(clFinish(q), CL_SUCCESS);
    clReleaseKernel(k);
  };
  std::thread t1(work, queue, a, 1), t2(work, second, b, 2);
  t1.join();
  t2.join();
  EXPECT_EQ(read<int>(a, 256), std::vector<int>(256, 20));
  EXPECT_EQ(read<int>(b, 256), std::vector<int>(256, 40));
  clReleaseCommandQueue(second);
}

TEST_F(EnqueueTest, Errors) {
  cl_kernel k = kernel(program, "add");
  const size_t global = 8, local = 4, big = 2048, bigGroup[2] = {64, 32};
  auto enqueue = [&](cl_uint dims, const size_t* offset, const size_t* g, const size_t* l) {
    return clEnqueueNDRangeKernel(queue, k, dims, offset, g, l, 0, nullptr, nullptr);
  };
  EXPECT_EQ(enqueue(1, nullptr, &global, &local), CL_INVALID_KERNEL_ARGS);  // none set
  cl_mem a = buffer(64);
  setArg(k, 0, a);
  EXPECT_EQ(enqueue(1, nullptr, &global, &local), CL_INVALID_KERNEL_ARGS);  // one set
  setArg(k, 1, 1);
  EXPECT_EQ(enqueue(0, nullptr, &global, &local), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(enqueue(4, nullptr, &global, &local), CL_INVALID_WORK_DIMENSION);
  EXPECT_EQ(enqueue(1, nullptr, &global, &big), CL_INVALID_WORK_ITEM_SIZE);
  const size_t g2[2] = {64, 64};
  EXPECT_EQ(enqueue(2, nullptr, g2, bigGroup), CL_INVALID_WORK_GROUP_SIZE);  // 2048 items
  // The command line runs work-groups as large as memory allows; the device keeps its
  // CL_DEVICE_MAX_WORK_GROUP_SIZE of 1024.
  EXPECT_EQ(enqueue(2, nullptr, g2, g2), CL_INVALID_WORK_GROUP_SIZE);  // 4096 items
  const size_t zeroLocal = 0;
  EXPECT_EQ(enqueue(1, nullptr, &global, &zeroLocal), CL_INVALID_WORK_GROUP_SIZE);
  const size_t hugeOffset = SIZE_MAX - 2;
  EXPECT_EQ(enqueue(1, &hugeOffset, &global, &local), CL_INVALID_GLOBAL_OFFSET);
  cl_kernel fixed = kernel(program, "fixed");
  setArg(fixed, 0, a);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, fixed, 1, nullptr, &global, &global, 0, nullptr, nullptr),
            CL_INVALID_WORK_GROUP_SIZE);  // reqd_work_group_size(4,1,1)
  EXPECT_EQ(clEnqueueTask(queue, fixed, 0, nullptr, nullptr), CL_INVALID_WORK_GROUP_SIZE);
  cl_event notAnEvent = reinterpret_cast<cl_event>(a);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 1, &notAnEvent, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, &local, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(icd()->clEnqueueNDRangeKernel(bogus<cl_command_queue>(), k, 1, nullptr, &global, &local,
                                          0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(icd()->clEnqueueNDRangeKernel(queue, bogus<cl_kernel>(), 1, nullptr, &global, &local, 0,
                                          nullptr, nullptr),
            CL_INVALID_KERNEL);
  EXPECT_EQ(icd()->clEnqueueTask(queue, bogus<cl_kernel>(), 0, nullptr, nullptr),
            CL_INVALID_KERNEL);
  // A kernel of another context.
  cl_int err = CL_INVALID_VALUE;
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_command_queue otherQueue = clCreateCommandQueueWithProperties(other, device, nullptr, &err);
  EXPECT_EQ(clEnqueueNDRangeKernel(otherQueue, k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_INVALID_CONTEXT);
  clReleaseCommandQueue(otherQueue);
  clReleaseContext(other);
  // More local memory than the device has.
  cl_kernel l = kernel(program, "uses_local");
  setArg(l, 0, a);
  ASSERT_EQ(clSetKernelArg(l, 1, 1 << 20, nullptr), CL_SUCCESS);
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, l, 1, nullptr, &global, &local, 0, nullptr, nullptr),
            CL_OUT_OF_RESOURCES);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
}

}  // namespace
}  // namespace spvsim::rt::test
