// Command queues and events through the loader: in-order and out-of-order execution,
// wait lists, markers, barriers, user events, callbacks, profiling and the errors of
// each entry point. Buffer writes and reads serve as the commands.
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)
#include <atomic>
#include <chrono>
#include <thread>

namespace spvsim::rt::test {
namespace {

cl_int status(cl_event e) {
  cl_int s = 1234;
  EXPECT_EQ(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, nullptr),
            CL_SUCCESS);
  return s;
}

template <class T>
T eventValue(cl_event e, cl_event_info param) {
  T v{};
  EXPECT_EQ(clGetEventInfo(e, param, sizeof v, &v, nullptr), CL_SUCCESS);
  return v;
}

// Long enough for a worker thread to have run anything it was free to run.
void settle() { std::this_thread::sleep_for(std::chrono::milliseconds(50)); }

class QueueTest : public ClTest {
 protected:
  cl_command_queue makeQueue(cl_command_queue_properties props) {
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, props, 0};
    cl_int err = CL_INVALID_VALUE;
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, list, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return q;
  }
  cl_event userEvent() {
    cl_int err = CL_INVALID_VALUE;
    cl_event e = clCreateUserEvent(context, &err);
    EXPECT_EQ(err, CL_SUCCESS);
    return e;
  }
  // A non-blocking write of `value` into int `index` of `buf`, after `waits`.
  cl_event write(cl_command_queue q, cl_mem buf, int index, const int* value,
                 std::vector<cl_event> waits = {}) {
    cl_event e = nullptr;
    EXPECT_EQ(
        clEnqueueWriteBuffer(q, buf, CL_FALSE, index * sizeof(int), sizeof(int), value,
                             cl_uint(waits.size()), waits.empty() ? nullptr : waits.data(), &e),
        CL_SUCCESS);
    return e;
  }
};

TEST_F(QueueTest, PropertiesAndQueries) {
  cl_command_queue q =
      makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl_command_queue_properties props = 0;
  ASSERT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES, sizeof props, &props, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(props, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
  cl_queue_properties array[3] = {};
  size_t size = 0;
  ASSERT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, sizeof array, array, &size),
            CL_SUCCESS);
  EXPECT_EQ(size, sizeof array);
  EXPECT_EQ(array[0], CL_QUEUE_PROPERTIES);
  EXPECT_EQ(array[2], 0u);
  cl_context c = nullptr;
  cl_device_id d = nullptr;
  cl_uint refs = 0;
  cl_command_queue def = q;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_CONTEXT, sizeof c, &c, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE, sizeof d, &d, nullptr), CL_SUCCESS);
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_REFERENCE_COUNT, sizeof refs, &refs, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof def, &def, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(c, context);
  EXPECT_EQ(d, device);
  EXPECT_EQ(refs, 1u);
  EXPECT_EQ(def, nullptr);
  cl_uint qsize;
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_SIZE, sizeof qsize, &qsize, nullptr),
            CL_INVALID_COMMAND_QUEUE);  // only device queues have one
  EXPECT_EQ(clGetCommandQueueInfo(q, 0xdead, sizeof qsize, &qsize, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(clRetainCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  // The OpenCL 1.x entry point: no property list to report.
  cl_int err;
  q = clCreateCommandQueue(context, device, CL_QUEUE_PROFILING_ENABLE, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  EXPECT_EQ(clGetCommandQueueInfo(q, CL_QUEUE_PROPERTIES_ARRAY, 0, nullptr, &size), CL_SUCCESS);
  EXPECT_EQ(size, 0u);
  clReleaseCommandQueue(q);
}

// The default device queue and CL_DEVICE_MAX_ON_DEVICE_QUEUES more exist at once (the
// conformance suite's device_queue test creates exactly these); one more is refused.
TEST_F(QueueTest, DefaultDeviceQueuePlusTheMaximum) {
  const cl_uint max = deviceValue<cl_uint>(device, CL_DEVICE_MAX_ON_DEVICE_QUEUES);
  ASSERT_GE(max, 1u);
  const cl_command_queue_properties bits =
      CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE;
  auto create = [&](cl_command_queue_properties extra, cl_int& err) {
    const cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, bits | extra, 0};
    return clCreateCommandQueueWithProperties(context, device, props, &err);
  };
  cl_int err = CL_INVALID_VALUE;
  cl_command_queue def = create(CL_QUEUE_ON_DEVICE_DEFAULT, err);
  ASSERT_EQ(err, CL_SUCCESS);
  std::vector<cl_command_queue> more;
  for (cl_uint i = 0; i < max; ++i) {
    more.push_back(create(0, err));
    EXPECT_EQ(err, CL_SUCCESS) << "queue " << i + 1 << " besides the default";
  }
  for (cl_command_queue q : more) {
    cl_command_queue reported = nullptr;
    EXPECT_EQ(
        clGetCommandQueueInfo(q, CL_QUEUE_DEVICE_DEFAULT, sizeof reported, &reported, nullptr),
        CL_SUCCESS);
    EXPECT_EQ(reported, def);
  }
  EXPECT_EQ(create(0, err), nullptr);
  EXPECT_EQ(err, CL_OUT_OF_RESOURCES);
  for (cl_command_queue q : more)
    if (q) EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  EXPECT_EQ(clReleaseCommandQueue(def), CL_SUCCESS);
}

TEST_F(QueueTest, CreateErrors) {
  cl_int err = CL_SUCCESS;
  auto withProps = [&](std::vector<cl_queue_properties> list) {
    list.push_back(0);
    cl_command_queue q = clCreateCommandQueueWithProperties(context, device, list.data(), &err);
    EXPECT_EQ(q, nullptr);
    return err;
  };
  EXPECT_EQ(withProps({CL_QUEUE_PROPERTIES, cl_queue_properties(1) << 40}), CL_INVALID_VALUE);
  EXPECT_EQ(withProps({CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE}), CL_INVALID_VALUE);  // needs OOO
  EXPECT_EQ(withProps({CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE_DEFAULT}), CL_INVALID_VALUE);
  EXPECT_EQ(
      withProps({CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                 CL_QUEUE_SIZE, 256 * 1024 + 1}),
      CL_INVALID_VALUE);  // above CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE
  EXPECT_EQ(withProps({CL_QUEUE_SIZE, 1024}), CL_INVALID_VALUE);  // without CL_QUEUE_ON_DEVICE
  EXPECT_EQ(withProps({0x7777, 1}), CL_INVALID_VALUE);
  EXPECT_EQ(clCreateCommandQueue(context, device, CL_QUEUE_ON_DEVICE, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_VALUE);  // not an OpenCL 1.x property
  int bogus = 0;
  auto* table = dispatchOf(device);
  EXPECT_EQ(table->clCreateCommandQueue(reinterpret_cast<cl_context>(&bogus), device, 0, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clCreateCommandQueueWithProperties(
                context, reinterpret_cast<cl_device_id>(&bogus), nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_DEVICE);
  auto bq = reinterpret_cast<cl_command_queue>(&bogus);
  EXPECT_EQ(table->clRetainCommandQueue(bq), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clReleaseCommandQueue(bq), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clFlush(bq), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clFinish(bq), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clGetCommandQueueInfo(bq, CL_QUEUE_CONTEXT, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clEnqueueMarkerWithWaitList(bq, 0, nullptr, nullptr), CL_INVALID_COMMAND_QUEUE);
}

TEST_F(QueueTest, InOrderQueueWaitsForEarlierCommands) {
  cl_mem buf = buffer(4 * sizeof(int));
  cl_event gate = userEvent();
  int one = 1, two = 2;
  cl_event first = write(queue, buf, 0, &one, {gate});
  cl_event second = write(queue, buf, 1, &two);  // no wait list, but in order
  settle();
  EXPECT_GT(status(first), CL_COMPLETE);
  EXPECT_GT(status(second), CL_COMPLETE);
  ASSERT_EQ(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
  ASSERT_EQ(clWaitForEvents(1, &second), CL_SUCCESS);
  EXPECT_EQ(status(first), CL_COMPLETE);
  int out[2] = {};
  ASSERT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof out, out, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(out[0], 1);
  EXPECT_EQ(out[1], 2);
  for (cl_event e : {gate, first, second}) clReleaseEvent(e);
  clReleaseMemObject(buf);
}

TEST_F(QueueTest, OutOfOrderQueueRunsReadyCommandsFirst) {
  cl_command_queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem buf = buffer(4 * sizeof(int));
  cl_event gate = userEvent();
  int one = 1, two = 2;
  cl_event blocked = write(ooo, buf, 0, &one, {gate});
  cl_event free = write(ooo, buf, 1, &two);
  ASSERT_EQ(clWaitForEvents(1, &free), CL_SUCCESS);  // would hang if run in order
  EXPECT_GT(status(blocked), CL_COMPLETE);
  clSetUserEventStatus(gate, CL_COMPLETE);
  ASSERT_EQ(clFinish(ooo), CL_SUCCESS);
  EXPECT_EQ(status(blocked), CL_COMPLETE);
  for (cl_event e : {gate, blocked, free}) clReleaseEvent(e);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(ooo);
}

TEST_F(QueueTest, BarrierAndMarkerOrderAnOutOfOrderQueue) {
  cl_command_queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_mem buf = buffer(4 * sizeof(int));
  cl_event gate = userEvent();
  int vals[3] = {1, 2, 3};
  cl_event before = write(ooo, buf, 0, &vals[0], {gate});
  cl_event marker = nullptr, barrier = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(ooo, 0, nullptr, &marker), CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrierWithWaitList(ooo, 0, nullptr, &barrier), CL_SUCCESS);
  cl_event after = write(ooo, buf, 1, &vals[1]);  // no wait list: held by the barrier
  settle();
  EXPECT_GT(status(marker), CL_COMPLETE);
  EXPECT_GT(status(barrier), CL_COMPLETE);
  EXPECT_GT(status(after), CL_COMPLETE);
  clSetUserEventStatus(gate, CL_COMPLETE);
  ASSERT_EQ(clWaitForEvents(1, &after), CL_SUCCESS);
  for (cl_event e : {before, marker, barrier}) EXPECT_EQ(status(e), CL_COMPLETE);
  EXPECT_EQ(eventValue<cl_command_type>(marker, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_MARKER));
  EXPECT_EQ(eventValue<cl_command_type>(barrier, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_BARRIER));
  for (cl_event e : {gate, before, marker, barrier, after}) clReleaseEvent(e);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(ooo);
}

TEST_F(QueueTest, MarkerWithWaitListWaitsOnlyForItsList) {
  cl_command_queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  cl_event gateA = userEvent(), gateB = userEvent();
  cl_event marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(ooo, 1, &gateA, &marker), CL_SUCCESS);
  clSetUserEventStatus(gateA, CL_COMPLETE);
  ASSERT_EQ(clWaitForEvents(1, &marker), CL_SUCCESS);
  // The 1.1 forms: a marker needs an event; a wait needs events.
  EXPECT_EQ(clEnqueueMarker(ooo, nullptr), CL_INVALID_VALUE);
  cl_event old = nullptr;
  ASSERT_EQ(clEnqueueMarker(ooo, &old), CL_SUCCESS);
  EXPECT_EQ(clEnqueueWaitForEvents(ooo, 0, nullptr), CL_INVALID_VALUE);
  ASSERT_EQ(clEnqueueWaitForEvents(ooo, 1, &gateB), CL_SUCCESS);
  ASSERT_EQ(clEnqueueBarrier(ooo), CL_SUCCESS);
  cl_event later = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(ooo, 0, nullptr, &later), CL_SUCCESS);
  settle();
  EXPECT_GT(status(later), CL_COMPLETE);  // behind the wait for gateB
  clSetUserEventStatus(gateB, CL_COMPLETE);
  EXPECT_EQ(clFinish(ooo), CL_SUCCESS);
  EXPECT_EQ(status(later), CL_COMPLETE);
  EXPECT_EQ(status(old), CL_COMPLETE);
  for (cl_event e : {gateA, gateB, marker, old, later}) clReleaseEvent(e);
  clReleaseCommandQueue(ooo);
}

TEST_F(QueueTest, WaitListErrors) {
  cl_mem buf = buffer(16);
  int v = 0;
  cl_event gate = userEvent();
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buf, CL_FALSE, 0, 4, &v, 1, nullptr, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buf, CL_FALSE, 0, 4, &v, 0, &gate, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  int bogus = 0;
  cl_event bad[] = {reinterpret_cast<cl_event>(&bogus)};
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buf, CL_FALSE, 0, 4, &v, 1, bad, nullptr),
            CL_INVALID_EVENT_WAIT_LIST);
  EXPECT_EQ(clEnqueueWaitForEvents(queue, 1, bad), CL_INVALID_EVENT);
  // An event of another context.
  cl_int err;
  cl_context other = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  cl_event foreign = clCreateUserEvent(other, &err);
  EXPECT_EQ(clEnqueueWriteBuffer(queue, buf, CL_FALSE, 0, 4, &v, 1, &foreign, nullptr),
            CL_INVALID_CONTEXT);
  EXPECT_EQ(clEnqueueMarkerWithWaitList(queue, 1, &foreign, nullptr), CL_INVALID_CONTEXT);
  cl_event both[] = {gate, foreign};
  EXPECT_EQ(clWaitForEvents(2, both), CL_INVALID_CONTEXT);
  EXPECT_EQ(clWaitForEvents(0, both), CL_INVALID_VALUE);
  // The loader dereferences the first event to dispatch: call the ICD's entry directly.
  EXPECT_EQ(dispatchOf(gate)->clWaitForEvents(1, nullptr), CL_INVALID_VALUE);
  EXPECT_EQ(dispatchOf(gate)->clWaitForEvents(1, bad), CL_INVALID_EVENT);
  for (cl_event e : {gate, foreign}) clReleaseEvent(e);
  clReleaseContext(other);
  clReleaseMemObject(buf);
}

TEST_F(QueueTest, FailedWaitListEventFailsTheCommandOnly) {
  cl_mem buf = buffer(4 * sizeof(int));
  cl_event gate = userEvent();
  int v = 7, w = 9;
  cl_event dependent = write(queue, buf, 0, &v, {gate});
  ASSERT_EQ(clSetUserEventStatus(gate, -42), CL_SUCCESS);
  EXPECT_EQ(clWaitForEvents(1, &dependent), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(status(dependent), CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(status(gate), -42);
  // A blocking command on a failed event fails and hands out no event.
  int out = -1;
  cl_event none = nullptr;
  EXPECT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 4, &out, 1, &gate, &none),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  EXPECT_EQ(none, nullptr);
  EXPECT_EQ(out, -1);
  // Later commands of the queue still run; the failed write wrote nothing.
  cl_event later = write(queue, buf, 1, &w);
  EXPECT_EQ(clWaitForEvents(1, &later), CL_SUCCESS);
  int all[2] = {-1, -1};
  ASSERT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof all, all, 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(all[0], 0);
  EXPECT_EQ(all[1], 9);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  for (cl_event e : {gate, dependent, later}) clReleaseEvent(e);
  clReleaseMemObject(buf);
}

TEST_F(QueueTest, BlockingCommandWhoseWaitListFailsWhileWaiting) {
  cl_mem buf = buffer(16);
  cl_event gate = userEvent();
  std::thread aborter([&] {
    settle();
    clSetUserEventStatus(gate, -3);
  });
  int out = -1;
  cl_event e = nullptr;
  EXPECT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 4, &out, 1, &gate, &e),
            CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
  aborter.join();
  EXPECT_EQ(e, nullptr);  // an unsuccessful enqueue creates no event
  EXPECT_EQ(out, -1);
  EXPECT_EQ(clFinish(queue), CL_SUCCESS);
  clReleaseEvent(gate);
  clReleaseMemObject(buf);
}

struct Seen {
  std::atomic<int> submitted{0}, running{0}, complete{0};
  std::atomic<cl_int> completeStatus{1};
};

void CL_CALLBACK record(cl_event, cl_int status, void* data) {
  auto* s = static_cast<Seen*>(data);
  if (status == CL_SUBMITTED) s->submitted++;
  if (status == CL_RUNNING) s->running++;
  if (status <= CL_COMPLETE) {
    s->completeStatus = status;
    s->complete++;
  }
}

TEST_F(QueueTest, CallbacksForEachStatus) {
  cl_mem buf = buffer(16);
  cl_event gate = userEvent();
  int v = 1;
  cl_event e = write(queue, buf, 0, &v, {gate});
  Seen seen;
  for (cl_int t : {CL_SUBMITTED, CL_RUNNING, CL_COMPLETE})
    ASSERT_EQ(clSetEventCallback(e, t, record, &seen), CL_SUCCESS);
  EXPECT_EQ(clSetEventCallback(e, CL_QUEUED, record, &seen), CL_INVALID_VALUE);
  EXPECT_EQ(clSetEventCallback(e, CL_COMPLETE, nullptr, &seen), CL_INVALID_VALUE);
  settle();
  EXPECT_EQ(seen.complete, 0);
  clSetUserEventStatus(gate, CL_COMPLETE);
  clWaitForEvents(1, &e);
  clFinish(queue);
  EXPECT_EQ(seen.submitted, 1);
  EXPECT_EQ(seen.running, 1);
  EXPECT_EQ(seen.complete, 1);
  EXPECT_EQ(seen.completeStatus, CL_COMPLETE);
  // Registered after the fact: called right away.
  Seen late;
  ASSERT_EQ(clSetEventCallback(e, CL_RUNNING, record, &late), CL_SUCCESS);
  EXPECT_EQ(late.running, 1);
  // An aborted user event reports its error code to CL_COMPLETE callbacks.
  cl_event failing = userEvent();
  Seen failed;
  ASSERT_EQ(clSetEventCallback(failing, CL_COMPLETE, record, &failed), CL_SUCCESS);
  clSetUserEventStatus(failing, -9);
  EXPECT_EQ(failed.complete, 1);
  EXPECT_EQ(failed.completeStatus, -9);
  for (cl_event x : {gate, e, failing}) clReleaseEvent(x);
  clReleaseMemObject(buf);
}

TEST_F(QueueTest, ProfilingTimestampsAreOrdered) {
  cl_command_queue q = makeQueue(CL_QUEUE_PROFILING_ENABLE);
  cl_mem buf = buffer(1 << 20);
  std::vector<char> host(1 << 20, 3);
  cl_ulong before = 0, after = 0, hostTime = 0;
  clGetDeviceAndHostTimer(device, &before, &hostTime);
  cl_event e = nullptr;
  ASSERT_EQ(clEnqueueWriteBuffer(q, buf, CL_TRUE, 0, host.size(), host.data(), 0, nullptr, &e),
            CL_SUCCESS);
  clGetDeviceAndHostTimer(device, &after, &hostTime);
  cl_ulong t[5] = {};
  cl_profiling_info params[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                CL_PROFILING_COMMAND_COMPLETE};
  for (int i = 0; i < 5; ++i)
    ASSERT_EQ(clGetEventProfilingInfo(e, params[i], sizeof t[i], &t[i], nullptr), CL_SUCCESS);
  EXPECT_LE(before, t[0]);
  for (int i = 1; i < 5; ++i) EXPECT_LE(t[i - 1], t[i]);
  EXPECT_LE(t[4], after);
  EXPECT_EQ(clGetEventProfilingInfo(e, 0xdead, sizeof t[0], t, nullptr), CL_INVALID_VALUE);
  // Not available: a queue without profiling, a user event, a command not yet done.
  cl_event plain = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &plain), CL_SUCCESS);
  clWaitForEvents(1, &plain);
  EXPECT_EQ(clGetEventProfilingInfo(plain, CL_PROFILING_COMMAND_END, sizeof t[0], t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_event gate = userEvent();
  EXPECT_EQ(clGetEventProfilingInfo(gate, CL_PROFILING_COMMAND_END, sizeof t[0], t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  cl_event pending = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(q, 1, &gate, &pending), CL_SUCCESS);
  EXPECT_EQ(clGetEventProfilingInfo(pending, CL_PROFILING_COMMAND_END, sizeof t[0], t, nullptr),
            CL_PROFILING_INFO_NOT_AVAILABLE);
  clSetUserEventStatus(gate, CL_COMPLETE);
  clFinish(q);
  for (cl_event x : {e, plain, gate, pending}) clReleaseEvent(x);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(q);
}

TEST_F(QueueTest, UserEvents) {
  cl_event u = userEvent();
  EXPECT_EQ(status(u), CL_SUBMITTED);
  EXPECT_EQ(eventValue<cl_command_type>(u, CL_EVENT_COMMAND_TYPE),
            cl_command_type(CL_COMMAND_USER));
  EXPECT_EQ(eventValue<cl_command_queue>(u, CL_EVENT_COMMAND_QUEUE), nullptr);
  EXPECT_EQ(eventValue<cl_context>(u, CL_EVENT_CONTEXT), context);
  EXPECT_EQ(clSetUserEventStatus(u, CL_RUNNING), CL_INVALID_VALUE);
  EXPECT_EQ(clRetainEvent(u), CL_SUCCESS);
  EXPECT_EQ(eventValue<cl_uint>(u, CL_EVENT_REFERENCE_COUNT), 2u);
  EXPECT_EQ(clReleaseEvent(u), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(u, CL_COMPLETE), CL_INVALID_OPERATION);
  EXPECT_EQ(status(u), CL_COMPLETE);
  cl_event marker = nullptr;
  ASSERT_EQ(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker), CL_SUCCESS);
  EXPECT_EQ(clSetUserEventStatus(marker, CL_COMPLETE), CL_INVALID_EVENT);
  EXPECT_EQ(eventValue<cl_command_queue>(marker, CL_EVENT_COMMAND_QUEUE), queue);
  EXPECT_EQ(clGetEventInfo(marker, 0xdead, 0, nullptr, nullptr), CL_INVALID_VALUE);
  int bogus = 0;
  auto* table = dispatchOf(u);
  cl_int err;
  EXPECT_EQ(table->clCreateUserEvent(reinterpret_cast<cl_context>(&bogus), &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  auto be = reinterpret_cast<cl_event>(&bogus);
  EXPECT_EQ(table->clRetainEvent(be), CL_INVALID_EVENT);
  EXPECT_EQ(table->clReleaseEvent(be), CL_INVALID_EVENT);
  EXPECT_EQ(table->clGetEventInfo(be, CL_EVENT_CONTEXT, 0, nullptr, nullptr), CL_INVALID_EVENT);
  EXPECT_EQ(table->clSetUserEventStatus(be, CL_COMPLETE), CL_INVALID_EVENT);
  EXPECT_EQ(table->clSetEventCallback(be, CL_COMPLETE, record, nullptr), CL_INVALID_EVENT);
  EXPECT_EQ(table->clGetEventProfilingInfo(be, CL_PROFILING_COMMAND_END, 0, nullptr, nullptr),
            CL_INVALID_EVENT);
  clReleaseEvent(u);
  clReleaseEvent(marker);
}

TEST_F(QueueTest, ReleasedQueueStillRunsItsCommands) {
  cl_command_queue q = makeQueue(0);
  cl_mem buf = buffer(16);
  cl_event gate = userEvent();
  int v = 5;
  cl_event e = write(q, buf, 0, &v, {gate});
  EXPECT_EQ(clReleaseCommandQueue(q), CL_SUCCESS);
  clSetUserEventStatus(gate, CL_COMPLETE);
  EXPECT_EQ(clWaitForEvents(1, &e), CL_SUCCESS);
  int out = 0;
  ASSERT_EQ(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, 4, &out, 0, nullptr, nullptr), CL_SUCCESS);
  EXPECT_EQ(out, 5);
  clReleaseEvent(gate);
  clReleaseEvent(e);
  clReleaseMemObject(buf);
}

TEST_F(QueueTest, SetCommandQueueProperty) {
  cl_command_queue_properties old = 99;
  ASSERT_EQ(clSetCommandQueueProperty(queue, CL_QUEUE_PROFILING_ENABLE, CL_TRUE, &old), CL_SUCCESS);
  EXPECT_EQ(old, 0u);
  cl_command_queue_properties now = 0;
  clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof now, &now, nullptr);
  EXPECT_EQ(now, cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
  EXPECT_EQ(clSetCommandQueueProperty(queue, CL_QUEUE_ON_DEVICE, CL_TRUE, nullptr),
            CL_INVALID_VALUE);
  ASSERT_EQ(clSetCommandQueueProperty(queue, CL_QUEUE_PROFILING_ENABLE, CL_FALSE, &old),
            CL_SUCCESS);
  EXPECT_EQ(old, cl_command_queue_properties(CL_QUEUE_PROFILING_ENABLE));
}

// Several host threads enqueue into one out-of-order queue, each chained on its own
// user event; every write lands.
TEST_F(QueueTest, ConcurrentEnqueues) {
  cl_command_queue ooo = makeQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  constexpr int kThreads = 4, kPerThread = 50;
  cl_mem buf = buffer(kThreads * kPerThread * sizeof(int));
  std::vector<int> values(kThreads * kPerThread);
  for (int i = 0; i < int(values.size()); ++i) values[i] = i * 3 + 1;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      cl_event gate = userEvent();
      std::vector<cl_event> events;
      for (int i = 0; i < kPerThread; ++i) {
        int index = t * kPerThread + i;
        events.push_back(write(ooo, buf, index, &values[index], {gate}));
      }
      clSetUserEventStatus(gate, CL_COMPLETE);
      EXPECT_EQ(clWaitForEvents(cl_uint(events.size()), events.data()), CL_SUCCESS);
      for (cl_event e : events) clReleaseEvent(e);
      clReleaseEvent(gate);
    });
  for (auto& th : threads) th.join();
  std::vector<int> out(values.size());
  ASSERT_EQ(clEnqueueReadBuffer(ooo, buf, CL_TRUE, 0, out.size() * sizeof(int), out.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_EQ(out, values);
  clReleaseMemObject(buf);
  clReleaseCommandQueue(ooo);
}

}  // namespace
}  // namespace spvsim::rt::test
