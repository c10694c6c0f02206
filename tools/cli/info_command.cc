#include "tools/cli/info_command.h"

#include <fmt/format.h>

#include <algorithm>

#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/text.h"
#include "tools/cli/text_util.h"

namespace spvsim::tools {

using Kind = spirv::ParamKind;

ModuleText scanDisassembly(const spirv::Module& module) {
  ModuleText out;
  for (const std::string& raw : spirv::disassembleLines(module, true)) {
    const std::string_view line = trim(raw);
    if (line.rfind("OpCapability ", 0) == 0) {
      out.capabilities.emplace_back(trim(line.substr(13)));
    } else if (line.rfind("OpExecutionMode", 0) == 0) {
      const size_t id = line.find('%');
      const size_t space = line.find(' ', id);
      if (id == std::string_view::npos || space == std::string_view::npos) continue;
      out.modes.emplace_back(std::string(line.substr(id, space - id)),
                             std::string(trim(line.substr(space + 1))));
    }
  }
  return out;
}

// How the parameter takes its argument.
std::string passedAs(const spirv::ParamSignature& p) {
  switch (p.kind) {
    case Kind::Value:
      return fmt::format("value, {} bytes", p.size);
    case Kind::ByValStruct:
      return fmt::format("struct, {} bytes", p.size);
    case Kind::GlobalPointer:
    case Kind::ConstantPointer:
      return "buffer";
    case Kind::LocalPointer:
      return "local memory";
    case Kind::Image:
      return fmt::format("image ({})", spirv::accessQualifierName(p.access));
    case Kind::Sampler:
      return "sampler";
    case Kind::Pipe:
      return "pipe";
    default:
      return "opaque (not supported yet)";
  }
}

std::vector<std::string> kernelModes(const spirv::Module& module, const spirv::EntryPoint& ep,
                                     const ModuleText& text) {
  std::vector<std::string> modes;
  const std::string id = fmt::format("%{}", ep.function);
  for (const auto& [fn, mode] : text.modes)
    if (fn == id || fn == "%" + module.nameOf(ep.function)) modes.push_back(mode);
  return modes;
}

namespace {

std::string join(const std::vector<std::string>& items, std::string_view sep) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : std::string(sep)) + s;
  return out.empty() ? "(none)" : out;
}

std::string formatKernel(const spirv::Module& module, const spirv::EntryPoint& ep,
                         const ModuleText& text) {
  const std::vector<std::string> modes = kernelModes(module, ep, text);
  std::string out = fmt::format("kernel {}\n  execution modes: {}\n", spirv::escapeText(ep.name),
                                join(modes, ", "));
  const auto& params = ep.signature.params;
  if (params.empty()) return out + "  parameters: (none)\n";
  // The columns of clGetKernelArgInfo (the OpenCL runtime answers from the same signature).
  std::vector<std::string> names;  // OpName text: a table row must stay one line
  for (const auto& p : params) names.push_back(spirv::escapeText(p.name));
  size_t nameWidth = 4, typeWidth = 4, qualWidth = 10;
  for (size_t k = 0; k < params.size(); ++k) {
    const auto& p = params[k];
    nameWidth = std::max(nameWidth, names[k].size());
    typeWidth = std::max(typeWidth, p.typeName.size());
    qualWidth = std::max(qualWidth, spirv::qualifierNames(p.qualifiers).size());
  }
  const auto row = [&](auto index, std::string_view name, std::string_view type,
                       std::string_view space, std::string_view access, std::string_view quals,
                       std::string_view passed) {
    return fmt::format("  {:<4}{:<{}}  {:<{}}  {:<9}{:<11}{:<{}}  {}\n", index, name, nameWidth,
                       type, typeWidth, space, access, quals, qualWidth, passed);
  };
  out += row("arg", "name", "type", "space", "access", "qualifiers", "argument");
  for (size_t k = 0; k < params.size(); ++k) {
    const auto& p = params[k];
    const std::string quals = spirv::qualifierNames(p.qualifiers);
    out += row(p.index, names[k], p.typeName, spirv::addressSpaceName(p.addressSpace),
               spirv::accessQualifierName(p.access), quals.empty() ? "-" : quals, passedAs(p));
  }
  return out;
}

}  // namespace

std::string kernelList(const spirv::Module& module) {
  std::vector<std::string> names;
  for (const spirv::EntryPoint& ep : module.entryPoints)
    names.push_back(spirv::escapeText(ep.name, spirv::kQuotedNameBytes));
  return join(names, ", ");
}

std::string formatModuleInfo(const spirv::Module& module, std::string_view kernel) {
  if (!kernel.empty() && !module.findEntryPoint(kernel))
    throw Error(DiagnosticKind::Usage, fmt::format("no kernel '{}' in the module (kernels: {})",
                                                   kernel, kernelList(module)));
  const ModuleText text = scanDisassembly(module);
  std::string out = fmt::format("SPIR-V {}.{}, generator 0x{:08x}\n", module.majorVersion(),
                                module.minorVersion(), module.generator);
  out += fmt::format("capabilities: {}\n", join(text.capabilities, " "));
  std::vector<std::string> extensions;
  for (const std::string& e : module.extensions) extensions.push_back(spirv::escapeText(e));
  out += fmt::format("extensions: {}\n", join(extensions, " "));
  for (const spirv::EntryPoint& ep : module.entryPoints)
    if (kernel.empty() || ep.name == kernel) out += "\n" + formatKernel(module, ep, text);
  return out;
}

}  // namespace spvsim::tools
