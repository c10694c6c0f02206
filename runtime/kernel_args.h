// Kernel arguments as the OpenCL API sets them, and the memory a kernel's call tree
// declares.
#pragma once

#include "runtime/kernel.h"
#include "spirv/module_facts.h"

namespace spvsim::rt {

// clSetKernelArg: the argument the API's (size, value) pair gives for parameter `index`,
// checked against the kernel's signature (src/exec/arg_check.h); CL_SUCCESS or the
// error code (runtime/arg_errors.h).
cl_int makeArg(const _cl_kernel* k, cl_uint index, size_t size, const void* value, KernelArg& out);

// Bytes of the Workgroup variables that the kernel's call tree uses.
// A queue_t argument's (size, value): a device queue of `context` (runtime/device_queue.cc).
cl_int deviceQueueArg(cl_context context, size_t size, const void* value, ArgBinding& out);

uint64_t staticLocalBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep);
// Bytes of the Function variables of the call tree (an upper bound per work-item).
uint64_t privateBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep);

}  // namespace spvsim::rt
