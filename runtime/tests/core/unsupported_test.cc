// Entry points of features the device does not have (native kernels, device queues,
// GL/EGL/D3D sharing): each validates its handles and
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
