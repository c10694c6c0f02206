// OpenGL, EGL, Direct3D and DX9 media sharing: none of the sharing extensions is
// reported, so no context can have been created for sharing (CL_INVALID_CONTEXT for
// a valid context too, as the extensions specify for "a context not created from a
// GL/EGL/D3D object"), no memory object comes from one, and no device matches one.
#include "runtime/core_api.h"
#include "runtime/queue.h"

namespace spvsim::rt {
namespace {

template <class T>
T noSharedObject(cl_int* errcode_ret) {
  return withError<T>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
}

// Acquire/release of shared objects: validates the queue and the object list.
cl_int acquireRelease(cl_command_queue queue, cl_uint num_objects, const cl_mem* mem_objects,
                      cl_int notShared) {
  _cl_command_queue* q = validQueue(queue);
  if (!q) return CL_INVALID_COMMAND_QUEUE;
  if ((num_objects == 0) != (mem_objects == nullptr)) return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_objects; ++i)
    if (!checked<_cl_mem>(mem_objects[i], Kind::Mem)) return CL_INVALID_MEM_OBJECT;
  return num_objects ? notShared : CL_INVALID_CONTEXT;
}

cl_int noDevices(cl_platform_id platform, cl_uint* num_devices) {
  if (platform != thePlatform()) return CL_INVALID_PLATFORM;
  if (num_devices) *num_devices = 0;
  return CL_DEVICE_NOT_FOUND;
}

}  // namespace

// --- OpenGL (cl_khr_gl_sharing, cl_khr_gl_event).

cl_mem clCreateFromGLBuffer(cl_context, cl_mem_flags, cl_GLuint, cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromGLTexture(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                             cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromGLTexture2D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                               cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromGLTexture3D(cl_context, cl_mem_flags, cl_GLenum, cl_GLint, cl_GLuint,
                               cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromGLRenderbuffer(cl_context, cl_mem_flags, cl_GLuint, cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}

// A buffer exists but was not created from a GL object.
cl_int clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type*, cl_GLuint*) {
  return checked<_cl_mem>(memobj, Kind::Mem) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
}
cl_int clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info, size_t, void*, size_t*) {
  return checked<_cl_mem>(memobj, Kind::Mem) ? CL_INVALID_GL_OBJECT : CL_INVALID_MEM_OBJECT;
}

cl_int clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                 const cl_mem* mem_objects, cl_uint, const cl_event*, cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_GL_OBJECT);
}
cl_int clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                 const cl_mem* mem_objects, cl_uint, const cl_event*, cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_GL_OBJECT);
}

// No GL share group can name a device of this platform.
cl_int clGetGLContextInfoKHR(const cl_context_properties*, cl_gl_context_info, size_t, void*,
                             size_t*) {
  return CL_INVALID_GL_SHAREGROUP_REFERENCE_KHR;
}

cl_event clCreateEventFromGLsyncKHR(cl_context, cl_GLsync, cl_int* errcode_ret) {
  return noSharedObject<cl_event>(errcode_ret);
}

// --- EGL (cl_khr_egl_image, cl_khr_egl_event).

cl_mem clCreateFromEGLImageKHR(cl_context, CLeglDisplayKHR, CLeglImageKHR, cl_mem_flags,
                               const cl_egl_image_properties_khr*, cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_int clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                     const cl_mem* mem_objects, cl_uint, const cl_event*,
                                     cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_EGL_OBJECT_KHR);
}
cl_int clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                     const cl_mem* mem_objects, cl_uint, const cl_event*,
                                     cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_EGL_OBJECT_KHR);
}
cl_event clCreateEventFromEGLSyncKHR(cl_context, CLeglSyncKHR, CLeglDisplayKHR,
                                     cl_int* errcode_ret) {
  return noSharedObject<cl_event>(errcode_ret);
}

// --- Direct3D 10/11 and DX9 media surfaces (Windows-only extensions).

cl_int clGetDeviceIDsFromD3D10KHR(cl_platform_id platform, cl_uint, void*, cl_uint, cl_uint,
                                  cl_device_id*, cl_uint* num_devices) {
  return noDevices(platform, num_devices);
}
cl_mem clCreateFromD3D10BufferKHR(cl_context, cl_mem_flags, void*, cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromD3D10Texture2DKHR(cl_context, cl_mem_flags, void*, cl_uint,
                                     cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromD3D10Texture3DKHR(cl_context, cl_mem_flags, void*, cl_uint,
                                     cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_int clEnqueueAcquireD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint, const cl_event*,
                                       cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_OPERATION);
}
cl_int clEnqueueReleaseD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint, const cl_event*,
                                       cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_OPERATION);
}
cl_int clGetDeviceIDsFromD3D11KHR(cl_platform_id platform, cl_uint, void*, cl_uint, cl_uint,
                                  cl_device_id*, cl_uint* num_devices) {
  return noDevices(platform, num_devices);
}
cl_mem clCreateFromD3D11BufferKHR(cl_context, cl_mem_flags, void*, cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromD3D11Texture2DKHR(cl_context, cl_mem_flags, void*, cl_uint,
                                     cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_mem clCreateFromD3D11Texture3DKHR(cl_context, cl_mem_flags, void*, cl_uint,
                                     cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_int clEnqueueAcquireD3D11ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint, const cl_event*,
                                       cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_OPERATION);
}
cl_int clEnqueueReleaseD3D11ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint, const cl_event*,
                                       cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_OPERATION);
}
cl_int clGetDeviceIDsFromDX9MediaAdapterKHR(cl_platform_id platform, cl_uint, cl_uint*, void*,
                                            cl_uint, cl_uint, cl_device_id*, cl_uint* num_devices) {
  return noDevices(platform, num_devices);
}
cl_mem clCreateFromDX9MediaSurfaceKHR(cl_context, cl_mem_flags, cl_uint, void*, cl_uint,
                                      cl_int* errcode_ret) {
  return noSharedObject<cl_mem>(errcode_ret);
}
cl_int clEnqueueAcquireDX9MediaSurfacesKHR(cl_command_queue command_queue, cl_uint num_objects,
                                           const cl_mem* mem_objects, cl_uint, const cl_event*,
                                           cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_OPERATION);
}
cl_int clEnqueueReleaseDX9MediaSurfacesKHR(cl_command_queue command_queue, cl_uint num_objects,
                                           const cl_mem* mem_objects, cl_uint, const cl_event*,
                                           cl_event*) {
  return acquireRelease(command_queue, num_objects, mem_objects, CL_INVALID_OPERATION);
}

}  // namespace spvsim::rt
