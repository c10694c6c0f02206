#include "spirv/legacy_atomics.h"

#include <algorithm>
#include <cstring>

#include "spirv/binary.h"
#include "spirv/opcode.h"
#include "spirv/producer.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

// The atomics that OpenCL 1.x built-ins become (atomic_add, atomic_xchg, atomic_cmpxchg,
// ...): integer read-modify-writes, exchanges, loads and stores; not flags or floats.
bool isLegacyForm(Op op) {
  const AtomicForm* f = atomicForm(op);
  if (!f) return false;
  switch (f->operation) {
    case AtomicOperation::Load:
    case AtomicOperation::Store:
    case AtomicOperation::Exchange:
    case AtomicOperation::CompareExchange:
      return true;
    default:
      return isIntegerRmw(f->operation);
  }
}

bool isConstant(const Module& m, Id id, uint64_t value) {
  auto it = m.constants.find(id);
  if (it == m.constants.end() || it->second.isSpec || it->second.isUndef) return false;
  uint64_t v = 0;
  std::memcpy(&v, it->second.bytes.data(), std::min<size_t>(8, it->second.bytes.size()));
  return v == value;
}

// Workgroup scope and relaxed semantics (both semantics of a compare-exchange): what the
// translator writes for a 1.x built-in, whose pointer is global or generic.
bool looksLegacy(const Module& m, const Instruction& inst, Id pointerType) {
  const AtomicForm& f = *atomicForm(inst.opcode);
  const auto& o = inst.operands;
  auto constantAt = [&](int8_t at, uint64_t value) {
    return at < 0 || (size_t(at) < o.size() && isConstant(m, o[at], value));
  };
  if (!constantAt(f.scope, uint32_t(spv::Scope::Workgroup)) || !constantAt(f.semantics, 0) ||
      !constantAt(f.unequal, 0))
    return false;
  const Type* t = m.findType(pointerType);
  return t && t->kind == TypeKind::Pointer &&
         (t->storage == spv::StorageClass::CrossWorkgroup ||
          t->storage == spv::StorageClass::Generic);
}

void markFunction(Module& m, const Function& f) {
  std::unordered_map<Id, Id> typeOf;
  for (size_t k = 0; k < f.params.size(); ++k) typeOf[f.params[k]] = f.paramTypes[k];
  for (const Block& b : f.blocks)
    for (const Instruction& i : b.instructions)
      if (i.result) typeOf[i.result] = i.resultType;
  for (const Block& b : f.blocks)
    for (const Instruction& i : b.instructions) {
      if (!isLegacyForm(i.opcode) || i.operands.empty()) continue;
      Id pointer = i.operands[atomicForm(i.opcode)->pointer], type = 0;
      if (auto it = typeOf.find(pointer); it != typeOf.end()) type = it->second;
      if (auto it = m.variables.find(pointer); it != m.variables.end()) type = it->second.type;
      if (looksLegacy(m, i, type)) m.possiblyLegacyAtomics.insert(i.index);
    }
}

}  // namespace

void markPossiblyLegacyAtomics(Module& module) {
  if (generatorTool(module.generator) != kLlvmSpirvTranslator) return;
  const auto& ext = module.sourceExtensions;
  if (std::find(ext.begin(), ext.end(), kLegacyAtomicsMarker) != ext.end()) return;
  for (const Function& f : module.functions) markFunction(module, f);
}

std::vector<uint32_t> withLegacyAtomicsMarker(const std::vector<uint32_t>& words) {
  std::optional<Binary> b = parseBinary(words);
  if (!b) return words;
  const auto first = std::find_if(b->code.begin(), b->code.end(), [](const BinaryInstruction& i) {
    return !precedesDebugSection(i.op);
  });
  b->code.insert(first, makeInstruction(Op::OpSourceExtension, 0, 0,
                                        encodeString(std::string(kLegacyAtomicsMarker))));
  return b->encode();
}

}  // namespace spvsim::spirv
