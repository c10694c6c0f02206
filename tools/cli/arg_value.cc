#include "tools/cli/arg_value.h"

#include <algorithm>

namespace spvsim::tools {
namespace {

ArgBinding binding(ArgValue& a) {
  switch (a.kind) {
    case ArgValue::Kind::Value: {
      ArgBinding b = ArgBinding::bytes({a.bytes.begin(), a.bytes.end()});
      b.type = a.isStruct() ? ArgType{a.structName, a.bytes.size(), false, true}
                            : ArgType{a.type.name(), a.type.size(), isFloating(a.type.scalar)};
      return b;
    }
    case ArgValue::Kind::Buffer: {
      ArgBinding b = ArgBinding::buffer(a.bytes.data(), a.bytes.size());
      b.type = ArgType{a.type.name(), a.type.size(), isFloating(a.type.scalar)};
      b.readable = a.readable;
      b.writable = a.writable;
      b.uninitialized = a.noinit;
      return b;
    }
    case ArgValue::Kind::Local:
      return ArgBinding::local(a.localBytes);
    case ArgValue::Kind::Image: {
      ImageDesc d = a.image;
      d.data = a.bytes.data();
      d.bytes = a.bytes.size();
      return ArgBinding::ofImage(d);
    }
    case ArgValue::Kind::Sampler:
      return ArgBinding::ofSampler(a.sampler);
    case ArgValue::Kind::Pipe: {
      a.pipe = std::make_shared<PipeStorage>(uint32_t(a.type.size()), uint32_t(a.maxPackets));
      a.pipe->fill(a.bytes.data(), a.bytes.size() / a.type.size());
      return ArgBinding::ofPipe(a.pipe.get());
    }
    case ArgValue::Kind::Null:
      break;
  }
  return ArgBinding::null();
}

}  // namespace

std::vector<ArgBinding> bindings(std::vector<ArgValue>& args) {
  std::vector<ArgBinding> out;
  for (ArgValue& a : args) {
    out.push_back(binding(a));
    out.back().text = a.text;
    if (a.kind == ArgValue::Kind::Buffer && a.storageArg)
      out.back().data = args[*a.storageArg].storage.data() + a.storageOffset;
  }
  return out;
}

void syncSharedStorage(std::vector<ArgValue>& args) {
  for (ArgValue& a : args)
    if (a.kind == ArgValue::Kind::Buffer && a.storageArg) {
      const files::HostBytes& from = args[*a.storageArg].storage;
      std::copy_n(from.begin() + int64_t(a.storageOffset), a.bytes.size(), a.bytes.begin());
    }
}

}  // namespace spvsim::tools
