#include "src/profile/profiler.h"

#include <fmt/core.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <thread>
#include <unordered_map>

#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "src/exec/subgroup.h"

namespace spvsim::profile {

// A host thread's clock: the sub-group steps its slots executed so far. Only that
// thread reads or writes it.
struct ThreadClock {
  uint32_t thread = 0;
  uint32_t slots = 0;
  uint64_t steps = 0;
};

// One launch's shared state: the profile its slots add into when they end, and the host
// threads' clocks.
struct LaunchRecorder {
  const LaunchContext* context = nullptr;
  std::shared_ptr<LaunchProfile> profile;
  std::mutex mutex;  // profile (while slots add into it), clocks
  std::map<std::thread::id, std::unique_ptr<ThreadClock>> clocks;
  // Timeline segments recorded by every slot, against kMaxTimelineSegments.
  std::atomic<size_t> segments{0};
  std::atomic<bool> truncated{false};
};

namespace {

// The instrumented kernel: every instruction runs through profileTrampoline, which finds
// its original handler here by pc, and the slot's observer through the work-group's
// observer list at observerIndex.
struct ProfiledKernel : LoweredKernel {
  explicit ProfiledKernel(const LoweredKernel& k) : LoweredKernel(k) {}
  std::vector<ExecFn> original;  // by pc
  std::vector<uint8_t> branch;   // by pc: OpBranchConditional or OpSwitch
  // The profiler's place among each slot's observers: the same in every slot (they are
  // made from the launch's factories in order); set by the first workGroupBegin.
  mutable std::atomic<uint32_t> observerIndex{0};
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
  p.coalescing.assign(k.code.size(), CoalescingCounts{});
  p.bankConflicts.assign(k.code.size(), BankCounts{});
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

// Ends an open barrier wait (released) at `now`.
void closeBarrier(SubGroupTimeline& t, uint64_t now) {
  if (!t.segments.empty() && t.segments.back().phase == SubGroupPhase::AtBarrier &&
      t.segments.back().end == ~0ull)
    t.segments.back().end = now;
}

void addTraffic(Traffic& t, uint64_t bytes, uint64_t accesses, bool write) {
  if (write) {
    t.writtenBytes += bytes;
    t.writes += accesses;
  } else {
    t.readBytes += bytes;
    t.reads += accesses;
  }
}

void addTraffic(Traffic& to, const Traffic& from) {
  to.readBytes += from.readBytes;
  to.writtenBytes += from.writtenBytes;
  to.reads += from.reads;
  to.writes += from.writes;
}

// One WorkGroupSlot's counters, timeline and traffic, added into the launch's profile
// when the slot ends (launchEnd). The trampoline reaches it through the work-group's
// observer list, so a step costs no lock.
class ProfileObserver final : public ExecutionObserver {
 public:
  ProfileObserver(LaunchRecorder& recorder, const LaunchContext& launch)
      : r_(recorder), memory_(*launch.memory), banks_(recorder.profile->banks) {
    for (const BuiltinSlot& b : launch.kernel->builtins) builtinRegions_.push_back(b.region);
    const size_t code = launch.kernel->code.size();
    counts_.assign(code, PcCounts{});
    coalescing_.assign(code, CoalescingCounts{});
    bankConflicts_.assign(code, BankCounts{});
    // Made on the slot's own host thread (WorkGroupSlot's constructor).
    std::lock_guard<std::mutex> lock(r_.mutex);
    auto& clock = r_.clocks[std::this_thread::get_id()];
    if (!clock) {
      clock = std::make_unique<ThreadClock>();
      clock->thread = uint32_t(r_.clocks.size() - 1);
    }
    clock_ = clock.get();
    row_.thread = clock_->thread;
    row_.slot = clock_->slots++;
  }

  // Adds this slot's part into the launch's profile.
  void launchEnd() override {
    flushAccesses();
    row_.steps = clock_->steps;
    std::lock_guard<std::mutex> lock(r_.mutex);
    LaunchProfile& p = *r_.profile;
    for (size_t pc = 0; pc < counts_.size(); ++pc) {
      p.counts[pc].executions += counts_[pc].executions;
      p.counts[pc].laneExecutions += counts_[pc].laneExecutions;
      p.counts[pc].splits += counts_[pc].splits;
      CoalescingCounts& c = p.coalescing[pc];
      c.executions += coalescing_[pc].executions;
      c.accesses += coalescing_[pc].accesses;
      c.requestedBytes += coalescing_[pc].requestedBytes;
      c.lines += coalescing_[pc].lines;
      BankCounts& b = p.bankConflicts[pc];
      b.executions += bankConflicts_[pc].executions;
      b.accesses += bankConflicts_[pc].accesses;
      b.wavefronts += bankConflicts_[pc].wavefronts;
      b.maxDegree = std::max(b.maxDegree, bankConflicts_[pc].maxDegree);
    }
    for (Space s : {Space::Global, Space::Constant, Space::Local, Space::Private})
      addTraffic(p.spaces[uint32_t(s)], spaces_[uint32_t(s)]);
    for (const BufferTraffic& b : buffers_) {
      auto it = std::find_if(p.buffers.begin(), p.buffers.end(), [&](const BufferTraffic& x) {
        return x.space == b.space && x.region == b.region;
      });
      if (it == p.buffers.end())
        p.buffers.push_back(b);
      else
        addTraffic(it->traffic, b.traffic);
    }
    for (SubGroupTimeline& t : timeline_) {
      t.thread = uint32_t(p.threads.size());
      p.timeline.push_back(std::move(t));
    }
    p.threads.push_back(std::move(row_));
    p.clock = std::max(p.clock, clock_->steps);
    p.timelineSegments = r_.segments.load();
    p.timelineTruncated = r_.truncated.load();
  }

  void workGroupBegin(WorkGroupContext& wg, SubGroup* sgs, size_t count) override {
    const auto& k = static_cast<const ProfiledKernel&>(*wg.launch->kernel);
    for (uint32_t i = 0; i < wg.observers.count; ++i)
      if (wg.observers.list[i] == this) k.observerIndex.store(i, std::memory_order_relaxed);
    groupBase_ = timeline_.size();
    for (size_t i = 0; i < count; ++i)
      timeline_.push_back({wg.groupId, wg.linearId, sgs[i].id, sgs[i].liveLanes, row_.thread, {}});
    row_.groups.push_back({wg.groupId, wg.linearId, uint32_t(count), clock_->steps, clock_->steps});
  }

  void workGroupEnd(WorkGroupContext&) override {
    flushAccesses();
    const uint64_t now = clock_->steps;
    for (size_t i = groupBase_; i < timeline_.size(); ++i)
      for (TimelineSegment& s : timeline_[i].segments)
        if (s.end == ~0ull) s.end = std::max(now, s.start);
    if (!row_.groups.empty()) row_.groups.back().end = now;
  }

  void workGroupBarrier(SubGroup* sgs, size_t count, uint32_t, uint32_t) override {
    for (size_t i = 0; i < count; ++i)
      if (SubGroupTimeline* t = timelineOf(sgs[i])) closeBarrier(*t, clock_->steps);
  }

  // The trampoline's halves, around the original handler.
  void beforeStep(const SubGroup& sg, size_t pc) {
    PcCounts& c = counts_[pc];
    ++c.executions;
    c.laneExecutions += sg.activeCount;  // as SubGroup::laneStepsNow counts them
    recordStep(sg);
    ++clock_->steps;
    accessPc_ = uint32_t(pc);
  }
  void split(size_t pc) { ++counts_[pc].splits; }
  void afterStep(const SubGroup& sg) {
    flushAccesses();
    accessPc_ = kNoPc;
    recordState(sg);
  }

  // An async copy's elements are reported from the work-group's collective, outside the
  // trampoline: they are the copy instruction's accesses, one execution per work-group.
  // Its global side counts for coalescing; its local side is no sub-group's access, and
  // how a device spreads a copy over its lanes is its own: no conflict degree.
  void asyncCopyBegin(SubGroup& sg, const Inst& in, uint64_t) override {
    flushAccesses();
    const size_t pc = size_t(&in - sg.code);
    accessPc_ = pc < counts_.size() ? uint32_t(pc) : kNoPc;
    inAsyncCopy_ = true;
  }
  void asyncCopyEnd(SubGroup&) override {
    flushAccesses();
    accessPc_ = kNoPc;
    inAsyncCopy_ = false;
  }

  void access(SubGroup&, const MemoryAccess& a) override {
    switch (a.kind) {
      case AccessKind::Read:
      case AccessKind::AtomicLoad:
      case AccessKind::AtomicFailedRmw:
        count(a.pointer, a.bytes, 1, false);
        break;
      case AccessKind::Write:
      case AccessKind::AtomicStore:
        count(a.pointer, a.bytes, 1, true);
        break;
      case AccessKind::AtomicRmw:
        count(a.pointer, a.bytes, 1, false);
        count(a.pointer, a.bytes, 1, true);
        break;
      case AccessKind::Copy:
        count(a.source, a.bytes, 1, false);
        count(a.pointer, a.bytes, 1, true);
        gather(a.source, a.bytes, 1, 0);
        break;
    }
    gather(a.pointer, a.bytes, 1, 0);
  }

  // A whole sub-group's contiguous (stride = bytes) or one-address (stride 0) access, as
  // the lanes one by one would count it: `lanes` accesses of `bytes`, touching the one
  // span [first, first + (lanes - 1) x stride + bytes).
  void accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride,
                 uint32_t lanes) override {
    const Space s = pointerSpace(first.pointer);
    if ((stride != 0 && stride != first.bytes) || s == Space::Private || s == Space::Invalid ||
        (first.kind != AccessKind::Read && first.kind != AccessKind::Write))
      return ExecutionObserver::accessRun(sg, first, stride, lanes);
    count(first.pointer, first.bytes * lanes, lanes, first.kind == AccessKind::Write);
    gather(first.pointer, first.bytes, lanes, first.bytes + (lanes - 1) * stride);
  }

 private:
  SubGroupTimeline* timelineOf(const SubGroup& sg) {
    const size_t at = groupBase_ + sg.id;
    return at < timeline_.size() ? &timeline_[at] : nullptr;
  }

  void addSegment(SubGroupTimeline& t, SubGroupPhase phase, uint64_t start, uint64_t end) {
    if (r_.segments.fetch_add(1, std::memory_order_relaxed) >= kMaxTimelineSegments) {
      r_.segments.fetch_sub(1, std::memory_order_relaxed);
      r_.truncated.store(true, std::memory_order_relaxed);
      return;
    }
    t.segments.push_back({phase, start, end});
  }

  // One step of `sg` at the thread's time: extends its running segment or starts one.
  void recordStep(const SubGroup& sg) {
    SubGroupTimeline* t = timelineOf(sg);
    if (!t) return;
    const uint64_t now = clock_->steps;
    closeBarrier(*t, now);
    if (!t->segments.empty() && t->segments.back().phase == SubGroupPhase::Running &&
        t->segments.back().end == now)
      t->segments.back().end = now + 1;
    else
      addSegment(*t, SubGroupPhase::Running, now, now + 1);
  }

  // After the step: the sub-group may now wait at a barrier or be done (open segments).
  void recordState(const SubGroup& sg) {
    if (sg.state == SubGroupState::Running) return;
    SubGroupTimeline* t = timelineOf(sg);
    if (!t) return;
    addSegment(
        *t, sg.state == SubGroupState::AtBarrier ? SubGroupPhase::AtBarrier : SubGroupPhase::Done,
        clock_->steps, ~0ull);
  }

  void count(uint64_t pointer, uint64_t bytes, uint64_t accesses, bool write) {
    const Space s = pointerSpace(pointer);
    if (s == Space::Invalid || uint32_t(s) >= spaces_.size()) return;
    const uint32_t region = uint32_t(pointerRegion(pointer));
    // Built-in variables are the simulator's way to hand out ids, not the kernel's data.
    if (s == Space::Private && std::count(builtinRegions_.begin(), builtinRegions_.end(), region))
      return;
    addTraffic(spaces_[uint32_t(s)], bytes, accesses, write);
    if (s != Space::Private) addTraffic(buffer(s, region).traffic, bytes, accesses, write);
  }

  // Notes what the running execution's lanes touch: `lanes` accesses of `bytes` each,
  // inside the span of `span` bytes (0: one lane's `bytes`) at `pointer`: global memory's
  // 64-byte lines, local memory's 4-byte words.
  void gather(uint64_t pointer, uint64_t bytes, uint64_t lanes, uint64_t span) {
    if (accessPc_ == kNoPc || bytes == 0) return;
    const Space s = pointerSpace(pointer);
    if (s != Space::Global && s != Space::Local) return;
    if (!span) span = bytes;
    const uint64_t region = pointerRegion(pointer), offset = offsetBits(pointer);
    const auto& table = memory_.regions(s);
    if (region >= table.size() || offset > table[region].size) return;
    if (s == Space::Global) {
      gAccesses_ += lanes;
      gRequested_ += bytes * lanes;
      for (uint64_t l = offset / kLineBytes; l <= (offset + span - 1) / kLineBytes; ++l)
        gLines_.push_back(region << 40 | l);
    } else if (!inAsyncCopy_) {
      lAccesses_ += lanes;
      const uint64_t at = table[region].arenaOffset + offset;
      for (uint64_t w = at / kBankWordBytes; w <= (at + span - 1) / kBankWordBytes; ++w)
        lWords_.push_back(w);
    }
  }

  // Ends the running execution's gathering: its lines and conflict degree.
  void flushAccesses() {
    if (accessPc_ == kNoPc) return;
    if (gAccesses_) {
      std::sort(gLines_.begin(), gLines_.end());
      const uint64_t lines =
          uint64_t(std::unique(gLines_.begin(), gLines_.end()) - gLines_.begin());
      CoalescingCounts& c = coalescing_[accessPc_];
      ++c.executions;
      c.accesses += gAccesses_;
      c.requestedBytes += gRequested_;
      c.lines += lines;
      gAccesses_ = gRequested_ = 0;
      gLines_.clear();
    }
    if (lAccesses_) {
      const uint64_t degree = conflictDegree(lWords_, banks_);
      BankCounts& b = bankConflicts_[accessPc_];
      ++b.executions;
      b.accesses += lAccesses_;
      b.wavefronts += degree;
      b.maxDegree = std::max(b.maxDegree, degree);
      lAccesses_ = 0;
      lWords_.clear();
    }
  }

  BufferTraffic& buffer(Space s, uint32_t region) {
    for (BufferTraffic& b : buffers_)
      if (b.space == s && b.region == region) return b;
    const auto& table = memory_.regions(s);
    std::string name = region < table.size() ? table[region].name : "";
    if (name.empty()) name = fmt::format("{} region {}", spaceName(s), region);
    buffers_.push_back({s, region, std::move(name), {}});
    return buffers_.back();
  }

  LaunchRecorder& r_;
  const MemoryMap& memory_;
  const uint32_t banks_;
  ThreadClock* clock_ = nullptr;
  std::vector<uint32_t> builtinRegions_;

  std::vector<PcCounts> counts_;
  std::vector<CoalescingCounts> coalescing_;
  std::vector<BankCounts> bankConflicts_;
  std::vector<BufferTraffic> buffers_;  // in order of first access
  std::array<Traffic, 5> spaces_{};

  std::vector<SubGroupTimeline> timeline_;
  size_t groupBase_ = 0;  // timeline_ index of the running work-group's sub-group 0
  HostThreadTimeline row_;

  // The execution whose accesses are being gathered (kNoPc: none): global lanes, bytes
  // and (region, line) keys; local lanes and word indices.
  uint32_t accessPc_ = kNoPc;
  bool inAsyncCopy_ = false;
  uint64_t gAccesses_ = 0, gRequested_ = 0, lAccesses_ = 0;
  std::vector<uint64_t> gLines_, lWords_;
};

void profileTrampoline(SubGroup& sg, const Inst& in) {
  const auto& k = static_cast<const ProfiledKernel&>(*sg.wg->launch->kernel);
  auto& o = static_cast<ProfileObserver&>(
      *sg.wg->observers.list[k.observerIndex.load(std::memory_order_relaxed)]);
  const size_t pc = size_t(&in - sg.code);
  o.beforeStep(sg, pc);
  if (!k.branch[pc]) {
    k.original[pc](sg, in);
  } else {
    // A split leaves a non-empty strict subset of the lanes running (SubGroup::diverge);
    // a uniform branch keeps them all, a reconvergence brings back a superset or a
    // disjoint sibling set.
    const LaneMask before = sg.mask;
    k.original[pc](sg, in);
    if (sg.mask.any() && !(sg.mask == before) && (sg.mask & before) == sg.mask) o.split(pc);
  }
  o.afterStep(sg);
}

}  // namespace

uint64_t conflictDegree(std::vector<uint64_t>& words, uint32_t banks) {
  if (words.empty() || banks == 0) return 0;
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
  // Distinct words closer together than the bank count are in distinct banks (the
  // common unit-stride access).
  if (words.back() - words.front() < banks) return 1;
  std::unordered_map<uint64_t, uint64_t> perBank;
  uint64_t degree = 0;
  for (uint64_t w : words) degree = std::max(degree, ++perBank[w % banks]);
  return degree;
}

ProfilerFactory::ProfilerFactory(uint32_t banks) : banks_(banks) {}
ProfilerFactory::~ProfilerFactory() = default;

uint64_t ProfilerFactory::stateBytes(const LaunchContext& launch) const {
  return uint64_t(launch.kernel->code.size()) * (sizeof(PcCounts) + sizeof(CoalescingCounts) +
                                                 sizeof(BankCounts) + sizeof(uint32_t) + 64) +
         kMaxTimelineSegments * sizeof(TimelineSegment);
}

uint64_t ProfilerFactory::slotStateBytes(const LaunchContext& launch) const {
  return uint64_t(launch.kernel->code.size()) *
         (sizeof(PcCounts) + sizeof(CoalescingCounts) + sizeof(BankCounts));
}

std::shared_ptr<const LoweredKernel> ProfilerFactory::instrument(
    const LaunchContext& launch) const {
  auto recorder = std::make_shared<LaunchRecorder>();
  auto p = std::make_shared<LaunchProfile>();
  p->kernel = launch.kernelName;
  p->dims = launch.dims;
  p->globalSize = launch.globalSize;
  p->globalOffset = launch.globalOffset;
  p->localSize = launch.enqueuedLocal;
  p->numGroups = launch.numGroups;
  p->subGroupSize = launch.kernel->width;
  p->banks = banks_;
  describeCode(*launch.kernel, *launch.module, *p);
  auto k = std::make_shared<ProfiledKernel>(*launch.kernel);
  // Every instruction is counted on its own: no fused pairs.
  k->unfuseWhere([](size_t) { return true; });
  k->original.reserve(k->code.size());
  for (size_t pc = 0; pc < k->code.size(); ++pc) {
    k->original.push_back(k->code[pc].fn);
    k->branch.push_back(p->instructions[p->pcSource[pc]].branch);
    k->code[pc].fn = &profileTrampoline;
  }
  recorder->context = &launch;
  recorder->profile = std::move(p);
  std::lock_guard<std::mutex> lock(mutex_);
  recorders_.push_back(std::move(recorder));
  return k;
}

std::unique_ptr<ExecutionObserver> ProfilerFactory::create(const LaunchContext& launch) const {
  std::shared_ptr<LaunchRecorder> recorder;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = recorders_.size(); i-- > 0 && !recorder;)
      if (recorders_[i]->context == &launch) recorder = recorders_[i];
  }
  if (!recorder)
    throw Error(DiagnosticKind::Internal, "the profiler was not asked to instrument this launch");
  return std::make_unique<ProfileObserver>(*recorder, launch);
}

std::vector<std::shared_ptr<LaunchProfile>> ProfilerFactory::launches() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<LaunchProfile>> out;
  for (const auto& r : recorders_) out.push_back(r->profile);
  return out;
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
