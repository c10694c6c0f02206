// The dispatch table every object points at (CL/cl_icd.h: all 149 slots, each a real
// function), and the three symbols the ICD loader looks up by name (exports.map).
#include "runtime/core_api.h"
#include "runtime/interfaces.h"
#include "runtime/program_api.h"

namespace spvsim::rt {

// OpenCL 1.1's lookup without a platform: this library's one platform.
void* clGetExtensionFunctionAddress(const char* func_name) {
  return extensionFunctionAddress(func_name);
}

namespace {
namespace rt = spvsim::rt;

// Designated initializers in declaration order: the compiler checks each slot's name
// and signature against CL/cl_icd.h.
const cl_icd_dispatch kDispatch = {
    .clGetPlatformIDs = &rt::clGetPlatformIDs,
    .clGetPlatformInfo = &rt::clGetPlatformInfo,
    .clGetDeviceIDs = &rt::clGetDeviceIDs,
    .clGetDeviceInfo = &rt::clGetDeviceInfo,
    .clCreateContext = &rt::clCreateContext,
    .clCreateContextFromType = &rt::clCreateContextFromType,
    .clRetainContext = &rt::clRetainContext,
    .clReleaseContext = &rt::clReleaseContext,
    .clGetContextInfo = &rt::clGetContextInfo,
    .clCreateCommandQueue = &rt::clCreateCommandQueue,
    .clRetainCommandQueue = &rt::clRetainCommandQueue,
    .clReleaseCommandQueue = &rt::clReleaseCommandQueue,
    .clGetCommandQueueInfo = &rt::clGetCommandQueueInfo,
    .clSetCommandQueueProperty = &rt::clSetCommandQueueProperty,
    .clCreateBuffer = &rt::clCreateBuffer,
    .clCreateImage2D = &rt::clCreateImage2D,
    .clCreateImage3D = &rt::clCreateImage3D,
    .clRetainMemObject = &rt::clRetainMemObject,
    .clReleaseMemObject = &rt::clReleaseMemObject,
    .clGetSupportedImageFormats = &rt::clGetSupportedImageFormats,
    .clGetMemObjectInfo = &rt::clGetMemObjectInfo,
    .clGetImageInfo = &rt::clGetImageInfo,
    .clCreateSampler = &rt::clCreateSampler,
    .clRetainSampler = &rt::clRetainSampler,
    .clReleaseSampler = &rt::clReleaseSampler,
    .clGetSamplerInfo = &rt::clGetSamplerInfo,
    .clCreateProgramWithSource = &rt::clCreateProgramWithSource,
    .clCreateProgramWithBinary = &rt::clCreateProgramWithBinary,
    .clRetainProgram = &rt::clRetainProgram,
    .clReleaseProgram = &rt::clReleaseProgram,
    .clBuildProgram = &rt::clBuildProgram,
    .clUnloadCompiler = &rt::clUnloadCompiler,
    .clGetProgramInfo = &rt::clGetProgramInfo,
    .clGetProgramBuildInfo = &rt::clGetProgramBuildInfo,
    .clCreateKernel = &rt::clCreateKernel,
    .clCreateKernelsInProgram = &rt::clCreateKernelsInProgram,
    .clRetainKernel = &rt::clRetainKernel,
    .clReleaseKernel = &rt::clReleaseKernel,
    .clSetKernelArg = &rt::clSetKernelArg,
    .clGetKernelInfo = &rt::clGetKernelInfo,
    .clGetKernelWorkGroupInfo = &rt::clGetKernelWorkGroupInfo,
    .clWaitForEvents = &rt::clWaitForEvents,
    .clGetEventInfo = &rt::clGetEventInfo,
    .clRetainEvent = &rt::clRetainEvent,
    .clReleaseEvent = &rt::clReleaseEvent,
    .clGetEventProfilingInfo = &rt::clGetEventProfilingInfo,
    .clFlush = &rt::clFlush,
    .clFinish = &rt::clFinish,
    .clEnqueueReadBuffer = &rt::clEnqueueReadBuffer,
    .clEnqueueWriteBuffer = &rt::clEnqueueWriteBuffer,
    .clEnqueueCopyBuffer = &rt::clEnqueueCopyBuffer,
    .clEnqueueReadImage = &rt::clEnqueueReadImage,
    .clEnqueueWriteImage = &rt::clEnqueueWriteImage,
    .clEnqueueCopyImage = &rt::clEnqueueCopyImage,
    .clEnqueueCopyImageToBuffer = &rt::clEnqueueCopyImageToBuffer,
    .clEnqueueCopyBufferToImage = &rt::clEnqueueCopyBufferToImage,
    .clEnqueueMapBuffer = &rt::clEnqueueMapBuffer,
    .clEnqueueMapImage = &rt::clEnqueueMapImage,
    .clEnqueueUnmapMemObject = &rt::clEnqueueUnmapMemObject,
    .clEnqueueNDRangeKernel = &rt::clEnqueueNDRangeKernel,
    .clEnqueueTask = &rt::clEnqueueTask,
    .clEnqueueNativeKernel = &rt::clEnqueueNativeKernel,
    .clEnqueueMarker = &rt::clEnqueueMarker,
    .clEnqueueWaitForEvents = &rt::clEnqueueWaitForEvents,
    .clEnqueueBarrier = &rt::clEnqueueBarrier,
    .clGetExtensionFunctionAddress = &rt::clGetExtensionFunctionAddress,
    .clCreateFromGLBuffer = &rt::clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = &rt::clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = &rt::clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = &rt::clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = &rt::clGetGLObjectInfo,
    .clGetGLTextureInfo = &rt::clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = &rt::clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = &rt::clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = &rt::clGetGLContextInfoKHR,
    .clGetDeviceIDsFromD3D10KHR = reinterpret_cast<void*>(&rt::clGetDeviceIDsFromD3D10KHR),
    .clCreateFromD3D10BufferKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D10BufferKHR),
    .clCreateFromD3D10Texture2DKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D10Texture2DKHR),
    .clCreateFromD3D10Texture3DKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D10Texture3DKHR),
    .clEnqueueAcquireD3D10ObjectsKHR =
        reinterpret_cast<void*>(&rt::clEnqueueAcquireD3D10ObjectsKHR),
    .clEnqueueReleaseD3D10ObjectsKHR =
        reinterpret_cast<void*>(&rt::clEnqueueReleaseD3D10ObjectsKHR),
    .clSetEventCallback = &rt::clSetEventCallback,
    .clCreateSubBuffer = &rt::clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = &rt::clSetMemObjectDestructorCallback,
    .clCreateUserEvent = &rt::clCreateUserEvent,
    .clSetUserEventStatus = &rt::clSetUserEventStatus,
    .clEnqueueReadBufferRect = &rt::clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = &rt::clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = &rt::clEnqueueCopyBufferRect,
    .clCreateSubDevicesEXT = &rt::clCreateSubDevicesEXT,
    .clRetainDeviceEXT = &rt::clRetainDeviceEXT,
    .clReleaseDeviceEXT = &rt::clReleaseDeviceEXT,
    .clCreateEventFromGLsyncKHR = &rt::clCreateEventFromGLsyncKHR,
    .clCreateSubDevices = &rt::clCreateSubDevices,
    .clRetainDevice = &rt::clRetainDevice,
    .clReleaseDevice = &rt::clReleaseDevice,
    .clCreateImage = &rt::clCreateImage,
    .clCreateProgramWithBuiltInKernels = &rt::clCreateProgramWithBuiltInKernels,
    .clCompileProgram = &rt::clCompileProgram,
    .clLinkProgram = &rt::clLinkProgram,
    .clUnloadPlatformCompiler = &rt::clUnloadPlatformCompiler,
    .clGetKernelArgInfo = &rt::clGetKernelArgInfo,
    .clEnqueueFillBuffer = &rt::clEnqueueFillBuffer,
    .clEnqueueFillImage = &rt::clEnqueueFillImage,
    .clEnqueueMigrateMemObjects = &rt::clEnqueueMigrateMemObjects,
    .clEnqueueMarkerWithWaitList = &rt::clEnqueueMarkerWithWaitList,
    .clEnqueueBarrierWithWaitList = &rt::clEnqueueBarrierWithWaitList,
    .clGetExtensionFunctionAddressForPlatform = &rt::clGetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = &rt::clCreateFromGLTexture,
    .clGetDeviceIDsFromD3D11KHR = reinterpret_cast<void*>(&rt::clGetDeviceIDsFromD3D11KHR),
    .clCreateFromD3D11BufferKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D11BufferKHR),
    .clCreateFromD3D11Texture2DKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D11Texture2DKHR),
    .clCreateFromD3D11Texture3DKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D11Texture3DKHR),
    .clCreateFromDX9MediaSurfaceKHR = reinterpret_cast<void*>(&rt::clCreateFromDX9MediaSurfaceKHR),
    .clEnqueueAcquireD3D11ObjectsKHR =
        reinterpret_cast<void*>(&rt::clEnqueueAcquireD3D11ObjectsKHR),
    .clEnqueueReleaseD3D11ObjectsKHR =
        reinterpret_cast<void*>(&rt::clEnqueueReleaseD3D11ObjectsKHR),
    .clGetDeviceIDsFromDX9MediaAdapterKHR =
        reinterpret_cast<void*>(&rt::clGetDeviceIDsFromDX9MediaAdapterKHR),
    .clEnqueueAcquireDX9MediaSurfacesKHR =
        reinterpret_cast<void*>(&rt::clEnqueueAcquireDX9MediaSurfacesKHR),
    .clEnqueueReleaseDX9MediaSurfacesKHR =
        reinterpret_cast<void*>(&rt::clEnqueueReleaseDX9MediaSurfacesKHR),
    .clCreateFromEGLImageKHR = &rt::clCreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = &rt::clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = &rt::clEnqueueReleaseEGLObjectsKHR,
    .clCreateEventFromEGLSyncKHR = &rt::clCreateEventFromEGLSyncKHR,
    .clCreateCommandQueueWithProperties = &rt::clCreateCommandQueueWithProperties,
    .clCreatePipe = &rt::clCreatePipe,
    .clGetPipeInfo = &rt::clGetPipeInfo,
    .clSVMAlloc = &rt::clSVMAlloc,
    .clSVMFree = &rt::clSVMFree,
    .clEnqueueSVMFree = &rt::clEnqueueSVMFree,
    .clEnqueueSVMMemcpy = &rt::clEnqueueSVMMemcpy,
    .clEnqueueSVMMemFill = &rt::clEnqueueSVMMemFill,
    .clEnqueueSVMMap = &rt::clEnqueueSVMMap,
    .clEnqueueSVMUnmap = &rt::clEnqueueSVMUnmap,
    .clCreateSamplerWithProperties = &rt::clCreateSamplerWithProperties,
    .clSetKernelArgSVMPointer = &rt::clSetKernelArgSVMPointer,
    .clSetKernelExecInfo = &rt::clSetKernelExecInfo,
    .clGetKernelSubGroupInfoKHR = &rt::clGetKernelSubGroupInfoKHR,
    .clCloneKernel = &rt::clCloneKernel,
    .clCreateProgramWithIL = &rt::clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = &rt::clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = &rt::clGetDeviceAndHostTimer,
    .clGetHostTimer = &rt::clGetHostTimer,
    .clGetKernelSubGroupInfo = &rt::clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = &rt::clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = &rt::clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = &rt::clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = &rt::clCreateBufferWithProperties,
    .clCreateImageWithProperties = &rt::clCreateImageWithProperties,
    .clSetContextDestructorCallback = &rt::clSetContextDestructorCallback,
};

}  // namespace

const cl_icd_dispatch* dispatchTable() { return &kDispatch; }

}  // namespace spvsim::rt

// The loader's entry points (the only exported symbols).
extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
  return spvsim::rt::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  return spvsim::rt::clGetExtensionFunctionAddress(func_name);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
  return spvsim::rt::clGetPlatformInfo(platform, param_name, param_value_size, param_value,
                                       param_value_size_ret);
}

}  // extern "C"
