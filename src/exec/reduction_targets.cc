// Reduction targets: which kernel parameters only receive commutative atomics whose
// results nothing uses (src/exec/reduction_targets.h; src/DESIGN.md, "Privatised
// reductions"). Conservative: any use it does not recognise disqualifies.
#include "src/exec/reduction_targets.h"

#include <algorithm>
#include <cstring>
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

  // A privatisable atomic's constant operand.
  uint64_t constant(Id id) const {
    const auto& bytes = m_.constants.at(id).bytes;
    uint64_t v = 0;
    std::memcpy(&v, bytes.data(), std::min<size_t>(sizeof v, bytes.size()));
    return v;
  }

  // Relaxed at Device or CrossDevice scope (a possibly legacy OpenCL 1.x atomic has
  // Workgroup scope: src/exec/ops/atomic.cc).
  bool relaxedDeviceWide(const spirv::Instruction& in) const {
    constexpr uint64_t kOrdering = uint32_t(spv::MemorySemanticsMask::Acquire) |
                                   uint32_t(spv::MemorySemanticsMask::Release) |
                                   uint32_t(spv::MemorySemanticsMask::AcquireRelease) |
                                   uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent);
    const uint64_t scope = constant(in.operands[1]);
    return (scope == uint32_t(spv::Scope::CrossDevice) || scope == uint32_t(spv::Scope::Device)) &&
           !(constant(in.operands[2]) & kOrdering);
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
            if (!relaxedDeviceWide(in)) ordered_ |= mask;
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
      if (good >> k & 1)
        r.targets.push_back({k, class_.at(k).first, class_.at(k).second, !(ordered_ >> k & 1)});
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
  uint64_t ordered_ = 0;                             // with an atomic that is not relaxedDeviceWide
  std::vector<std::pair<uint32_t, uint64_t>> rmws_;  // (instruction index, parameters)
};

bool hasFence(const spirv::Function& f) {
  for (const auto& b : f.blocks)
    for (const auto& in : b.instructions)
      if (in.opcode == Op::OpMemoryBarrier) return true;
  return false;
}

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
  bool fences = false;
  for (Id f : kernel.functions)
    if (const spirv::Function* fn = facts.module().findFunction(f)) {
      if (forgesSharedPointers(facts, *fn)) return {};
      fences = fences || hasFence(*fn);
    }
  ReductionAnalysis r = a.run();
  // A fence lets relaxed atomics synchronise (a release fence before one, an acquire
  // fence after another that read its value).
  if (fences)
    for (ReductionTarget& t : r.targets) t.unordered = false;
  return r;
}

}  // namespace spvsim
