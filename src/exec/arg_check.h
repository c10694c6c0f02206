// The one check of kernel arguments against a kernel's signature, for every front end:
// the command line (--arg, .sim files), the OpenCL runtime (clSetKernelArg, enqueue) and
// launches themselves. Messages are the same everywhere; the runtime maps the error kind
// to an OpenCL error code.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "spirv/error.h"
#include "spirv/kernel_signature.h"
#include "src/exec/arg_binding.h"

namespace spvsim {

enum class ArgErrorKind {
  Count,        // not one argument per parameter
  Kind,         // a buffer for a value, a value for a pointer, a buffer for a local pointer...
  Size,         // a value whose size differs from the parameter's; 0 bytes of local memory
  Type,         // integer bits for a floating-point parameter or the reverse
  Unsupported,  // queues, events: spvsim has no such objects
};

// Error(DiagnosticKind::InvalidArgument) with what kind of mismatch it is.
class ArgumentError : public Error {
 public:
  ArgumentError(ArgErrorKind kind, const std::string& message)
      : Error(DiagnosticKind::InvalidArgument, message), argKind_(kind) {}
  ArgErrorKind argKind() const { return argKind_; }

 private:
  ArgErrorKind argKind_;
};

// Whether `arg` fits parameter `p`. Checks that need the argument's type (ArgBinding::type)
// are skipped without it.
std::optional<ArgumentError> checkArgument(const spirv::ParamSignature& p, const ArgBinding& arg);

// Whether `given` arguments are one per parameter.
std::optional<ArgumentError> checkArgumentCount(const spirv::KernelSignature& kernel, size_t given);

// Throws the first ArgumentError of the count, then of each argument in order.
void validateArguments(const spirv::KernelSignature& kernel, const std::vector<ArgBinding>& args);

// "warning: argument-mismatch: ..." lines for buffers whose scalar components differ from
// those of what the pointer parameter points to (size, or integer against floating point),
// or whose size is no whole number of its elements: legal (a kernel sees bytes) but
// usually a mistake. Vector widths may differ (a float buffer feeding a float4*).
std::string argumentWarnings(const spirv::KernelSignature& kernel,
                             const std::vector<ArgBinding>& args);

}  // namespace spvsim
