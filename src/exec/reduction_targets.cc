// Reduction targets: which kernel parameters only receive commutative atomics whose
// results nothing uses (src/exec/reduction_targets.h; src/DESIGN.md, "Privatised
// reductions"). Conservative: any use it does not recognise disqualifies.
#include "src/exec/reduction_targets.h"

#include <optional>
#include <span>
#include <unordered_map>

#include "spirv/instruction_info.h"
#include "spirv/opcode.h"
#include "src/exec/pointer_params.h"

namespace spvsim {
namespace {

using spirv::Id;
using spv::Op;

// The reduction an atomic read-modify-write performs (increments and decrements add).
std::optional<ReductionOp> reductionOpOf(Op op) {
  const spirv::AtomicForm* f = spirv::atomicForm(op);
  if (!f) return std::nullopt;
  switch (f->operation) {
    case spirv::AtomicOperation::IAdd:
    case spirv::AtomicOperation::ISub:
    case spirv::AtomicOperation::IIncrement:
    case spirv::AtomicOperation::IDecrement:
      return ReductionOp::Add;
    case spirv::AtomicOperation::UMin:
      return ReductionOp::UMin;
    case spirv::AtomicOperation::UMax:
      return ReductionOp::UMax;
    case spirv::AtomicOperation::SMin:
      return ReductionOp::SMin;
    case spirv::AtomicOperation::SMax:
      return ReductionOp::SMax;
    case spirv::AtomicOperation::And:
      return ReductionOp::And;
    case spirv::AtomicOperation::Or:
      return ReductionOp::Or;
    case spirv::AtomicOperation::Xor:
      return ReductionOp::Xor;
    default:
      return std::nullopt;
  }
}

class Analysis {
 public:
  Analysis(const spirv::ModuleFacts& facts, const spirv::Function& body,
           const std::function<bool(const spirv::Instruction&)>& isDebugInfo)
      : m_(facts.module()), body_(body), isDebugInfo_(isDebugInfo), sources_(m_, body) {}

  ReductionAnalysis run() {
    collectUses();
    classify();
    return result();
  }

 private:
  bool isPointer(Id type) const { return type && m_.type(type).kind == spirv::TypeKind::Pointer; }

  void collectUses() {
    for (const auto& b : body_.blocks)
      for (const auto& in : b.instructions)
        if (!isDebugInfo_(in))
          spirv::forEachIdOperand(in.opcode, in.operands.size(),
                                  [&](size_t i) { used_.insert(in.operands[i]); });
  }

  // An atomic that may be privatised when its pointer is a target's: a recognised op,
  // constant semantics, result unused.
  std::optional<ReductionOp> privatisable(const spirv::Instruction& in) const {
    const auto op = reductionOpOf(in.opcode);
    if (!op || in.operands.size() < 3 || used_.count(in.result)) return std::nullopt;
    if (!m_.constants.count(in.operands[1]) || !m_.constants.count(in.operands[2]))
      return std::nullopt;
    return op;
  }

  void note(uint64_t mask, ReductionOp op, uint32_t bytes) {
    for (uint32_t k = 0; k < 64; ++k) {
      if (!(mask >> k & 1)) continue;
      auto [it, fresh] = class_.try_emplace(k, op, bytes);
      if (!fresh && it->second != std::pair(op, bytes)) bad_ |= uint64_t(1) << k;
    }
  }

  void classify() {
    for (const auto& b : body_.blocks)
      for (const auto& in : b.instructions) {
        if (isDebugInfo_(in)) continue;
        spirv::forEachIdOperand(in.opcode, in.operands.size(), [&](size_t i) {
          const uint64_t mask = sources_.of(in.operands[i]);
          if (!mask) return;
          if (spirv::passesPointerOperand(in.opcode, i) && in.result && isPointer(in.resultType))
            return;
          const auto op = i == 0 ? privatisable(in) : std::nullopt;
          const uint32_t bytes = in.resultType ? m_.type(in.resultType).width / 8 : 0;
          if (op && (bytes == 4 || bytes == 8)) {
            note(mask, *op, bytes);
            rmws_.push_back({in.index, mask});
          } else {
            bad_ |= mask;
          }
        });
      }
  }

  ReductionAnalysis result() const {
    ReductionAnalysis r;
    uint64_t good = 0;
    for (const auto& [k, c] : class_)
      if (!(bad_ >> k & 1)) good |= uint64_t(1) << k;
    for (uint32_t k = 0; k < 64; ++k)
      if (good >> k & 1) r.targets.push_back({k, class_.at(k).first, class_.at(k).second});
    for (const auto& [index, mask] : rmws_)
      if (mask & good) r.rmws.insert(index);
    return r;
  }

  const spirv::Module& m_;
  const spirv::Function& body_;
  const std::function<bool(const spirv::Instruction&)>& isDebugInfo_;
  const ParamSources sources_;         // pointer -> parameters it may come from
  std::unordered_set<uint32_t> used_;  // every operand word of executed instructions
  std::unordered_map<uint32_t, std::pair<ReductionOp, uint32_t>> class_;  // by parameter
  uint64_t bad_ = 0;                                                      // disqualified
  std::vector<std::pair<uint32_t, uint64_t>> rmws_;  // (instruction index, parameters)
};

}  // namespace

const char* reductionOpName(ReductionOp op) {
  static constexpr const char* kNames[] = {"add",  "umin", "umax", "smin",
                                           "smax", "and",  "or",   "xor"};
  return kNames[static_cast<int>(op)];
}

ReductionAnalysis findReductionTargets(
    const spirv::ModuleFacts& facts, const spirv::KernelFacts& kernel, const spirv::Function& body,
    const std::function<bool(const spirv::Instruction&)>& isDebugInfo) {
  Analysis a(facts, body, isDebugInfo);
  for (Id f : kernel.functions)
    if (const spirv::Function* fn = facts.module().findFunction(f);
        fn && forgesSharedPointers(facts, *fn))
      return {};
  return a.run();
}

}  // namespace spvsim
