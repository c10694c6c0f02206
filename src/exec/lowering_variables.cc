// Lowering's placement of variables: module-scope variables in the program, local arrays
// in the work-group's arena, private variables, built-in copies and by-value parameter
// copies in each lane's private arena; and which built-in variables need no private copy
// (Lowerer::onlyLoaded: read only through loads, so their reads become built-in reads).
#include <fmt/core.h>

#include <algorithm>
#include <cstring>

#include "spirv/error.h"
#include "src/exec/builtins.h"
#include "src/exec/lowering.h"
#include "src/exec/memory.h"
#include "src/exec/relocations.h"

namespace spvsim {

using spirv::Id;
using spirv::TypeKind;
using spv::Op;

// Program-scope variables live in the program (their pointers are fixed by the module);
// local and private ones get a region of this kernel's layout. Only the call tree's
// variables are placed, so a kernel's local memory holds only its own arrays.
void Lowerer::layoutModuleVariables() {
  for (Id id : facts.kernel(entry_).variables) {
    const spirv::Variable& v = module.variables.at(id);
    switch (v.storage) {
      case spv::StorageClass::CrossWorkgroup:
      case spv::StorageClass::UniformConstant:
        variablePointer_[v.id] = *programVariablePointer(module, v.id);
        break;
      case spv::StorageClass::Workgroup:
        placeLocalVariable(v);
        break;
      case spv::StorageClass::Input:
      case spv::StorageClass::Private:
      case spv::StorageClass::Function:
        placePrivateVariable(v);
        break;
      default:
        throw Error(DiagnosticKind::Unsupported,
                    fmt::format("unsupported: module-scope variable {} in storage class {}",
                                module.nameOf(v.id), static_cast<uint32_t>(v.storage)));
    }
  }
  // Initializers may hold any module-scope variable's address: once all are placed.
  for (const auto& [region, init] : pendingPrivateInits_) {
    std::optional<spirv::Constant> c = module.constantValue(init);
    if (!c)
      throw Error(DiagnosticKind::InvalidModule,
                  fmt::format("initializer {} is not a constant", facts.idName(init)));
    out.privateInits.push_back({region, constantMemoryBytes(*c)});
  }
}

// Local arrays start 16-byte aligned (or at their type's alignment when larger).
void Lowerer::placeLocalVariable(const spirv::Variable& v) {
  const spirv::Type& pointee = type(type(v.type).element);
  uint64_t align = std::max<uint64_t>(kLocalVariableAlign, pointee.align);
  out.localBytes = (out.localBytes + align - 1) / align * align;
  Region r;
  r.arenaOffset = out.localBytes;
  r.size = pointee.size;
  r.name = "local variable " + module.nameOf(v.id);
  out.localBytes += pointee.size;
  out.localRegions.push_back(r);
  variablePointer_[v.id] = makePointer(Space::Local, out.localRegions.size() - 1, 0);
}

void Lowerer::placePrivateVariable(const spirv::Variable& v) {
  const spirv::Type& pointee = type(type(v.type).element);
  uint32_t region = allocatePrivate(pointee.size, pointee.align, module.nameOf(v.id));
  variablePointer_[v.id] = makePointer(Space::Private, region, 0);
  if (v.storage == spv::StorageClass::Input) {
    out.privateRegions[region].writable = false;
    if (!v.builtin)
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported: Input variable {} is not a "
                              "built-in",
                              module.nameOf(v.id)));
    BuiltinSlot slot;
    slot.region = region;
    if (!describeBuiltin(*v.builtin, pointee, slot))
      throw Error(DiagnosticKind::Unsupported,
                  fmt::format("unsupported built-in variable {} (BuiltIn {})", module.nameOf(v.id),
                              static_cast<uint32_t>(*v.builtin)));
    slot.inMemory = !onlyLoaded(v, static_cast<uint32_t>(out.builtins.size()));
    out.builtins.push_back(slot);
  } else if (v.initializer) {
    pendingPrivateInits_.push_back({region, v.initializer});
  }
}

namespace {

// Whether `inst` is an access chain to component `index` of a vector built-in `v`: one
// constant index within the vector.
bool componentChain(const Lowerer& lw, const spirv::Instruction& inst, const spirv::Variable& v,
                    uint32_t& index) {
  if (inst.opcode != Op::OpAccessChain && inst.opcode != Op::OpInBoundsAccessChain) return false;
  if (inst.operands.size() != 2 || inst.operands[0] != v.id || !lw.isConstant(inst.operands[1]))
    return false;
  const spirv::Type& pointee = lw.type(lw.type(v.type).element);
  const uint64_t i = lw.constantValue(inst.operands[1]);
  if (pointee.kind != TypeKind::Vector || i >= pointee.count) return false;
  index = static_cast<uint32_t>(i);
  return true;
}

}  // namespace

// Any operand word equal to an id counts as a use, as in onlyDereferenced (a literal that
// happens to equal it only keeps the private copy), but an OpLoad's words after its
// pointer: memory-operand literals, or a scope, which is a constant. Constants holding the
// variable's address count where the call tree names them (or initialises a variable it
// uses with them): the cost stays the call tree's.
bool Lowerer::onlyLoaded(const spirv::Variable& v, uint32_t slot) {
  auto holdsAddress = [&](Id id) {
    auto c = module.constants.find(id);
    if (c == module.constants.end()) return false;
    for (const spirv::Relocation& r : c->second.relocations)
      if (r.variable == v.id) return true;
    return false;
  };
  for (Id id : facts.kernel(entry_).variables) {
    const Id init = module.variables.at(id).initializer;
    if (init == v.id || holdsAddress(init)) return false;
  }
  const spirv::Type& pointee = type(type(v.type).element);
  const uint32_t all = pointee.kind == TypeKind::Vector ? static_cast<uint32_t>(pointee.count) : 1;
  std::unordered_map<Id, BuiltinPointer> pointers{{v.id, {slot, 0, all}}};
  bool only = true;
  const std::vector<Id>& functions = facts.kernel(entry_).functions;
  for (Id fid : functions)  // the access chains first: their uses may come before them
    for (const auto& b : module.findFunction(fid)->blocks)
      for (const auto& inst : b.instructions)
        if (uint32_t index = 0; componentChain(*this, inst, v, index))
          pointers[inst.result] = {slot, index, 1};
  for (Id fid : functions)
    for (const auto& b : module.findFunction(fid)->blocks)
      for (const auto& inst : b.instructions) {
        if (isDebugInfo(inst)) continue;
        const bool load = inst.opcode == Op::OpLoad;
        const bool chain = pointers.count(inst.result) != 0;
        const size_t operands =
            load ? std::min<size_t>(1, inst.operands.size()) : inst.operands.size();
        for (size_t k = 0; k < operands; ++k) {
          const Id id = inst.operands[k];
          if (holdsAddress(id)) only = false;
          if (pointers.count(id) && !load) only = only && chain && k == 0 && id == v.id;
        }
      }
  builtinPointers_.insert(pointers.begin(), pointers.end());
  return only;
}

const Lowerer::BuiltinPointer* Lowerer::builtinPointer(Id pointer) const {
  auto it = builtinPointers_.find(pointer);
  return it == builtinPointers_.end() ? nullptr : &it->second;
}

std::function<std::optional<uint64_t>(Id)> Lowerer::placedVariable() const {
  return [this](Id var) -> std::optional<uint64_t> {
    auto it = variablePointer_.find(var);
    if (it == variablePointer_.end()) return std::nullopt;
    return it->second;
  };
}

uint32_t Lowerer::allocatePrivate(uint64_t bytes, uint64_t align, const std::string& name) {
  align = std::max<uint64_t>(align, 8);
  out.privateBytes = (out.privateBytes + align - 1) / align * align;
  Region r;
  r.arenaOffset = out.privateBytes;
  r.size = bytes;
  r.name = name;
  out.privateBytes += bytes;
  out.privateRegions.push_back(r);
  return static_cast<uint32_t>(out.privateRegions.size() - 1);
}

// LLVM's byval, which llvm-spirv keeps as FuncParamAttr ByVal on a pointer parameter: the
// callee gets its own copy of the pointee, and changing it leaves the caller's object
// as it was (C's by-value structs and unions; clang passes the caller's object itself at
// -O0, relying on the copy). The copy is the callee's frame memory, placed like its
// function variables: the loader refuses recursion (spirv/call_graph.h), so a function
// has at most one live frame and one region per such parameter serves every call.
uint32_t Lowerer::byValCopy(uint32_t function, uint32_t param) {
  const uint64_t key = (uint64_t(function) << 32) | param;
  if (auto it = byValCopies_.find(key); it != byValCopies_.end()) return it->second;
  const spirv::Function& f = *module.findFunction(out.functions.at(function).id);
  const Id id = f.params.at(param);
  const spirv::Type& pt = type(f.paramTypes.at(param));
  // OpName or the id, as variables' regions are named: friendly names would disassemble
  // the module while lowering.
  const std::string what =
      fmt::format("by-value parameter {} of {}", module.nameOf(id), module.nameOf(f.id));
  if (pt.kind != TypeKind::Pointer)
    throw Error(DiagnosticKind::InvalidModule, what + " (FuncParamAttr ByVal) is not a pointer");
  // Function, Private or Generic: a pointer that can point into private memory.
  if (pt.storage != spv::StorageClass::Function && pt.storage != spv::StorageClass::Private &&
      pt.storage != spv::StorageClass::Generic)
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported: {} points to storage class {}; spvsim places "
                            "by-value copies in private memory",
                            what, static_cast<uint32_t>(pt.storage)));
  const spirv::Type& pointee = type(pt.element);
  if (pointee.size > UINT32_MAX)
    throw Error(DiagnosticKind::Unsupported,
                fmt::format("unsupported: {} copies {} bytes per call (at most 4 GiB)", what,
                            pointee.size));
  uint64_t align = pointee.align;
  if (const spirv::Decoration* d = module.findDecoration(id, spv::Decoration::Alignment);
      d && !d->literals.empty())
    align = std::max<uint64_t>(align, d->literals[0]);
  const uint32_t region = allocatePrivate(pointee.size, align, what);
  std::vector<uint8_t> bytes(8);
  const uint64_t p = makePointer(Space::Private, region, 0);
  std::memcpy(bytes.data(), &p, 8);
  const uint32_t r = constantRegister(bytes);
  byValCopies_.emplace(key, r);
  return r;
}

}  // namespace spvsim
