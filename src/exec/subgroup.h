// The state of one sub-group and the one way execution advances: step().
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "src/exec/diagnostics.h"
#include "src/exec/lane_addresses.h"
#include "src/exec/lane_mask.h"
#include "src/exec/launch_types.h"
#include "src/exec/lowered.h"
#include "src/exec/memory.h"
#include "src/exec/memory_model.h"
#include "src/exec/observer.h"
#include "src/exec/pipe.h"
#include "src/exec/register_shape.h"

namespace spvsim {

struct LaunchImage;  // src/exec/image_table.h

// What one launch shares with all of its work-groups (read-only while running).
struct LaunchContext {
  const spirv::Module* module = nullptr;
  const LoweredKernel* kernel = nullptr;
  const MemoryMap* memory = nullptr;
  std::string kernelName;
  uint32_t dims = 1;
  std::array<uint64_t, 3> globalSize{1, 1, 1};
  std::array<uint64_t, 3> globalOffset{0, 0, 0};
  std::array<uint64_t, 3> enqueuedLocal{1, 1, 1};
  std::array<uint64_t, 3> numGroups{1, 1, 1};
  uint64_t instructionBudget = 0;
  uint64_t quantum = 0;
  LaunchOptions::Schedule schedule = LaunchOptions::Schedule::RoundRobin;
  uint64_t scheduleSeed = 0;
  // The factories that asked for arena mirrors (ObserverFactory::mirrorsArenas), in order:
  // each private and local arena is followed by one mirror per factory, the i-th (from 1)
  // arenaMirrors[i - 1]'s, so that no observer's per-byte state is another's.
  std::vector<const ObserverFactory*> arenaMirrors;
  // Which mirror is `f`'s (from 1; 0: none). Byte b of an arena of `bytes` bytes at host
  // address h has its shadow at h + mirrorOf(f) * bytes.
  uint32_t mirrorOf(const ObserverFactory* f) const {
    const auto it = std::find(arenaMirrors.begin(), arenaMirrors.end(), f);
    return it == arenaMirrors.end() ? 0 : uint32_t(it - arenaMirrors.begin()) + 1;
  }
  // Whether sub-groups have a shadow register file (ObserverFactory::shadowsRegisters).
  bool shadowRegisters = false;
  // Under --forward-progress occupancy the work-groups resident at once, each in a slot
  // of its own (LaunchState::residentGroups); 0: work-groups run to their end one by one.
  uint64_t residentGroups = 0;
  // Each factory's state for the launch, shared by its slots' observers
  // (ObserverFactory::launchState): the one of `f`, or nullptr.
  std::vector<std::pair<const ObserverFactory*, ObserverLaunchState*>> launchStates;
  ObserverLaunchState* launchStateOf(const ObserverFactory* f) const {
    for (const auto& [factory, state] : launchStates)
      if (factory == f) return state;
    return nullptr;
  }
  // Host memory an observer of a serial launch may take as it runs, beyond its stateBytes:
  // LaunchOptions::maxMemory less the arguments, the observers' stateBytes and the one
  // work-group slot (only the race checker's state grows while it runs).
  uint64_t observerMemory = ~uint64_t(0);
  // Every built-in variable in each lane's private memory, and built-in reads through it
  // (LaunchOptions::builtinStorage, or an observer whose factory asks:
  // ObserverFactory::readsBuiltinsAsMemory): src/exec/builtins.h.
  bool builtinStorage = false;
  // Per global region (MemoryMap::global): 1 where no instruction of the launch can write
  // it (readOnlyRegions, src/exec/reduction_copies.h), so that an observer may skip what
  // it would keep of the region's reads for writes that never come. Filled only for
  // launches with observers.
  std::vector<uint8_t> readOnlyGlobal;
  // Per global region: 1 where no observer needs to see its accesses (every factory that
  // watches Global says so: ObserverFactory::watchesGlobalRegion), which then take the
  // fast paths as in a space nobody watches (WorkGroupContext::watches). Filled only for
  // launches with observers, outside the Reference tier.
  std::vector<uint8_t> unwatchedGlobal;
  // The image arguments; image values in registers index this table.
  const LaunchImage* images = nullptr;
  uint32_t imageCount = 0;
  // The pipes of pipe parameters (src/exec/pipe.h): a pipe value in a register is a
  // handle, 1 + an index here (0 or out of range: not a pipe).
  std::vector<PipeStorage*> pipes;
  // Where enqueue_kernel records commands and events live (src/exec/device_enqueue.h);
  // null where the front end runs no children (the debugger).
  DeviceEnqueueState* enqueue = nullptr;
  // Whether each sub-group runs as a unit of its own (LaunchState::unitsPerGroup).
  bool splitGroups = false;
  // LaunchOptions::Tier::Reference: no fast path at all, register shapes included.
  bool referenceTier = false;
  // LaunchOptions::Reconvergence::Random, and its seed.
  bool randomReconvergence = false;
  uint64_t reconvergenceSeed = 0;
  // Every fast path may run: the Fast tier, and no observer or shadow register file
  // watching (they see every lane through the checked path: per-lane atomics, sub-groups
  // run apart). Fused pairs, privatised reductions and accesses to memory nobody watches
  // keep theirs with observers too (WorkGroupContext::fuse, ObserverFactory::
  // letsReductionBypass, WorkGroupContext::watches). src/DESIGN.md, "Tiers".
  bool fastPaths = true;
  // LaunchOptions::MemoryModel::Relaxed: the launch's store buffers (src/exec/memory_model.h).
  RelaxedMemory* relaxed = nullptr;
};

// The observers of one WorkGroupSlot (src/exec/observer.h); none: an empty list.
struct Observers {
  ExecutionObserver* const* list = nullptr;
  uint32_t count = 0;
  uint32_t spaces = 0;  // the union of their factories' spaces()

  bool any() const { return count != 0; }
  template <class F>
  void each(F&& f) const {
    for (uint32_t i = 0; i < count; ++i) f(*list[i]);
  }
};

// What the sub-groups of one work-group share.
class ReductionCopies;

struct WorkGroupContext {
  const LaunchContext* launch = nullptr;
  std::array<uint64_t, 3> groupId{0, 0, 0};
  std::array<uint64_t, 3> localSize{1, 1, 1};  // actual (the last group may be smaller)
  uint64_t linearId = 0;
  uint8_t* localArena = nullptr;
  std::vector<Diagnostic>* diagnostics = nullptr;
  std::string* printf = nullptr;
  bool aborted = false;  // a fatal diagnostic: stop this work-group
  Observers observers;
  // Memory writes (lane accesses) by this work-group: the scheduler tells a spin-wait
  // that nothing in the work-group can end from one that still makes progress.
  uint64_t writes = 0;
  // (kind, instruction) -> index in *diagnostics: repeats are counted, not stored.
  std::map<std::pair<DiagnosticKind, uint32_t>, size_t> seen;
  // The execution whose lanes the last access-violation diagnostic collects
  // (SubGroup::reportForbiddenByFlags): the diagnostic's index, the sub-group and its step.
  struct ForbiddenAccessExecution {
    size_t diagnostic = ~size_t(0);
    uint32_t subGroup = 0;
    uint64_t step = 0;
  } lastForbidden;
  // Async copies no wait_group_events has named yet: (event, pc of the copy)
  // (src/exec/ops/async_copy.cc).
  std::vector<std::pair<uint64_t, uint32_t>> unwaitedCopies;
  // Events a wait_group_events released (each once): waiting for one again is
  // `invalid-event`, worded apart from events no copy returned.
  std::vector<uint64_t> releasedEvents;
  // The host thread's copies of privatised buffers (src/exec/reduction_copies.h); null
  // where the launch privatises none or a debugger runs the work-group.
  ReductionCopies* reductions = nullptr;
  // Whether fused handlers may take two instructions in one step (src/exec/ops/
  // fused_access.cc): a launch's host threads outside the Reference tier (observers'
  // instrumented kernels unfuse what they wrap: LoweredKernel::unfuseWhere); never the
  // debugger, which stops between any two instructions.
  bool fuse = false;
  // LaunchContext::fastPaths, one load closer to the handlers that ask.
  bool fastPaths = false;
  // Spaces whose every access takes the per-lane checked path (SubGroup::resolve): those
  // observers watch, or all of them where fast paths are off (the Reference tier).
  uint32_t checkedSpaces = 0;
  // LaunchContext::unwatchedGlobal, one load closer.
  const uint8_t* unwatchedGlobal = nullptr;
  uint64_t unwatchedGlobalCount = 0;
  // Whether an access at kernel pointer `p` in space `s` takes the per-lane checked path:
  // a checked space, but for a global region nobody watches.
  bool watches(Space s, uint64_t p) const {
    if (!(checkedSpaces & spaceBit(s))) return false;
    if (s != Space::Global) return true;
    const uint64_t r = pointerRegion(p);
    return r >= unwatchedGlobalCount || !unwatchedGlobal[r];
  }
  // LaunchContext::relaxed: every access of the work-group goes through these store
  // buffers (resolve(), the atomics, fences and barriers); null under sequential
  // consistency.
  RelaxedMemory* relaxed = nullptr;
};

// One entry of the SIMT reconvergence stack: lanes `mask` continue at `pc` and, on
// reaching `rpc`, wait there for the entry below.
struct SimtEntry {
  uint32_t pc = 0;
  uint32_t rpc = kNoPc;
  LaneMask mask;
};

// Nested calls a sub-group may make (frames beyond the kernel's entry): a deeper call is
// a fatal `stack-overflow`. The loader refuses recursion (spirv/call_graph.h), so only a
// chain of that many distinct functions reaches it.
inline constexpr size_t kMaxCallDepth = 1024;
// The `active` bytes of a full sub-group of 16 (SubGroup::setMask).
inline constexpr uint8_t kSixteenOnes[16] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

// One SPIR-V function call in progress (explicit; never the C++ stack).
struct Frame {
  uint32_t function = 0;   // index into LoweredKernel::functions
  uint32_t resultReg = 0;  // caller's register for the call's result
  uint32_t simtBase = 0;   // SIMT stack depth at the call
};

enum class SubGroupState { Running, AtBarrier, Done };

// Cache-line aligned, so that every sub-group's fields lie at the same offsets in their
// lines whatever its size (64 bytes more of fields made a stencil launch 4 % slower until
// the class was aligned).
class alignas(64) SubGroup {
 public:
  // Registers and lanes.
  uint8_t* regs = nullptr;
  // One RegShape per register granule (src/exec/register_shape.h).
  uint8_t* shapes = nullptr;
  uint32_t width = 0;      // lanes per register = the sub-group size
  uint32_t liveLanes = 0;  // lanes that exist (the last sub-group may have fewer)
  LaneMask live;
  LaneMask mask;  // active lanes
  uint32_t activeCount = 0;
  bool allActive = false;    // every one of `width` lanes is active
  uint8_t shapeMask = 0;     // 0xff where allActive and width >= 2: shapes are kept
  uint8_t shapeGate = 0xff;  // 0 in the Reference tier: shapes are never kept
  uint8_t active[kMaxSubGroupSize] = {};

  // Control.
  uint32_t pc = 0;
  const Inst* code = nullptr;
  const uint32_t* extra = nullptr;
  std::vector<SimtEntry> simt;
  // LaunchContext::randomReconvergence: the sub-group's own stream of choices
  // (src/exec/reconvergence.cc), from the seed, its work-group and its id.
  bool randomReconvergence = false;
  uint64_t reconvergenceRng = 0;
  std::vector<Frame> frames;
  SubGroupState state = SubGroupState::Running;
  uint32_t barrierPc = 0;  // the barrier instruction it waits at
  // Set by handlers (atomics) after which the scheduler should switch sub-groups, so
  // sub-groups that wait on each other through memory make progress quickly.
  bool yieldRequested = false;
  // Atomics that changed memory in this turn (src/exec/ops/atomic.cc): after a few the
  // sub-group yields; cleared at the end of each turn and when the sub-group starts.
  uint8_t atomicsInTurn = 0;

  // Identity and memory.
  uint32_t id = 0;  // sub-group id within the work-group
  uint32_t firstLocalLinear = 0;
  // Lane 0's local id: firstLocalLinear in x, y, z (set with it, so that built-in reads
  // divide nothing).
  uint32_t firstLocalId[3] = {0, 0, 0};
  uint8_t* priv = nullptr;  // width * privateBytes
  uint64_t privateBytes = 0;
  WorkGroupContext* wg = nullptr;

  uint64_t steps = 0;
  // Lane instructions, kept lazily: laneSteps counts those up to step laneStepsMark, and
  // every step since ran with activeCount lanes (setMask folds them in before the count
  // changes), so a step costs no count of its own. Read laneStepsNow().
  uint64_t laneSteps = 0;
  uint64_t laneStepsMark = 0;
  uint64_t laneStepsNow() const {
    return laneSteps + uint64_t(activeCount) * (steps - laneStepsMark);
  }
  // A fused handler may take the next instruction too while steps is below this (set by
  // runSteps to the end of its stretch where the work-group fuses, else 0): the stretch
  // then holds the same instructions, fused or not.
  uint64_t fuseBefore = 0;
  // The launch's Global, Constant and Local region tables (MemoryMap::regions), indexed
  // by Space, set with `wg` by WorkGroupSlot::start: a fast access finds its region two
  // loads from here rather than through wg->launch->memory, whose dependent loads come
  // before every access's data load.
  const Region* regionTable[4] = {};
  uint64_t regionCount[4] = {};
  // The shadow register file (ObserverFactory::shadowsRegisters), else nullptr; last, so
  // that the fields the executor uses on every step keep their places.
  uint8_t* shadow = nullptr;
  // Whether every byte of `shadow` is 0 (nothing undefined in any register): the shadow
  // rules that only move or combine shadows then have nothing to do. The checker sets it
  // when it clears the file, and whatever writes a nonzero shadow byte clears it.
  bool shadowClean = false;
  // Random reconvergence's switches between the groups of one divergence
  // (src/exec/reconvergence.cc): at step interleaveAt the running group may hand over to
  // a sibling; kNeverInterleave where the sub-group has no groups apart (always under
  // ipdom). interleaveArmed: the divergence that armed it also set yieldRequested, only to
  // stop the instruction loop, whose end was fixed before (WorkGroupRun turns it back).
  // After `shadow`, like it, so that the hot fields keep their places.
  static constexpr uint64_t kNeverInterleave = ~uint64_t(0);
  uint64_t interleaveAt = kNeverInterleave;
  bool interleaveArmed = false;

  template <class T>
  T* reg(uint32_t offset) const {
    return reinterpret_cast<T*>(regs + offset);
  }

  RegShape shapeOf(uint32_t reg) const { return RegShape(shapes[shapeSlot(reg)]); }
  // `in`'s result shape when all `width` lanes ran it (and there are two or more:
  // Affine reads lane 1), else Unknown.
  // `rule`: the shape, or a function computing it, called only where `in` keeps one.
  template <class Rule>
  void setShape(const Inst& in, Rule&& rule) {
    if (in.shapeOut == kNoShapeSlot) return;
    RegShape s;
    if constexpr (std::is_invocable_v<Rule>)
      s = rule();
    else
      s = rule;
    shapes[in.shapeOut] = uint8_t(s) & shapeMask;
  }
  bool keepsShapes() const { return shapeMask != 0; }
  // After anything but the defining handlers wrote registers (the debugger's `set`).
  void forgetShapes() { std::memset(shapes, 0, wg->launch->kernel->initialShapes.size()); }

  void setMask(const LaneMask& m) {
    laneSteps = laneStepsNow();  // the steps so far ran with the old count
    laneStepsMark = steps;
    mask.copyFrom(m);
    activeCount = m.count();
    allActive = activeCount == width;
    shapeMask = allActive && width > 1 ? shapeGate : 0;
    if (allActive) {    // the common case (reconvergence, return): no bit tests
      if (width == 16)  // two stores, not `rep stos` (GCC's choice for a variable size)
        std::memcpy(active, kSixteenOnes, 16);
      else
        std::memset(active, 1, width);
      return;
    }
    for (uint32_t l = 0; l < width; ++l) active[l] = m.test(l);
  }

  // Calls f(lane) for each active lane; a tight loop when all lanes are active.
  template <class F>
  void forActive(F&& f) const {
    if (allActive) {
      for (uint32_t l = 0; l < width; ++l) f(l);
    } else {
      for (uint32_t l = 0; l < width; ++l)
        if (active[l]) f(l);
    }
  }

  // Host address of `bytes` bytes at kernel pointer `p` as seen by `lane`, or nullptr
  // with `error` set. Never returns memory outside the simulated regions. The plain
  // access it is for is reported (a write counted for the scheduler and, with observers,
  // reported to them before the caller stores its bytes).
  // An access the buffer's creation flags forbid is performed and reported here, at the
  // instruction the sub-group executes (code[pc - 1]); `error` then stays Ok.
  // Under the relaxed memory model (WorkGroupContext::relaxed) the address of global and
  // local memory is the lane's new buffered store (a write) or its view of memory (a
  // read), valid while the current instruction runs.
  uint8_t* resolve(uint64_t p, uint32_t lane, uint64_t bytes, bool write, AccessError& error) {
    uint8_t* host = locate(p, lane, bytes, write, error);
    if (host) {
      if (error != AccessError::Ok) [[unlikely]] {
        reportForbiddenByFlags(code[pc - 1], lane, p, bytes, write);
        error = AccessError::Ok;
      }
      if (write) ++wg->writes;
      if (wg->observers.spaces & spaceBit(pointerSpace(p))) [[unlikely]]
        notify(MemoryAccess{write ? AccessKind::Write : AccessKind::Read, lane, p, host, bytes});
      // The relaxed model: a write goes to the lane's store buffer, a read sees it.
      if (wg->relaxed) [[unlikely]]
        return wg->relaxed->plain(*this, lane, p, host, bytes, write);
    }
    return host;
  }

  // resolve() without reporting anything: for handlers that report their accesses
  // themselves (atomics, copies) and for observers. A non-null result with `error`
  // ReadOnly / WriteOnly is an access the creation flags forbid: the caller performs it
  // and reports it (reportForbiddenByFlags), or only looks (the debugger).
  uint8_t* locate(uint64_t p, uint32_t lane, uint64_t bytes, bool write, AccessError& error) const {
    const MemoryMap& mem = *wg->launch->memory;
    Space s = pointerSpace(p);
    const uint64_t region = pointerRegion(p), offset = offsetBits(p);
    const std::vector<Region>* table;
    uint8_t* arena = nullptr;
    switch (s) {
      case Space::Global:
        table = &mem.global;
        break;
      case Space::Constant:
        table = &mem.constant;
        break;
      case Space::Local:
        table = &mem.local;
        arena = wg->localArena;
        break;
      case Space::Private:
        table = &mem.priv;
        arena = priv + lane * privateBytes;
        break;
      default:
        if (p != 0 && !mem.svm.empty()) [[unlikely]]
          return locateSvm(p, lane, bytes, write, error);
        error = p == 0 ? AccessError::Null : AccessError::InvalidSpace;
        return nullptr;
    }
    if (region == 0 || region >= table->size()) {
      error = AccessError::InvalidSpace;
      return nullptr;
    }
    const Region& r = (*table)[region];
    // Negative and saturated offsets are above any region size as unsigned numbers.
    if (offset > r.size || bytes > r.size - offset) {
      error = AccessError::OutOfBounds;
      return nullptr;
    }
    error = AccessError::Ok;
    if (write ? !r.writable : !r.readable) [[unlikely]] {
      error = write ? AccessError::ReadOnly : AccessError::WriteOnly;
      // Only memory that cannot be written is refused; what the creation flags forbid is
      // performed, as a device would, and reported by the caller (Region).
      if (!(write ? r.writeForbiddenByFlags : r.readForbiddenByFlags)) return nullptr;
    }
    return (arena ? arena + r.arenaOffset : r.base) + offset;
  }

  // locate() for a raw SVM address (src/exec/svm.h): through its allocation's region.
  uint8_t* locateSvm(uint64_t p, uint32_t lane, uint64_t bytes, bool write,
                     AccessError& error) const;

  // Reports one lane's access to every observer (only call when there are some); raw
  // SVM addresses reach them as their regions' encoded Global pointers.
  void notify(const MemoryAccess& a);

  // Fast path for an access by all `width` lanes that stays inside one Global,
  // Constant or Local region: the region's host base (the lanes' offsets are
  // offsetBits() of their pointers) and how the lanes' addresses lie
  // (src/exec/lane_addresses.h); base nullptr when any lane needs the checked per-lane
  // path. A write counts `width` writes, as the per-lane path would.
  // Observers see every lane's access to their spaces through resolve(): off for those.
  struct FastAccess {
    uint8_t* base = nullptr;
    LanePattern pattern = LanePattern::Scattered;
    explicit operator bool() const { return base != nullptr; }
    // The host address of a lane's pointer `p`.
    uint8_t* at(uint64_t p) const { return hostAddress(hostOrigin(base), p); }
  };
  // `shape`: the pointer register's (src/exec/register_shape.h); an affine one is
  // classified from its end points.
  FastAccess uniformRegionBase(const uint64_t* ptrs, uint64_t bytes, bool write, uint32_t align,
                               RegShape shape = RegShape::Unknown) {
    if (!allActive) return {};
    // Every lane's space must be lane 0's: ask about that one before scanning.
    Space s = pointerSpace(ptrs[0]);
    if (s != Space::Global && s != Space::Constant && s != Space::Local) return {};
    if (wg->watches(s, ptrs[0])) [[unlikely]]
      return observedRun(ptrs, bytes, write, align, shape, s);
    // The smallest and largest pointer: when they share space and region bits, so do all
    // in between, and their offsets bound everyone's.
    const LaneAddresses lanes = affineOrUniform(shape) && width > 1
                                    ? affineLanes(ptrs, width, bytes)
                                    : classifyLanes(ptrs, width, bytes);
    return regionSpanning(lanes, s, bytes, write, align, width, lanes.lo);
  }

  // uniformRegionBase where observers watch space `s`: the fast access of a contiguous
  // access (or one address read by every lane), reported to them as one accessRun; none
  // (the per-lane path) otherwise, and always in the Reference tier.
  FastAccess observedRun(const uint64_t* ptrs, uint64_t bytes, bool write, uint32_t align,
                         RegShape shape, Space s);

  // uniformRegionBase for a partial mask: every active lane inside one Global, Constant or
  // Local region, pattern Scattered (the caller copies the active lanes one by one).
  FastAccess activeRegionBase(const uint64_t* ptrs, uint64_t bytes, bool write,
                              uint32_t align) const {
    if (!activeCount) return {};
    LaneAddresses lanes{LanePattern::Scattered, ~uint64_t(0), 0, 0};
    forActive([&](uint32_t l) {
      lanes.lo = std::min(lanes.lo, ptrs[l]);
      lanes.hi = std::max(lanes.hi, ptrs[l]);
      lanes.alignment |= ptrs[l];
    });
    const Space s = pointerSpace(lanes.lo);
    if (s != Space::Global && s != Space::Constant && s != Space::Local) return {};
    if (wg->watches(s, lanes.lo)) return {};
    return regionSpanning(lanes, s, bytes, write, align, activeCount, lanes.lo);
  }

  // The fast access of `count` lanes whose addresses lie in [lanes.lo, lanes.hi] (space
  // `s`): one region's host base where that span shares its space and region bits, every
  // address is aligned and inside the region, and the region allows the access.
  // `object`: a pointer with lo's space and region bits; a fused access passes its
  // chain's base, known long before the lanes' addresses, so that the region's lookup
  // need not wait for them.
  [[gnu::always_inline]] FastAccess regionSpanning(const LaneAddresses& lanes, Space s,
                                                   uint64_t bytes, bool write, uint32_t align,
                                                   uint32_t count, uint64_t object) const {
    const uint64_t lo = lanes.lo, hi = lanes.hi;
    if (((lo ^ hi) >> kOffsetBits) || (lanes.alignment & (align - 1))) return {};
    const uint32_t space = uint32_t(s);  // Global, Constant or Local: the callers ask
    const uint64_t region = pointerRegion(object);
    if (region == 0 || region >= regionCount[space]) return {};
    const Region& r = regionTable[space][region];
    // Negative and saturated offsets are above any region size as offsetBits.
    const uint64_t first = offsetBits(lo), last = offsetBits(hi);
    if (first > r.size || last > r.size || bytes > r.size - last ||
        (write ? !r.writable : !r.readable))
      return {};
    uint8_t* base = s == Space::Local ? wg->localArena + r.arenaOffset : r.base;
    if (write) wg->writes += count;
    return {base, lanes.pattern};
  }

  // Records a diagnostic at instruction `in` for `lanes` of this sub-group.
  void report(const Inst& in, DiagnosticKind kind, std::string message, const LaneMask& lanes,
              Severity severity = Severity::Error);
  // Reports an access error of `lanes` for pointer values read from `ptrs`.
  void reportAccess(const Inst& in, AccessError error, const LaneMask& lanes, const uint64_t* ptrs,
                    uint64_t bytes, bool write);
  // Lane `lane`'s access at `p` that the buffer's creation flags forbid, performed:
  // an `access-violation`, one diagnostic per instruction and work-group whose lanes are
  // those of its first execution (later executions count as repeats). A read that
  // lowering found to be the compiler's (LoweredKernel::readsBack) is not reported.
  void reportForbiddenByFlags(const Inst& in, uint32_t lane, uint64_t p, uint64_t bytes,
                              bool write);
  // A fatal error: reports it and stops the work-group.
  void fatal(const Inst& in, DiagnosticKind kind, std::string message);

  // Control-flow helpers used by the branch, call and return handlers.
  void takeEdge(uint32_t edge, const LaneMask& lanes);  // phi copies of one edge
  void jump(uint32_t targetPc);                         // all active lanes
  void diverge(const uint32_t* targets, const LaneMask* masks, uint32_t count,
               uint32_t reconvergePc);
  void popToReconvergence();
  // diverge()'s SIMT entries: the lanes of each target wait in an entry of their own,
  // and all meet again at `reconvergePc`.
  void pushDivergence(const uint32_t* targets, const LaneMask* masks, uint32_t count,
                      uint32_t reconvergePc);
  // diverge() under LaunchOptions::Reconvergence::Random (src/exec/reconvergence.cc).
  void divergeRandomly(const uint32_t* targets, const LaneMask* masks, uint32_t count,
                       uint32_t reconvergePc);
  // Seeds reconvergenceRng for this sub-group of work-group `groupLinearId`.
  void startReconvergence(const LaunchContext& launch, uint64_t groupLinearId);
  // At step interleaveAt: the running group hands over to a random sibling of its
  // divergence (or keeps running), and the next switch point is drawn.
  void interleaveGroups();
};

// Reports the async copies of `first`'s work-group that no wait_group_events waited for
// (the kernel must wait for every copy before it exits); call when the work-group ends.
void reportUnwaitedCopies(SubGroup& first);

inline void step(SubGroup& sg) {
  const Inst& in = sg.code[sg.pc++];
  ++sg.steps;  // and activeCount lane instructions (SubGroup::laneStepsNow)
  in.fn(sg, in);
}

}  // namespace spvsim
