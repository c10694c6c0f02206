// The core's OpenCL entry points (everything but programs and kernels, which are in
// runtime/program_api.h), with the exact signatures of the cl_api_* types of
// CL/cl_icd.h. They live in spvsim::rt so that they never clash with the loader's
// exported clXxx symbols; runtime/dispatch.cc puts each in its slot.
#pragma once

#include <CL/cl_egl.h>
#include <CL/cl_gl.h>

#include "runtime/object.h"

namespace spvsim::rt {

// runtime/platform.cc: the platform
cl_int clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms);
cl_int clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                         size_t param_value_size, void* param_value, size_t* param_value_size_ret);

// runtime/device.cc: the device, sub-devices (none) and timers
cl_int clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                      cl_device_id* devices, cl_uint* num_devices);
cl_int clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                       void* param_value, size_t* param_value_size_ret);
cl_int clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property* properties,
                          cl_uint num_devices, cl_device_id* out_devices, cl_uint* num_devices_ret);
cl_int clRetainDevice(cl_device_id device);
cl_int clReleaseDevice(cl_device_id device);
cl_int clCreateSubDevicesEXT(cl_device_id in_device,
                             const cl_device_partition_property_ext* properties,
                             cl_uint num_entries, cl_device_id* out_devices, cl_uint* num_devices);
cl_int clRetainDeviceEXT(cl_device_id device);
cl_int clReleaseDeviceEXT(cl_device_id device);
cl_int clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                               cl_ulong* host_timestamp);
cl_int clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp);

// runtime/context.cc
cl_context clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                           const cl_device_id* devices,
                           void(CL_CALLBACK* pfn_notify)(const char* errinfo,
                                                         const void* private_info, size_t cb,
                                                         void* user_data),
                           void* user_data, cl_int* errcode_ret);
cl_context clCreateContextFromType(const cl_context_properties* properties,
                                   cl_device_type device_type,
                                   void(CL_CALLBACK* pfn_notify)(const char* errinfo,
                                                                 const void* private_info,
                                                                 size_t cb, void* user_data),
                                   void* user_data, cl_int* errcode_ret);
cl_int clRetainContext(cl_context context);
cl_int clReleaseContext(cl_context context);
cl_int clGetContextInfo(cl_context context, cl_context_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret);
cl_int clSetContextDestructorCallback(cl_context context,
                                      void(CL_CALLBACK* pfn_notify)(cl_context context,
                                                                    void* user_data),
                                      void* user_data);

// runtime/queue.cc
cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties, cl_int* errcode_ret);
cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                    const cl_queue_properties* properties,
                                                    cl_int* errcode_ret);
cl_int clRetainCommandQueue(cl_command_queue command_queue);
cl_int clReleaseCommandQueue(cl_command_queue command_queue);
cl_int clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                             size_t param_value_size, void* param_value,
                             size_t* param_value_size_ret);
cl_int clSetCommandQueueProperty(cl_command_queue command_queue,
                                 cl_command_queue_properties properties, cl_bool enable,
                                 cl_command_queue_properties* old_properties);
cl_int clFlush(cl_command_queue command_queue);
cl_int clFinish(cl_command_queue command_queue);

// runtime/markers.cc: markers, barriers and waits enqueued on a queue
cl_int clEnqueueMarker(cl_command_queue command_queue, cl_event* event);
cl_int clEnqueueMarkerWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                   const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueBarrier(cl_command_queue command_queue);
cl_int clEnqueueBarrierWithWaitList(cl_command_queue command_queue, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                              const cl_event* event_list);

// runtime/event.cc
cl_int clWaitForEvents(cl_uint num_events, const cl_event* event_list);
cl_int clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                      void* param_value, size_t* param_value_size_ret);
cl_int clRetainEvent(cl_event event);
cl_int clReleaseEvent(cl_event event);
cl_int clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                               size_t param_value_size, void* param_value,
                               size_t* param_value_size_ret);
cl_int clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                          void(CL_CALLBACK* pfn_notify)(cl_event event, cl_int event_command_status,
                                                        void* user_data),
                          void* user_data);
cl_event clCreateUserEvent(cl_context context, cl_int* errcode_ret);
cl_int clSetUserEventStatus(cl_event event, cl_int execution_status);

// runtime/mem.cc
cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                      cl_int* errcode_ret);
cl_mem clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                    cl_mem_flags flags, size_t size, void* host_ptr,
                                    cl_int* errcode_ret);
cl_mem clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                         cl_buffer_create_type buffer_create_type, const void* buffer_create_info,
                         cl_int* errcode_ret);
cl_int clRetainMemObject(cl_mem memobj);
cl_int clReleaseMemObject(cl_mem memobj);
cl_int clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                          void* param_value, size_t* param_value_size_ret);
cl_int clSetMemObjectDestructorCallback(
    cl_mem memobj, void(CL_CALLBACK* pfn_notify)(cl_mem memobj, void* user_data), void* user_data);

// runtime/buffer_commands.cc
cl_int clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                           size_t offset, size_t size, void* ptr, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_write,
                            size_t offset, size_t size, const void* ptr,
                            cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                            cl_event* event);
cl_int clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                           size_t src_offset, size_t dst_offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event);
cl_int clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                           size_t pattern_size, size_t offset, size_t size,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event);
cl_int clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                  const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                  cl_event* event);

// runtime/buffer_rect.cc
cl_int clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_read,
                               const size_t* buffer_origin, const size_t* host_origin,
                               const size_t* region, size_t buffer_row_pitch,
                               size_t buffer_slice_pitch, size_t host_row_pitch,
                               size_t host_slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                               const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                cl_bool blocking_write, const size_t* buffer_origin,
                                const size_t* host_origin, const size_t* region,
                                size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                size_t host_row_pitch, size_t host_slice_pitch, const void* ptr,
                                cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                cl_event* event);
cl_int clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                               const size_t* src_origin, const size_t* dst_origin,
                               const size_t* region, size_t src_row_pitch, size_t src_slice_pitch,
                               size_t dst_row_pitch, size_t dst_slice_pitch,
                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                               cl_event* event);

// runtime/map.cc
void* clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                         cl_map_flags map_flags, size_t offset, size_t size,
                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                         cl_event* event, cl_int* errcode_ret);
cl_int clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                               cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                               cl_event* event);

// runtime/unsupported.cc: images, samplers, pipes, SVM, native kernels, device queues
cl_mem clCreateImage(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                     const cl_image_desc* image_desc, void* host_ptr, cl_int* errcode_ret);
cl_mem clCreateImage2D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                       size_t image_width, size_t image_height, size_t image_row_pitch,
                       void* host_ptr, cl_int* errcode_ret);
cl_mem clCreateImage3D(cl_context context, cl_mem_flags flags, const cl_image_format* image_format,
                       size_t image_width, size_t image_height, size_t image_depth,
                       size_t image_row_pitch, size_t image_slice_pitch, void* host_ptr,
                       cl_int* errcode_ret);
cl_mem clCreateImageWithProperties(cl_context context, const cl_mem_properties* properties,
                                   cl_mem_flags flags, const cl_image_format* image_format,
                                   const cl_image_desc* image_desc, void* host_ptr,
                                   cl_int* errcode_ret);
cl_int clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                  cl_mem_object_type image_type, cl_uint num_entries,
                                  cl_image_format* image_formats, cl_uint* num_image_formats);
cl_int clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                      void* param_value, size_t* param_value_size_ret);
cl_int clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                          const size_t* origin, const size_t* region, size_t row_pitch,
                          size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                          const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_write,
                           const size_t* origin, const size_t* region, size_t input_row_pitch,
                           size_t input_slice_pitch, const void* ptr,
                           cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                           cl_event* event);
cl_int clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                          const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                          cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                          cl_event* event);
cl_int clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                  cl_mem dst_buffer, const size_t* src_origin, const size_t* region,
                                  size_t dst_offset, cl_uint num_events_in_wait_list,
                                  const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                  cl_mem dst_image, size_t src_offset, const size_t* dst_origin,
                                  const size_t* region, cl_uint num_events_in_wait_list,
                                  const cl_event* event_wait_list, cl_event* event);
void* clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                        cl_map_flags map_flags, const size_t* origin, const size_t* region,
                        size_t* image_row_pitch, size_t* image_slice_pitch,
                        cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                        cl_event* event, cl_int* errcode_ret);
cl_int clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                          const size_t* origin, const size_t* region,
                          cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                          cl_event* event);
cl_sampler clCreateSampler(cl_context context, cl_bool normalized_coords,
                           cl_addressing_mode addressing_mode, cl_filter_mode filter_mode,
                           cl_int* errcode_ret);
cl_sampler clCreateSamplerWithProperties(cl_context context,
                                         const cl_sampler_properties* sampler_properties,
                                         cl_int* errcode_ret);
cl_int clRetainSampler(cl_sampler sampler);
cl_int clReleaseSampler(cl_sampler sampler);
cl_int clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret);
cl_mem clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                    cl_uint pipe_max_packets, const cl_pipe_properties* properties,
                    cl_int* errcode_ret);
cl_int clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                     void* param_value, size_t* param_value_size_ret);
void* clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size, cl_uint alignment);
void clSVMFree(cl_context context, void* svm_pointer);
cl_int clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                        void* svm_pointers[],
                        void(CL_CALLBACK* pfn_free_func)(cl_command_queue queue,
                                                         cl_uint num_svm_pointers,
                                                         void* svm_pointers[], void* user_data),
                        void* user_data, cl_uint num_events_in_wait_list,
                        const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy, void* dst_ptr,
                          const void* src_ptr, size_t size, cl_uint num_events_in_wait_list,
                          const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr, const void* pattern,
                           size_t pattern_size, size_t size, cl_uint num_events_in_wait_list,
                           const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map, cl_map_flags flags,
                       void* svm_ptr, size_t size, cl_uint num_events_in_wait_list,
                       const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr,
                         cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                         cl_event* event);
cl_int clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                              const void** svm_pointers, const size_t* sizes,
                              cl_mem_migration_flags flags, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event);
cl_int clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index, const void* arg_value);
cl_int clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                           size_t param_value_size, const void* param_value);
cl_int clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK* user_func)(void*),
                             void* args, size_t cb_args, cl_uint num_mem_objects,
                             const cl_mem* mem_list, const void** args_mem_loc,
                             cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                             cl_event* event);
cl_int clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue command_queue);

// runtime/sharing.cc: OpenGL and EGL sharing (not supported)
cl_mem clCreateFromGLBuffer(cl_context context, cl_mem_flags flags, cl_GLuint bufobj,
                            cl_int* errcode_ret);
cl_mem clCreateFromGLTexture(cl_context context, cl_mem_flags flags, cl_GLenum target,
                             cl_GLint miplevel, cl_GLuint texture, cl_int* errcode_ret);
cl_mem clCreateFromGLTexture2D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                               cl_GLint miplevel, cl_GLuint texture, cl_int* errcode_ret);
cl_mem clCreateFromGLTexture3D(cl_context context, cl_mem_flags flags, cl_GLenum target,
                               cl_GLint miplevel, cl_GLuint texture, cl_int* errcode_ret);
cl_mem clCreateFromGLRenderbuffer(cl_context context, cl_mem_flags flags, cl_GLuint renderbuffer,
                                  cl_int* errcode_ret);
cl_int clGetGLObjectInfo(cl_mem memobj, cl_gl_object_type* gl_object_type,
                         cl_GLuint* gl_object_name);
cl_int clGetGLTextureInfo(cl_mem memobj, cl_gl_texture_info param_name, size_t param_value_size,
                          void* param_value, size_t* param_value_size_ret);
cl_int clEnqueueAcquireGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                 const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                 const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueReleaseGLObjects(cl_command_queue command_queue, cl_uint num_objects,
                                 const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                 const cl_event* event_wait_list, cl_event* event);
cl_int clGetGLContextInfoKHR(const cl_context_properties* properties, cl_gl_context_info param_name,
                             size_t param_value_size, void* param_value,
                             size_t* param_value_size_ret);
cl_event clCreateEventFromGLsyncKHR(cl_context context, cl_GLsync sync, cl_int* errcode_ret);
cl_mem clCreateFromEGLImageKHR(cl_context context, CLeglDisplayKHR egldisplay,
                               CLeglImageKHR eglimage, cl_mem_flags flags,
                               const cl_egl_image_properties_khr* properties, cl_int* errcode_ret);
cl_int clEnqueueAcquireEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                     const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueReleaseEGLObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                     const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event* event);
cl_event clCreateEventFromEGLSyncKHR(cl_context context, CLeglSyncKHR sync, CLeglDisplayKHR display,
                                     cl_int* errcode_ret);

// runtime/dispatch.cc
void* clGetExtensionFunctionAddress(const char* func_name);

// runtime/sharing.cc: Direct3D 10/11 and DX9 media sharing. CL/cl_icd.h types these
// slots as plain pointers outside Windows; these are the Windows signatures with the
// D3D types replaced by void* and UINT/enums by cl_uint.
cl_int clGetDeviceIDsFromD3D10KHR(cl_platform_id platform, cl_uint d3d_device_source,
                                  void* d3d_object, cl_uint d3d_device_set, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices);
cl_mem clCreateFromD3D10BufferKHR(cl_context context, cl_mem_flags flags, void* resource,
                                  cl_int* errcode_ret);
cl_mem clCreateFromD3D10Texture2DKHR(cl_context context, cl_mem_flags flags, void* resource,
                                     cl_uint subresource, cl_int* errcode_ret);
cl_mem clCreateFromD3D10Texture3DKHR(cl_context context, cl_mem_flags flags, void* resource,
                                     cl_uint subresource, cl_int* errcode_ret);
cl_int clEnqueueAcquireD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueReleaseD3D10ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event);
cl_int clGetDeviceIDsFromD3D11KHR(cl_platform_id platform, cl_uint d3d_device_source,
                                  void* d3d_object, cl_uint d3d_device_set, cl_uint num_entries,
                                  cl_device_id* devices, cl_uint* num_devices);
cl_mem clCreateFromD3D11BufferKHR(cl_context context, cl_mem_flags flags, void* resource,
                                  cl_int* errcode_ret);
cl_mem clCreateFromD3D11Texture2DKHR(cl_context context, cl_mem_flags flags, void* resource,
                                     cl_uint subresource, cl_int* errcode_ret);
cl_mem clCreateFromD3D11Texture3DKHR(cl_context context, cl_mem_flags flags, void* resource,
                                     cl_uint subresource, cl_int* errcode_ret);
cl_int clEnqueueAcquireD3D11ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueReleaseD3D11ObjectsKHR(cl_command_queue command_queue, cl_uint num_objects,
                                       const cl_mem* mem_objects, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event);
cl_int clGetDeviceIDsFromDX9MediaAdapterKHR(cl_platform_id platform, cl_uint num_media_adapters,
                                            cl_uint* media_adapters_type, void* media_adapters,
                                            cl_uint media_adapter_set, cl_uint num_entries,
                                            cl_device_id* devices, cl_uint* num_devices);
cl_mem clCreateFromDX9MediaSurfaceKHR(cl_context context, cl_mem_flags flags, cl_uint adapter_type,
                                      void* surface_info, cl_uint plane, cl_int* errcode_ret);
cl_int clEnqueueAcquireDX9MediaSurfacesKHR(cl_command_queue command_queue, cl_uint num_objects,
                                           const cl_mem* mem_objects,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueReleaseDX9MediaSurfacesKHR(cl_command_queue command_queue, cl_uint num_objects,
                                           const cl_mem* mem_objects,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event);

// runtime/platform.cc: what the loader's clIcdGetPlatformIDsKHR answers.
cl_int clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                              cl_uint* num_platforms);

}  // namespace spvsim::rt
