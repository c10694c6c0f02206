// Entry points of features the device does not have (images, samplers, pipes, SVM,
// native kernels, device queues, GL/EGL/D3D sharing): each validates its handles and
// then returns the error the spec lists for a device without the feature. The
// Direct3D slots are not exported by the Linux loader, so they are called through the
// dispatch table.
#include "runtime/tests/core/cl_fixture.h"
// (cl_fixture.h first: it selects the ICD.)
#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

namespace spvsim::rt::test {
namespace {

class UnsupportedTest : public ClTest {
 protected:
  void SetUp() override {
    ClTest::SetUp();
    buf = buffer(64);
    badQueue = reinterpret_cast<cl_command_queue>(&bogus);
    badContext = reinterpret_cast<cl_context>(&bogus);
    table = dispatchOf(queue);
  }
  void TearDown() override {
    clReleaseMemObject(buf);
    ClTest::TearDown();
  }
  int bogus = 0;
  cl_mem buf = nullptr;
  cl_command_queue badQueue = nullptr;
  cl_context badContext = nullptr;
  const cl_icd_dispatch* table = nullptr;
};

TEST_F(UnsupportedTest, Images) {
  cl_uint n = 99;
  cl_image_format formats[4];
  EXPECT_EQ(
      clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 4, formats, &n),
      CL_SUCCESS);
  EXPECT_EQ(n, 0u);
  EXPECT_EQ(
      clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 4, formats, &n),
      CL_INVALID_VALUE);
  EXPECT_EQ(
      clGetSupportedImageFormats(context, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, formats, &n),
      CL_INVALID_VALUE);
  EXPECT_EQ(table->clGetSupportedImageFormats(badContext, 0, CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &n),
            CL_INVALID_CONTEXT);
  cl_image_format fmt{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 8;
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateImage(context, CL_MEM_READ_WRITE, &fmt, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImageWithProperties(context, nullptr, 0, &fmt, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImage2D(context, 0, &fmt, 8, 8, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  EXPECT_EQ(clCreateImage3D(context, 0, &fmt, 8, 8, 8, 0, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  EXPECT_EQ(table->clCreateImage(badContext, 0, &fmt, &desc, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  // A buffer is not an image.
  size_t width;
  EXPECT_EQ(clGetImageInfo(buf, CL_IMAGE_WIDTH, sizeof width, &width, nullptr),
            CL_INVALID_MEM_OBJECT);
  size_t origin[3] = {0, 0, 0}, region[3] = {1, 1, 1};
  char host[64];
  EXPECT_EQ(
      clEnqueueReadImage(queue, buf, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(
      clEnqueueWriteImage(queue, buf, CL_TRUE, origin, region, 0, 0, host, 0, nullptr, nullptr),
      CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyImage(queue, buf, buf, origin, origin, region, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyImageToBuffer(queue, buf, buf, origin, region, 0, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(clEnqueueCopyBufferToImage(queue, buf, buf, 0, origin, region, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  float color[4] = {};
  EXPECT_EQ(clEnqueueFillImage(queue, buf, color, origin, region, 0, nullptr, nullptr),
            CL_INVALID_MEM_OBJECT);
  size_t pitch;
  EXPECT_EQ(clEnqueueMapImage(queue, buf, CL_TRUE, CL_MAP_READ, origin, region, &pitch, nullptr, 0,
                              nullptr, nullptr, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(table->clEnqueueReadImage(badQueue, buf, CL_TRUE, origin, region, 0, 0, host, 0,
                                      nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
}

TEST_F(UnsupportedTest, SamplersAndPipes) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(clCreateSampler(context, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  cl_sampler_properties props[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
  EXPECT_EQ(clCreateSamplerWithProperties(context, props, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  EXPECT_EQ(table->clCreateSampler(badContext, CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  auto badSampler = reinterpret_cast<cl_sampler>(&bogus);
  EXPECT_EQ(table->clRetainSampler(badSampler), CL_INVALID_SAMPLER);
  EXPECT_EQ(table->clReleaseSampler(badSampler), CL_INVALID_SAMPLER);
  EXPECT_EQ(table->clGetSamplerInfo(badSampler, CL_SAMPLER_CONTEXT, 0, nullptr, nullptr),
            CL_INVALID_SAMPLER);
  EXPECT_EQ(clCreatePipe(context, 0, 4, 16, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_OPERATION);
  cl_uint packet;
  EXPECT_EQ(clGetPipeInfo(buf, CL_PIPE_PACKET_SIZE, sizeof packet, &packet, nullptr),
            CL_INVALID_MEM_OBJECT);
}

TEST_F(UnsupportedTest, SharedVirtualMemory) {
  EXPECT_EQ(clSVMAlloc(context, CL_MEM_READ_WRITE, 1024, 0), nullptr);
  clSVMFree(context, nullptr);  // nothing to free, must not crash
  char a[16], b[16];
  void* ptrs[] = {a};
  EXPECT_EQ(clEnqueueSVMMemcpy(queue, CL_TRUE, a, b, 16, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueSVMMemFill(queue, a, b, 4, 16, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueSVMMap(queue, CL_TRUE, CL_MAP_READ, a, 16, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueSVMUnmap(queue, a, 0, nullptr, nullptr), CL_INVALID_OPERATION);
  EXPECT_EQ(clEnqueueSVMFree(queue, 1, ptrs, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  const void* cptrs[] = {a};
  EXPECT_EQ(clEnqueueSVMMigrateMem(queue, 1, cptrs, nullptr, 0, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(table->clEnqueueSVMMemcpy(badQueue, CL_TRUE, a, b, 16, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  auto badKernel = reinterpret_cast<cl_kernel>(&bogus);
  EXPECT_EQ(table->clSetKernelArgSVMPointer(badKernel, 0, a), CL_INVALID_KERNEL);
  cl_bool yes = CL_TRUE;
  EXPECT_EQ(table->clSetKernelExecInfo(badKernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                       sizeof yes, &yes),
            CL_INVALID_KERNEL);
}

// With a real kernel (built by the programs part of the ICD), the SVM kernel settings
// still fail: no device of the context supports SVM.
TEST_F(UnsupportedTest, SvmKernelSettingsOnARealKernel) {
  const char* source = "kernel void k(global int* a) { a[0] = 1; }";
  cl_int err = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &err);
  if (err != CL_SUCCESS || clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS)
    GTEST_SKIP() << "programs from source are not available";
  cl_kernel kernel = clCreateKernel(program, "k", &err);
  ASSERT_EQ(err, CL_SUCCESS);
  char a[16];
  EXPECT_EQ(clSetKernelArgSVMPointer(kernel, 0, a), CL_INVALID_OPERATION);
  cl_bool yes = CL_TRUE;
  EXPECT_EQ(
      clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, sizeof yes, &yes),
      CL_INVALID_OPERATION);
  void* ptrs[] = {a};
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof ptrs, ptrs),
            CL_INVALID_OPERATION);
  EXPECT_EQ(clSetKernelExecInfo(kernel, 0xdead, sizeof yes, &yes), CL_INVALID_VALUE);
  EXPECT_EQ(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr),
            CL_INVALID_VALUE);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
}

TEST_F(UnsupportedTest, NativeKernelsAndDeviceQueues) {
  auto fn = [](void*) {};
  EXPECT_EQ(clEnqueueNativeKernel(queue, fn, nullptr, 0, 0, nullptr, nullptr, 0, nullptr, nullptr),
            CL_INVALID_OPERATION);
  EXPECT_EQ(table->clEnqueueNativeKernel(badQueue, fn, nullptr, 0, 0, nullptr, nullptr, 0, nullptr,
                                         nullptr),
            CL_INVALID_COMMAND_QUEUE);
  // Device queues exist (runtime/device_queue.cc): a host queue cannot be the default.
  EXPECT_EQ(clSetDefaultDeviceCommandQueue(context, device, queue), CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clSetDefaultDeviceCommandQueue(badContext, device, queue), CL_INVALID_CONTEXT);
}

TEST_F(UnsupportedTest, GlAndEglSharing) {
  cl_int err = CL_SUCCESS;
  EXPECT_EQ(table->clCreateFromGLBuffer(context, 0, 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);  // not created from a GL context
  EXPECT_EQ(table->clCreateFromGLTexture(context, 0, 0, 0, 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clCreateFromGLRenderbuffer(context, 0, 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  cl_gl_object_type type;
  cl_GLuint name;
  EXPECT_EQ(table->clGetGLObjectInfo(buf, &type, &name), CL_INVALID_GL_OBJECT);
  EXPECT_EQ(table->clGetGLObjectInfo(reinterpret_cast<cl_mem>(&bogus), &type, &name),
            CL_INVALID_MEM_OBJECT);
  EXPECT_EQ(table->clEnqueueAcquireGLObjects(queue, 1, &buf, 0, nullptr, nullptr),
            CL_INVALID_GL_OBJECT);
  EXPECT_EQ(table->clEnqueueReleaseGLObjects(queue, 1, nullptr, 0, nullptr, nullptr),
            CL_INVALID_VALUE);
  EXPECT_EQ(table->clEnqueueAcquireGLObjects(badQueue, 0, nullptr, 0, nullptr, nullptr),
            CL_INVALID_COMMAND_QUEUE);
  EXPECT_EQ(table->clCreateEventFromGLsyncKHR(context, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clCreateFromEGLImageKHR(context, nullptr, nullptr, 0, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clEnqueueAcquireEGLObjectsKHR(queue, 1, &buf, 0, nullptr, nullptr),
            CL_INVALID_EGL_OBJECT_KHR);
  EXPECT_EQ(table->clCreateEventFromEGLSyncKHR(context, nullptr, nullptr, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clEnqueueReleaseEGLObjectsKHR(queue, 1, &buf, 0, nullptr, nullptr),
            CL_INVALID_EGL_OBJECT_KHR);
  EXPECT_EQ(table->clCreateFromGLTexture2D(context, 0, 0, 0, 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  EXPECT_EQ(table->clCreateFromGLTexture3D(context, 0, 0, 0, 1, &err), nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  cl_GLenum target;
  EXPECT_EQ(table->clGetGLTextureInfo(buf, CL_GL_TEXTURE_TARGET, sizeof target, &target, nullptr),
            CL_INVALID_GL_OBJECT);
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                   reinterpret_cast<cl_context_properties>(platform), 0};
  cl_device_id dev;
  EXPECT_EQ(table->clGetGLContextInfoKHR(props, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, sizeof dev,
                                         &dev, nullptr),
            CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR);
}

// cl_ext_device_fission: the device cannot be partitioned; the root device's
// reference count does not change.
TEST_F(UnsupportedTest, DeviceFissionExt) {
  cl_device_partition_property_ext props[] = {CL_DEVICE_PARTITION_EQUALLY_EXT, 1,
                                              CL_PROPERTIES_LIST_END_EXT};
  cl_device_id out[2];
  cl_uint n = 0;
  EXPECT_EQ(table->clCreateSubDevicesEXT(device, props, 2, out, &n), CL_INVALID_VALUE);
  EXPECT_EQ(table->clRetainDeviceEXT(device), CL_SUCCESS);
  EXPECT_EQ(table->clReleaseDeviceEXT(device), CL_SUCCESS);
  EXPECT_EQ(table->clRetainDeviceEXT(reinterpret_cast<cl_device_id>(&bogus)), CL_INVALID_DEVICE);
}

TEST_F(UnsupportedTest, Direct3DSlots) {
  using GetDevices =
      cl_int (*)(cl_platform_id, cl_uint, void*, cl_uint, cl_uint, cl_device_id*, cl_uint*);
  using CreateBuffer = cl_mem (*)(cl_context, cl_mem_flags, void*, cl_int*);
  using Acquire =
      cl_int (*)(cl_command_queue, cl_uint, const cl_mem*, cl_uint, const cl_event*, cl_event*);
  cl_uint n = 5;
  for (void* slot : {table->clGetDeviceIDsFromD3D10KHR, table->clGetDeviceIDsFromD3D11KHR}) {
    EXPECT_EQ(reinterpret_cast<GetDevices>(slot)(platform, 0, nullptr, 0, 0, nullptr, &n),
              CL_DEVICE_NOT_FOUND);
    EXPECT_EQ(n, 0u);
  }
  cl_int err = CL_SUCCESS;
  for (void* slot : {table->clCreateFromD3D10BufferKHR, table->clCreateFromD3D11BufferKHR}) {
    EXPECT_EQ(reinterpret_cast<CreateBuffer>(slot)(context, 0, nullptr, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_CONTEXT);
  }
  using CreateTexture = cl_mem (*)(cl_context, cl_mem_flags, void*, cl_uint, cl_int*);
  for (void* slot : {table->clCreateFromD3D10Texture2DKHR, table->clCreateFromD3D10Texture3DKHR,
                     table->clCreateFromD3D11Texture2DKHR, table->clCreateFromD3D11Texture3DKHR}) {
    EXPECT_EQ(reinterpret_cast<CreateTexture>(slot)(context, 0, nullptr, 0, &err), nullptr);
    EXPECT_EQ(err, CL_INVALID_CONTEXT);
  }
  using GetDx9Devices = cl_int (*)(cl_platform_id, cl_uint, cl_uint*, void*, cl_uint, cl_uint,
                                   cl_device_id*, cl_uint*);
  EXPECT_EQ(reinterpret_cast<GetDx9Devices>(table->clGetDeviceIDsFromDX9MediaAdapterKHR)(
                platform, 0, nullptr, nullptr, 0, 0, nullptr, &n),
            CL_DEVICE_NOT_FOUND);
  using CreateSurface = cl_mem (*)(cl_context, cl_mem_flags, cl_uint, void*, cl_uint, cl_int*);
  EXPECT_EQ(reinterpret_cast<CreateSurface>(table->clCreateFromDX9MediaSurfaceKHR)(
                context, 0, 0, nullptr, 0, &err),
            nullptr);
  EXPECT_EQ(err, CL_INVALID_CONTEXT);
  for (void* slot :
       {table->clEnqueueAcquireD3D10ObjectsKHR, table->clEnqueueReleaseD3D10ObjectsKHR,
        table->clEnqueueAcquireD3D11ObjectsKHR, table->clEnqueueReleaseD3D11ObjectsKHR,
        table->clEnqueueAcquireDX9MediaSurfacesKHR, table->clEnqueueReleaseDX9MediaSurfacesKHR})
    EXPECT_EQ(reinterpret_cast<Acquire>(slot)(badQueue, 0, nullptr, 0, nullptr, nullptr),
              CL_INVALID_COMMAND_QUEUE);
}

}  // namespace
}  // namespace spvsim::rt::test
