// Features the device reports as absent: pipes (CL_DEVICE_PIPE_SUPPORT false), SVM
// (CL_DEVICE_SVM_CAPABILITIES 0), native kernels (CL_EXEC_NATIVE_KERNEL not in
// CL_DEVICE_EXECUTION_CAPABILITIES) and device-side queues. Each entry point still
// validates its handles first, then answers what the OpenCL 3.0 spec lists for a
// device without the feature. No pipe object can ever exist, so any handle passed as
// one is invalid. (Images and samplers: runtime/image*.cc, runtime/sampler.cc.)
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

// --- Pipes.

cl_mem clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint, const cl_pipe_properties*,
                    cl_int* errcode_ret) {
  return noObject<cl_mem>(context, errcode_ret);
}

cl_int clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) { return CL_INVALID_MEM_OBJECT; }

// --- Shared virtual memory.

void* clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) { return nullptr; }
void clSVMFree(cl_context, void*) {}  // nothing was ever allocated

cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint, void*[],
                        void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*), void*,
                        cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool, void*, const void*, size_t,
                          cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void*, const void*, size_t, size_t,
                           cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool, cl_map_flags, void*, size_t,
                       cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void*, cl_uint, const cl_event*,
                         cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint, const void**, const size_t*,
                              cl_mem_migration_flags, cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_OPERATION);
}

cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint, const void*) {
  return checked<Object>(kernel, Kind::Kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void* param_value) {
  if (!checked<Object>(kernel, Kind::Kernel)) return CL_INVALID_KERNEL;
  if (param_name != CL_KERNEL_EXEC_INFO_SVM_PTRS &&
      param_name != CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM)
    return CL_INVALID_VALUE;
  if (!param_value || param_value_size == 0) return CL_INVALID_VALUE;
  return CL_INVALID_OPERATION;  // both are SVM settings
}

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
