#include "src/profile/profiler.h"

#include <fmt/core.h>

#include <algorithm>
#include <unordered_map>

#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "src/exec/subgroup.h"

namespace spvsim::profile {
namespace {

// The instrumented kernel: every instruction runs through profileTrampoline, which finds
// its original handler and counters here by pc.
struct ProfiledKernel : LoweredKernel {
  explicit ProfiledKernel(const LoweredKernel& k) : LoweredKernel(k) {}
  std::vector<ExecFn> original;  // by pc
  std::shared_ptr<LaunchProfile> profile;
};

std::string functionName(const spirv::Module& m, const spirv::Function& f) {
  auto it = m.names.find(f.id);
  return it != m.names.end() && !it->second.empty() ? it->second : fmt::format("%{}", f.id);
}

// InstructionInfo for every SPIR-V instruction inside a function, by index.
std::unordered_map<uint32_t, InstructionInfo> describeFunctions(const LoweredKernel& k,
                                                                const spirv::Module& m) {
  const std::vector<std::string> text = spirv::disassembleLines(m);
  std::unordered_map<uint32_t, InstructionInfo> out;
  for (const spirv::Function& f : m.functions) {
    const std::string name = functionName(m, f);
    for (const spirv::Block& b : f.blocks)
      for (const spirv::Instruction& i : b.instructions)
        out[i.index] = {i.index,
                        i.result,
                        spirv::opcodeName(i.opcode),
                        i.index < text.size() ? text[i.index] : k.instructionText(i.index),
                        k.instructionLine(i.index),
                        name,
                        i.opcode == spv::Op::OpBranchConditional || i.opcode == spv::Op::OpSwitch};
  }
  return out;
}

// Fills the per-pc tables: which SPIR-V instruction each pc comes from.
void describeCode(const LoweredKernel& k, const spirv::Module& m, LaunchProfile& p) {
  const auto known = describeFunctions(k, m);
  std::unordered_map<uint32_t, uint32_t> slot;  // spirv index -> p.instructions
  p.counts.assign(k.code.size(), PcCounts{});
  p.pcSource.resize(k.code.size());
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    const uint32_t src = k.code[pc].src;
    auto [it, added] = slot.emplace(src, uint32_t(p.instructions.size()));
    if (added) {
      auto info = known.find(src);
      p.instructions.push_back(info != known.end()
                                   ? info->second
                                   : InstructionInfo{src, 0, "", k.instructionText(src),
                                                     k.instructionLine(src), "", false});
    }
    p.pcSource[pc] = it->second;
  }
}

void addSegment(LaunchProfile& p, SubGroupTimeline& t, SubGroupPhase phase, uint64_t start,
                uint64_t end) {
  if (p.timelineSegments >= kMaxTimelineSegments) {
    p.timelineTruncated = true;
    return;
  }
  ++p.timelineSegments;
  t.segments.push_back({phase, start, end});
}

// Ends an open barrier wait (released) at `now`.
void closeBarrier(SubGroupTimeline& t, uint64_t now) {
  if (!t.segments.empty() && t.segments.back().phase == SubGroupPhase::AtBarrier &&
      t.segments.back().end == ~0ull)
    t.segments.back().end = now;
}

// One step of `sg` at time p.clock: extends its running segment or starts one.
void recordStep(LaunchProfile& p, const SubGroup& sg) {
  const size_t at = p.groupBase + sg.id;
  if (at >= p.timeline.size()) return;
  SubGroupTimeline& t = p.timeline[at];
  closeBarrier(t, p.clock);
  if (!t.segments.empty() && t.segments.back().phase == SubGroupPhase::Running &&
      t.segments.back().end == p.clock)
    t.segments.back().end = p.clock + 1;
  else
    addSegment(p, t, SubGroupPhase::Running, p.clock, p.clock + 1);
}

// After the step: the sub-group may now wait at a barrier or be done (open segments).
void recordState(LaunchProfile& p, const SubGroup& sg) {
  if (sg.state == SubGroupState::Running) return;
  const size_t at = p.groupBase + sg.id;
  if (at >= p.timeline.size()) return;
  addSegment(p, p.timeline[at],
             sg.state == SubGroupState::AtBarrier ? SubGroupPhase::AtBarrier : SubGroupPhase::Done,
             p.clock, ~0ull);
}

void profileTrampoline(SubGroup& sg, const Inst& in) {
  const auto& k = static_cast<const ProfiledKernel&>(*sg.wg->launch->kernel);
  const size_t pc = size_t(&in - sg.code);
  LaunchProfile& p = *k.profile;
  PcCounts& c = p.counts[pc];
  ++c.executions;
  c.laneExecutions += sg.activeCount;  // as SubGroup::laneStepsNow counts them
  recordStep(p, sg);
  ++p.clock;
  if (!p.instructions[p.pcSource[pc]].branch) {
    k.original[pc](sg, in);
  } else {
    // A split leaves a non-empty strict subset of the lanes running (SubGroup::diverge);
    // a uniform branch keeps them all, a reconvergence brings back a superset or a
    // disjoint sibling set.
    const LaneMask before = sg.mask;
    k.original[pc](sg, in);
    if (sg.mask.any() && !(sg.mask == before) && (sg.mask & before) == sg.mask) ++c.splits;
  }
  recordState(p, sg);
}

class ProfileObserver final : public ExecutionObserver {
 public:
  ProfileObserver(std::shared_ptr<LaunchProfile> p, const LaunchContext& launch)
      : p_(std::move(p)), memory_(*launch.memory) {
    for (const BuiltinSlot& b : launch.kernel->builtins) builtinRegions_.push_back(b.region);
  }

  void workGroupBegin(WorkGroupContext& wg, SubGroup* sgs, size_t count) override {
    p_->groupBase = p_->timeline.size();
    for (size_t i = 0; i < count; ++i)
      p_->timeline.push_back({wg.groupId, sgs[i].id, sgs[i].liveLanes, {}});
  }

  void workGroupEnd(WorkGroupContext&) override {
    for (size_t i = p_->groupBase; i < p_->timeline.size(); ++i)
      for (TimelineSegment& s : p_->timeline[i].segments)
        if (s.end == ~0ull) s.end = std::max(p_->clock, s.start);
  }

  void workGroupBarrier(SubGroup* sgs, size_t count, uint32_t, uint32_t) override {
    for (size_t i = 0; i < count; ++i)
      if (p_->groupBase + sgs[i].id < p_->timeline.size())
        closeBarrier(p_->timeline[p_->groupBase + sgs[i].id], p_->clock);
  }

  void access(SubGroup&, const MemoryAccess& a) override {
    switch (a.kind) {
      case AccessKind::Read:
      case AccessKind::AtomicLoad:
      case AccessKind::AtomicFailedRmw:
        count(a.pointer, a.bytes, false);
        break;
      case AccessKind::Write:
      case AccessKind::AtomicStore:
        count(a.pointer, a.bytes, true);
        break;
      case AccessKind::AtomicRmw:
        count(a.pointer, a.bytes, false);
        count(a.pointer, a.bytes, true);
        break;
      case AccessKind::Copy:
        count(a.source, a.bytes, false);
        count(a.pointer, a.bytes, true);
        break;
    }
  }

 private:
  static void add(Traffic& t, uint64_t bytes, bool write) {
    if (write) {
      t.writtenBytes += bytes;
      ++t.writes;
    } else {
      t.readBytes += bytes;
      ++t.reads;
    }
  }

  void count(uint64_t pointer, uint64_t bytes, bool write) {
    const Space s = pointerSpace(pointer);
    if (s == Space::Invalid || uint32_t(s) >= p_->spaces.size()) return;
    const uint32_t region = uint32_t(pointerRegion(pointer));
    // Built-in variables are the simulator's way to hand out ids, not the kernel's data.
    if (s == Space::Private && std::count(builtinRegions_.begin(), builtinRegions_.end(), region))
      return;
    add(p_->spaces[uint32_t(s)], bytes, write);
    if (s != Space::Private) add(buffer(s, region).traffic, bytes, write);
  }

  BufferTraffic& buffer(Space s, uint32_t region) {
    for (BufferTraffic& b : p_->buffers)
      if (b.space == s && b.region == region) return b;
    const auto& table = memory_.regions(s);
    std::string name = region < table.size() ? table[region].name : "";
    if (name.empty()) name = fmt::format("{} region {}", spaceName(s), region);
    p_->buffers.push_back({s, region, std::move(name), {}});
    return p_->buffers.back();
  }

  std::shared_ptr<LaunchProfile> p_;
  const MemoryMap& memory_;
  std::vector<uint32_t> builtinRegions_;
};

}  // namespace

uint64_t ProfilerFactory::stateBytes(const LaunchContext& launch) const {
  return uint64_t(launch.kernel->code.size()) * (sizeof(PcCounts) + sizeof(uint32_t) + 64) +
         kMaxTimelineSegments * sizeof(TimelineSegment);
}

std::shared_ptr<const LoweredKernel> ProfilerFactory::instrument(
    const LaunchContext& launch) const {
  auto p = std::make_shared<LaunchProfile>();
  p->kernel = launch.kernelName;
  p->dims = launch.dims;
  p->globalSize = launch.globalSize;
  p->globalOffset = launch.globalOffset;
  p->localSize = launch.enqueuedLocal;
  p->numGroups = launch.numGroups;
  p->subGroupSize = launch.kernel->width;
  describeCode(*launch.kernel, *launch.module, *p);
  auto k = std::make_shared<ProfiledKernel>(*launch.kernel);
  k->profile = p;
  k->original.reserve(k->code.size());
  for (Inst& in : k->code) {
    k->original.push_back(in.fn);
    in.fn = &profileTrampoline;
  }
  launches_.push_back(p);
  contexts_.push_back(&launch);
  return k;
}

std::unique_ptr<ExecutionObserver> ProfilerFactory::create(const LaunchContext& launch) const {
  for (size_t i = contexts_.size(); i-- > 0;)
    if (contexts_[i] == &launch) return std::make_unique<ProfileObserver>(launches_[i], launch);
  throw Error(DiagnosticKind::Internal, "the profiler was not asked to instrument this launch");
}

uint64_t totalExecutions(const LaunchProfile& p) {
  uint64_t n = 0;
  for (const PcCounts& c : p.counts) n += c.executions;
  return n;
}

uint64_t totalLaneExecutions(const LaunchProfile& p) {
  uint64_t n = 0;
  for (const PcCounts& c : p.counts) n += c.laneExecutions;
  return n;
}

}  // namespace spvsim::profile
