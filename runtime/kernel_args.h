// What a kernel's SPIR-V says about its parameters: how each takes its argument, the
// argument info queries, and the memory its call tree declares.
#pragma once

#include <optional>
#include <string>

#include "runtime/kernel.h"
#include "spirv/module_facts.h"

namespace spvsim::rt {

ParamKind paramKind(const spirv::Module& m, const spirv::KernelParam& p);

// clSetKernelArg's checks and the argument it sets (CL_SUCCESS or the error code).
cl_int makeArg(const _cl_kernel* k, cl_uint index, size_t size, const void* value, KernelArg& out);

struct ArgInfo {
  cl_kernel_arg_address_qualifier addressQualifier = CL_KERNEL_ARG_ADDRESS_PRIVATE;
  cl_kernel_arg_access_qualifier accessQualifier = CL_KERNEL_ARG_ACCESS_NONE;
  std::string typeName;
  cl_kernel_arg_type_qualifier typeQualifier = CL_KERNEL_ARG_TYPE_NONE;
  std::optional<std::string> name;  // none when the module does not name the parameter
};

// The clGetKernelArgInfo answers: from the kernel_arg_type / kernel_arg_type_qual strings
// that programs built from source carry, else from the parameter's SPIR-V type and
// decorations.
ArgInfo argInfo(const spirv::Module& m, const spirv::EntryPoint& ep, size_t index);

// Bytes of the Workgroup variables that the kernel's call tree uses.
uint64_t staticLocalBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep);
// Bytes of the Function variables of the call tree (an upper bound per work-item).
uint64_t privateBytes(const spirv::ModuleFacts& facts, const spirv::EntryPoint& ep);

// "float4" for a VecTypeHint literal (SPIR-V: component type in the low 16 bits, count in
// the high 16).
std::string vecTypeHintName(uint32_t hint);

}  // namespace spvsim::rt
