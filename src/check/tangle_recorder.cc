#include "src/check/tangle_recorder.h"

#include <cstring>
#include <string_view>

#include "spirv/opcode.h"
#include "src/exec/lowered.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {
namespace {

// A copy of the launch's kernel whose recorded instructions run through tangleTrampoline.
struct TangleKernel : LoweredKernel {
  explicit TangleKernel(const LoweredKernel& k) : LoweredKernel(k) {}
  struct Recorded {
    ExecFn original = nullptr;
    const ValueSlot* result = nullptr;  // into `values` of this copy
  };
  std::vector<Recorded> recorded;  // by pc; original == nullptr where unchanged
  TangleLog* log = nullptr;
};

void tangleTrampoline(SubGroup& sg, const Inst& in) {
  const auto& k = static_cast<const TangleKernel&>(*sg.wg->launch->kernel);
  const TangleKernel::Recorded& r = k.recorded[&in - sg.code];
  // The lanes that execute it: the handler leaves the mask as it found it.
  uint8_t active[kMaxSubGroupSize];
  std::memcpy(active, sg.active, sizeof active);
  r.original(sg, in);
  const ValueSlot& v = *r.result;
  for (uint32_t lane = 0; lane < sg.width; ++lane)
    if (active[lane])
      k.log->record(in.src, v.type, *sg.wg, sg.id, lane, sg.regs + v.reg + size_t(lane) * v.bytes,
                    v.bytes);
}

std::shared_ptr<const TangleKernel> instrumentKernel(const LaunchContext& launch, TangleLog* log) {
  auto k = std::make_shared<TangleKernel>(*launch.kernel);
  k->log = log;
  k->recorded.assign(k->code.size(), {});
  const auto byIndex = spirv::instructionsByIndex(*launch.module);
  for (size_t pc = 0; pc < k->code.size(); ++pc) {
    Inst& in = k->code[pc];
    // The last Inst lowered from an instruction is the one that leaves its result.
    if (pc + 1 < k->code.size() && k->code[pc + 1].src == in.src) continue;
    if (in.combine || in.src >= byIndex.size() || !byIndex[in.src]) continue;
    const spirv::Instruction& inst = *byIndex[in.src];
    if (!spirv::movesValuesBetweenLanes(inst.opcode) || !inst.result) continue;
    const ValueSlot* v = k->findValue(inst.result);
    if (!v || !v->bytes) continue;
    k->recorded[pc] = {nullptr, v};
  }
  // A fused pair that takes in a recorded instruction would skip its trampoline.
  k->unfuseWhere([&](size_t pc) { return k->recorded[pc].result != nullptr; });
  for (size_t pc = 0; pc < k->code.size(); ++pc)
    if (k->recorded[pc].result) {
      k->recorded[pc].original = k->code[pc].fn;
      k->code[pc].fn = &tangleTrampoline;
    }
  return k;
}

class Recorder : public ObserverFactory {
 public:
  explicit Recorder(std::shared_ptr<TangleLog> log) : log_(std::move(log)) {}
  // No access needs to be seen; the fast paths for them stay as they are.
  uint32_t spaces(const LaunchContext&) const override { return 0; }
  // It records cross-lane instructions' results, never memory.
  bool letsReductionBypass(const LaunchContext&, const ReductionTarget&,
                           const Region&) const override {
    return true;
  }
  bool readsBuiltinsAsMemory() const override { return false; }
  // One host thread: the log takes no lock, and its order is the schedule's.
  bool serial() const override { return true; }
  std::shared_ptr<const LoweredKernel> instrument(const LaunchContext& launch) const override {
    return instrumentKernel(launch, log_.get());
  }
  std::string stateName() const override { return "the reconvergence recorder's log"; }
  std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const override {
    return std::make_unique<ExecutionObserver>();
  }

 private:
  std::shared_ptr<TangleLog> log_;
};

// (work-group, sub-group, lane, instruction, occurrence) as one comparable key.
struct Key {
  uint64_t workGroup;
  uint32_t subGroup, lane, src, occurrence;
  bool operator==(const Key&) const = default;
};
struct KeyHash {
  size_t operator()(const Key& k) const {
    uint64_t h = k.workGroup * 0x9e3779b97f4a7c15ull;
    for (uint32_t x : {k.subGroup, k.lane, k.src, k.occurrence}) h = (h ^ x) * 0x100000001b3ull;
    return size_t(h ^ (h >> 29));
  }
};
Key keyOf(const TangleResult& r) { return {r.workGroup, r.subGroup, r.lane, r.src, r.occurrence}; }

using Index = std::unordered_map<Key, const TangleResult*, KeyHash>;
Index indexOf(const TangleLog& log) {
  Index index;
  index.reserve(log.results().size());
  for (const TangleResult& r : log.results()) index.emplace(keyOf(r), &r);
  return index;
}

bool sameBytes(const TangleLog& a, const TangleResult& ra, const TangleLog& b,
               const TangleResult& rb) {
  return std::string_view(reinterpret_cast<const char*>(a.bytesOf(ra)), ra.size) ==
         std::string_view(reinterpret_cast<const char*>(b.bytesOf(rb)), rb.size);
}

// Results beyond what both logs kept say nothing: the other log may have them unkept.
bool keptByBoth(const TangleLog& a, const TangleLog& b) { return !a.truncated() && !b.truncated(); }

}  // namespace

void TangleLog::record(uint32_t src, spirv::Id type, const WorkGroupContext& wg, uint32_t subGroup,
                       uint32_t lane, const uint8_t* value, uint32_t size) {
  if (results_.size() >= limit_) {
    truncated_ = true;
    return;
  }
  if (wg.linearId != current_) {  // work-groups of a serial launch run one after another
    current_ = wg.linearId;
    occurrences_.clear();
  }
  // Lanes are fewer than 2^8, sub-groups of a work-group fewer than 2^24.
  const uint64_t key = (uint64_t(subGroup) << 40) ^ (uint64_t(lane) << 32) ^ src;
  const uint32_t occurrence = occurrences_[key]++;
  results_.push_back(
      {src, type, wg.linearId, wg.groupId, subGroup, lane, occurrence, bytes_.size(), size});
  bytes_.insert(bytes_.end(), value, value + size);
}

std::shared_ptr<const ObserverFactory> tangleRecorder(std::shared_ptr<TangleLog> log) {
  return std::make_shared<Recorder>(std::move(log));
}

std::optional<TangleDifference> firstDifference(const TangleLog& a, const TangleLog& b) {
  const Index inB = indexOf(b);
  for (const TangleResult& r : a.results()) {
    const auto it = inB.find(keyOf(r));
    if (it == inB.end()) {
      if (keptByBoth(a, b)) return TangleDifference{&r, nullptr};
      continue;
    }
    if (!sameBytes(a, r, b, *it->second)) return TangleDifference{&r, it->second};
  }
  if (!keptByBoth(a, b)) return std::nullopt;
  const Index inA = indexOf(a);
  for (const TangleResult& r : b.results())
    if (!inA.count(keyOf(r))) return TangleDifference{nullptr, &r};
  return std::nullopt;
}

}  // namespace spvsim::check
