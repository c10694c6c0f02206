// The programs-and-kernels OpenCL entry points, with the exact signatures of the
// cl_api_* types of CL/cl_icd.h. They live in spvsim::rt so that they never clash with
// the loader's exported clXxx symbols; runtime/dispatch.cc puts each in its slot.
#pragma once

#include "runtime/object.h"

namespace spvsim::rt {

// runtime/program.cc: creating, retaining and querying programs
cl_program clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                     const size_t* lengths, cl_int* errcode_ret);
cl_program clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                 cl_int* errcode_ret);
// cl_khr_il_program's name for the same function (clGetExtensionFunctionAddress*).
cl_program clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                    cl_int* errcode_ret);
cl_program clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                     const cl_device_id* device_list, const size_t* lengths,
                                     const unsigned char** binaries, cl_int* binary_status,
                                     cl_int* errcode_ret);
cl_program clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                             const cl_device_id* device_list,
                                             const char* kernel_names, cl_int* errcode_ret);
cl_int clRetainProgram(cl_program program);
cl_int clReleaseProgram(cl_program program);
cl_int clGetProgramInfo(cl_program program, cl_program_info param_name, size_t param_value_size,
                        void* param_value, size_t* param_value_size_ret);
cl_int clGetProgramBuildInfo(cl_program program, cl_device_id device,
                             cl_program_build_info param_name, size_t param_value_size,
                             void* param_value, size_t* param_value_size_ret);
cl_int clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id, size_t spec_size,
                                          const void* spec_value);
cl_int clSetProgramReleaseCallback(cl_program program,
                                   void(CL_CALLBACK* pfn_notify)(cl_program program,
                                                                 void* user_data),
                                   void* user_data);

// runtime/program_build.cc: building, compiling and linking
cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                      const char* options,
                      void(CL_CALLBACK* pfn_notify)(cl_program program, void* user_data),
                      void* user_data);
cl_int clCompileProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                        const char* options, cl_uint num_input_headers,
                        const cl_program* input_headers, const char** header_include_names,
                        void(CL_CALLBACK* pfn_notify)(cl_program program, void* user_data),
                        void* user_data);
cl_program clLinkProgram(cl_context context, cl_uint num_devices, const cl_device_id* device_list,
                         const char* options, cl_uint num_input_programs,
                         const cl_program* input_programs,
                         void(CL_CALLBACK* pfn_notify)(cl_program program, void* user_data),
                         void* user_data, cl_int* errcode_ret);
cl_int clUnloadCompiler(void);
cl_int clUnloadPlatformCompiler(cl_platform_id platform);

// runtime/kernel.cc: kernels and their arguments
cl_kernel clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret);
cl_int clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                cl_uint* num_kernels_ret);
cl_kernel clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret);
cl_int clRetainKernel(cl_kernel kernel);
cl_int clReleaseKernel(cl_kernel kernel);
cl_int clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size, const void* arg_value);
cl_int clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                       void* param_value, size_t* param_value_size_ret);
cl_int clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name,
                          size_t param_value_size, void* param_value, size_t* param_value_size_ret);

// runtime/kernel_info.cc: work-group and sub-group queries
cl_int clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                cl_kernel_work_group_info param_name, size_t param_value_size,
                                void* param_value, size_t* param_value_size_ret);
cl_int clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                               cl_kernel_sub_group_info param_name, size_t input_value_size,
                               const void* input_value, size_t param_value_size, void* param_value,
                               size_t* param_value_size_ret);
// cl_khr_subgroups' name for the same function (also a dispatch slot).
cl_int clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                  cl_kernel_sub_group_info param_name, size_t input_value_size,
                                  const void* input_value, size_t param_value_size,
                                  void* param_value, size_t* param_value_size_ret);

// runtime/kernel_enqueue.cc: running kernels
cl_int clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel, cl_uint work_dim,
                              const size_t* global_work_offset, const size_t* global_work_size,
                              const size_t* local_work_size, cl_uint num_events_in_wait_list,
                              const cl_event* event_wait_list, cl_event* event);
cl_int clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                     cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                     cl_event* event);

// runtime/extension_functions.cc
void* clGetExtensionFunctionAddressForPlatform(cl_platform_id platform, const char* func_name);
// The extension function named `func_name` (for clGetExtensionFunctionAddress too), or
// nullptr when the platform has no such extension function.
void* extensionFunctionAddress(const char* func_name);

}  // namespace spvsim::rt
