// Lowering's values: the register of each SPIR-V value (constants in registers initialised
// once), their types, sizes and shapes, constants' bytes with variables' addresses
// relocated, and the table of values and names the debugger reads (recordValues).
#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/debug_info.h"
#include "spirv/error.h"
#include "spirv/text.h"
#include "src/exec/lowering.h"
#include "src/exec/memory.h"
#include "src/exec/relocations.h"

namespace spvsim {

using spirv::Id;
using spirv::TypeKind;
using spv::Op;

void Lowerer::recordValues() {
  const spirv::Function* wrapper = body_ ? module.findFunction(entry_.function) : nullptr;
  if (wrapper)  // the wrapper's parameters are the body's (forwardedBody)
    for (size_t k = 0; k < wrapper->params.size(); ++k)
      regs_.emplace(wrapper->params[k], regs_.at(body_->params[k]));
  out.values.reserve(regs_.size());
  for (const auto& [id, r] : regs_) {
    const Id t = facts.valueType(id);
    if (!t) continue;
    out.values.push_back({id, t, r, valueBytes(t)});
  }
  std::sort(out.values.begin(), out.values.end(),
            [](const ValueSlot& a, const ValueSlot& b) { return a.id < b.id; });
  // OpName of parameters and results, scoped to their (lowered) function.
  for (const auto& [fid, functionIndex] : functionIndex_) {
    const spirv::Function& f = *module.findFunction(fid);
    const auto index = functionIndex;  // clang 15 cannot capture structured bindings
    auto add = [&](Id id, bool variable, uint32_t argNumber = 0) {
      auto n = module.names.find(id);
      if (n != module.names.end() && regs_.count(id)) {
        out.names.push_back({n->second, id, index, variable});
        out.names.back().argNumber = argNumber;
      }
    };
    for (size_t k = 0; k < f.params.size(); ++k) add(f.params[k], false, uint32_t(k + 1));
    for (const auto& b : f.blocks)
      for (const auto& i : b.instructions)
        if (i.result) add(i.result, i.opcode == Op::OpVariable);
  }
  for (Id v : facts.kernel(entry_).variables)
    if (auto n = module.names.find(v); n != module.names.end() && regs_.count(v))
      out.names.push_back({n->second, v, kNoFunction, true});
  recordDebugVariables();
  if (!wrapper) return;
  // The wrapper's parameter names, where debug info names no value of the body so.
  for (Id p : wrapper->params) {
    auto n = module.names.find(p);
    if (n == module.names.end()) continue;
    auto same = [&](const ValueName& v) { return v.name == n->second && v.function == 0; };
    if (std::none_of(out.names.begin(), out.names.end(), same)) {
      out.names.push_back({n->second, p, 0, false});
      out.names.back().argNumber = uint32_t(&p - wrapper->params.data()) + 1;
    }
  }
}

// Debug-info variables bound to values the kernel has registers for, in binary order.
void Lowerer::recordDebugVariables() {
  std::vector<uint32_t> bound;
  for (const auto& [id, r] : regs_) {
    const std::vector<uint32_t>& of = facts.debugVariablesOf(id);
    bound.insert(bound.end(), of.begin(), of.end());
  }
  std::sort(bound.begin(), bound.end());
  for (uint32_t k : bound) {
    const spirv::DebugVariable& d = facts.debugVariables()[k];
    auto f = functionIndex_.find(d.function);
    ValueName n{d.name, d.id, f == functionIndex_.end() ? kNoFunction : f->second};
    n.address = d.binding == spirv::DebugVariable::Binding::Address;
    n.from = n.address ? 0 : d.index;
    n.isSigned = d.isSigned;
    n.typeName = d.typeName;
    n.argNumber = d.argNumber;
    out.names.push_back(std::move(n));
  }
}

spirv::Id Lowerer::typeIdOfValue(Id id) const {
  const Id t = facts.valueType(id);
  if (!t)
    throw Error(DiagnosticKind::InvalidModule, fmt::format("{} has no type", facts.idName(id)));
  return t;
}

const spirv::Type& Lowerer::typeOfValue(Id id) const { return type(typeIdOfValue(id)); }

uint32_t Lowerer::valueBytes(Id typeId) const {
  const spirv::Type& t = type(typeId);
  return t.kind == TypeKind::Pointer ? 8 : static_cast<uint32_t>(t.size);
}

std::vector<uint8_t> Lowerer::constantRegisterBytes(const spirv::Constant& c) {
  const spirv::Type& t = type(c.type);
  if (t.kind == TypeKind::Pointer && t.size != 8) {  // a Physical32 pointer: 8 in registers
    uint64_t p = 0;
    if (!c.relocations.empty())
      p = relocatedPointer(facts, c, c.relocations[0], placedVariable());
    else if (std::any_of(c.bytes.begin(), c.bytes.end(), [](uint8_t b) { return b != 0; }))
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: pointer constant {} is neither null nor a "
                              "variable's address",
                              facts.idName(c.id)));
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), &p, 8);
    return bytes;
  }
  return constantMemoryBytes(c);
}

std::vector<uint8_t> Lowerer::constantMemoryBytes(const spirv::Constant& c) {
  if (c.relocations.empty()) return c.bytes;
  if (!physical32()) return resolvedBytes(facts, c, placedVariable());
  if (!variableAddresses32_) {  // relocations name module-scope variables, all placed now
    variableAddresses32_ = programVariableAddresses32(module);
    variableAddresses32_->place(Space::Local, out.localRegions);
    variableAddresses32_->place(Space::Private, out.privateRegions);
  }
  return resolvedBytes(facts, c, placedVariable(), &*variableAddresses32_);
}

Shape Lowerer::shape(Id typeId) const {
  const spirv::Type& t = type(typeId);
  Shape s;
  s.bytes = valueBytes(typeId);
  const spirv::Type* e = &t;
  if (t.kind == TypeKind::Vector) {
    e = &type(t.element);
    s.components = static_cast<uint32_t>(t.count);
    s.stride = t.count == 3 ? 4 : s.components;
  }
  s.bits = e->width;
  switch (e->kind) {
    case TypeKind::Bool:
      s.scalar = Scalar::Bool;
      s.bits = 8;
      break;
    case TypeKind::Int:
      s.scalar = e->size == 1   ? Scalar::U8
                 : e->size == 2 ? Scalar::U16
                 : e->size == 4 ? Scalar::U32
                                : Scalar::U64;
      break;
    case TypeKind::Float:
      s.scalar = e->width == 16 ? Scalar::F16 : e->width == 32 ? Scalar::F32 : Scalar::F64;
      break;
    case TypeKind::Pointer:
      s.scalar = Scalar::U64;
      s.bits = 64;
      break;
    default:
      s.scalar = Scalar::Other;
      break;
  }
  return s;
}

uint64_t Lowerer::constantValue(Id id) const {
  auto it = module.constants.find(id);
  if (it == module.constants.end())
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("{} is not a constant", facts.idName(id)));
  uint64_t v = 0;
  std::memcpy(&v, it->second.bytes.data(), std::min<size_t>(8, it->second.bytes.size()));
  return v;
}

uint32_t Lowerer::constantRegister(const std::vector<uint8_t>& value) {
  uint32_t r = allocate(value.size());
  out.inits.push_back({r, value});
  uniformRegs_.push_back(r);
  return r;
}

void Lowerer::setConstantRegister(Id id, const std::vector<uint8_t>& value) {
  regs_[id] = constantRegister(value);
}

uint32_t Lowerer::reg(Id id) {
  if (auto it = signedOverride_.find(id); it != signedOverride_.end()) return it->second;
  if (auto it = regs_.find(id); it != regs_.end()) return it->second;
  if (auto c = module.constants.find(id); c != module.constants.end()) {
    if (c->second.zeroFill) {  // registers start zeroed and constants are never written
      regs_[id] = allocate(valueBytes(c->second.type));
      uniformRegs_.push_back(regs_[id]);
      return regs_[id];
    }
    setConstantRegister(id, constantRegisterBytes(c->second));
    return regs_[id];
  }
  if (auto v = variablePointer_.find(id); v != variablePointer_.end()) {
    std::vector<uint8_t> bytes(8);
    std::memcpy(bytes.data(), &v->second, 8);
    setConstantRegister(id, bytes);
    return regs_[id];
  }
  if (module.variables.count(id))  // spirv::KernelFacts missed a use: never guess
    throw Error(
        DiagnosticKind::Internal,
        fmt::format("module-scope variable {} used by kernel {} was not "
                    "placed",
                    module.nameOf(id), spirv::escapeText(entry_.name, spirv::kQuotedNameBytes)));
  uint32_t r = allocate(valueBytes(typeIdOfValue(id)));
  regs_[id] = r;
  return r;
}

}  // namespace spvsim
