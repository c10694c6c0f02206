// The one place argument errors (src/exec/arg_check.h) become OpenCL error codes.
#pragma once

#include "runtime/object.h"
#include "spirv/kernel_signature.h"
#include "src/exec/arg_check.h"

namespace spvsim::rt {

// CL_INVALID_KERNEL_ARGS for a missing argument, CL_INVALID_ARG_SIZE for a size,
// CL_INVALID_ARG_VALUE for a kind or type mismatch, and for the objects spvsim has none
// of the code naming the object (CL_INVALID_SAMPLER, CL_INVALID_DEVICE_QUEUE,
// CL_INVALID_MEM_OBJECT).
cl_int clError(ArgErrorKind kind, spirv::ParamKind param);
inline cl_int clError(const ArgumentError& e, const spirv::ParamSignature& p) {
  return clError(e.argKind(), p.kind);
}

}  // namespace spvsim::rt
