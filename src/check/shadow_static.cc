#include "src/check/shadow_static.h"

#include "src/check/shadow_rules.h"

namespace spvsim::check {

using spirv::Id;
using spv::Op;

MaybeUndefined::MaybeUndefined(const spirv::Module& m, const spirv::ModuleFacts& facts,
                               Launch launch,
                               const std::unordered_map<uint32_t, const ShadowRule*>& rules)
    : m_(m), facts_(facts), launch_(std::move(launch)), maybe_(m.bound, 0) {
  for (Id id : launch_.undefinedConstants) set(id, true);
  // The functions the launch runs: its entry and what it calls, transitively. The entry's
  // parameters hold the host's (defined) arguments; the others', what their calls pass.
  std::vector<Id> work = {launch_.entry};
  reached_.insert(launch_.entry);
  while (!work.empty()) {
    const spirv::Function* f = m.findFunction(work.back());
    work.pop_back();
    if (!f) continue;
    for (const spirv::Block& b : f->blocks)
      for (const spirv::Instruction& inst : b.instructions) {
        function_[inst.index] = f->id;
        if (inst.opcode == Op::OpFunctionCall && !inst.operands.empty() &&
            reached_.insert(inst.operands[0]).second)
          work.push_back(inst.operands[0]);
      }
  }
  while (sweep(rules)) {
  }
}

bool MaybeUndefined::set(Id id, bool maybe) {
  if (!maybe || id >= maybe_.size() || maybe_[id]) return false;
  maybe_[id] = 1;
  return true;
}

bool MaybeUndefined::memory(Id pointer) const {
  const Id t = facts_.valueType(pointer);
  const spirv::Type* type = t ? m_.findType(t) : nullptr;
  if (!type || type->kind != spirv::TypeKind::Pointer) return true;
  switch (type->storage) {
    case spv::StorageClass::Input:  // built-ins
      return false;
    case spv::StorageClass::CrossWorkgroup:
      return launch_.globalShadow;
    case spv::StorageClass::UniformConstant:
      return launch_.constantShadow;
    default:  // private, local, generic: memory with a shadow
      return true;
  }
}

bool MaybeUndefined::anyOperand(const ShadowRule& r) const {
  for (const ShadowOperand& o : r.operands)
    if (value(o.id)) return true;
  return false;
}

bool MaybeUndefined::anyUse(const ShadowRule& r) const {
  for (const ShadowOperand& o : r.operands)
    if (o.use != ShadowUse::None && value(o.id)) return true;
  return false;
}

// Whether the result of `inst` (whose rule is `r`, nullptr where none was built) may be
// undefined, given what is known of its operands so far.
bool MaybeUndefined::result(const spirv::Instruction& inst, const ShadowRule* r) const {
  const std::vector<uint32_t>& ops = inst.operands;
  switch (inst.opcode) {
    case Op::OpUndef:
      return true;
    case Op::OpVariable:
      return false;
    case Op::OpPhi:
      for (size_t k = 0; k + 1 < ops.size(); k += 2)
        if (value(ops[k])) return true;
      return false;
    case Op::OpLoad:  // an undefined address is reported, not passed on (rules::load)
      return ops.empty() || memory(ops[0]);
    case Op::OpFunctionCall: {
      auto it = ops.empty() ? returns_.end() : returns_.find(ops[0]);
      return it != returns_.end() && it->second;
    }
    case Op::OpVectorShuffle:
      for (size_t k = 2; k < ops.size(); ++k)
        if (ops[k] == 0xffffffffu) return true;
      break;
    default:
      break;
  }
  if (!r) {  // not lowered for this kernel: any id among its words (literals too) counts
    for (uint32_t w : ops)
      if (value(w)) return true;
    return false;
  }
  if (r->pre == &rules::shuffle || r->pre == &rules::shuffleVector) return true;
  if (anyOperand(*r)) return true;
  if (r->post == &rules::mergeReads)
    for (const ShadowOperand& o : r->operands) {
      const spirv::Type* t = m_.findType(facts_.valueType(o.id));
      if (t && t->kind == spirv::TypeKind::Pointer && memory(o.id)) return true;
    }
  return false;
}

bool MaybeUndefined::sweep(const std::unordered_map<uint32_t, const ShadowRule*>& rules) {
  bool changed = false;
  for (const spirv::Function& f : m_.functions) {
    if (!reached_.count(f.id)) continue;
    for (const spirv::Block& b : f.blocks)
      for (const spirv::Instruction& inst : b.instructions) {
        auto it = rules.find(inst.index);
        const ShadowRule* r = it == rules.end() ? nullptr : it->second;
        if (inst.result) changed |= set(inst.result, result(inst, r));
        if (inst.opcode == Op::OpPhi && value(inst.result)) phis_[b.label] = true;
        if (inst.opcode == Op::OpReturnValue && !inst.operands.empty() && value(inst.operands[0]) &&
            !returns_[f.id])
          changed = returns_[f.id] = true;
        if (inst.opcode != Op::OpFunctionCall || inst.operands.empty()) continue;
        const spirv::Function* callee = m_.findFunction(inst.operands[0]);
        for (size_t i = 0; callee && i < callee->params.size() && i + 1 < inst.operands.size(); ++i)
          changed |= set(callee->params[i], value(inst.operands[i + 1]));
      }
  }
  return changed;
}

// Whether a phi of a block `inst` (a branch or switch) may branch to may be undefined: then
// its rule copies shadows along the edge.
bool MaybeUndefined::edgesNeeded(const spirv::Instruction& inst) const {
  auto phis = [&](Id label) {
    auto it = phis_.find(label);
    return it != phis_.end() && it->second;
  };
  const std::vector<uint32_t>& ops = inst.operands;
  if (inst.opcode == Op::OpBranch) return ops.empty() || phis(ops[0]);
  if (inst.opcode == Op::OpBranchConditional) return ops.size() < 3 || phis(ops[1]) || phis(ops[2]);
  // A switch: any block of its function (its case literals' widths are the selector's).
  auto fn = function_.find(inst.index);
  const spirv::Function* f = fn == function_.end() ? nullptr : m_.findFunction(fn->second);
  if (!f) return true;
  for (const spirv::Block& b : f->blocks)
    if (phis(b.label)) return true;
  return false;
}

bool MaybeUndefined::needed(const spirv::Instruction& inst, const ShadowRule& r) const {
  const RuleFn pre = r.pre;
  if (pre == &rules::propagate || pre == &rules::moveBytes || pre == &rules::select ||
      pre == &rules::crossLane) {
    if (r.post && r.post != &rules::mergeReads) return true;
    return (r.result.bytes && value(r.result.id)) || anyUse(r);
  }
  if (r.post == &rules::load)
    return r.operands.empty() || value(r.result.id) || value(r.operands[0].id);
  if (pre == &rules::storeCheck)
    return r.operands.size() < 2 || value(r.operands[0].id) || value(r.operands[1].id) ||
           memory(r.operands[0].id);
  if (pre == &rules::branch || pre == &rules::branchConditional || pre == &rules::switchSelector)
    return anyUse(r) || edgesNeeded(inst);
  if (pre == &rules::call) {
    const spirv::Function* callee =
        inst.operands.empty() ? nullptr : m_.findFunction(inst.operands[0]);
    if (!callee) return true;
    for (Id p : callee->params)
      if (value(p)) return true;
    return false;
  }
  if (pre == &rules::returnValue) {
    auto fn = function_.find(inst.index);
    if (fn == function_.end()) return true;
    auto it = returns_.find(fn->second);
    return it != returns_.end() && it->second;
  }
  return true;  // copies, pointer outputs, shuffles: always
}

}  // namespace spvsim::check
