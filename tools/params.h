// A kernel's parameters as the command line checks arguments against them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "spirv/module.h"
#include "tools/arg_value.h"

namespace spvsim::tools {

struct ParamInfo {
  enum class Kind {
    Value,            // scalar or vector passed by value
    GlobalPointer,    // global (or generic) pointer
    ConstantPointer,  // constant pointer
    LocalPointer,     // local pointer
    Image,            // image, sampler, pipe, queue, event: opaque objects
    Struct,           // struct passed by value
  };
  uint32_t index = 0;
  std::string name;      // "src", or "arg3" when the module has no names
  std::string typeName;  // "float*", "int4", as OpenCL C would spell it
  Kind kind = Kind::Value;
  uint64_t size = 0;        // Value: bytes the argument occupies
  bool isFloating = false;  // Value: a floating-point scalar or vector
  bool readOnly = false;
  // Global/constant pointers to a scalar or vector of 2+ bytes: what a buffer element
  // should be (char and void pointers take any buffer).
  uint64_t pointeeSize = 0;  // 0: no expectation
  bool pointeeFloating = false;

  // "argument 2 (dst)"
  std::string label() const;
  // "global float* dst"
  std::string declaration() const;
};

std::vector<ParamInfo> describeParams(const spirv::Module& module, const spirv::EntryPoint& ep);

// Throws Error(DiagnosticKind::InvalidArgument), naming the parameter, when the arguments do not
// fit the kernel: their count, a buffer for a non-pointer, a local for a non-local pointer, a value
// whose size differs from the parameter's or that is an integer for a floating parameter (or the
// reverse), an image.
void validateArgs(const std::string& kernel, const std::vector<ParamInfo>& params,
                  const std::vector<ArgValue>& args);

// "warning: argument-mismatch: ..." lines for buffers whose element type differs from
// what the pointer parameter points to (size, or integer against floating point): legal
// (a kernel sees bytes) but usually a mistake.
std::string argumentWarnings(const std::vector<ParamInfo>& params,
                             const std::vector<ArgValue>& args);

}  // namespace spvsim::tools
