// Command queues: creation and properties, queries, flush and finish. The scheduling
// itself is in scheduler.cc.
#include "runtime/queue.h"

#include <algorithm>

#include "runtime/core_api.h"
#include "runtime/info_reply.h"

namespace spvsim::rt {

std::shared_ptr<QueueState> startWorker(bool outOfOrder);  // scheduler.cc
void stopWorker(QueueState& s);
void setOutOfOrder(QueueState& s, bool outOfOrder);

}  // namespace spvsim::rt

_cl_command_queue::~_cl_command_queue() {
  if (spvsim::rt::isDeviceQueue(this)) spvsim::rt::forgetDeviceQueue(this);
  spvsim::rt::stopWorker(*state);
  spvsim::rt::release(context);
}

namespace spvsim::rt {
namespace {

constexpr cl_command_queue_properties kHostProperties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;

// Device-side queues are OpenCL 2.0 properties (runtime/device_queue.cc).
cl_int checkProperties(cl_command_queue_properties p, bool deviceQueuesValid) {
  cl_command_queue_properties valid = kHostProperties;
  if (deviceQueuesValid) valid |= CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if (p & ~valid) return CL_INVALID_VALUE;
  if ((p & CL_QUEUE_ON_DEVICE_DEFAULT) && !(p & CL_QUEUE_ON_DEVICE)) return CL_INVALID_VALUE;
  if ((p & CL_QUEUE_ON_DEVICE) && !(p & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE))
    return CL_INVALID_VALUE;
  return CL_SUCCESS;
}

// Reads a clCreateCommandQueueWithProperties list into its properties bitfield.
cl_int parseQueueProperties(const cl_queue_properties* list, cl_command_queue_properties& bits,
                            cl_uint& size) {
  bool sawProps = false, sawSize = false;
  for (const cl_queue_properties* p = list; p && *p; p += 2) {
    if (p[0] == CL_QUEUE_PROPERTIES && !sawProps) {
      bits = p[1];
      sawProps = true;
    } else if (p[0] == CL_QUEUE_SIZE && !sawSize) {
      sawSize = true;
      if (p[1] == 0 || p[1] > kDeviceQueueMaxSize) return CL_INVALID_VALUE;
      size = static_cast<cl_uint>(p[1]);
    } else {
      return CL_INVALID_VALUE;  // unknown or repeated
    }
  }
  if (sawSize && !(bits & CL_QUEUE_ON_DEVICE)) return CL_INVALID_VALUE;
  return checkProperties(bits, true);
}

}  // namespace

cl_command_queue makeQueue(cl_context context, cl_device_id device,
                           cl_command_queue_properties bits, cl_int* errcode_ret) {
  auto* c = checked<_cl_context>(context, Kind::Context);
  if (!c) return withError<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (!checked<_cl_device_id>(device, Kind::Device) ||
      std::find(c->devices.begin(), c->devices.end(), device) == c->devices.end())
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  auto* q = registerObject(new _cl_command_queue);
  retain(c);
  q->context = c;
  q->device = device;
  q->props = bits;
  q->state = startWorker(bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  return withError<cl_command_queue>(errcode_ret, CL_SUCCESS, q);
}

_cl_command_queue* anyQueue(cl_command_queue queue) {
  return checked<_cl_command_queue>(queue, Kind::Queue);
}

_cl_command_queue* validQueue(cl_command_queue queue) {
  _cl_command_queue* q = anyQueue(queue);
  return q && !isDeviceQueue(q) ? q : nullptr;
}

cl_context queueContext(cl_command_queue queue) {
  return static_cast<_cl_command_queue*>(queue)->context;
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties, cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (cl_int err = checkProperties(properties, false))
    return withError<cl_command_queue>(errcode_ret, err, nullptr);
  return makeQueue(context, device, properties, errcode_ret);
}

cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                    const cl_queue_properties* properties,
                                                    cl_int* errcode_ret) {
  if (!checked<_cl_context>(context, Kind::Context))
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl_command_queue_properties bits = 0;
  cl_uint size = 0;
  if (cl_int err = parseQueueProperties(properties, bits, size))
    return withError<cl_command_queue>(errcode_ret, err, nullptr);
  cl_command_queue q = (bits & CL_QUEUE_ON_DEVICE)
                           ? createDeviceQueue(context, device, bits, size, errcode_ret)
                           : makeQueue(context, device, bits, errcode_ret);
  if (q && properties && static_cast<_cl_command_queue*>(q)->properties.empty()) {
    const cl_queue_properties* end = properties;
    while (*end) end += 2;
    static_cast<_cl_command_queue*>(q)->properties.assign(properties, end + 1);
  }
  return q;
}

cl_int clRetainCommandQueue(cl_command_queue command_queue) {
  _cl_command_queue* q = anyQueue(command_queue);
  return q && retainHandle(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int clReleaseCommandQueue(cl_command_queue command_queue) {
  // Commands already queued still run (the worker outlives the object).
  _cl_command_queue* q = anyQueue(command_queue);
  return q && releaseHandle(q) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

cl_int clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                             size_t param_value_size, void* param_value,
                             size_t* param_value_size_ret) {
  _cl_command_queue* q = anyQueue(command_queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  InfoReply r{param_value_size, param_value, param_value_size_ret};
  switch (param_name) {
    case CL_QUEUE_CONTEXT:
      return r.scalar(q->context);
    case CL_QUEUE_DEVICE:
      return r.scalar(q->device);
    case CL_QUEUE_REFERENCE_COUNT:
      return r.scalar(q->refs.load());
    case CL_QUEUE_PROPERTIES:
      return r.scalar(q->props.load());
    case CL_QUEUE_PROPERTIES_ARRAY:
      return r.vector(q->properties);
    case CL_QUEUE_SIZE:  // only device queues have a size
      if (!isDeviceQueue(q)) return CL_INVALID_COMMAND_QUEUE;
      return r.scalar(q->deviceQueueSize);
    case CL_QUEUE_DEVICE_DEFAULT:
      return r.scalar(defaultDeviceQueue(q->context));
    default:
      return CL_INVALID_VALUE;
  }
}

// OpenCL 1.0: switches profiling or out-of-order execution for later commands, after
// the ones already queued have finished.
cl_int clSetCommandQueueProperty(cl_command_queue command_queue,
                                 cl_command_queue_properties properties, cl_bool enable,
                                 cl_command_queue_properties* old_properties) {
  _cl_command_queue* q = validQueue(command_queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  if (properties & ~kHostProperties) return CL_INVALID_VALUE;
  if (old_properties) *old_properties = q->props;
  rt::clFinish(command_queue);
  cl_command_queue_properties now = enable ? (q->props | properties) : (q->props & ~properties);
  q->props = now;
  setOutOfOrder(*q->state, now & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  return CL_SUCCESS;
}

// Commands are submitted to the worker as they are enqueued.
cl_int clFlush(cl_command_queue command_queue) {
  return validQueue(command_queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

// Waits for a marker behind every command queued so far.
cl_int clFinish(cl_command_queue command_queue) {
  if (!validQueue(command_queue)) return CL_INVALID_COMMAND_QUEUE;
  enqueueOrdered(command_queue, CL_COMMAND_MARKER, 0, nullptr, nullptr, nullptr, true,
                 Ordering::AllBefore);
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
