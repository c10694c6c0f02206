// On-device command queues (CL_QUEUE_ON_DEVICE): created by
// clCreateCommandQueueWithProperties, named by kernels through queue_t arguments and
// get_default_queue. They hold no host commands: a launch whose kernels enqueue runs the
// enqueued kernels itself (src/exec/device_enqueue.h), seeing the context's device queues
// as the launch's DeviceQueueOptions, each queue_t being the cl_command_queue's address.
#include "src/exec/device_queue.h"

#include <algorithm>

#include "runtime/core_api.h"
#include "runtime/kernel_args.h"
#include "runtime/queue.h"

namespace spvsim::rt {
namespace {

uint64_t handleOf(cl_command_queue q) { return reinterpret_cast<uint64_t>(q); }

}  // namespace

bool isDeviceQueue(const _cl_command_queue* q) { return q->props & CL_QUEUE_ON_DEVICE; }

cl_command_queue createDeviceQueue(cl_context context, cl_device_id device,
                                   cl_command_queue_properties bits, cl_uint size,
                                   cl_int* errcode_ret) {
  if (size > kDeviceQueueMaxSize)
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_VALUE, nullptr);
  auto* c = checked<_cl_context>(context, Kind::Context);
  if (!c) return withError<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::lock_guard<std::mutex> lock(c->deviceQueueMutex);
  // OpenCL 2.1: asking for a default device queue again returns the existing one.
  if ((bits & CL_QUEUE_ON_DEVICE_DEFAULT) && c->defaultDeviceQueue) {
    retain(static_cast<_cl_command_queue*>(c->defaultDeviceQueue));
    return withError<cl_command_queue>(errcode_ret, CL_SUCCESS, c->defaultDeviceQueue);
  }
  // CL_DEVICE_MAX_ON_DEVICE_QUEUES counts the queues besides the default one: the
  // conformance suite's device_queue test creates the default queue and then that many
  // more, all alive at once (the API spec only says "the maximum number of device queues
  // that can be created"; its enqueue_multi_queue test stays below either reading).
  if (c->deviceQueues.size() >= kMaxDeviceQueues + 1)
    return withError<cl_command_queue>(errcode_ret, CL_OUT_OF_RESOURCES, nullptr);
  cl_command_queue q = makeQueue(context, device, bits, errcode_ret);
  if (!q) return nullptr;
  static_cast<_cl_command_queue*>(q)->deviceQueueSize = size ? size : kDeviceQueuePreferredSize;
  c->deviceQueues.push_back(q);
  if (bits & CL_QUEUE_ON_DEVICE_DEFAULT) c->defaultDeviceQueue = q;
  return q;
}

void forgetDeviceQueue(_cl_command_queue* q) {
  auto* c = static_cast<_cl_context*>(q->context);
  std::lock_guard<std::mutex> lock(c->deviceQueueMutex);
  auto& v = c->deviceQueues;
  v.erase(std::remove(v.begin(), v.end(), q), v.end());
  if (c->defaultDeviceQueue == q) c->defaultDeviceQueue = nullptr;
}

cl_command_queue defaultDeviceQueue(cl_context context) {
  auto* c = static_cast<_cl_context*>(context);
  std::lock_guard<std::mutex> lock(c->deviceQueueMutex);
  return c->defaultDeviceQueue;
}

DeviceQueueOptions deviceQueueOptions(cl_context context) {
  auto* c = static_cast<_cl_context*>(context);
  std::lock_guard<std::mutex> lock(c->deviceQueueMutex);
  DeviceQueueOptions o;
  for (cl_command_queue q : c->deviceQueues)
    o.queues.push_back(
        DeviceQueue{handleOf(q), static_cast<_cl_command_queue*>(q)->deviceQueueSize});
  o.defaultQueue = c->defaultDeviceQueue ? handleOf(c->defaultDeviceQueue) : 0;
  return o;
}

// A queue_t kernel argument: a device queue of the kernel's context, as its handle.
cl_int deviceQueueArg(cl_context context, size_t size, const void* value, ArgBinding& out) {
  if (size != sizeof(cl_command_queue) || !value) return CL_INVALID_ARG_SIZE;
  cl_command_queue q = *static_cast<const cl_command_queue*>(value);
  auto* dq = checked<_cl_command_queue>(q, Kind::Queue);
  if (!dq || !isDeviceQueue(dq) || dq->context != context) return CL_INVALID_DEVICE_QUEUE;
  const uint64_t handle = handleOf(q);
  const auto* bytes = reinterpret_cast<const uint8_t*>(&handle);
  out = ArgBinding::bytes({bytes, bytes + sizeof handle});
  return CL_SUCCESS;
}

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue command_queue) {
  auto* c = checked<_cl_context>(context, Kind::Context);
  if (!c) return CL_INVALID_CONTEXT;
  if (!checked<_cl_device_id>(device, Kind::Device) ||
      std::find(c->devices.begin(), c->devices.end(), device) == c->devices.end())
    return CL_INVALID_DEVICE;
  auto* q = checked<_cl_command_queue>(command_queue, Kind::Queue);
  if (!q || !isDeviceQueue(q) || q->context != context || q->device != device)
    return CL_INVALID_COMMAND_QUEUE;
  std::lock_guard<std::mutex> lock(c->deviceQueueMutex);
  c->defaultDeviceQueue = command_queue;
  return CL_SUCCESS;
}

}  // namespace spvsim::rt
