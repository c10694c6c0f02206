#include "tools/cli/bundle.h"

#include <fmt/format.h>

#include <optional>

#include "spirv/error.h"
#include "src/values/element_type.h"
#include "tools/cli/image_arg.h"

namespace spvsim::tools {
namespace {

// The element type a parameter's OpenCL C type names ("const float4*" -> float4); uchar
// for what names none (void*, structs), and when it does not divide `bytes`.
ElementType elementTypeOf(std::string_view type, uint64_t bytes) {
  auto t = parseElementType(values::pointeeTypeName(type));
  if (!t || t->scalar == Scalar::SizeT || bytes % t->size() != 0)
    return ElementType{Scalar::UChar, 1};
  return *t;
}

ArgValue valueArg(const BundleArg& b) {
  ArgValue a;
  a.kind = ArgValue::Kind::Value;
  a.bytes.assign(b.bytes.begin(), b.bytes.end());
  const auto t = parseElementType(b.type);
  if (t && t->scalar != Scalar::SizeT && t->size() == b.bytes.size()) {
    a.type = *t;
    a.count = 1;
  } else {  // structs, and anything else: the captured bytes as they were
    a.structName = b.type.empty() ? "captured bytes" : b.type;
  }
  a.text = fmt::format("captured {} ({} bytes)", b.type, b.bytes.size());
  return a;
}

// Buffer arguments: counts how many arguments use each allocation.
std::vector<size_t> bufferUsers(const Bundle& bundle) {
  std::vector<size_t> users(bundle.buffers.size(), 0);
  for (const BundleArg& a : bundle.args)
    if (a.kind == BundleArg::Kind::Buffer) ++users[a.buffer];
  return users;
}

}  // namespace

std::vector<ArgValue> bundleArguments(const Bundle& bundle,
                                      const std::vector<spirv::ParamSignature>& params,
                                      ArgMemory& memory) {
  if (bundle.args.size() != params.size())
    throw Error(DiagnosticKind::Input,
                fmt::format("{}: the manifest has {} arguments but kernel {} takes {}",
                            bundle.manifest, bundle.args.size(), bundle.kernel, params.size()));
  const std::vector<size_t> users = bufferUsers(bundle);
  std::vector<std::optional<size_t>> holder(bundle.buffers.size());  // arg holding the storage
  std::vector<ArgValue> args;
  for (const BundleArg& b : bundle.args) {
    const size_t i = args.size();
    ArgValue a;
    switch (b.kind) {
      case BundleArg::Kind::NotCaptured:
        throw Error(
            DiagnosticKind::Unsupported,
            fmt::format("{}:{}: argument {} ({}) was not captured: {}; this launch "
                        "cannot be replayed",
                        bundle.manifest, b.line, i, params[i].declaration(), b.notCaptured));
      case BundleArg::Kind::Value:
        a = valueArg(b);
        break;
      case BundleArg::Kind::Local:
        a.kind = ArgValue::Kind::Local;
        a.localBytes = b.size;
        a.text = fmt::format("local:{}", b.size);
        break;
      case BundleArg::Kind::Null:
        a.kind = ArgValue::Kind::Null;
        a.text = "null";
        break;
      case BundleArg::Kind::Sampler:
        a.kind = ArgValue::Kind::Sampler;
        a.sampler = b.sampler;
        a.text = "captured sampler";
        break;
      case BundleArg::Kind::Image: {
        const size_t colon = b.shape.find(':');
        a = parseImageShape(b.shape.substr(0, colon), b.shape.substr(colon + 1));
        memory.reserve(b.size, "the captured images");
        a.bytes = readBundleBytes(b.before, 0, b.size);
        a.text = "captured " + b.shape;
        break;
      }
      case BundleArg::Kind::Buffer: {
        const BundleBuffer& buf = bundle.buffers[b.buffer];
        a.kind = ArgValue::Kind::Buffer;
        a.type = elementTypeOf(b.type, b.size);
        a.count = b.size / a.type.size();
        a.readable = b.readable;
        a.writable = b.writable;
        a.noinit = !buf.initialized;
        a.text = fmt::format("captured buffer {} [{}, {})", b.buffer, b.offset, b.offset + b.size);
        memory.reserve(b.size, "the captured buffers");
        a.bytes = readBundleBytes(buf.before, b.offset, b.size);
        if (users[b.buffer] > 1) {
          if (!holder[b.buffer]) {
            memory.reserve(buf.size, "the captured buffers");
            a.storage = readBundleBytes(buf.before, 0, buf.size);
            holder[b.buffer] = i;
          }
          a.storageArg = holder[b.buffer];
          a.storageOffset = b.offset;
        }
        break;
      }
    }
    args.push_back(std::move(a));
  }
  return args;
}

std::vector<ExpectedArg> bundleExpectations(const Bundle& bundle,
                                            const std::vector<ArgValue>& args) {
  std::vector<ExpectedArg> out;
  for (size_t i = 0; i < bundle.args.size() && i < args.size(); ++i) {
    const BundleArg& b = bundle.args[i];
    if (b.kind == BundleArg::Kind::Image) {
      ExpectedArg e{i, b.line, args[i]};
      e.value.bytes = readBundleBytes(b.after, 0, b.size);
      out.push_back(std::move(e));
    }
    if (b.kind != BundleArg::Kind::Buffer) continue;
    ExpectedArg e{i, b.line, args[i]};
    e.value.storage.clear();
    e.value.storageArg.reset();
    e.value.bytes = readBundleBytes(bundle.buffers[b.buffer].after, b.offset, b.size);
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace spvsim::tools
