// Features the device reports as absent: images and samplers
// (CL_DEVICE_IMAGE_SUPPORT is false), pipes (CL_DEVICE_PIPE_SUPPORT false), SVM
// (CL_DEVICE_SVM_CAPABILITIES 0), native kernels (CL_EXEC_NATIVE_KERNEL not in
// CL_DEVICE_EXECUTION_CAPABILITIES). Each entry point still
// validates its handles first, then answers what the OpenCL 3.0 spec lists for a
// device without the feature. No image, sampler or pipe object can ever exist, so
// any handle passed as one is invalid.
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

bool validImageType(cl_mem_object_type t) {
  switch (t) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D:
      return true;
    default:
      return false;
  }
}

constexpr cl_mem_flags kImageFlags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR |
    CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR | CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY |
    CL_MEM_HOST_NO_ACCESS | CL_MEM_KERNEL_READ_AND_WRITE;

}  // namespace

// --- Images: no formats, no image objects.

cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type image_type, cl_uint num_entries,
                                  cl_image_format* image_formats, cl_uint* num_image_formats) {
  if (!validContext(context)) return CL_INVALID_CONTEXT;
  if ((flags & ~kImageFlags) || !validImageType(image_type)) return CL_INVALID_VALUE;
  if (num_entries == 0 && image_formats) return CL_INVALID_VALUE;
  if (num_image_formats) *num_image_formats = 0;
  return CL_SUCCESS;
}

cl_mem clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*, const cl_image_desc*,
                     void*, cl_int* errcode_ret) {
  return noObject<cl_mem>(context, errcode_ret);
}

cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties*, cl_mem_flags,
                                   const cl_image_format*, const cl_image_desc*, void*,
                                   cl_int* errcode_ret) {
  return noObject<cl_mem>(context, errcode_ret);
}

cl_mem clCreateImage2D(cl_context context, cl_mem_flags, const cl_image_format*, size_t, size_t,
                       size_t, void*, cl_int* errcode_ret) {
  return noObject<cl_mem>(context, errcode_ret);
}

cl_mem clCreateImage3D(cl_context context, cl_mem_flags, const cl_image_format*, size_t, size_t,
                       size_t, size_t, size_t, void*, cl_int* errcode_ret) {
  return noObject<cl_mem>(context, errcode_ret);
}

cl_int clGetImageInfo(cl_mem, cl_image_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;
}

cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem, cl_bool, const size_t*,
                          const size_t*, size_t, size_t, void*, cl_uint, const cl_event*,
                          cl_event*) {
  return onQueue(command_queue, CL_INVALID_MEM_OBJECT);
}

cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem, cl_bool, const size_t*,
                           const size_t*, size_t, size_t, const void*, cl_uint, const cl_event*,
                           cl_event*) {
  return onQueue(command_queue, CL_INVALID_MEM_OBJECT);
}

cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem, cl_mem, const size_t*,
                          const size_t*, const size_t*, cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_MEM_OBJECT);
}

cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem, cl_mem, const size_t*,
                                  const size_t*, size_t, cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_MEM_OBJECT);
}

cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem, cl_mem, size_t,
                                  const size_t*, const size_t*, cl_uint, const cl_event*,
                                  cl_event*) {
  return onQueue(command_queue, CL_INVALID_MEM_OBJECT);
}

void* clEnqueueMapImage(cl_command_queue command_queue, cl_mem, cl_bool, cl_map_flags,
                        const size_t*, const size_t*, size_t*, size_t*, cl_uint, const cl_event*,
                        cl_event*, cl_int* errcode_ret) {
  return withError<void*>(errcode_ret, onQueue(command_queue, CL_INVALID_MEM_OBJECT), nullptr);
}

cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem, const void*, const size_t*,
                          const size_t*, cl_uint, const cl_event*, cl_event*) {
  return onQueue(command_queue, CL_INVALID_MEM_OBJECT);
}

// --- Samplers: they exist for images only.

cl_sampler clCreateSampler(cl_context context, cl_bool, cl_addressing_mode, cl_filter_mode,
                           cl_int* errcode_ret) {
  return noObject<cl_sampler>(context, errcode_ret);
}

cl_sampler clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties*,
                                         cl_int* errcode_ret) {
  return noObject<cl_sampler>(context, errcode_ret);
}

cl_int clRetainSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
cl_int clReleaseSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
cl_int clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void*, size_t*) {
  return CL_INVALID_SAMPLER;
}

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

}  // namespace spvsim::rt
