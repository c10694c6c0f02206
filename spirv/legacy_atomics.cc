#include "spirv/legacy_atomics.h"

#include <algorithm>
#include <cstring>

#include "spirv/binary.h"
#include "spirv/producer.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

// The atomics that OpenCL 1.x built-ins become, with their semantics operands.
bool isLegacyForm(Op op) {
  switch (op) {
    case Op::OpAtomicLoad:
    case Op::OpAtomicStore:
    case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
      return true;
    default:
      return false;
  }
}

bool isConstant(const Module& m, Id id, uint64_t value) {
  auto it = m.constants.find(id);
  if (it == m.constants.end() || it->second.isSpec || it->second.isUndef) return false;
  uint64_t v = 0;
  std::memcpy(&v, it->second.bytes.data(), std::min<size_t>(8, it->second.bytes.size()));
  return v == value;
}

// Operands (after result type and id): pointer, scope, semantics[, unequal semantics].
bool looksLegacy(const Module& m, const Instruction& inst, Id pointerType) {
  const auto& o = inst.operands;
  if (o.size() < 3 || !isConstant(m, o[1], uint32_t(spv::Scope::Workgroup)) ||
      !isConstant(m, o[2], 0))
    return false;
  const bool compareExchange =
      inst.opcode == Op::OpAtomicCompareExchange || inst.opcode == Op::OpAtomicCompareExchangeWeak;
  if (compareExchange && (o.size() < 4 || !isConstant(m, o[3], 0))) return false;
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
      Id pointer = i.operands[0], type = 0;
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
