// Features the device reports as absent: native kernels (CL_EXEC_NATIVE_KERNEL not in
// CL_DEVICE_EXECUTION_CAPABILITIES). The entry point still validates its handles first,
// then answers what the OpenCL 3.0 spec lists for a device without the feature. (Images and
// samplers: runtime/image*.cc, runtime/sampler.cc; pipes: runtime/pipe.cc; SVM: runtime/svm.cc;
// device queues: runtime/device_queue.cc.)
#include "runtime/core_api.h"
#include "runtime/queue.h"

namespace spvsim::rt {
namespace {

// The CL_INVALID_COMMAND_QUEUE check first, then `otherwise`.
cl_int onQueue(cl_command_queue q, cl_int otherwise) {
  return validQueue(q) ? otherwise : CL_INVALID_COMMAND_QUEUE;
}

}  // namespace

// --- Native kernels.

cl_int clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK*)(void*), void*,
                             size_t, cl_uint, const cl_mem*, const void**, cl_uint, const cl_event*,
                             cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

}  // namespace spvsim::rt
