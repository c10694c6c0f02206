#include "src/exec/arg_check.h"

#include <fmt/format.h>

#include "src/values/element_type.h"

namespace spvsim {
namespace {

using spirv::ParamKind;
using Kind = ArgBinding::Kind;

std::string bytes(uint64_t n) { return fmt::format("{} byte{}", n, n == 1 ? "" : "s"); }

// How the argument reads in a message: as the user wrote it, or what the API gave.
std::string describe(const ArgBinding& a) {
  if (!a.text.empty()) return a.text;
  switch (a.kind) {
    case Kind::Value:
      return fmt::format("a value of {}", bytes(a.value.size()));
    case Kind::Buffer:
      return "a buffer";
    case Kind::Local:
      return fmt::format("local memory of {}", bytes(a.localBytes));
    case Kind::Null:
      return "NULL";
    case Kind::Image:
      return "an image";
    case Kind::Sampler:
      return "a sampler";
    case Kind::SvmPointer:
      return "an SVM pointer";
    case Kind::Pipe:
      return "a pipe";
  }
  return "?";
}

std::string where(const spirv::ParamSignature& p) {
  return fmt::format("{} is '{}'", p.label(), p.declaration());
}

ArgumentError error(ArgErrorKind kind, std::string message) { return ArgumentError(kind, message); }

std::optional<ArgumentError> checkStruct(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind != Kind::Value || (a.type && !a.type->isStruct))
    return error(ArgErrorKind::Kind,
                 fmt::format("{}, a struct passed by value: give struct:TYPE,...=V,..., not '{}'",
                             where(p), describe(a)));
  if (a.value.size() != p.size)
    return error(ArgErrorKind::Size,
                 fmt::format("{} ({}) but '{}' gives {}{}", where(p), bytes(p.size), describe(a),
                             bytes(a.value.size()), a.type ? " as " + a.type->name : ""));
  return std::nullopt;
}

std::optional<ArgumentError> checkValue(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind != Kind::Value || (a.type && a.type->isStruct))
    return error(
        ArgErrorKind::Kind,
        fmt::format("{}, not {}: give a value such as {}:1, not '{}'", where(p),
                    a.kind == Kind::Value ? "a struct" : "a pointer", p.typeName, describe(a)));
  if (a.value.size() != p.size)
    return error(ArgErrorKind::Size,
                 fmt::format("{} ({}) but '{}' gives {}", where(p), bytes(p.size), describe(a),
                             bytes(a.value.size())));
  if (a.type && a.type->floating != p.isFloating)
    return error(ArgErrorKind::Type,
                 fmt::format("{} but '{}' gives {} ({} and {} bits differ)", where(p), describe(a),
                             a.type->name, p.isFloating ? "floating-point" : "integer",
                             p.isFloating ? "integer" : "floating-point"));
  return std::nullopt;
}

std::optional<ArgumentError> checkLocal(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind != Kind::Local)
    return error(ArgErrorKind::Kind,
                 fmt::format("{}: give local:BYTES, not '{}'", where(p), describe(a)));
  if (a.localBytes == 0)
    return error(ArgErrorKind::Size, fmt::format("{}: local memory size is 0", where(p)));
  return std::nullopt;
}

// A queue_t: the front end's handle of an on-device queue (src/exec/device_queue.h).
std::optional<ArgumentError> checkQueue(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind != Kind::Value || a.value.size() != 8)
    return error(ArgErrorKind::Kind,
                 fmt::format("{}: give a device queue, not '{}'", where(p), describe(a)));
  return std::nullopt;
}

std::optional<ArgumentError> checkBuffer(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind == Kind::Local)
    return error(ArgErrorKind::Kind,
                 fmt::format("{}: local:BYTES only fits local pointers", where(p)));
  if (a.kind == Kind::Value)
    return error(ArgErrorKind::Kind, fmt::format("{}: give buffer:TYPE[N]=INIT or null, not '{}'",
                                                 where(p), describe(a)));
  return std::nullopt;
}

// Whether the parameter's type name ("image2d_t", "image2d_depth_t") takes the image:
// the same shape, and depth types exactly the CL_DEPTH images.
bool imageFits(const std::string& param, const ImageDesc& image) {
  constexpr uint32_t kDepthOrder = 0x10BD;  // CL_DEPTH
  std::string name = param;
  const size_t depth = name.find("_depth");
  if (depth != std::string::npos) name.erase(depth, 6);
  return name == imageTypeName(image.type) &&
         (depth != std::string::npos) == (image.format.order == kDepthOrder);
}

std::optional<ArgumentError> checkImage(const spirv::ParamSignature& p, const ArgBinding& a) {
  using spirv::AccessQualifier;
  if (a.kind != Kind::Image)
    return error(ArgErrorKind::Kind,
                 fmt::format("{}: give an image ({}:ORDER,TYPE[...]), not '{}'", where(p),
                             p.typeName.substr(0, p.typeName.size() - 2), describe(a)));
  if (!imageFits(p.typeName, a.image))
    return error(
        ArgErrorKind::Kind,
        fmt::format("{} but '{}' is an {}{}", where(p), describe(a), imageTypeName(a.image.type),
                    a.image.format.order == 0x10BD ? " of CL_DEPTH" : ""));
  const bool reads = p.access != AccessQualifier::WriteOnly;
  const bool writes =
      p.access == AccessQualifier::WriteOnly || p.access == AccessQualifier::ReadWrite;
  if ((reads && !a.readable) || (writes && !a.writable))
    return error(ArgErrorKind::Kind, fmt::format("{} ({}) but '{}' was created {}", where(p),
                                                 spirv::accessQualifierName(p.access), describe(a),
                                                 a.readable ? "read-only (CL_MEM_READ_ONLY)"
                                                            : "write-only (CL_MEM_WRITE_ONLY)"));
  return std::nullopt;
}

std::optional<ArgumentError> checkSampler(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind != Kind::Sampler)
    return error(ArgErrorKind::Kind,
                 fmt::format("{}: give sampler:NORMALIZED|UNNORMALIZED,ADDRESSING,FILTER, not '{}'",
                             where(p), describe(a)));
  return std::nullopt;
}

// A pipe object for a pipe parameter. Its packets must be the size of the parameter's
// element type where the signature names a scalar or vector ("pipe int4"); the ops
// check the packet size of every access (struct packets included).
std::optional<ArgumentError> checkPipe(const spirv::ParamSignature& p, const ArgBinding& a) {
  if (a.kind != Kind::Pipe || !a.pipe)
    return error(ArgErrorKind::Kind, fmt::format("{}: give a pipe (pipe:TYPE[N]=INIT), not '{}'",
                                                 where(p), describe(a)));
  const auto element = values::parseElementType(p.typeName);
  if (element && element->size() != a.pipe->packetSize)
    return error(ArgErrorKind::Kind,
                 fmt::format("{}, packets of {}, but '{}' has packets of {}", where(p),
                             bytes(element->size()), describe(a), bytes(a.pipe->packetSize)));
  return std::nullopt;
}

std::string argList(const spirv::KernelSignature& kernel) {
  std::string out;
  for (const auto& p : kernel.params) out += (out.empty() ? "" : ", ") + p.declaration();
  return out;
}

}  // namespace

std::optional<ArgumentError> checkArgument(const spirv::ParamSignature& p, const ArgBinding& a) {
  switch (p.kind) {
    case ParamKind::Value:
      return checkValue(p, a);
    case ParamKind::ByValStruct:
      return checkStruct(p, a);
    case ParamKind::LocalPointer:
      return checkLocal(p, a);
    case ParamKind::GlobalPointer:
    case ParamKind::ConstantPointer:
      return checkBuffer(p, a);
    case ParamKind::Pipe:
      return checkPipe(p, a);
    case ParamKind::Image:
      return checkImage(p, a);
    case ParamKind::Sampler:
      return checkSampler(p, a);
    case ParamKind::Queue:
      return checkQueue(p, a);
    case ParamKind::Event:
      break;
  }
  return error(ArgErrorKind::Unsupported,
               fmt::format("{}: events are not supported as arguments yet", where(p)));
}

std::optional<ArgumentError> checkArgumentCount(const spirv::KernelSignature& kernel,
                                                size_t given) {
  const size_t n = kernel.params.size();
  if (given == n) return std::nullopt;
  return error(
      ArgErrorKind::Count,
      fmt::format("kernel '{}' takes {} argument{}{} but {} {} given", kernel.name, n,
                  n == 1 ? "" : "s", n == 0 ? "" : " (" + argList(kernel) + ")",
                  given == 0 ? "none" : std::to_string(given), given <= 1 ? "was" : "were"));
}

void validateArguments(const spirv::KernelSignature& kernel, const std::vector<ArgBinding>& args) {
  if (auto e = checkArgumentCount(kernel, args.size())) throw *e;
  for (size_t i = 0; i < args.size(); ++i)
    if (auto e = checkArgument(kernel.params[i], args[i])) throw *e;
}

namespace {

// One scalar component of a buffer's element type ("float4": 4 bytes); the element where
// its name is no OpenCL C scalar or vector.
uint64_t componentBytes(const ArgType& t) {
  const auto element = values::parseElementType(t.name);
  return element ? values::scalarSize(element->scalar) : t.elementBytes;
}

}  // namespace

std::string argumentWarnings(const spirv::KernelSignature& kernel,
                             const std::vector<ArgBinding>& args) {
  std::string out;
  for (size_t i = 0; i < kernel.params.size() && i < args.size(); ++i) {
    const spirv::ParamSignature& p = kernel.params[i];
    const ArgBinding& a = args[i];
    if (a.kind != Kind::Buffer || !a.type || !p.pointeeSize) continue;
    const ArgType& t = *a.type;
    // Buffers are untyped: only the components say what the bytes hold. A float buffer
    // feeding a float4* (Oclgrind's .sim files give scalar types only) holds what the
    // kernel reads; an int buffer feeding a float* does not.
    const uint64_t component = componentBytes(t);
    if (component != p.pointeeComponentSize || t.floating != p.pointeeFloating) {
      out += fmt::format(
          "warning: argument-mismatch: {} but '{}' holds {} elements ({}-byte {} "
          "components); the kernel reads the bytes as its own type\n",
          where(p), describe(a), t.name, component, t.floating ? "floating-point" : "integer");
    } else if (a.size % p.pointeeSize != 0) {
      // The same components, but the last of the kernel's elements would be partial: a
      // vec3 parameter's elements take 4 components (float[3] is no float3), or the
      // count is not a multiple of the vector width.
      out += fmt::format(
          "warning: argument-mismatch: {} but '{}' holds {}, not a whole number of its "
          "{}-byte elements\n",
          where(p), describe(a), bytes(a.size), p.pointeeSize);
    }
  }
  return out;
}

}  // namespace spvsim
