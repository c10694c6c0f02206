#include "tools/cli/info_json.h"

#include <fmt/format.h>

#include "spirv/error.h"
#include "src/exec/diagnostics.h"
#include "tools/cli/info_command.h"

namespace spvsim::tools {
namespace {

using Kind = spirv::ParamKind;

const char* kindName(Kind k) {
  switch (k) {
    case Kind::Value:
      return "value";
    case Kind::ByValStruct:
      return "struct";
    case Kind::GlobalPointer:
      return "global-pointer";
    case Kind::ConstantPointer:
      return "constant-pointer";
    case Kind::LocalPointer:
      return "local-pointer";
    case Kind::Image:
      return "image";
    case Kind::Sampler:
      return "sampler";
    case Kind::Pipe:
      return "pipe";
    case Kind::Queue:
      return "queue";
    case Kind::Event:
      return "event";
  }
  return "unknown";
}

std::string sizes(const std::optional<std::array<uint32_t, 3>>& s) {
  return s ? fmt::format("[{}, {}, {}]", (*s)[0], (*s)[1], (*s)[2]) : "null";
}

std::vector<std::string> qualifierList(uint32_t q) {
  std::vector<std::string> out;
  const std::string names = spirv::qualifierNames(q);
  for (size_t at = 0; at < names.size();) {
    const size_t space = std::min(names.find(' ', at), names.size());
    out.push_back(names.substr(at, space - at));
    at = space + 1;
  }
  return out;
}

std::string paramJson(const spirv::ParamSignature& p) {
  std::string s = fmt::format(
      "{{\"index\": {}, \"name\": {}, \"named\": {}, \"type\": {}, \"address_space\": {}, "
      "\"access\": {}, \"qualifiers\": {}, \"kind\": {}, \"argument\": {}, \"size\": {}",
      p.index, jsonQuote(p.name), p.named, jsonQuote(p.typeName),
      jsonQuote(spirv::addressSpaceName(p.addressSpace)),
      jsonQuote(spirv::accessQualifierName(p.access)), jsonList(qualifierList(p.qualifiers)),
      jsonQuote(kindName(p.kind)), jsonQuote(passedAs(p)), p.size);
  if (p.isPointer()) {
    s += fmt::format(", \"read_only\": {}", p.readOnly);
    // What a buffer's elements should be (0: any, e.g. char* or void*).
    s += fmt::format(", \"pointee_size\": {}", p.pointeeSize);
    if (p.pointeeSize) s += fmt::format(", \"pointee_floating\": {}", p.pointeeFloating);
  }
  if (p.alignment) s += fmt::format(", \"alignment\": {}", *p.alignment);
  return s + "}";
}

std::string kernelJson(const spirv::Module& module, const spirv::EntryPoint& ep,
                       const ModuleText& text) {
  const spirv::KernelSignature& sig = ep.signature;
  std::string params;
  for (const auto& p : sig.params)
    params += (params.empty() ? "\n      " : ",\n      ") + paramJson(p);
  return fmt::format(
      "{{\"name\": {}, \"execution_modes\": {}, \"required_work_group_size\": {}, "
      "\"work_group_size_hint\": {}, \"vec_type_hint\": {}, \"required_sub_group_size\": {},\n"
      "     \"args\": [{}]}}",
      jsonQuote(ep.name), jsonList(kernelModes(module, ep, text)), sizes(sig.requiredWorkGroupSize),
      sizes(sig.workGroupSizeHint), sig.vecTypeHint ? jsonQuote(*sig.vecTypeHint) : "null",
      sig.requiredSubGroupSize ? std::to_string(*sig.requiredSubGroupSize) : "null", params);
}

}  // namespace

std::string jsonList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + jsonQuote(items[i]);
  return out + "]";
}

std::string buildJson(const compiler::CompileResult& build, const spirv::Module& module) {
  std::vector<std::string> repairs;
  for (const spirv::Repair& r : module.repairs)
    repairs.push_back(fmt::format("{} ({}, {}x)", r.rule, r.producer, r.count));
  return fmt::format("{{\"from_cache\": {}, \"commands\": {}, \"notes\": {}, \"repairs\": {}}}",
                     build.fromCache, jsonList(build.commands), jsonList(build.notes),
                     jsonList(repairs));
}

std::string formatModuleInfoJson(const spirv::Module& module, std::string_view kernel,
                                 const compiler::CompileResult& build) {
  if (!kernel.empty() && !module.findEntryPoint(kernel))
    throw Error(DiagnosticKind::Usage, fmt::format("no kernel '{}' in the module (kernels: {})",
                                                   kernel, kernelList(module)));
  const ModuleText text = scanDisassembly(module);
  std::string kernels;
  for (const spirv::EntryPoint& ep : module.entryPoints)
    if (kernel.empty() || ep.name == kernel)
      kernels += (kernels.empty() ? "\n    " : ",\n    ") + kernelJson(module, ep, text);
  return fmt::format(
      "{{\"spirv_version\": \"{}.{}\", \"generator\": \"0x{:08x}\", \"capabilities\": {}, "
      "\"extensions\": {},\n  \"kernels\": [{}],\n  \"build\": {}}}\n",
      module.majorVersion(), module.minorVersion(), module.generator, jsonList(text.capabilities),
      jsonList(module.extensions), kernels, buildJson(build, module));
}

}  // namespace spvsim::tools
