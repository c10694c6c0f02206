#include "tools/params.h"

#include <fmt/format.h>

#include "spirv/error.h"

namespace spvsim::tools {
namespace {

using spirv::AddressSpace;
using Kind = ParamInfo::Kind;

[[noreturn]] void fail(const std::string& message) {
  throw Error(DiagnosticKind::InvalidArgument, message);
}

Kind kindOf(const spirv::Module& module, const spirv::KernelParam& p) {
  if (p.byValStruct) return Kind::Struct;
  if (p.isPointer) {
    switch (p.addressSpace) {
      case AddressSpace::Local:
        return Kind::LocalPointer;
      case AddressSpace::Constant:
        return Kind::ConstantPointer;
      default:
        return Kind::GlobalPointer;
    }
  }
  const spirv::Type* type = module.findType(p.type);
  if (type && type->kind == spirv::TypeKind::Opaque) return Kind::Image;
  if (type && type->kind == spirv::TypeKind::Struct) return Kind::Struct;
  return Kind::Value;
}

// The loader's fallback type name (spirv::typeName) spells pointers with their address
// space ("global int*"); the space is shown separately, so it is dropped here.
std::string plainTypeName(const spirv::Module& module, const spirv::KernelParam& p) {
  std::string name = p.typeName.empty() ? spirv::typeName(module, p.type) : p.typeName;
  for (std::string_view space : {"global ", "constant ", "local ", "private "})
    if (name.rfind(space, 0) == 0) return name.substr(space.size());
  return name;
}

std::string_view spaceName(Kind kind) {
  switch (kind) {
    case Kind::GlobalPointer:
      return "global ";
    case Kind::ConstantPointer:
      return "constant ";
    case Kind::LocalPointer:
      return "local ";
    default:
      return "";
  }
}

std::string bytes(uint64_t n) { return fmt::format("{} byte{}", n, n == 1 ? "" : "s"); }

std::string argList(const std::vector<ParamInfo>& params) {
  std::string out;
  for (const ParamInfo& p : params) out += (out.empty() ? "" : ", ") + p.declaration();
  return out;
}

void checkOne(const ParamInfo& p, const ArgValue& a) {
  const std::string where = fmt::format("{} is '{}'", p.label(), p.declaration());
  switch (p.kind) {
    case Kind::Image:
      fail(fmt::format("{}: images and samplers are not supported yet", where));
    case Kind::Struct:
      if (!a.isStruct())
        fail(fmt::format("{}, a struct passed by value: give struct:TYPE,...=V,..., not '{}'",
                         where, a.text));
      if (a.bytes.size() != p.size)
        fail(fmt::format("{} ({}) but '{}' gives {} as {}", where, bytes(p.size), a.text,
                         bytes(a.bytes.size()), a.structName));
      return;
    case Kind::Value:
      if (a.isStruct())
        fail(fmt::format("{}, not a struct: give a value such as {}:1, not '{}'", where, p.typeName,
                         a.text));
      if (a.kind != ArgValue::Kind::Value)
        fail(fmt::format("{}, not a pointer: give a value such as {}:1, not '{}'", where,
                         p.typeName, a.text));
      if (a.bytes.size() != p.size)
        fail(fmt::format("{} ({}) but '{}' gives {}", where, bytes(p.size), a.text,
                         bytes(a.bytes.size())));
      if (isFloating(a.type.scalar) != p.isFloating)
        fail(fmt::format("{} but '{}' gives {} ({} and {} bits differ)", where, a.text,
                         a.type.name(), p.isFloating ? "floating-point" : "integer",
                         p.isFloating ? "integer" : "floating-point"));
      return;
    case Kind::LocalPointer:
      if (a.kind != ArgValue::Kind::Local)
        fail(fmt::format("{}: give local:BYTES, not '{}'", where, a.text));
      return;
    case Kind::GlobalPointer:
    case Kind::ConstantPointer:
      if (a.kind == ArgValue::Kind::Local)
        fail(fmt::format("{}: local:BYTES only fits local pointers", where));
      if (a.kind == ArgValue::Kind::Value)
        fail(fmt::format("{}: give buffer:TYPE[N]=INIT or null, not '{}'", where, a.text));
      return;
  }
}

// The element a global or constant pointer expects (ParamInfo::pointeeSize).
void describePointee(const spirv::Module& module, const spirv::KernelParam& p, ParamInfo& info) {
  if (info.kind != Kind::GlobalPointer && info.kind != Kind::ConstantPointer) return;
  const spirv::Type* pointer = module.findType(p.type);
  const spirv::Type* pointee = pointer ? module.findType(pointer->element) : nullptr;
  if (!pointee ||
      (pointee->kind != spirv::TypeKind::Int && pointee->kind != spirv::TypeKind::Float &&
       pointee->kind != spirv::TypeKind::Vector))
    return;
  const spirv::Type* scalar =
      pointee->kind == spirv::TypeKind::Vector ? module.findType(pointee->element) : pointee;
  if (!scalar || (scalar->kind == spirv::TypeKind::Int && scalar->width == 8)) return;
  info.pointeeSize = pointee->size;
  info.pointeeFloating = scalar->kind == spirv::TypeKind::Float;
}

}  // namespace

std::string argumentWarnings(const std::vector<ParamInfo>& params,
                             const std::vector<ArgValue>& args) {
  std::string out;
  for (size_t i = 0; i < params.size() && i < args.size(); ++i) {
    const ParamInfo& p = params[i];
    const ArgValue& a = args[i];
    if (a.kind != ArgValue::Kind::Buffer || !p.pointeeSize) continue;
    if (a.type.size() == p.pointeeSize && isFloating(a.type.scalar) == p.pointeeFloating) continue;
    out += fmt::format(
        "warning: argument-mismatch: {} is '{}' but '{}' holds {} elements ({} {}); the "
        "kernel reads the bytes as its own type\n",
        p.label(), p.declaration(), a.text, a.type.name(),
        a.type.size() == 1 ? "1 byte" : fmt::format("{} bytes", a.type.size()),
        isFloating(a.type.scalar) ? "floating-point" : "integer");
  }
  return out;
}

std::string ParamInfo::label() const { return fmt::format("argument {} ({})", index, name); }

std::string ParamInfo::declaration() const {
  return fmt::format("{}{} {}", spaceName(kind), typeName, name);
}

std::vector<ParamInfo> describeParams(const spirv::Module& module, const spirv::EntryPoint& ep) {
  std::vector<ParamInfo> out;
  for (size_t i = 0; i < ep.params.size(); ++i) {
    const spirv::KernelParam& p = ep.params[i];
    ParamInfo info;
    info.index = static_cast<uint32_t>(i);
    info.name = p.name.empty() ? fmt::format("arg{}", i) : p.name;
    info.typeName = plainTypeName(module, p);
    info.kind = kindOf(module, p);
    if (const spirv::Type* t = module.findType(p.type)) {
      // A struct by value is a pointer to a private copy (ByVal): its size is the struct's.
      info.size = p.byValStruct ? module.type(t->element).size : t->size;
      const spirv::Type* scalar =
          t->kind == spirv::TypeKind::Vector ? module.findType(t->element) : t;
      info.isFloating = scalar && scalar->kind == spirv::TypeKind::Float;
    }
    info.readOnly = p.readOnly;
    describePointee(module, p, info);
    out.push_back(std::move(info));
  }
  return out;
}

void validateArgs(const std::string& kernel, const std::vector<ParamInfo>& params,
                  const std::vector<ArgValue>& args) {
  if (args.size() != params.size())
    fail(fmt::format(
        "kernel '{}' takes {} argument{}{} but {} --arg {} given", kernel, params.size(),
        params.size() == 1 ? "" : "s", params.empty() ? "" : " (" + argList(params) + ")",
        args.empty() ? "no" : std::to_string(args.size()), args.size() <= 1 ? "was" : "were"));
  for (size_t i = 0; i < params.size(); ++i) checkOne(params[i], args[i]);
}

}  // namespace spvsim::tools
