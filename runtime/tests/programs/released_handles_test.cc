// Released handles through the real loader (ocl-icd), which reads a handle's dispatch
// table before spvsim sees the call: a double release, and any call on a released
// handle, of every object type returns the spec's CL_INVALID_<OBJECT> code instead of
// crashing (runtime/cell_pool.h keeps released objects' memory and dispatch pointer).
// Also: a double release never drops a reference the runtime holds, handles the
// runtime still references stay usable, and creating and releasing many objects
// reuses a bounded set of cells.
#include "runtime/tests/programs/program_fixture.h"
// (program_fixture.h first: it selects the ICD.)
#include <chrono>
#include <set>
#include <thread>

namespace spvsim::rt::test {
namespace {

const char* kSource = R"(
kernel void fill(global int* out, int value) { out[get_global_id(0)] = value; }
)";

class ReleasedHandles : public ProgramTest {
 protected:
  // Objects the test releases itself (the fixture does not own them).
  cl_context newContext() {
    cl_int err = CL_INVALID_VALUE;
    cl_context c = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return c;
  }
  cl_command_queue newQueue(cl_context c) {
    cl_int err = CL_INVALID_VALUE;
    cl_command_queue q = clCreateCommandQueueWithProperties(c, device, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return q;
  }
  cl_mem newBuffer(cl_context c, size_t bytes = 64) {
    cl_int err = CL_INVALID_VALUE;
    cl_mem m = clCreateBuffer(c, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return m;
  }
  cl_program newProgram() {
    cl_int err = CL_INVALID_VALUE;
    cl_program p = clCreateProgramWithSource(context, 1, &kSource, nullptr, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
    return p;
  }
  cl_kernel newKernel(cl_program p) {
    cl_int err = CL_INVALID_VALUE;
    cl_kernel k = clCreateKernel(p, "fill", &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return k;
  }
};

TEST_F(ReleasedHandles, ContextDoubleReleaseAndUse) {
  cl_context c = newContext();
  ASSERT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(c), CL_INVALID_CONTEXT);
  EXPECT_EQ(clRetainContext(c), CL_INVALID_CONTEXT);
  cl_uint refs = 0;
  EXPECT_EQ(clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_INVALID_CONTEXT);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateBuffer(c, CL_MEM_READ_WRITE, 64, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateCommandQueueWithProperties(c, device, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithSource(c, 1, &kSource, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateUserEvent(c, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
}

TEST_F(ReleasedHandles, QueueDoubleReleaseAndUse) {
  cl_command_queue q = newQueue(context);
  ASSERT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clRetainCommandQueue(q), CL_INVALID_COMMAND_QUEUE);
  cl_uint refs = 0;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFlush(q), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clFinish(q), CL_INVALID_COMMAND_QUEUE);
  cl_mem m = buffer(64);
  int data[16] = {};
  EXPECT_EQ(clEnqueueWriteBuffer(q, m, CL_TRUE, 0, sizeof data, data, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(q, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(ReleasedHandles, BufferAndSubBufferDoubleReleaseAndUse) {
  cl_mem parent = newBuffer(context, 1024);
  cl_buffer_region region{0, 128};
  cl_int err = CL_INVALID_VALUE;
  cl_mem sub =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  for (cl_mem m : {sub, parent}) {
    ASSERT_EQ(clReleaseMemObject(m), CL_SUCCESS);
    EXPECT_EQ(clReleaseMemObject(m), CL_INVALID_MEM_OBJECT);
    EXPECT_EQ(clRetainMemObject(m), CL_INVALID_MEM_OBJECT);
    size_t size = 0;
    EXPECT_EQ(clGetMemObjectInfo(m, CL_MEM_SIZE, sizeof size, &size, nullptr),
              CL_INVALID_MEM_OBJECT);
    int data[16] = {};
    EXPECT_EQ(clEnqueueReadBuffer(queue, m, CL_TRUE, 0, sizeof data, data, 0, nullptr, nullptr),
              CL_INVALID_MEM_OBJECT);
    const int zero = 0;
    EXPECT_EQ(
        clEnqueueFillBuffer(queue, m, &zero, sizeof zero, 0, sizeof data, 0, nullptr, nullptr),
        CL_INVALID_MEM_OBJECT);
    err = CL_SUCCESS;
    EXPECT_EQ(clCreateSubBuffer(m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err),
              nullptr);
    EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
    EXPECT_EQ(clSetMemObjectDestructorCallback(
                  m, [](cl_mem, void*) {}, nullptr),
              CL_INVALID_MEM_OBJECT);
  }
  // As a kernel argument.
  cl_kernel k = kernel(built(kSource), "fill");
  EXPECT_EQ(clSetKernelArg(k, 0, sizeof parent, &parent), CL_INVALID_MEM_OBJECT);
}

TEST_F(ReleasedHandles, ProgramDoubleReleaseAndUse) {
  cl_program p = newProgram();
  ASSERT_EQ(clReleaseProgram(p), CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(p), CL_INVALID_PROGRAM);
  EXPECT_EQ(clRetainProgram(p), CL_INVALID_PROGRAM);
  cl_uint refs = 0;
  EXPECT_EQ(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_INVALID_PROGRAM);
  cl_build_status status = CL_BUILD_NONE;
  EXPECT_EQ(
      clGetProgramBuildInfo(p, device, CL_PROGRAM_BUILD_STATUS, sizeof status, &status, nullptr),
      CL_INVALID_PROGRAM);
  EXPECT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateKernel(p, "fill", &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_PROGRAM);
  cl_uint count = 0;
  EXPECT_EQ(clCreateKernelsInProgram(p, 0, nullptr, &count), CL_INVALID_PROGRAM);
}

TEST_F(ReleasedHandles, KernelDoubleReleaseAndUse) {
  cl_program p = own(newProgram());
  cl_kernel k = newKernel(p);
  ASSERT_EQ(clReleaseKernel(k), CL_SUCCESS);
  EXPECT_EQ(clReleaseKernel(k), CL_INVALID_KERNEL);
  EXPECT_EQ(clRetainKernel(k), CL_INVALID_KERNEL);
  cl_uint args = 0;
  EXPECT_EQ(clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof args, &args, nullptr), CL_INVALID_KERNEL);
  size_t wg = 0;
  EXPECT_EQ(clGetKernelWorkGroupInfo(k, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, nullptr),
            CL_INVALID_KERNEL);
  const int value = 1;
  EXPECT_EQ(clSetKernelArg(k, 1, sizeof value, &value), CL_INVALID_KERNEL);
  const size_t global = 1;
  EXPECT_EQ(clEnqueueNDRangeKernel(queue, k, 1, nullptr, &global, nullptr, 0, nullptr, nullptr),
            CL_INVALID_KERNEL);
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCloneKernel(k, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_KERNEL);
}

TEST_F(ReleasedHandles, EventDoubleReleaseAndUse) {
  cl_int err = CL_INVALID_VALUE;
  cl_event user = clCreateUserEvent(context, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_event marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), CL_SUCCESS);
  // Then the queue holds no reference to the marker's event any more, which a released
  // handle would otherwise stay valid for: an in-order queue retires each command before
  // it starts the next, and the first clFinish's own marker (which may have waited for
  // it) is retired before the second one's runs.
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  ASSERT_EQ(clFinish(queue), CL_SUCCESS);
  for (cl_event e : {user, marker}) {
    ASSERT_EQ(clReleaseEvent(e), CL_SUCCESS);
    EXPECT_EQ(clReleaseEvent(e), CL_INVALID_EVENT);
    EXPECT_EQ(clRetainEvent(e), CL_INVALID_EVENT);
    cl_int status = 0;
    EXPECT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr),
              CL_INVALID_EVENT);
    cl_ulong t = 0;
    EXPECT_EQ(clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof t, &t, nullptr),
              CL_INVALID_EVENT);
    EXPECT_EQ(clWaitForEvents(1, &e), CL_INVALID_EVENT);
    EXPECT_EQ(clSetEventCallback(
                  e, CL_COMPLETE, [](cl_event, cl_int, void*) {}, nullptr),
              CL_INVALID_EVENT);
    EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &e, nullptr), CL_INVALID_EVENT_WAIT_LIST);
  }
  EXPECT_EQ(clSetUserEventStatus(user, CL_COMPLETE), CL_INVALID_EVENT);
}

TEST_F(ReleasedHandles, SamplerEntryPointsRejectReleasedHandles) {
  cl_int err = CL_INVALID_VALUE;
  cl_sampler s = clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clReleaseSampler(s), CL_SUCCESS);
  EXPECT_EQ(clReleaseSampler(s), CL_INVALID_SAMPLER);
  EXPECT_EQ(clRetainSampler(s), CL_INVALID_SAMPLER);
  cl_uint refs = 0;
  EXPECT_EQ(clGetSamplerInfo(s, CL_SAMPLER_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_INVALID_SAMPLER);
}

// A double release by the application must not drop the reference a queue holds on
// its context, a kernel on its program, a sub-buffer on its buffer or a pending command
// on its event and buffers: those objects keep working.
TEST_F(ReleasedHandles, ADoubleReleaseLeavesTheRuntimesReferences) {
  cl_context c = newContext();
  cl_command_queue q = newQueue(c);
  cl_mem parent = newBuffer(c, 1024);
  cl_buffer_region region{128, 128};
  cl_int err = CL_INVALID_VALUE;
  cl_mem sub =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  cl_program p = clCreateProgramWithSource(c, 1, &kSource, nullptr, &err);
  ASSERT_EQ(clBuildProgram(p, 0, nullptr, nullptr, nullptr, nullptr), CL_SUCCESS);
  cl_kernel k = newKernel(p);
  EXPECT_EQ(clReleaseContext(c), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(c), CL_INVALID_CONTEXT);
  EXPECT_EQ(clReleaseProgram(p), CL_SUCCESS);
  EXPECT_EQ(clReleaseProgram(p), CL_INVALID_PROGRAM);
  EXPECT_EQ(clReleaseMemObject(parent), CL_SUCCESS);
  EXPECT_EQ(clReleaseMemObject(parent), CL_INVALID_MEM_OBJECT);

  // A launch behind a user event: its event and the buffer are held by the command.
  cl_event gate = clCreateUserEvent(c, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  ASSERT_EQ(clSetKernelArg(k, 0, sizeof sub, &sub), CL_SUCCESS);
  const int value = 42;
  ASSERT_EQ(clSetKernelArg(k, 1, sizeof value, &value), CL_SUCCESS);
  const size_t global = 32;
  cl_event launch = nullptr;
  ASSERT_EQ(clEnqueueNDRangeKernel(q, k, 1, nullptr, &global, nullptr, 1, &gate, &launch),
            CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(launch), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(launch), CL_INVALID_EVENT);
  EXPECT_EQ(clReleaseKernel(k), CL_SUCCESS);
  EXPECT_EQ(clReleaseKernel(k), CL_INVALID_KERNEL);
  EXPECT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clReleaseEvent(gate), CL_SUCCESS);

  std::vector<int> out(32, 0);
  ASSERT_EQ(clEnqueueReadBuffer(q, sub, CL_TRUE, 0, 128, out.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(out, std::vector<int>(32, 42));
  EXPECT_EQ(clReleaseMemObject(sub), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  // The context goes once the queue's worker has retired the last command that held it
  // (its event) after completing it.
  const auto start = std::chrono::steady_clock::now();
  cl_uint refs = 0;
  while (clGetContextInfo(c, CL_CONTEXT_REFERENCE_COUNT, sizeof refs, &refs, nullptr) ==
             CL_SUCCESS &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(10))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(clRetainContext(c), CL_INVALID_CONTEXT);
}

// What applications (PyOpenCL among them) do on every implementation: read a handle
// back (CL_QUEUE_CONTEXT, CL_KERNEL_PROGRAM) after releasing their own reference, and
// retain it. The handle is valid while the runtime still references the object.
TEST_F(ReleasedHandles, HandlesTheRuntimeStillReferencesStayUsable) {
  cl_context c = newContext();
  cl_command_queue q = newQueue(c);
  ASSERT_EQ(clReleaseContext(c), CL_SUCCESS);
  cl_context back = nullptr;
  ASSERT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof back, &back, nullptr), CL_SUCCESS);
  EXPECT_EQ(back, c);
  EXPECT_EQ(clRetainContext(back), CL_SUCCESS);
  cl_mem m = newBuffer(back);
  EXPECT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(back), CL_SUCCESS);
  EXPECT_EQ(clReleaseContext(back), CL_INVALID_CONTEXT);  // the queue's is not the app's
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(clRetainContext(c), CL_INVALID_CONTEXT);
}

// Released objects' memory is reused for new objects of the same size, after a
// quarantine of 1024 later releases (runtime/object.h): a stale handle is rejected
// within it, and any number of create/release cycles uses a bounded set of cells.
TEST_F(ReleasedHandles, CreateAndReleaseReusesABoundedSetOfCells) {
  cl_mem stale = newBuffer(context);
  ASSERT_EQ(clReleaseMemObject(stale), CL_SUCCESS);
  std::set<cl_mem> handles;
  for (int i = 0; i < 1000; ++i) {
    cl_mem m = newBuffer(context);
    ASSERT_NE(m, stale);
    handles.insert(m);
    ASSERT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  }
  EXPECT_EQ(clReleaseMemObject(stale), CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clRetainMemObject(stale), CL_INVALID_MEM_OBJECT);
  for (int i = 0; i < 200000; ++i) {
    cl_mem m = newBuffer(context);
    handles.insert(m);
    ASSERT_EQ(clReleaseMemObject(m), CL_SUCCESS);
  }
  // The quarantine, the objects alive at once and a margin for other objects of the
  // same size class (events of the fixture's queue).
  EXPECT_LE(handles.size(), 1024u + 64u);
}

// Two threads releasing the application's one reference at once: exactly one succeeds.
TEST_F(ReleasedHandles, ConcurrentDoubleReleaseSucceedsOnce) {
  for (int i = 0; i < 200; ++i) {
    cl_mem m = newBuffer(context);
    cl_int a = CL_INVALID_VALUE, b = CL_INVALID_VALUE;
    std::thread first([&] { a = clReleaseMemObject(m); });
    std::thread second([&] { b = clReleaseMemObject(m); });
    first.join();
    second.join();
    EXPECT_EQ((a == CL_SUCCESS) + (b == CL_SUCCESS), 1) << a << " " << b;
    EXPECT_EQ((a == CL_INVALID_MEM_OBJECT) + (b == CL_INVALID_MEM_OBJECT), 1) << a << " " << b;
  }
}

}  // namespace
}  // namespace spvsim::rt::test
