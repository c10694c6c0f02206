#include "runtime/arg_errors.h"

namespace spvsim::rt {

cl_int clError(ArgErrorKind kind, spirv::ParamKind param) {
  switch (kind) {
    case ArgErrorKind::Count:
      return CL_INVALID_KERNEL_ARGS;
    case ArgErrorKind::Size:
      return CL_INVALID_ARG_SIZE;
    case ArgErrorKind::Kind:
    case ArgErrorKind::Type:
      return CL_INVALID_ARG_VALUE;
    case ArgErrorKind::Unsupported:
      break;
  }
  switch (param) {
    case spirv::ParamKind::Sampler:
      return CL_INVALID_SAMPLER;
    case spirv::ParamKind::Queue:
      return CL_INVALID_DEVICE_QUEUE;
    default:
      return CL_INVALID_MEM_OBJECT;
  }
}

}  // namespace spvsim::rt
