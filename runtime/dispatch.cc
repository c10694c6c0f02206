// The dispatch table every object points at (CL/cl_icd.h: all 149 slots, each a real
// function), and the three symbols the ICD loader looks up by name (exports.map).
#include "runtime/core_api.h"
#include "runtime/guard.h"
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
// and signature against CL/cl_icd.h. Every function runs behind guarded<> (guard.h);
// the D3D slots (void* in the header) are entry points that only answer "not supported".
const cl_icd_dispatch kDispatch = {
    .clGetPlatformIDs = guarded<&rt::clGetPlatformIDs>,
    .clGetPlatformInfo = guarded<&rt::clGetPlatformInfo>,
    .clGetDeviceIDs = guarded<&rt::clGetDeviceIDs>,
    .clGetDeviceInfo = guarded<&rt::clGetDeviceInfo>,
    .clCreateContext = guarded<&rt::clCreateContext>,
    .clCreateContextFromType = guarded<&rt::clCreateContextFromType>,
    .clRetainContext = guarded<&rt::clRetainContext>,
    .clReleaseContext = guarded<&rt::clReleaseContext>,
    .clGetContextInfo = guarded<&rt::clGetContextInfo>,
    .clCreateCommandQueue = guarded<&rt::clCreateCommandQueue>,
    .clRetainCommandQueue = guarded<&rt::clRetainCommandQueue>,
    .clReleaseCommandQueue = guarded<&rt::clReleaseCommandQueue>,
    .clGetCommandQueueInfo = guarded<&rt::clGetCommandQueueInfo>,
    .clSetCommandQueueProperty = guarded<&rt::clSetCommandQueueProperty>,
    .clCreateBuffer = guarded<&rt::clCreateBuffer>,
    .clCreateImage2D = guarded<&rt::clCreateImage2D>,
    .clCreateImage3D = guarded<&rt::clCreateImage3D>,
    .clRetainMemObject = guarded<&rt::clRetainMemObject>,
    .clReleaseMemObject = guarded<&rt::clReleaseMemObject>,
    .clGetSupportedImageFormats = guarded<&rt::clGetSupportedImageFormats>,
    .clGetMemObjectInfo = guarded<&rt::clGetMemObjectInfo>,
    .clGetImageInfo = guarded<&rt::clGetImageInfo>,
    .clCreateSampler = guarded<&rt::clCreateSampler>,
    .clRetainSampler = guarded<&rt::clRetainSampler>,
    .clReleaseSampler = guarded<&rt::clReleaseSampler>,
    .clGetSamplerInfo = guarded<&rt::clGetSamplerInfo>,
    .clCreateProgramWithSource = guarded<&rt::clCreateProgramWithSource>,
    .clCreateProgramWithBinary = guarded<&rt::clCreateProgramWithBinary>,
    .clRetainProgram = guarded<&rt::clRetainProgram>,
    .clReleaseProgram = guarded<&rt::clReleaseProgram>,
    .clBuildProgram = guarded<&rt::clBuildProgram>,
    .clUnloadCompiler = guarded<&rt::clUnloadCompiler>,
    .clGetProgramInfo = guarded<&rt::clGetProgramInfo>,
    .clGetProgramBuildInfo = guarded<&rt::clGetProgramBuildInfo>,
    .clCreateKernel = guarded<&rt::clCreateKernel>,
    .clCreateKernelsInProgram = guarded<&rt::clCreateKernelsInProgram>,
    .clRetainKernel = guarded<&rt::clRetainKernel>,
    .clReleaseKernel = guarded<&rt::clReleaseKernel>,
    .clSetKernelArg = guarded<&rt::clSetKernelArg>,
    .clGetKernelInfo = guarded<&rt::clGetKernelInfo>,
    .clGetKernelWorkGroupInfo = guarded<&rt::clGetKernelWorkGroupInfo>,
    .clWaitForEvents = guarded<&rt::clWaitForEvents>,
    .clGetEventInfo = guarded<&rt::clGetEventInfo>,
    .clRetainEvent = guarded<&rt::clRetainEvent>,
    .clReleaseEvent = guarded<&rt::clReleaseEvent>,
    .clGetEventProfilingInfo = guarded<&rt::clGetEventProfilingInfo>,
    .clFlush = guarded<&rt::clFlush>,
    .clFinish = guarded<&rt::clFinish>,
    .clEnqueueReadBuffer = guarded<&rt::clEnqueueReadBuffer>,
    .clEnqueueWriteBuffer = guarded<&rt::clEnqueueWriteBuffer>,
    .clEnqueueCopyBuffer = guarded<&rt::clEnqueueCopyBuffer>,
    .clEnqueueReadImage = guarded<&rt::clEnqueueReadImage>,
    .clEnqueueWriteImage = guarded<&rt::clEnqueueWriteImage>,
    .clEnqueueCopyImage = guarded<&rt::clEnqueueCopyImage>,
    .clEnqueueCopyImageToBuffer = guarded<&rt::clEnqueueCopyImageToBuffer>,
    .clEnqueueCopyBufferToImage = guarded<&rt::clEnqueueCopyBufferToImage>,
    .clEnqueueMapBuffer = guarded<&rt::clEnqueueMapBuffer>,
    .clEnqueueMapImage = guarded<&rt::clEnqueueMapImage>,
    .clEnqueueUnmapMemObject = guarded<&rt::clEnqueueUnmapMemObject>,
    .clEnqueueNDRangeKernel = guarded<&rt::clEnqueueNDRangeKernel>,
    .clEnqueueTask = guarded<&rt::clEnqueueTask>,
    .clEnqueueNativeKernel = guarded<&rt::clEnqueueNativeKernel>,
    .clEnqueueMarker = guarded<&rt::clEnqueueMarker>,
    .clEnqueueWaitForEvents = guarded<&rt::clEnqueueWaitForEvents>,
    .clEnqueueBarrier = guarded<&rt::clEnqueueBarrier>,
    .clGetExtensionFunctionAddress = guarded<&rt::clGetExtensionFunctionAddress>,
    .clCreateFromGLBuffer = guarded<&rt::clCreateFromGLBuffer>,
    .clCreateFromGLTexture2D = guarded<&rt::clCreateFromGLTexture2D>,
    .clCreateFromGLTexture3D = guarded<&rt::clCreateFromGLTexture3D>,
    .clCreateFromGLRenderbuffer = guarded<&rt::clCreateFromGLRenderbuffer>,
    .clGetGLObjectInfo = guarded<&rt::clGetGLObjectInfo>,
    .clGetGLTextureInfo = guarded<&rt::clGetGLTextureInfo>,
    .clEnqueueAcquireGLObjects = guarded<&rt::clEnqueueAcquireGLObjects>,
    .clEnqueueReleaseGLObjects = guarded<&rt::clEnqueueReleaseGLObjects>,
    .clGetGLContextInfoKHR = guarded<&rt::clGetGLContextInfoKHR>,
    .clGetDeviceIDsFromD3D10KHR = reinterpret_cast<void*>(&rt::clGetDeviceIDsFromD3D10KHR),
    .clCreateFromD3D10BufferKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D10BufferKHR),
    .clCreateFromD3D10Texture2DKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D10Texture2DKHR),
    .clCreateFromD3D10Texture3DKHR = reinterpret_cast<void*>(&rt::clCreateFromD3D10Texture3DKHR),
    .clEnqueueAcquireD3D10ObjectsKHR =
        reinterpret_cast<void*>(&rt::clEnqueueAcquireD3D10ObjectsKHR),
    .clEnqueueReleaseD3D10ObjectsKHR =
        reinterpret_cast<void*>(&rt::clEnqueueReleaseD3D10ObjectsKHR),
    .clSetEventCallback = guarded<&rt::clSetEventCallback>,
    .clCreateSubBuffer = guarded<&rt::clCreateSubBuffer>,
    .clSetMemObjectDestructorCallback = guarded<&rt::clSetMemObjectDestructorCallback>,
    .clCreateUserEvent = guarded<&rt::clCreateUserEvent>,
    .clSetUserEventStatus = guarded<&rt::clSetUserEventStatus>,
    .clEnqueueReadBufferRect = guarded<&rt::clEnqueueReadBufferRect>,
    .clEnqueueWriteBufferRect = guarded<&rt::clEnqueueWriteBufferRect>,
    .clEnqueueCopyBufferRect = guarded<&rt::clEnqueueCopyBufferRect>,
    .clCreateSubDevicesEXT = guarded<&rt::clCreateSubDevicesEXT>,
    .clRetainDeviceEXT = guarded<&rt::clRetainDeviceEXT>,
    .clReleaseDeviceEXT = guarded<&rt::clReleaseDeviceEXT>,
    .clCreateEventFromGLsyncKHR = guarded<&rt::clCreateEventFromGLsyncKHR>,
    .clCreateSubDevices = guarded<&rt::clCreateSubDevices>,
    .clRetainDevice = guarded<&rt::clRetainDevice>,
    .clReleaseDevice = guarded<&rt::clReleaseDevice>,
    .clCreateImage = guarded<&rt::clCreateImage>,
    .clCreateProgramWithBuiltInKernels = guarded<&rt::clCreateProgramWithBuiltInKernels>,
    .clCompileProgram = guarded<&rt::clCompileProgram>,
    .clLinkProgram = guarded<&rt::clLinkProgram>,
    .clUnloadPlatformCompiler = guarded<&rt::clUnloadPlatformCompiler>,
    .clGetKernelArgInfo = guarded<&rt::clGetKernelArgInfo>,
    .clEnqueueFillBuffer = guarded<&rt::clEnqueueFillBuffer>,
    .clEnqueueFillImage = guarded<&rt::clEnqueueFillImage>,
    .clEnqueueMigrateMemObjects = guarded<&rt::clEnqueueMigrateMemObjects>,
    .clEnqueueMarkerWithWaitList = guarded<&rt::clEnqueueMarkerWithWaitList>,
    .clEnqueueBarrierWithWaitList = guarded<&rt::clEnqueueBarrierWithWaitList>,
    .clGetExtensionFunctionAddressForPlatform =
        guarded<&rt::clGetExtensionFunctionAddressForPlatform>,
    .clCreateFromGLTexture = guarded<&rt::clCreateFromGLTexture>,
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
    .clCreateFromEGLImageKHR = guarded<&rt::clCreateFromEGLImageKHR>,
    .clEnqueueAcquireEGLObjectsKHR = guarded<&rt::clEnqueueAcquireEGLObjectsKHR>,
    .clEnqueueReleaseEGLObjectsKHR = guarded<&rt::clEnqueueReleaseEGLObjectsKHR>,
    .clCreateEventFromEGLSyncKHR = guarded<&rt::clCreateEventFromEGLSyncKHR>,
    .clCreateCommandQueueWithProperties = guarded<&rt::clCreateCommandQueueWithProperties>,
    .clCreatePipe = guarded<&rt::clCreatePipe>,
    .clGetPipeInfo = guarded<&rt::clGetPipeInfo>,
    .clSVMAlloc = guarded<&rt::clSVMAlloc>,
    .clSVMFree = guarded<&rt::clSVMFree>,
    .clEnqueueSVMFree = guarded<&rt::clEnqueueSVMFree>,
    .clEnqueueSVMMemcpy = guarded<&rt::clEnqueueSVMMemcpy>,
    .clEnqueueSVMMemFill = guarded<&rt::clEnqueueSVMMemFill>,
    .clEnqueueSVMMap = guarded<&rt::clEnqueueSVMMap>,
    .clEnqueueSVMUnmap = guarded<&rt::clEnqueueSVMUnmap>,
    .clCreateSamplerWithProperties = guarded<&rt::clCreateSamplerWithProperties>,
    .clSetKernelArgSVMPointer = guarded<&rt::clSetKernelArgSVMPointer>,
    .clSetKernelExecInfo = guarded<&rt::clSetKernelExecInfo>,
    .clGetKernelSubGroupInfoKHR = guarded<&rt::clGetKernelSubGroupInfoKHR>,
    .clCloneKernel = guarded<&rt::clCloneKernel>,
    .clCreateProgramWithIL = guarded<&rt::clCreateProgramWithIL>,
    .clEnqueueSVMMigrateMem = guarded<&rt::clEnqueueSVMMigrateMem>,
    .clGetDeviceAndHostTimer = guarded<&rt::clGetDeviceAndHostTimer>,
    .clGetHostTimer = guarded<&rt::clGetHostTimer>,
    .clGetKernelSubGroupInfo = guarded<&rt::clGetKernelSubGroupInfo>,
    .clSetDefaultDeviceCommandQueue = guarded<&rt::clSetDefaultDeviceCommandQueue>,
    .clSetProgramReleaseCallback = guarded<&rt::clSetProgramReleaseCallback>,
    .clSetProgramSpecializationConstant = guarded<&rt::clSetProgramSpecializationConstant>,
    .clCreateBufferWithProperties = guarded<&rt::clCreateBufferWithProperties>,
    .clCreateImageWithProperties = guarded<&rt::clCreateImageWithProperties>,
    .clSetContextDestructorCallback = guarded<&rt::clSetContextDestructorCallback>,
};

}  // namespace

const cl_icd_dispatch* dispatchTable() { return &kDispatch; }

}  // namespace spvsim::rt

// The loader's entry points (the only exported symbols).
extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
  return spvsim::rt::guarded<&spvsim::rt::clIcdGetPlatformIDsKHR>(num_entries, platforms,
                                                                  num_platforms);
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  return spvsim::rt::guarded<&spvsim::rt::clGetExtensionFunctionAddress>(func_name);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
  return spvsim::rt::guarded<&spvsim::rt::clGetPlatformInfo>(platform, param_name, param_value_size,
                                                             param_value, param_value_size_ret);
}

}  // extern "C"
