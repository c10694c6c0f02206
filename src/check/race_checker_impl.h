// The race checker's state (RaceChecker::Impl) and the happens-before vocabulary its two
// files share: race_checker.cc keeps the happens-before order (vector clocks, what
// releases publish and acquires take, barriers), race_conflicts.cc each access's history
// and the conflicts it reports. Included by those two files only.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <spirv/unified1/spirv.hpp11>
#include <string>
#include <unordered_map>
#include <vector>

#include "src/check/race_checker.h"
#include "src/check/race_memory.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {

using race::Access;
using race::AtomicHistory;
using race::Budget;
using race::ByteHistory;
using race::Page;
using race::PageTable;
using race::RaceMemory;
using race::ReadRun;
using spv::Scope;

// Memory classes: which happens-before relation an access or a synchronisation uses.
inline constexpr int kLocal = 0, kGlobal = 1;
inline constexpr uint32_t kClassBit[2] = {uint32_t(spv::MemorySemanticsMask::WorkgroupMemory),
                                          uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory)};
inline constexpr uint32_t kAcquire = uint32_t(spv::MemorySemanticsMask::Acquire) |
                                     uint32_t(spv::MemorySemanticsMask::AcquireRelease) |
                                     uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent);
inline constexpr uint32_t kRelease = uint32_t(spv::MemorySemanticsMask::Release) |
                                     uint32_t(spv::MemorySemanticsMask::AcquireRelease) |
                                     uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent);
using race::kPageBytes;
inline constexpr size_t kMaxHeld = 64;  // releases a work-item holds for its next acquire fence

// A vector clock in sparse form: work-item (launch-wide index + 1) -> clock.
using Clocks = std::unordered_map<uint32_t, uint32_t>;

inline void joinInto(Clocks& into, const Clocks& from) {
  for (const auto& [item, clock] : from) {
    uint32_t& c = into[item];
    c = std::max(c, clock);
  }
}

// Clears `c` (an unordered_map's clear() walks every bucket it ever grew, empty or not).
inline void clearMap(Clocks& c) {
  if (!c.empty()) c.clear();
}

inline uint32_t lookup(const Clocks& c, uint32_t item) {
  auto it = c.find(item);
  return it == c.end() ? 0 : it->second;
}

// The scope an atomic access declared (a possibly legacy one: Workgroup).
inline uint32_t declaredScope(const Access& a) {
  return a.legacy ? uint32_t(Scope::Workgroup) : a.scope;
}

// Where a work-item is: what scopes compare.
struct Place {
  uint64_t wg = 0;
  uint32_t sg = 0;
  uint32_t item = 0;
};

inline bool sameScope(uint32_t scope, const Place& a, const Place& b) {
  switch (Scope(scope)) {
    case Scope::CrossDevice:
    case Scope::Device:
      return true;
    case Scope::Workgroup:
      return a.wg == b.wg;
    case Scope::Subgroup:
      return a.wg == b.wg && a.sg == b.sg;
    default:
      return a.item == b.item;
  }
}

inline const char* accessVerb(const Access& a) {
  return a.atomic ? (a.write ? "atomic write" : "atomic read") : (a.write ? "write" : "read");
}

// Legacy: ordered only because a possibly legacy atomic is checked as Device scope.
enum class Verdict { Ordered, Race, Scope, Legacy };

// What a release publishes: the releaser's knowledge, per class, and its weak
// knowledge (what too-narrow synchronisation told it).
struct RaceChecker::Snapshot {
  uint32_t scope = 0;
  Place releaser;
  Clocks clocks[2];
  Clocks weak;
};

using SnapshotPtr = std::shared_ptr<const RaceChecker::Snapshot>;

using Syncs = std::unordered_map<uint64_t, std::vector<SnapshotPtr>>;

// A write-write race, reported once the write's bytes are in memory (at the next event,
// of any work-group) so that the report can say whether the write changed them.
struct PendingWrite {
  RaceChecker::Impl* owner;  // the writer's work-group's part, which reports it
  uint32_t item;
  SubGroup* sg;
  const Inst* in;
  uint32_t lane;
  uint64_t p;
  const uint8_t* host;
  std::vector<uint8_t> before;
  Access other;
  Verdict verdict;
  uint64_t bytes;
};

// Async copies issued and not yet waited for (race_async_copies.cc): each element side
// as arithmetic runs of kernel memory, compared with every access until the wait.
struct CopyRun {
  PageTable* table = nullptr;
  int c = kGlobal;
  bool write = false;
  uint32_t bytes = 0;
  uint64_t first = 0;  // table offset of the run's first element
  uint64_t step = 0;   // between consecutive elements
  uint64_t count = 0;
  // Whether [offset, offset + n) of `table` meets one of the run's elements.
  bool meets(const PageTable* t, uint64_t offset, uint64_t n) const;
};
struct PendingCopy {
  const RaceChecker::Impl* owner = nullptr;  // the issuing work-group's part
  uint64_t event = 0;
  SubGroup* sg = nullptr;  // the work-group's sub-group 0
  const Inst* in = nullptr;
  std::vector<CopyRun> runs;
};

// What the race checkers of one launch share (its ObserverLaunchState, one per launch):
// what global memory's accesses left, the releases published at global atomic locations,
// which work-groups used global barriers, and what waits for the next event. Each slot's
// RaceChecker keeps the part of the work-group it runs in its Impl: one slot for a
// serial launch, one per resident work-group under --forward-progress occupancy, whose
// events interleave; every part reads and adds to this one.
struct RaceChecker::Shared final : ObserverLaunchState {
  explicit Shared(const LaunchContext& launch);

  // What the accesses to global memory left: plain reads as runs, per-byte writes and
  // atomics (src/check/race_memory.h), within the budget the launch leaves the checker,
  // which every part's allocations are charged to (Impl::memory). Global memory's atomic
  // sets are memory's.
  Budget budget;
  RaceMemory memory{budget};
  // Global memory's page tables: one per set of global regions whose storage overlaps
  // (a buffer passed as two arguments, sub-buffers of one buffer: the same bytes, whose
  // accesses race whichever argument they go through), else one per region.
  std::vector<PageTable> global;
  // Per global region: its table in `global`, where the region starts in it, and the
  // region that starts the table (offset 0), whose pointers name the table's bytes in
  // the keys of atomic locations (Impl::syncKey).
  struct GlobalSlot {
    uint32_t table = 0;
    uint64_t offset = 0;
    uint64_t first = 0;
  };
  std::vector<GlobalSlot> globalSlots;
  bool warnedBudget = false;
  std::vector<uint8_t> wgUsedGlobalBarrier;  // per work-group (linear)
  // Sync objects: global atomic location (kernel pointer) -> release snapshots, one per
  // releasing scope domain.
  Syncs syncs;
  std::vector<PendingWrite> pending;
  std::vector<PendingCopy> copies;  // of every work-group running
};

// One work-group's part of the race checker: its work-items' clocks, its local memory.
struct RaceChecker::Impl {
  const LaunchContext& launch;
  Shared& shared;
  PageTable* const globalTables;  // shared.global's (made once, with the launch state)
  const Shared::GlobalSlot* const globalSlots;  // shared.globalSlots'
  const size_t globalCount;                     // global regions
  uint64_t maxItems = 0;                        // work-items of a full work-group

  // Allocates the pages of both classes (charged to the shared budget), and holds its
  // local memory's atomic sets (global memory's are shared.memory's).
  RaceMemory memory;
  // Its local memory's pages and the releases at its local atomic locations: kernel
  // pointers to local memory name the same places in every work-group.
  PageTable local;
  Syncs localSyncs;
  RaceMemory* const setMemory[2];  // by class: &memory, &shared.memory

  // The work-group running now.
  WorkGroupContext* wg = nullptr;
  uint32_t items = 0;      // its work-items
  uint32_t firstItem = 0;  // launch-wide index + 1 of its local id 0
  std::vector<uint32_t> own;
  bool ownUniform = true;         // every entry of `own` equal (no tick since the work-group began)
  std::vector<uint32_t> base[2];  // clocks every work-item knows since the last join
  Clocks wgClocks[2];             // likewise for work-items of other work-groups
  Clocks wgWeak;
  // Per work-item: its clock at each sub-group barrier since the last work-group join.
  std::vector<std::vector<uint32_t>> barrierClocks[2];
  struct ItemState {
    Clocks clocks[2];  // knowledge beyond base/wgClocks
    Clocks weak;
    SnapshotPtr fenceRelease;                 // a release fence's, for relaxed stores
    std::vector<SnapshotPtr> pendingAcquire;  // relaxed reads', for acquire fences
    void reset() {
      for (Clocks& c : clocks) clearMap(c);
      clearMap(weak);
      fenceRelease.reset();
      pendingAcquire.clear();
    }
  };
  std::vector<ItemState> state;
  // Whether anything since the work-group began may have left state in `state` or
  // `barrierClocks` (acquires, fences, sub-group barriers): else both are as reset.
  bool itemStateUsed = true;
  bool copying = false;  // between asyncCopyBegin and asyncCopyEnd

  Impl(const LaunchContext& l, Shared& s)
      : launch(l),
        shared(s),
        globalTables(s.global.data()),
        globalSlots(s.globalSlots.data()),
        globalCount(s.globalSlots.size()),
        memory(s.budget),
        setMemory{&memory, &s.memory} {}

  // Where class c's atomic sets are, and the releases at atomic location `key`.
  RaceMemory& sets(int c) { return *setMemory[c]; }
  Syncs& syncsOf(uint64_t key) {
    return pointerSpace(key) == Space::Local ? localSyncs : shared.syncs;
  }
  // The key of the atomic location `p` points at (0: none): a global one as the same
  // bytes through the first region of its table, so that a release through one argument
  // and an acquire through another that aliases it meet at one location.
  uint64_t syncKey(uint64_t p) const {
    if (pointerSpace(p) == Space::Local) return p;
    if (pointerSpace(p) != Space::Global) return 0;
    const uint64_t r = pointerRegion(p);
    if (r >= globalCount || !globalSlots[r].table) return p;
    const Shared::GlobalSlot& slot = globalSlots[r];
    return makePointer(Space::Global, slot.first, int64_t(slot.offset + pointerOffset(p)));
  }

  // ---- identities ----
  uint32_t itemOf(const SubGroup& sg, uint32_t lane) const {
    return firstItem + sg.firstLocalLinear + lane;
  }
  bool inThisGroup(uint32_t item) const { return item >= firstItem && item < firstItem + items; }
  uint64_t groupOf(uint32_t item) const { return (item - 1) / maxItems; }
  uint32_t localOf(uint32_t item) const { return uint32_t((item - 1) % maxItems); }
  Place placeOf(uint32_t item) const {
    const uint32_t l = localOf(item);
    return {groupOf(item), l / launch.kernel->width, item};
  }

  // ---- knowledge ----
  uint32_t knows(uint32_t item, int c, uint32_t of) const {
    if (of == item) return ~0u;
    const ItemState& s = state[item - firstItem];
    const uint32_t extra = lookup(s.clocks[c], of);
    if (inThisGroup(of)) return std::max(base[c][of - firstItem], extra);
    return std::max(lookup(wgClocks[c], of), extra);
  }
  // How many sub-group barriers (of class c, since the last work-group join) `item`
  // had passed when its clock was `clock`.
  size_t subGroupEpoch(int c, uint32_t item, uint32_t clock) const {
    const auto& clocks = barrierClocks[c][item - firstItem];
    return std::lower_bound(clocks.begin(), clocks.end(), clock) - clocks.begin();
  }
  bool knowsWeakly(uint32_t item, const Access& a) const {
    const ItemState& s = state[item - firstItem];
    return std::max(lookup(s.weak, a.item), lookup(wgWeak, a.item)) >= a.clock;
  }

  // ---- happens-before (race_checker.cc) ----
  SnapshotPtr snapshot(uint32_t item, uint32_t scope, uint32_t classes) const;
  void acquire(uint32_t item, uint32_t scope, const Snapshot& s);
  void publish(uint64_t key, SnapshotPtr s, bool replace);

  // Whether `p` points into a global buffer that nothing in the launch can write
  // (LaunchContext::readOnlyGlobal): its reads can race with nothing, so none is kept.
  bool readOnly(uint64_t p) const {
    const uint64_t r = pointerRegion(p);
    return pointerSpace(p) == Space::Global && r < launch.readOnlyGlobal.size() &&
           launch.readOnlyGlobal[r];
  }

  // ---- memory (race_conflicts.cc) ----
  bool locate(uint64_t p, uint64_t bytes, PageTable*& table, uint64_t& offset, int& c);
  Verdict judge(const Access& prior, const Access& cur, int c) const;
  // Atomic accesses of a byte.
  bool implied(int c, const Access& prior, const Access& cur) const;
  void addTo(SubGroup& sg, int c, Access& latest, uint32_t& set, const Access& cur);
  template <class F>
  void forEachAtomic(int c, const AtomicHistory& h, F&& f);
  // Whether two bytes' atomic histories hold the same accesses; copying one to another.
  bool sameAtomics(int c, const AtomicHistory& a, const AtomicHistory& b);
  bool copyAtomics(int c, const AtomicHistory& from, AtomicHistory& to);
  // The state budget.
  void warnBudget(SubGroup& sg);
  // One access against the history of its bytes.
  template <class F>
  void compare(const Page& page, uint32_t first, uint32_t end, const Access& cur, int c,
               F&& consider);
  void remember(SubGroup& sg, Page& page, uint32_t first, uint32_t end, const Access& cur, int c);
  // The first access in the history of [offset, offset + bytes) of `table` that conflicts
  // with `cur` and that `unordered` accepts (item 0: none).
  Access firstConflict(PageTable& table, uint64_t offset, uint64_t bytes, const Access& cur, int c,
                       const std::function<bool(const Access&)>& unordered);
  // Reports.
  std::string describeItem(uint32_t item) const;
  std::string reason(Verdict v, const Access& prior, const Access& cur) const;
  void report(SubGroup& sg, const Inst& in, uint32_t lane, uint64_t p, uint64_t bytes,
              const Access& cur, const Access& prior, Verdict v, bool unchanged = false);
  void settle() {
    if (!shared.pending.empty()) [[unlikely]]
      settleWrites();
  }
  void settleWrites();
  void record(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host, uint64_t bytes,
              Access cur);
  // record() of an access already located (`offset` of `table`, class c).
  void recordAt(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host, uint64_t bytes,
                const Access& cur, PageTable& table, uint64_t offset, int c);
  // remember() over the pages of [offset, offset + bytes) of `table`.
  void rememberAt(SubGroup& sg, PageTable& table, uint64_t offset, uint64_t bytes,
                  const Access& cur, int c);
  // ---- a whole sub-group's access (race_runs.cc) ----
  void recordRun(SubGroup& sg, const MemoryAccess& first, uint64_t stride, uint32_t lanes);
  bool quiet(PageTable& table, uint64_t offset, uint64_t bytes, bool write, uint32_t writer = 0,
             uint64_t laneBytes = 0) const;
  bool rememberWriteRun(SubGroup& sg, PageTable& table, uint64_t offset, uint32_t lanes,
                        uint64_t laneBytes, uint32_t src);
  bool rememberReadRun(SubGroup& sg, PageTable& table, uint64_t offset, uint32_t lanes,
                       uint64_t laneBytes, uint64_t stride, uint32_t src);
  bool sameClock(const SubGroup& sg, uint32_t lanes) const;
  bool readRunInOnePage(SubGroup& sg, PageTable& table, uint64_t offset, uint32_t lanes,
                        uint64_t laneBytes, uint64_t stride, uint32_t src);

  // ---- async copies (race_async_copies.cc) ----
  bool knownByAll(int c, const Access& prior) const;
  void copyElement(const MemoryAccess& a);
  void copySide(PendingCopy& copy, uint64_t p, uint64_t bytes, bool write);
  void meetPendingCopies(SubGroup& sg, uint32_t lane, uint64_t p, uint64_t bytes, const Access& cur,
                         const PageTable& table, uint64_t offset);
  void completeCopies(const std::vector<uint64_t>* events);
  std::string describeAccess(const char* verb, uint64_t p, uint64_t bytes) const;

  // An atomic's classes: those its semantics name, or both when it names none.
  static uint32_t atomicClasses(uint32_t semantics) {
    const uint32_t named = fenceClasses(semantics);
    return named ? named : kClassBit[0] | kClassBit[1];
  }
  // A fence's or barrier's: those its semantics name (none: it orders no memory).
  static uint32_t fenceClasses(uint32_t semantics) {
    return semantics == kDynamicSemantics ? kClassBit[0] | kClassBit[1]
                                          : semantics & (kClassBit[0] | kClassBit[1]);
  }

  void tick(uint32_t item) {
    ++own[item - firstItem];
    ownUniform = false;
  }
  void holdForFence(ItemState& st, const SnapshotPtr& s);  // race_checker.cc
};

}  // namespace spvsim::check
