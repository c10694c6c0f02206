#include "spirv/module.h"

#include <fmt/core.h>

#include "spirv/error.h"
#include "spirv/text.h"

namespace spvsim::spirv {

const Type* Module::findType(Id id) const {
  auto it = types.find(id);
  return it == types.end() ? nullptr : &it->second;
}

const Type& Module::type(Id id) const {
  if (const Type* t = findType(id)) return *t;
  throw Error(DiagnosticKind::InvalidModule, fmt::format("%{} is not a type", id));
}

std::optional<Constant> Module::constantValue(Id id) const {
  if (auto it = constants.find(id); it != constants.end()) return it->second;
  auto v = variables.find(id);
  if (v == variables.end()) return std::nullopt;
  Constant address;
  address.id = id;
  address.type = v->second.type;
  address.bytes.assign(type(v->second.type).size, 0);  // 4 bytes in a Physical32 module
  address.relocations.push_back({0, id, 0});
  return address;
}

const Function* Module::findFunction(Id id) const {
  auto it = functionIndex.find(id);
  return it == functionIndex.end() ? nullptr : &functions[it->second];
}

const Function* Module::onlyCallee(Id function) const {
  const Function* f = findFunction(function);
  if (!f || f->blocks.size() != 1) return nullptr;
  const auto& insts = f->blocks[0].instructions;
  if (insts.size() != 2 || insts[0].opcode != spv::Op::OpFunctionCall ||
      insts[1].opcode != spv::Op::OpReturn || insts[0].operands.empty())
    return nullptr;
  return findFunction(insts[0].operands[0]);
}

const EntryPoint* Module::findEntryPoint(std::string_view name) const {
  for (const auto& ep : entryPoints)
    if (ep.name == name) return &ep;
  return nullptr;
}

const Decoration* Module::findDecoration(Id id, spv::Decoration kind) const {
  auto it = decorations.find(id);
  if (it == decorations.end()) return nullptr;
  for (const auto& d : it->second)
    if (d.kind == kind) return &d;
  return nullptr;
}

bool Module::hasParamAttr(Id id, spv::FunctionParameterAttribute attr) const {
  auto it = decorations.find(id);
  if (it == decorations.end()) return false;
  for (const auto& d : it->second)
    if (d.kind == spv::Decoration::FuncParamAttr && !d.literals.empty() &&
        d.literals[0] == static_cast<uint32_t>(attr))
      return true;
  return false;
}

std::string Module::nameOf(Id id) const {
  auto it = names.find(id);
  return it == names.end() ? fmt::format("%{}", id) : escapeText(it->second);
}

std::string Module::describeLine(const SourceLine& line) const {
  if (!line) return "";
  auto it = strings.find(line.file);
  std::string file = it == strings.end() ? fmt::format("%{}", line.file) : escapeText(it->second);
  return fmt::format("{}:{}", file, line.line);
}

namespace {

std::string intName(uint32_t width) {
  switch (width) {
    case 8:
      return "char";
    case 16:
      return "short";
    case 32:
      return "int";
    case 64:
      return "long";
    default:
      return fmt::format("i{}", width);
  }
}

std::string spaceName(spv::StorageClass sc) {
  switch (sc) {
    case spv::StorageClass::CrossWorkgroup:
      return "global ";
    case spv::StorageClass::UniformConstant:
      return "constant ";
    case spv::StorageClass::Workgroup:
      return "local ";
    case spv::StorageClass::Generic:
      return "";
    case spv::StorageClass::Function:
      return "private ";
    default:
      return "";
  }
}

}  // namespace

std::string typeName(const Module& module, Id id) {
  const Type* t = module.findType(id);
  if (!t) return fmt::format("%{}", id);
  switch (t->kind) {
    case TypeKind::Void:
      return "void";
    case TypeKind::Bool:
      return "bool";
    case TypeKind::Int:
      return intName(t->width);
    case TypeKind::Float:
      return t->width == 16 ? "half" : t->width == 32 ? "float" : "double";
    case TypeKind::Vector:
      return fmt::format("{}{}", typeName(module, t->element), t->count);
    case TypeKind::Array:
      return fmt::format("{}[{}]", typeName(module, t->element), t->count);
    case TypeKind::RuntimeArray:
      return fmt::format("{}[]", typeName(module, t->element));
    case TypeKind::Struct: {
      auto it = module.names.find(id);
      return it == module.names.end() ? "struct" : escapeText(it->second);
    }
    case TypeKind::Pointer:
      return spaceName(t->storage) + typeName(module, t->element) + "*";
    case TypeKind::Function:
      return "function";
    case TypeKind::Opaque:
      switch (t->opcode) {
        case spv::Op::OpTypeEvent:
          return "event_t";
        case spv::Op::OpTypeSampler:
          return "sampler_t";
        case spv::Op::OpTypeImage:
          return "image";
        case spv::Op::OpTypePipe:
          return "pipe";
        case spv::Op::OpTypeQueue:
          return "queue_t";
        case spv::Op::OpTypeReserveId:
          return "reserve_id_t";
        default:
          return "opaque";
      }
  }
  return "?";
}

std::vector<const Instruction*> instructionsByIndex(const Module& module) {
  std::vector<const Instruction*> out;
  for (const Function& f : module.functions)
    for (const Block& b : f.blocks)
      for (const Instruction& i : b.instructions) {
        if (i.index >= out.size()) out.resize(i.index + 1, nullptr);
        out[i.index] = &i;
      }
  return out;
}

}  // namespace spvsim::spirv
