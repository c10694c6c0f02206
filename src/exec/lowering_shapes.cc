// Lowering's register-shape slots (src/DESIGN.md, "Register shapes"): which values' shapes
// can reach an address and so are worth keeping (findShapeRelevant), and which
// instructions keep their result's shape in a slot of its own (assignShapeSlots).
#include <unordered_map>

#include "src/exec/lowering.h"
#include "src/exec/register_shape.h"

namespace spvsim {

using spirv::Id;
using spv::Op;

// A handler keeps its result's shape only where nothing else writes that register: no
// other instruction names it as its result (an odd-width fix-up after the op, say) and
// no phi copy or call writes it. Function parameters take their shapes from the call's
// arguments (functionCall copies every lane).
void Lowerer::assignShapeSlots() {
  const uint32_t slots = shapeSlot(out.registerBytes);
  std::unordered_map<uint32_t, uint32_t> writers;
  for (const Inst& in : out.code) ++writers[in.r];
  for (uint32_t r : copyTargets_) writers[r] += 2;
  for (const LoweredFunction& f : out.functions)
    for (uint32_t r : f.paramRegs) writers[r] += 2;
  for (Inst& in : out.code)
    in.shapeOut = in.shapeOut == kKeepsShape && writers[in.r] == 1 ? shapeSlot(in.r) : kNoShapeSlot;
  out.initialShapes.assign(slots, uint8_t(RegShape::Unknown));
  for (uint32_t r : uniformRegs_) out.initialShapes[shapeSlot(r)] = uint8_t(RegShape::Uniform);
  for (uint32_t r : out.functions.at(0).paramRegs)  // every lane gets the argument
    out.initialShapes[shapeSlot(r)] = uint8_t(RegShape::Uniform);
}

// Over the kernel's call tree (as the rest of lowering): a value is relevant when a load's
// or store's pointer, an access chain's operand, or an operand of a relevant value's
// shape-keeping definition; a relevant parameter makes every call's argument relevant.
void Lowerer::findShapeRelevant() {
  std::unordered_map<Id, const spirv::Instruction*> def;
  std::unordered_map<Id, std::pair<Id, size_t>> paramOf;  // parameter -> function, index
  std::vector<const spirv::Instruction*> calls;
  std::vector<Id> work;
  auto use = [&](Id id) {
    if (shapeRelevant_.insert(id).second) work.push_back(id);
  };
  for (Id function : facts.kernel(entry_).functions) {
    const spirv::Function* fp = module.findFunction(function);
    if (!fp) continue;  // lowering names the missing callee
    const spirv::Function& f = *fp;
    for (size_t k = 0; k < f.params.size(); ++k) paramOf[f.params[k]] = {f.id, k};
    for (const spirv::Block& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions) {
        if (inst.result) def[inst.result] = &inst;
        if (inst.operands.empty()) continue;  // validation refuses such modules anyway
        switch (inst.opcode) {
          case Op::OpLoad:
          case Op::OpStore:
            use(inst.operands[0]);
            break;
          case Op::OpAccessChain:
          case Op::OpInBoundsAccessChain:
          case Op::OpPtrAccessChain:
          case Op::OpInBoundsPtrAccessChain:
            for (Id id : inst.operands) use(id);
            break;
          case Op::OpFunctionCall:
            calls.push_back(&inst);
            break;
          default:
            break;
        }
      }
  }
  while (!work.empty()) {
    const Id id = work.back();
    work.pop_back();
    if (auto p = paramOf.find(id); p != paramOf.end()) {
      for (const spirv::Instruction* call : calls)
        if (call->operands[0] == p->second.first && call->operands.size() > p->second.second + 1)
          use(call->operands[p->second.second + 1]);
      continue;
    }
    auto d = def.find(id);
    if (d == def.end()) continue;
    switch (d->second->opcode) {
      case Op::OpIAdd:
      case Op::OpISub:
      case Op::OpIMul:
      case Op::OpSNegate:
      case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical:
      case Op::OpShiftRightArithmetic:
      case Op::OpUConvert:
      case Op::OpSConvert:
      case Op::OpBitcast:
      case Op::OpPtrCastToGeneric:
      case Op::OpCompositeExtract:
      case Op::OpCompositeInsert:
      case Op::OpCompositeConstruct:
      case Op::OpVectorShuffle:
      case Op::OpCopyObject:
      case Op::OpCopyLogical:
        for (Id operand : d->second->operands) use(operand);  // literals name no value
        break;
      case Op::OpPhi:  // phi copies carry shapes (SubGroup::takeEdge)
        for (size_t k = 0; k < d->second->operands.size(); k += 2) use(d->second->operands[k]);
        break;
      default:  // loads and chains are seeds already
        break;
    }
  }
}

}  // namespace spvsim
