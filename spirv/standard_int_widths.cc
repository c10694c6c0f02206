// Validation-only: odd-width integer types as standard widths (spirv/validator.h). The
// decoded module keeps the real widths; the executor wraps them at N bits.
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "spirv/opcode.h"
#include "spirv/validator.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

constexpr uint32_t kStandardWidths[] = {8, 16, 32, 64};

bool isStandard(uint32_t w) { return w == 8 || w == 16 || w == 32 || w == 64; }
uint32_t literalWords(uint32_t w) { return w <= 32 ? 1 : 2; }

using WidthKey = std::pair<uint32_t, uint32_t>;  // width, signedness

struct Plan {
  std::map<size_t, uint32_t> widen;  // code index of an odd OpTypeInt -> new width
  std::unordered_map<Id, Id> alias;  // odd type -> declared standard type
  std::set<uint32_t> capabilities;   // for widths 8, 16 and 64 newly used
};

Plan planWidths(const Binary& b) {
  Plan plan;
  std::map<WidthKey, Id> declared;
  for (const BinaryInstruction& inst : b.code)
    if (inst.op == Op::OpTypeInt && isStandard(inst.word(2)))
      declared.emplace(WidthKey{inst.word(2), inst.word(3)}, inst.result);
  for (size_t at = 0; at < b.code.size(); ++at) {
    const BinaryInstruction& inst = b.code[at];
    const uint32_t w = inst.word(2), s = inst.word(3);
    if (inst.op != Op::OpTypeInt || isStandard(w) || w == 0 || w > 64) continue;
    Id target = 0;
    for (uint32_t c : kStandardWidths) {
      if (c < w || literalWords(c) != literalWords(w)) continue;
      auto it = declared.find({c, s});
      if (it == declared.end()) {
        plan.widen[at] = c;
        declared[{c, s}] = inst.result;
        if (c != 32) plan.capabilities.insert(c);
        target = 0;
        break;
      }
      if (!target) target = it->second;
    }
    if (!plan.widen.count(at) && target) plan.alias[inst.result] = target;
  }
  return plan;
}

void addCapabilities(Binary& b, const std::set<uint32_t>& widths) {
  std::vector<BinaryInstruction> caps;
  for (uint32_t w : widths) {
    const auto c = w == 8    ? spv::Capability::Int8
                   : w == 16 ? spv::Capability::Int16
                             : spv::Capability::Int64;
    if (!b.hasCapability(c)) caps.push_back(makeInstruction(Op::OpCapability, 0, 0, {uint32_t(c)}));
  }
  b.code.insert(b.code.begin(), caps.begin(), caps.end());
}

// Adds to `alias` the types that become duplicates of earlier ones once aliases apply.
void mergeDuplicateTypes(const Binary& b, std::unordered_map<Id, Id>& alias) {
  std::map<std::vector<uint32_t>, Id> seen;
  for (const BinaryInstruction& inst : b.code) {
    if (!mustBeUniqueType(inst.op) || !inst.result || alias.count(inst.result)) continue;
    std::vector<uint32_t> key = inst.words;
    key[0] = uint32_t(inst.op);
    bool renamed = false;
    for (const Operand& o : inst.operands) {
      if (o.offset >= key.size()) continue;
      if (o.kind == OperandKind::IdResult) key[o.offset] = 0;
      if (!isIdOperand(o.kind)) continue;
      if (auto it = alias.find(key[o.offset]); it != alias.end()) {
        key[o.offset] = it->second;
        renamed = true;
      }
    }
    auto [it, fresh] = seen.emplace(key, inst.result);
    if (!fresh && renamed) alias[inst.result] = it->second;
  }
}

// Drops the aliased types and their names and decorations, renames every use, and turns
// conversions between types that became one into copies.
void applyAliases(Binary& b, const std::unordered_map<Id, Id>& alias) {
  std::unordered_map<Id, Id> typeOf;
  std::vector<BinaryInstruction> code;
  for (BinaryInstruction& inst : b.code) {
    if (alias.count(inst.result) || (annotatesId(inst.op) && alias.count(inst.word(1)))) continue;
    forEachIdOperand(inst, [&](uint32_t& id) {
      if (auto it = alias.find(id); it != alias.end()) id = it->second;
    });
    if (inst.type) inst.type = inst.word(1);
    const bool conversion = inst.op == Op::OpUConvert || inst.op == Op::OpSConvert;
    if (conversion && typeOf.count(inst.word(3)) && typeOf[inst.word(3)] == inst.type)
      inst.op = Op::OpCopyObject;
    if (inst.result && inst.type) typeOf[inst.result] = inst.type;
    code.push_back(std::move(inst));
  }
  b.code = std::move(code);
}

}  // namespace

void useStandardIntWidths(Binary& b) {
  Plan plan = planWidths(b);
  if (plan.widen.empty() && plan.alias.empty()) return;
  for (const auto& [at, width] : plan.widen) b.code[at].words[2] = width;
  if (!plan.alias.empty()) {
    mergeDuplicateTypes(b, plan.alias);
    applyAliases(b, plan.alias);
  }
  addCapabilities(b, plan.capabilities);
}

}  // namespace spvsim::spirv
