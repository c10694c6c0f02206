// Features the device reports as absent: native kernels (CL_EXEC_NATIVE_KERNEL not in
// CL_DEVICE_EXECUTION_CAPABILITIES) and device-side queues. Each entry point still
// validates its handles first, then answers what the OpenCL 3.0 spec lists for a
// device without the feature. (Images and samplers: runtime/image*.cc,
// runtime/sampler.cc; pipes: runtime/pipe.cc; SVM: runtime/svm.cc.)
#include "runtime/core_api.h"
#include "runtime/queue.h"

namespace spvsim::rt {
namespace {

bool validContext(cl_context c) { return checked<_cl_context>(c, Kind::Context); }

// The CL_INVALID_COMMAND_QUEUE check first, then `otherwise`.
cl_int onQueue(cl_command_queue q, cl_int otherwise) {
  return validQueue(q) ? otherwise : CL_INVALID_COMMAND_QUEUE;
}

template <class T>
T noObject(cl_context context, cl_int* errcode_ret) {
  return withError<T>(errcode_ret,
                      validContext(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

}  // namespace

// --- Native kernels and device-side queues.

cl_int clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK*)(void*), void*,
                             size_t, cl_uint, const cl_mem*, const void**, cl_uint, const cl_event*,
                             cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device, cl_command_queue) {
  if (!validContext(context)) return CL_INVALID_CONTEXT;
  if (!checked<_cl_device_id>(device, Kind::Device)) return CL_INVALID_DEVICE;
  return CL_INVALID_OPERATION;
}

}  // namespace spvsim::rt
