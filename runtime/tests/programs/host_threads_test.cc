// Several host threads driving one context at once, as a multi-threaded application does:
// each thread has its own in-order queue and all of them share one more (out-of-order
// where the device offers it), with events that cross queues, user events set from
// another thread, callbacks, maps, and programs built from IL while other threads launch.
// OpenCL 3.0 (section "Shared OpenCL Objects", appendix A.2) makes every API call
// thread-safe except clSetKernelArg and clSetKernelExecInfo on one kernel object, so each
// thread sets arguments only on kernels of its own.
//
// Checked here for results (against a host model of the kernels); run under
// `tools/sanitize.sh asan` and `tools/sanitize.sh tsan` for what the ICD does inside.
#include <atomic>
#include <chrono>
#include <thread>
#include <tuple>
#include <vector>

#include "runtime/tests/programs/program_fixture.h"

namespace spvsim::rt::test {
namespace {

constexpr int kThreads = 4;
constexpr int kRounds = 6;
constexpr size_t kCount = 256;
constexpr size_t kLocal = 64;

// scale: x = x * a + b. block_sum: out[group] = the sum of its work-group's x (work-group
// reduction through local memory and barriers).
const char* kSource = R"(
kernel void scale(global int *x, int a, int b) {
  size_t i = get_global_id(0);
  x[i] = x[i] * a + b;
}
kernel void block_sum(global const int *x, global int *out, local int *tmp) {
  size_t l = get_local_id(0);
  tmp[l] = x[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s /= 2) {
    if (l < s) tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = tmp[0];
}
)";

// Host model: the values a round starts from, and what the two scale launches make of them.
int initial(int thread, int round, size_t i) { return static_cast<int>(i) * (thread + 1) + round; }
int modelled(int thread, int round, size_t i) {
  const int a1 = thread + 2, b1 = round, a2 = 3, b2 = -thread;
  return (initial(thread, round, i) * a1 + b1) * a2 + b2;
}

class HostThreadsTest : public ProgramTest {
 protected:
  // What one thread does; failures are recorded by gtest (thread-safe on POSIX).
  void work(int thread, cl_program shared, const std::vector<uint32_t>& il,
            cl_command_queue common);

  std::atomic<int> callbacks{0};
};

void CL_CALLBACK countCompletion(cl_event, cl_int status, void* counter) {
  if (status == CL_COMPLETE) static_cast<std::atomic<int>*>(counter)->fetch_add(1);
}

cl_kernel makeKernel(cl_program p, const char* name) {
  cl_int err = CL_INVALID_VALUE;
  cl_kernel k = clCreateKernel(p, name, &err);
  EXPECT_EQ(err, CL_SUCCESS) << name;
  return k;
}

void HostThreadsTest::work(int thread, cl_program shared, const std::vector<uint32_t>& il,
                           cl_command_queue common) {
  cl_int err = CL_INVALID_VALUE;
  cl_command_queue own = clCreateCommandQueueWithProperties(context, device, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  // Odd threads build a program of their own from IL while the others launch.
  cl_program program = shared;
  if (thread % 2 == 1) {
    program = clCreateProgramWithIL(context, il.data(), il.size() * 4, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    ASSERT_EQ(clBuildProgram(program, 1, &device, "", nullptr, nullptr), CL_SUCCESS);
  }
  cl_kernel first = makeKernel(program, "scale"), second = makeKernel(program, "scale");
  cl_kernel sum = makeKernel(program, "block_sum");
  for (int round = 0; round < kRounds; ++round) {
    std::vector<int> values(kCount);
    for (size_t i = 0; i < kCount; ++i) values[i] = initial(thread, round, i);
    cl_mem x = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              kCount * sizeof(int), values.data(), &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_mem sums =
        clCreateBuffer(context, CL_MEM_READ_WRITE, kCount / kLocal * sizeof(int), nullptr, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    const int a1 = thread + 2, b1 = round, a2 = 3, b2 = -thread;
    for (auto [k, a, b] : {std::tuple{first, a1, b1}, std::tuple{second, a2, b2}}) {
      ASSERT_EQ(clSetKernelArg(k, 0, sizeof x, &x), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(k, 1, sizeof a, &a), CL_SUCCESS);
      ASSERT_EQ(clSetKernelArg(k, 2, sizeof b, &b), CL_SUCCESS);
    }
    ASSERT_EQ(clSetKernelArg(sum, 0, sizeof x, &x), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(sum, 1, sizeof sums, &sums), CL_SUCCESS);
    ASSERT_EQ(clSetKernelArg(sum, 2, kLocal * sizeof(int), nullptr), CL_SUCCESS);

    // The first launch waits for a user event that the main flow of this thread completes
    // only after the launch is queued; the second runs on the shared queue after it.
    cl_event gate = clCreateUserEvent(context, &err);
    ASSERT_EQ(err, CL_SUCCESS);
    cl_event scaled = nullptr, rescaled = nullptr, summed = nullptr, readBack = nullptr;
    ASSERT_EQ(clEnqueueNDRangeKernel(own, first, 1, nullptr, &kCount, &kLocal, 1, &gate, &scaled),
              CL_SUCCESS);
    ASSERT_EQ(
        clEnqueueNDRangeKernel(common, second, 1, nullptr, &kCount, &kLocal, 1, &scaled, &rescaled),
        CL_SUCCESS);
    ASSERT_EQ(clEnqueueNDRangeKernel(own, sum, 1, nullptr, &kCount, &kLocal, 1, &rescaled, &summed),
              CL_SUCCESS);
    std::vector<int> got(kCount, 0), gotSums(kCount / kLocal, 0);
    ASSERT_EQ(clEnqueueReadBuffer(common, x, CL_FALSE, 0, kCount * sizeof(int), got.data(), 1,
                                  &summed, &readBack),
              CL_SUCCESS);
    ASSERT_EQ(clSetEventCallback(readBack, CL_COMPLETE, countCompletion, &callbacks), CL_SUCCESS);
    ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    ASSERT_EQ(clWaitForEvents(1, &readBack), CL_SUCCESS);
    ASSERT_EQ(clEnqueueReadBuffer(own, sums, CL_TRUE, 0, gotSums.size() * sizeof(int),
                                  gotSums.data(), 0, nullptr, nullptr),
              CL_SUCCESS);

    std::vector<int> sumsExpected(kCount / kLocal, 0);
    for (size_t i = 0; i < kCount; ++i) {
      EXPECT_EQ(got[i], modelled(thread, round, i))
          << "thread " << thread << " round " << round << " element " << i;
      sumsExpected[i / kLocal] += modelled(thread, round, i);
    }
    EXPECT_EQ(gotSums, sumsExpected) << "thread " << thread << " round " << round;

    // A map of the result on the shared queue sees the same values.
    int* mapped = static_cast<int*>(clEnqueueMapBuffer(
        common, x, CL_TRUE, CL_MAP_READ, 0, kCount * sizeof(int), 0, nullptr, nullptr, &err));
    ASSERT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(mapped[kCount - 1], modelled(thread, round, kCount - 1));
    ASSERT_EQ(clEnqueueUnmapMemObject(common, x, mapped, 0, nullptr, nullptr), CL_SUCCESS);

    for (cl_event e : {gate, scaled, rescaled, summed, readBack}) clReleaseEvent(e);
    clReleaseMemObject(x);
    clReleaseMemObject(sums);
  }
  EXPECT_EQ(clFinish(own), CL_SUCCESS);
  for (cl_kernel k : {first, second, sum}) clReleaseKernel(k);
  if (program != shared) clReleaseProgram(program);
  clReleaseCommandQueue(own);
}

TEST_F(HostThreadsTest, FourThreadsOwnQueuesAndOneSharedQueue) {
  const compiler::CompileResult compiled = compileSource(kSource, "-cl-std=CL3.0");
  ASSERT_FALSE(compiled.words.empty()) << compiled.log;
  cl_program shared = built(kSource);

  cl_command_queue_properties offered = 0;
  ASSERT_EQ(clGetDeviceInfo(device, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, sizeof offered, &offered,
                            nullptr),
            CL_SUCCESS);
  const cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES,
                                            offered & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  cl_int err = CL_INVALID_VALUE;
  cl_command_queue common = clCreateCommandQueueWithProperties(context, device, properties, &err);
  ASSERT_EQ(err, CL_SUCCESS);

  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] { work(t, shared, compiled.words, common); });
  for (std::thread& t : threads) t.join();

  EXPECT_EQ(clFinish(common), CL_SUCCESS);
  // Callbacks may run on another thread after clWaitForEvents returns (OpenCL 3.0
  // clSetEventCallback: "called asynchronously"); once the queue is finished they have.
  for (int wait = 0; wait < 200 && callbacks.load() < kThreads * kRounds; ++wait)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(callbacks.load(), kThreads * kRounds);
  EXPECT_EQ(clReleaseCommandQueue(common), CL_SUCCESS);
}

}  // namespace
}  // namespace spvsim::rt::test
