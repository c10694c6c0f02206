// "Never a crash on a bad call": every one of the 149 dispatch slots, called with all
// arguments zero (NULL handles and pointers, zero sizes) and with every argument
// pointing at zeroed scratch memory (unregistered handles, empty lists and strings,
// huge counts), returns an error or nothing and does not crash or hang. Each call runs
// in a child process so that a crash names its slot. Calling a slot through a generic
// 14-argument pointer type is sound on the x86-64 SysV ABI the library targets (all
// OpenCL API parameters are integers or pointers).
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>

namespace spvsim::rt::test {
namespace {

const char* const kSlotNames[] = {
    "clGetPlatformIDs",
    "clGetPlatformInfo",
    "clGetDeviceIDs",
    "clGetDeviceInfo",
    "clCreateContext",
    "clCreateContextFromType",
    "clRetainContext",
    "clReleaseContext",
    "clGetContextInfo",
    "clCreateCommandQueue",
    "clRetainCommandQueue",
    "clReleaseCommandQueue",
    "clGetCommandQueueInfo",
    "clSetCommandQueueProperty",
    "clCreateBuffer",
    "clCreateImage2D",
    "clCreateImage3D",
    "clRetainMemObject",
    "clReleaseMemObject",
    "clGetSupportedImageFormats",
    "clGetMemObjectInfo",
    "clGetImageInfo",
    "clCreateSampler",
    "clRetainSampler",
    "clReleaseSampler",
    "clGetSamplerInfo",
    "clCreateProgramWithSource",
    "clCreateProgramWithBinary",
    "clRetainProgram",
    "clReleaseProgram",
    "clBuildProgram",
    "clUnloadCompiler",
    "clGetProgramInfo",
    "clGetProgramBuildInfo",
    "clCreateKernel",
    "clCreateKernelsInProgram",
    "clRetainKernel",
    "clReleaseKernel",
    "clSetKernelArg",
    "clGetKernelInfo",
    "clGetKernelWorkGroupInfo",
    "clWaitForEvents",
    "clGetEventInfo",
    "clRetainEvent",
    "clReleaseEvent",
    "clGetEventProfilingInfo",
    "clFlush",
    "clFinish",
    "clEnqueueReadBuffer",
    "clEnqueueWriteBuffer",
    "clEnqueueCopyBuffer",
    "clEnqueueReadImage",
    "clEnqueueWriteImage",
    "clEnqueueCopyImage",
    "clEnqueueCopyImageToBuffer",
    "clEnqueueCopyBufferToImage",
    "clEnqueueMapBuffer",
    "clEnqueueMapImage",
    "clEnqueueUnmapMemObject",
    "clEnqueueNDRangeKernel",
    "clEnqueueTask",
    "clEnqueueNativeKernel",
    "clEnqueueMarker",
    "clEnqueueWaitForEvents",
    "clEnqueueBarrier",
    "clGetExtensionFunctionAddress",
    "clCreateFromGLBuffer",
    "clCreateFromGLTexture2D",
    "clCreateFromGLTexture3D",
    "clCreateFromGLRenderbuffer",
    "clGetGLObjectInfo",
    "clGetGLTextureInfo",
    "clEnqueueAcquireGLObjects",
    "clEnqueueReleaseGLObjects",
    "clGetGLContextInfoKHR",
    "clGetDeviceIDsFromD3D10KHR",
    "clCreateFromD3D10BufferKHR",
    "clCreateFromD3D10Texture2DKHR",
    "clCreateFromD3D10Texture3DKHR",
    "clEnqueueAcquireD3D10ObjectsKHR",
    "clEnqueueReleaseD3D10ObjectsKHR",
    "clSetEventCallback",
    "clCreateSubBuffer",
    "clSetMemObjectDestructorCallback",
    "clCreateUserEvent",
    "clSetUserEventStatus",
    "clEnqueueReadBufferRect",
    "clEnqueueWriteBufferRect",
    "clEnqueueCopyBufferRect",
    "clCreateSubDevicesEXT",
    "clRetainDeviceEXT",
    "clReleaseDeviceEXT",
    "clCreateEventFromGLsyncKHR",
    "clCreateSubDevices",
    "clRetainDevice",
    "clReleaseDevice",
    "clCreateImage",
    "clCreateProgramWithBuiltInKernels",
    "clCompileProgram",
    "clLinkProgram",
    "clUnloadPlatformCompiler",
    "clGetKernelArgInfo",
    "clEnqueueFillBuffer",
    "clEnqueueFillImage",
    "clEnqueueMigrateMemObjects",
    "clEnqueueMarkerWithWaitList",
    "clEnqueueBarrierWithWaitList",
    "clGetExtensionFunctionAddressForPlatform",
    "clCreateFromGLTexture",
    "clGetDeviceIDsFromD3D11KHR",
    "clCreateFromD3D11BufferKHR",
    "clCreateFromD3D11Texture2DKHR",
    "clCreateFromD3D11Texture3DKHR",
    "clCreateFromDX9MediaSurfaceKHR",
    "clEnqueueAcquireD3D11ObjectsKHR",
    "clEnqueueReleaseD3D11ObjectsKHR",
    "clGetDeviceIDsFromDX9MediaAdapterKHR",
    "clEnqueueAcquireDX9MediaSurfacesKHR",
    "clEnqueueReleaseDX9MediaSurfacesKHR",
    "clCreateFromEGLImageKHR",
    "clEnqueueAcquireEGLObjectsKHR",
    "clEnqueueReleaseEGLObjectsKHR",
    "clCreateEventFromEGLSyncKHR",
    "clCreateCommandQueueWithProperties",
    "clCreatePipe",
    "clGetPipeInfo",
    "clSVMAlloc",
    "clSVMFree",
    "clEnqueueSVMFree",
    "clEnqueueSVMMemcpy",
    "clEnqueueSVMMemFill",
    "clEnqueueSVMMap",
    "clEnqueueSVMUnmap",
    "clCreateSamplerWithProperties",
    "clSetKernelArgSVMPointer",
    "clSetKernelExecInfo",
    "clGetKernelSubGroupInfoKHR",
    "clCloneKernel",
    "clCreateProgramWithIL",
    "clEnqueueSVMMigrateMem",
    "clGetDeviceAndHostTimer",
    "clGetHostTimer",
    "clGetKernelSubGroupInfo",
    "clSetDefaultDeviceCommandQueue",
    "clSetProgramReleaseCallback",
    "clSetProgramSpecializationConstant",
    "clCreateBufferWithProperties",
    "clCreateImageWithProperties",
    "clSetContextDestructorCallback",
};

using AnySlot = intptr_t (*)(intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t,
                             intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t, intptr_t);

// Runs slot `i` with every argument `arg` in a child; empty when it returned normally.
std::string callInChild(void* slot, intptr_t arg) {
  pid_t pid = fork();
  if (pid == 0) {
    alarm(10);  // a hang is a failure too
    reinterpret_cast<AnySlot>(slot)(arg, arg, arg, arg, arg, arg, arg, arg, arg, arg, arg, arg, arg,
                                    arg);
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0) return "exited " + std::to_string(WEXITSTATUS(status));
  return "";
}

TEST(Robustness, EverySlotSurvivesNullAndGarbageArguments) {
  static_assert(sizeof kSlotNames / sizeof *kSlotNames == sizeof(cl_icd_dispatch) / sizeof(void*));
  const auto* table = reinterpret_cast<void* const*>(dispatchOf(spvsimPlatform()));
  // Zeroed, writable scratch: a function may legitimately write results through a
  // pointer argument it was given.
  static std::vector<intptr_t> scratch(1 << 16, 0);
  for (size_t i = 0; i < sizeof kSlotNames / sizeof *kSlotNames; ++i) {
    for (intptr_t arg : {intptr_t(0), reinterpret_cast<intptr_t>(scratch.data())}) {
      std::string failure = callInChild(table[i], arg);
      EXPECT_EQ(failure, "") << kSlotNames[i] << (arg ? " (scratch arguments)" : " (zeros)");
    }
  }
}

// Sizes no host allocation can have (a string length of SIZE_MAX, SPIR-V of 2^64 - 4
// bytes) are the spec's CL_OUT_OF_HOST_MEMORY, "a failure to allocate resources
// required by the OpenCL implementation on the host", not an exception unwinding into
// the loader (runtime/guard.h).
TEST(Robustness, ImpossibleHostAllocationsAreOutOfHostMemory) {
  cl_device_id device = spvsimDevice();
  cl_int err = CL_INVALID_VALUE;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
  ASSERT_EQ(err, CL_SUCCESS);
  const char* source = "kernel void k() {}";
  const size_t huge = SIZE_MAX;
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithSource(context, 1, &source, &huge, &err), nullptr);
  EXPECT_EQ(err, CL_OUT_OF_HOST_MEMORY);
  const uint32_t words[5] = {0x07230203, 0x00010000, 0, 1, 0};
  err = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context, words, SIZE_MAX - 3, &err), nullptr);
  EXPECT_EQ(err, CL_OUT_OF_HOST_MEMORY);
  EXPECT_EQ(clReleaseContext(context), CL_SUCCESS);
}

}  // namespace
}  // namespace spvsim::rt::test
