// The execution-event interface: what checkers (src/check/) and other tools learn of a
// launch without the executor naming them (src/DESIGN.md "Execution events").
//
// A LaunchOptions carries ObserverFactory objects; each host thread's WorkGroupSlot asks
// every factory for its own ExecutionObserver, which then sees the events of the
// work-groups that slot runs, one at a time, on that thread (so observers need no locks).
// A factory that asks for a serial launch gets exactly one slot: its observer sees every
// work-group, in order; under --forward-progress occupancy:N, one host thread with a slot
// per resident work-group, whose events interleave (ObserverFactory::takesResidentGroups
// and launchState: what the slots' observers share).
//
// Each kind of event is reported at one place in the executor: plain reads and writes in
// SubGroup::resolve, memory copies and atomics in their handlers (src/exec/ops/; async
// copies between asyncCopyBegin and asyncCopyEnd, their waits too), fences
// and sub-group barriers in src/exec/ops/barrier.cc, work-group barriers where the
// scheduler releases them, work-group begin/end in WorkGroupSlot. With no observer
// attached, an access costs one test of WorkGroupContext::observers and no virtual call,
// and the single-region fast paths stay on; with one attached, every lane's access to a
// space it asked for (ObserverFactory::spaces) is reported: lane by lane through resolve(),
// or, for a whole sub-group's contiguous (or one-address read) access inside one region,
// as one accessRun (SubGroup::observedRun).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "src/exec/memory.h"
#include "src/exec/reduction.h"

namespace spvsim {

class SubGroup;
struct Inst;
struct LaunchContext;
struct LoweredKernel;
struct WorkGroupContext;

enum class AccessKind : uint8_t {
  Read,             // a plain load (OpLoad, vloadn, block reads, pointer arguments read)
  Write,            // a plain store (OpStore, vstoren, block writes, pointer outputs)
  Copy,             // OpCopyMemory*: reads `source`, writes `pointer`
  AtomicLoad,       // an atomic that only read
  AtomicStore,      // an atomic store (or flag clear)
  AtomicRmw,        // a read-modify-write that wrote (successful compare-exchange too)
  AtomicFailedRmw,  // a compare-exchange that failed: it only read
};

inline bool isAtomic(AccessKind k) { return k >= AccessKind::AtomicLoad; }

// Address spaces as a bit set.
constexpr uint32_t spaceBit(Space s) { return 1u << uint32_t(s); }
inline constexpr uint32_t kAllSpaces = spaceBit(Space::Global) | spaceBit(Space::Constant) |
                                       spaceBit(Space::Local) | spaceBit(Space::Private);

// Scope bit set on an atomic's scope for an atomic that may be an OpenCL 1.x atomic_*
// built-in which llvm-spirv translated with Workgroup scope
// (spirv::Module::possiblyLegacyAtomics).
inline constexpr uint32_t kPossiblyLegacyAtomic = 1u << 8;

// One lane's access, from the instruction the sub-group executes now
// (sg.code[sg.pc - 1]). Its address space is pointerSpace(pointer).
struct MemoryAccess {
  AccessKind kind = AccessKind::Read;
  uint32_t lane = 0;
  uint64_t pointer = 0;  // kernel pointer (src/exec/memory.h)
  uint8_t* host = nullptr;
  uint64_t bytes = 0;
  uint32_t scope = 0;      // atomics: spv::Scope, possibly | kPossiblyLegacyAtomic
  uint32_t semantics = 0;  // atomics: the semantics that applied (Unequal for a failed CAS)
  // Copy only: the source.
  uint64_t source = 0;
  const uint8_t* sourceHost = nullptr;
};

class ExecutionObserver {
 public:
  virtual ~ExecutionObserver() = default;

  // This slot's part of the launch: before its first work-group, after its last.
  virtual void launchBegin(const LaunchContext&) {}
  virtual void launchEnd() {}
  // Around each work-group, once all its sub-groups stand at the kernel's entry (their
  // built-ins, initialised Private variables and ByVal copies in place) / after it ran or
  // was abandoned.
  virtual void workGroupBegin(WorkGroupContext&, SubGroup* /*subGroups*/, size_t /*count*/) {}
  virtual void workGroupEnd(WorkGroupContext&) {}

  // Plain accesses are reported before a write stores its bytes, which are in memory by
  // the sub-group's next event; atomics after they took effect; a copy before it copies.
  virtual void access(SubGroup&, const MemoryAccess&) {}
  // A plain read or write by every lane of a whole sub-group in one instruction, all
  // inside one region, aligned and allowed (so nothing to report): lane l's access is
  // `first` with lane l, pointer and host address l * stride further (stride `bytes`:
  // contiguous; 0: one address, reads only). It stands for the `lanes` access events
  // lane by lane, which is what the default reports; a write stores its bytes (all
  // lanes') by the sub-group's next event. Not in the Reference tier (lane by lane).
  virtual void accessRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride, uint32_t lanes) {
    MemoryAccess a = first;
    for (uint32_t l = 0; l < lanes; ++l, a.pointer += stride, a.host += stride) {
      a.lane = l;
      access(sg, a);
    }
  }
  // An async work-group copy (OpGroupAsyncCopy `in`, by the work-group; `sg` is its
  // sub-group 0) begins / ends: the Copy accesses between are its elements, which OpenCL
  // C lets complete any time until a wait_group_events names `event`.
  virtual void asyncCopyBegin(SubGroup& /*sg*/, const Inst& /*in*/, uint64_t /*event*/) {}
  virtual void asyncCopyEnd(SubGroup& /*sg*/) {}
  // wait_group_events (by the work-group; `sg` is its sub-group 0): the copies of
  // `events` are complete. Reported before the wait's workGroupBarrier.
  virtual void asyncCopiesWaited(SubGroup& /*sg*/, const std::vector<uint64_t>& /*events*/) {}
  // OpMemoryBarrier by the sub-group's active lanes.
  virtual void fence(SubGroup&, uint32_t /*scope*/, uint32_t /*semantics*/) {}
  // OpControlBarrier at Subgroup execution scope, by the whole sub-group.
  virtual void subGroupBarrier(SubGroup&, uint32_t /*scope*/, uint32_t /*semantics*/) {}
  // OpControlBarrier at Workgroup execution scope, once every sub-group reached it.
  virtual void workGroupBarrier(SubGroup* /*subGroups*/, size_t /*count*/, uint32_t /*scope*/,
                                uint32_t /*semantics*/) {}
};

// What the observers one factory makes for a launch share (ObserverFactory::launchState):
// each slot has an observer of its own, and where several slots' work-groups must be
// compared with each other, what they compare lives here, once per launch.
class ObserverLaunchState {
 public:
  virtual ~ObserverLaunchState() = default;
};

class ObserverFactory {
 public:
  virtual ~ObserverFactory() = default;
  // The address spaces whose every plain lane access its observer must see in `launch`
  // (its memory bound). Accesses to other spaces may take the executor's fast paths
  // unreported, or be reported anyway (atomics and copies always are, and other observers
  // may ask for them).
  virtual uint32_t spaces(const LaunchContext& /*launch*/) const { return kAllSpaces; }
  // Where spaces() names Global: whether its observer must see the accesses to global
  // region `region` (MemoryMap::global) in `launch`. Those to a region that no factory
  // must see may take the fast paths unreported, as in a space nobody watches.
  virtual bool watchesGlobalRegion(const LaunchContext& /*launch*/, uint64_t /*region*/) const {
    return true;
  }
  // Work-groups one at a time, in order, on one host thread (verdicts that must not
  // depend on timing).
  virtual bool serial() const { return false; }
  // Under --forward-progress occupancy a serial launch holds several work-groups at once,
  // each in a slot of its own, on one host thread (src/exec/resident_groups.h): each
  // slot's observer sees its own work-group's events, interleaved with the other slots'.
  // A factory whose observers compare the work-groups resident together (through their
  // launchState) says so here: it is charged stateBytes once, not once per slot, and the
  // launch does not warn that those work-groups are seen apart.
  virtual bool takesResidentGroups() const { return false; }
  // State shared by the observers of all the launch's slots (LaunchContext::
  // launchStateOf), made once per launch after instrument() and observerMemory are
  // settled, before the first slot; nullptr: none.
  virtual std::unique_ptr<ObserverLaunchState> launchState(const LaunchContext&) const {
    return nullptr;
  }
  // Each lane's private arena and the local arena followed by a mirror of the same size,
  // the factory's own (LaunchContext::mirrorOf: byte i of it at host address +
  // mirrorOf(this) x MemoryMap::{private,local}ArenaBytes), zeroed with the arena for
  // each work-group, for per-byte state the observer keeps.
  virtual bool mirrorsArenas() const { return false; }
  // Each sub-group gets a shadow register file (SubGroup::shadow, LoweredKernel::registerBytes
  // bytes laid out as the registers), for per-register-byte state the observer keeps.
  virtual bool shadowsRegisters() const { return false; }
  // Whether its observer must see each built-in load as a read of the lane's private copy
  // (LaunchContext::builtinStorage: every built-in written to private memory at each
  // sub-group start, read back from there). Without it built-in reads compute their values
  // straight into registers, unreported: the checkers need no report of them (built-ins
  // are private, so nothing races on them, and always defined), and the copies cost a
  // write per built-in per lane per sub-group and a reported read per load.
  virtual bool readsBuiltinsAsMemory() const { return true; }
  // Whether the launch may privatise reduction target `t` bound to `region` with this
  // observer on (src/DESIGN.md, "Privatised reductions"): the target's atomics then add
  // into a host thread's copy unreported, but for lanes of one instruction that fall in
  // several buffers. No by default: the observer sees every atomic on the buffer.
  virtual bool letsReductionBypass(const LaunchContext& /*launch*/, const ReductionTarget& /*t*/,
                                   const Region& /*region*/) const {
    return false;
  }
  // A copy of the launch's kernel (launch.kernel) whose instructions the checker rewrote,
  // e.g. to run its rules around their handlers, or nullptr to run the kernel as lowered.
  // Called once per launch, after its memory is bound; the launch then runs the copy. At
  // most one factory of a launch may return one (the launch refuses a second with an
  // internal error: each finds its rules by casting the launch's kernel to its own type;
  // the front ends refuse such combinations first). Instrumenting only when the checker
  // is on keeps the executor's code untouched otherwise.
  virtual std::shared_ptr<const LoweredKernel> instrument(const LaunchContext&) const {
    return nullptr;
  }
  // Host memory its observer's state takes for a launch, counted against
  // LaunchOptions::maxMemory before anything is allocated, and what to call it in the
  // message when it does not fit ("the ... checker's state"). May throw Error.
  virtual uint64_t stateBytes(const LaunchContext&) const { return 0; }
  virtual std::string stateName() const { return "an observer's state"; }
  // Host memory each slot's observer keeps for a launch (counters of its own, merged at
  // its end), counted in every WorkGroupSlot's bytes: the threads a launch starts are
  // those whose slots fit LaunchOptions::maxMemory.
  virtual uint64_t slotStateBytes(const LaunchContext&) const { return 0; }
  // One observer for one WorkGroupSlot of the launch.
  virtual std::unique_ptr<ExecutionObserver> create(const LaunchContext&) const = 0;
};

}  // namespace spvsim
