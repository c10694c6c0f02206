// Vector OpSelect with a scalar condition before SPIR-V 1.4: 1.4 allows a scalar bool
// to pick whole vectors, earlier versions need one bool per component ("Expected vector
// sizes of Result Type and the condition to be equal"), yet llvm-spirv-15 emits the
// scalar form in 1.0 modules (`||` chains and ternaries on vectors). The condition is
// splatted with OpCompositeConstruct into the bool vector the older rule asks for,
// which selects the same components.
#include <algorithm>
#include <map>
#include <unordered_map>

#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

constexpr uint32_t kVersion14 = 0x00010400;

struct Types {
  Id boolType = 0;
  size_t boolAt = 0;                             // index of OpTypeBool
  std::unordered_map<Id, uint32_t> vectorCount;  // vector type -> components
  std::map<uint32_t, Id> boolVectors;            // components -> existing bool vector type
  std::unordered_map<Id, Id> valueType;          // value id -> its type
};

Types collectTypes(const Binary& b) {
  Types t;
  for (size_t at = 0; at < b.code.size(); ++at) {
    const BinaryInstruction& inst = b.code[at];
    if (inst.op == Op::OpTypeBool && !t.boolType) {
      t.boolType = inst.result;
      t.boolAt = at;
    }
    if (inst.op == Op::OpTypeVector && inst.words.size() >= 4) {
      t.vectorCount[inst.result] = inst.word(3);
      if (t.boolType && inst.word(2) == t.boolType)
        t.boolVectors.emplace(inst.word(3), inst.result);
    }
    if (inst.type && inst.result) t.valueType[inst.result] = inst.type;
  }
  return t;
}

// Components of the vector a scalar-condition OpSelect yields, or 0 when it needs no repair.
uint32_t splatWidth(const BinaryInstruction& inst, const Types& t) {
  if (inst.op != Op::OpSelect || inst.words.size() < 6 || !t.boolType) return 0;
  auto cond = t.valueType.find(inst.word(3));
  auto vec = t.vectorCount.find(inst.type);
  if (cond == t.valueType.end() || cond->second != t.boolType || vec == t.vectorCount.end())
    return 0;
  return vec->second;
}

}  // namespace

uint32_t repairVectorSelect(Binary& b) {
  if (b.version() >= kVersion14) return 0;
  Types t = collectTypes(b);
  if (std::none_of(b.code.begin(), b.code.end(),
                   [&](const BinaryInstruction& inst) { return splatWidth(inst, t) != 0; }))
    return 0;
  std::map<uint32_t, Id> added;  // components -> new bool vector type
  std::vector<BinaryInstruction> code;
  code.reserve(b.code.size());
  uint32_t repaired = 0;
  for (BinaryInstruction& inst : b.code) {
    const uint32_t n = splatWidth(inst, t);
    if (n) {
      Id& vecType = t.boolVectors.count(n) ? t.boolVectors[n] : added[n];
      if (!vecType) vecType = b.takeId();
      const Id splat = b.takeId();
      code.push_back(makeInstruction(Op::OpCompositeConstruct, vecType, splat,
                                     std::vector<uint32_t>(n, inst.word(3))));
      inst.words[3] = splat;
      ++repaired;
    }
    code.push_back(std::move(inst));
  }
  // New bool vector types right after OpTypeBool (all they depend on).
  std::vector<BinaryInstruction> types;
  for (const auto& [n, id] : added)
    types.push_back(makeInstruction(Op::OpTypeVector, 0, id, {t.boolType, n}));
  code.insert(code.begin() + t.boolAt + 1, types.begin(), types.end());
  b.code = std::move(code);
  return repaired;
}

}  // namespace spvsim::spirv
