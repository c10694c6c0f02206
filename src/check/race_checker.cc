// The race checker's happens-before order: vector clocks per work-item and class, what a
// release publishes and an acquire takes, fences and barriers, and the observer's
// work-group and synchronisation callbacks. Each access's history and the conflicts
// reported are in race_conflicts.cc; the state both use in race_checker_impl.h.
#include "src/check/race_checker.h"

#include <fmt/core.h>

#include <algorithm>
#include <spirv/unified1/spirv.hpp11>

#include "spirv/error.h"
#include "src/check/race_checker_impl.h"
#include "src/exec/memory_limit.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {

SnapshotPtr RaceChecker::Impl::snapshot(uint32_t item, uint32_t scope, uint32_t classes) const {
  auto s = std::make_shared<Snapshot>();
  s->scope = scope;
  s->releaser = placeOf(item);
  const ItemState& st = state[item - firstItem];
  for (int c = 0; c < 2; ++c) {
    if (!(classes & kClassBit[c])) continue;
    for (uint32_t j = 0; j < items; ++j)
      if (uint32_t v = j + firstItem == item ? own[j] : base[c][j]) s->clocks[c][firstItem + j] = v;
    joinInto(s->clocks[c], wgClocks[c]);
    joinInto(s->clocks[c], st.clocks[c]);
  }
  s->weak = wgWeak;
  joinInto(s->weak, st.weak);
  return s;
}

void RaceChecker::Impl::acquire(uint32_t item, uint32_t scope, const Snapshot& s) {
  ItemState& st = state[item - firstItem];
  itemStateUsed = true;
  const Place me = placeOf(item);
  const bool inclusive = sameScope(s.scope, s.releaser, me) && sameScope(scope, s.releaser, me);
  for (int c = 0; c < 2; ++c)
    for (const auto& [of, clock] : s.clocks[c]) {
      if (knows(item, c, of) >= clock) continue;
      uint32_t& slot = inclusive ? st.clocks[c][of] : st.weak[of];
      slot = std::max(slot, clock);
    }
  // What the releaser knew only weakly stays weak, and spreads through any synchronisation.
  joinInto(st.weak, s.weak);
}

// Publishes `s` at `key` as a release (replacing the location's release sequence
// when `replace`, extending it otherwise), merged per releasing scope domain.
void RaceChecker::Impl::publish(uint64_t key, SnapshotPtr s, bool replace) {
  auto& list = syncsOf(key)[key];
  if (replace) list.clear();
  if (!s) return;
  for (auto& e : list) {
    if (e->scope == s->scope && e->releaser.wg == s->releaser.wg &&
        e->releaser.sg == s->releaser.sg &&
        (Scope(s->scope) != Scope::Invocation || e->releaser.item == s->releaser.item)) {
      auto merged = std::make_shared<Snapshot>(*e);
      for (int c = 0; c < 2; ++c) joinInto(merged->clocks[c], s->clocks[c]);
      joinInto(merged->weak, s->weak);
      e = std::move(merged);
      return;
    }
  }
  list.push_back(std::move(s));
}

// A relaxed read's release, kept for the work-item's next acquire fence. A spin loop
// reads the same ones again and again: each is kept once, and at most kMaxHeld (the
// oldest go first: losing one can only add a report, never hide a race).
void RaceChecker::Impl::holdForFence(ItemState& st, const SnapshotPtr& s) {
  itemStateUsed = true;
  if (std::find(st.pendingAcquire.begin(), st.pendingAcquire.end(), s) != st.pendingAcquire.end())
    return;
  if (st.pendingAcquire.size() == kMaxHeld) st.pendingAcquire.erase(st.pendingAcquire.begin());
  st.pendingAcquire.push_back(s);
}

namespace {

// Work-groups of the launch, after checking that the checker can name every work-item.
uint64_t checkedGroups(const LaunchContext& launch) {
  const uint64_t items =
      launch.enqueuedLocal[0] * launch.enqueuedLocal[1] * launch.enqueuedLocal[2];
  const uint64_t groups = launch.numGroups[0] * launch.numGroups[1] * launch.numGroups[2];
  if (groups > (0xfffffffeull / items))
    throw Error(DiagnosticKind::InvalidArgument,
                fmt::format("the race checker names at most 2^32 - 2 work-items; this launch "
                            "has {} work-groups of {}",
                            groups, items));
  return groups;
}

// The page tables' pointers for global memory and for the local memory of each of
// `places` work-groups running at once (the pages themselves come out of
// LaunchContext::observerMemory as they are made).
uint64_t pageTableBytes(const LaunchContext& launch, uint64_t places) {
  auto table = [](uint64_t bytes) {
    return mulBytes(bytes / kPageBytes + 1, sizeof(std::unique_ptr<Page>));
  };
  uint64_t total = mulBytes(table(launch.memory->localArenaBytes), places);
  for (const Region& r : launch.memory->global) total = addBytes(total, table(r.size));
  return total;
}

// Gives the global regions their page tables: a set of regions whose storage overlaps
// (sharedStorage) shares one, spanning their union, each region at its distance from
// the union's start; any other region has one of its own.
void shareOverlappingTables(const MemoryMap& mem, std::vector<PageTable>& tables,
                            std::vector<RaceChecker::Shared::GlobalSlot>& slots) {
  slots.assign(mem.global.size(), {});
  tables.clear();
  tables.emplace_back();  // region 0 (never valid) and empty regions: table 0
  for (const std::vector<RegionRef>& set : sharedStorage(mem, false)) {
    const uint8_t* start = mem.global[set.front().index].base;
    PageTable& table = tables.emplace_back();
    for (const RegionRef& r : set) {
      const Region& region = mem.global[r.index];
      table.bytes = std::max(table.bytes, uint64_t(region.base - start) + region.size);
      slots[r.index] = {uint32_t(tables.size() - 1), uint64_t(region.base - start),
                        set.front().index};
    }
  }
}

}  // namespace

RaceChecker::Shared::Shared(const LaunchContext& launch) : budget{launch.observerMemory} {
  shareOverlappingTables(*launch.memory, global, globalSlots);
  wgUsedGlobalBarrier.assign(checkedGroups(launch), 0);
}

std::unique_ptr<ObserverLaunchState> RaceChecker::launchState(const LaunchContext& launch) {
  return std::make_unique<Shared>(launch);
}

RaceChecker::RaceChecker(const LaunchContext& launch, ObserverLaunchState* shared) {
  if (!shared) shared = (ownShared_ = std::make_unique<Shared>(launch)).get();
  impl_ = std::make_unique<Impl>(launch, static_cast<Shared&>(*shared));
  Impl& m = *impl_;
  m.maxItems = launch.enqueuedLocal[0] * launch.enqueuedLocal[1] * launch.enqueuedLocal[2];
  m.local.bytes = launch.memory->localArenaBytes;
}

RaceChecker::~RaceChecker() = default;

uint64_t RaceChecker::stateBytes(const LaunchContext& launch) {
  const uint64_t groups = checkedGroups(launch);
  // Under --forward-progress occupancy a checker per resident work-group, each with its
  // local memory's table; the global tables and the flags are shared.
  const uint64_t places = std::clamp<uint64_t>(launch.residentGroups, 1, groups);
  return addBytes(pageTableBytes(launch, places), groups);
}

void RaceChecker::workGroupBegin(WorkGroupContext& wg, SubGroup*, size_t) {
  Impl& m = *impl_;
  m.settle();
  m.wg = &wg;
  m.items = uint32_t(wg.localSize[0] * wg.localSize[1] * wg.localSize[2]);
  m.firstItem = uint32_t(wg.linearId * m.maxItems + 1);
  // Its local memory starts afresh (the slot's, which no other work-group reaches).
  m.memory.forget(m.local);
  m.memory.clearSets(kLocal);
  if (!m.localSyncs.empty()) m.localSyncs.clear();
  // The per-work-item state is reset in place: a launch of many small work-groups would
  // otherwise spend its time freeing and allocating it.
  // Only where the last work-group synchronised at all is there anything to reset: a
  // kernel without barriers, fences or acquires skips the loops over its work-items.
  m.own.assign(m.items, 1);
  m.ownUniform = true;
  for (int c = 0; c < 2; ++c) {
    m.base[c].assign(m.items, 0);
    clearMap(m.wgClocks[c]);
    m.barrierClocks[c].resize(m.items);
    if (m.itemStateUsed)
      for (auto& clocks : m.barrierClocks[c]) clocks.clear();
  }
  clearMap(m.wgWeak);
  m.state.resize(m.items);
  if (m.itemStateUsed)
    for (Impl::ItemState& st : m.state) st.reset();
  m.itemStateUsed = false;
  std::erase_if(m.shared.copies, [&](const PendingCopy& c) { return c.owner == &m; });
  m.copying = false;
}

void RaceChecker::workGroupEnd(WorkGroupContext&) {
  impl_->settle();
  // Copies never waited for complete some time before the work-group ends.
  impl_->completeCopies(nullptr);
  impl_->wg = nullptr;
}

void RaceChecker::atomic(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host,
                         uint32_t bytes, AtomicKind kind, uint32_t scope, uint32_t semantics) {
  Impl& m = *impl_;
  m.settle();
  const uint32_t item = m.itemOf(sg, lane);
  Impl::ItemState& st = m.state[item - m.firstItem];
  const uint32_t order = semantics == kDynamicSemantics ? kAcquire | kRelease : semantics;
  const bool writes = kind == AtomicKind::Store || kind == AtomicKind::Rmw;
  const bool reads = kind != AtomicKind::Store;
  const bool legacy = (scope & kPossiblyLegacyAtomic) != 0;
  if (legacy) scope = uint32_t(Scope::Device);
  // The access itself: an RMW is one read and one write of the location.
  Access cur{item, m.own[item - m.firstItem], sg.code[sg.pc - 1].src, 1, writes, scope & 7, legacy};
  m.record(sg, lane, p, host, bytes, cur);
  const uint64_t key = m.syncKey(p);
  if (!key) return;
  // Acquire side: what the value read was published with.
  if (reads) {
    const Syncs& syncs = m.syncsOf(key);
    auto it = syncs.find(key);
    if (it != syncs.end())
      for (const SnapshotPtr& s : it->second) {
        if (order & kAcquire)
          m.acquire(item, scope, *s);
        else
          m.holdForFence(st, s);
      }
  }
  // Release side.
  if (!writes) return;
  const uint32_t classes = Impl::atomicClasses(semantics);
  SnapshotPtr s;
  if (order & kRelease)
    s = m.snapshot(item, scope, classes);
  else if (st.fenceRelease)
    s = st.fenceRelease;
  // A plain store ends the location's release sequence; an RMW continues it.
  m.publish(key, std::move(s), kind == AtomicKind::Store);
  if (order & kRelease) m.tick(item);
}

void RaceChecker::fence(SubGroup& sg, uint32_t scope, uint32_t semantics) {
  Impl& m = *impl_;
  m.settle();
  const uint32_t order = semantics == kDynamicSemantics ? kAcquire | kRelease : semantics;
  const uint32_t classes = Impl::fenceClasses(semantics);
  if (!classes) return;
  m.itemStateUsed = true;
  sg.forActive([&](uint32_t lane) {
    const uint32_t item = m.itemOf(sg, lane);
    Impl::ItemState& st = m.state[item - m.firstItem];
    if (order & kAcquire) {
      for (const SnapshotPtr& s : st.pendingAcquire) m.acquire(item, scope, *s);
      st.pendingAcquire.clear();
    }
    if (order & kRelease) {
      st.fenceRelease = m.snapshot(item, scope, classes);
      m.tick(item);
    }
  });
}

void RaceChecker::subGroupBarrier(SubGroup& sg, uint32_t scope, uint32_t semantics) {
  Impl& m = *impl_;
  m.settle();
  const uint32_t classes = Impl::fenceClasses(semantics);
  if (!classes || Scope(scope) == Scope::Invocation) return;
  m.itemStateUsed = true;
  const uint32_t first = m.itemOf(sg, 0), n = sg.liveLanes;
  for (int c = 0; c < 2; ++c) {
    if (!(classes & kClassBit[c])) continue;
    Clocks joined;
    for (uint32_t l = 0; l < n; ++l) {
      joinInto(joined, m.state[first + l - m.firstItem].clocks[c]);
      joined[first + l] = m.own[first + l - m.firstItem];
    }
    for (uint32_t l = 0; l < n; ++l) m.state[first + l - m.firstItem].clocks[c] = joined;
  }
  for (int c = 0; c < 2; ++c)
    if (classes & kClassBit[c])
      for (uint32_t l = 0; l < n; ++l)
        m.barrierClocks[c][first + l - m.firstItem].push_back(m.own[first + l - m.firstItem]);
  for (uint32_t l = 0; l < n; ++l) m.tick(first + l);
}

void RaceChecker::workGroupBarrier(SubGroup* sgs, size_t count, uint32_t scope,
                                   uint32_t semantics) {
  Impl& m = *impl_;
  m.settle();
  const uint32_t classes = Impl::fenceClasses(semantics);
  if (!classes || Scope(scope) == Scope::Invocation) return;
  if (Scope(scope) == Scope::Subgroup) {
    for (size_t i = 0; i < count; ++i) subGroupBarrier(sgs[i], scope, semantics);
    return;
  }
  if (classes & kClassBit[kGlobal]) m.shared.wgUsedGlobalBarrier[m.wg->linearId] = 1;
  // Only this work-group reaches its local memory, and the barrier orders every one of
  // its accesses so far before every later one: none of them can conflict any more.
  if (classes & kClassBit[kLocal]) {
    m.memory.forget(m.local);
    m.memory.clearSets(kLocal);
  }
  for (int c = 0; c < 2; ++c) {
    if (!(classes & kClassBit[c])) continue;
    m.base[c] = m.own;
    if (!m.itemStateUsed) continue;  // nothing in barrierClocks or the work-items' clocks
    for (auto& clocks : m.barrierClocks[c]) clocks.clear();
    for (auto& st : m.state) {
      for (const auto& [of, clock] : st.clocks[c])
        if (!m.inThisGroup(of)) m.wgClocks[c][of] = std::max(m.wgClocks[c][of], clock);
      clearMap(st.clocks[c]);
    }
  }
  if (m.itemStateUsed)
    for (auto& st : m.state) {
      joinInto(m.wgWeak, st.weak);
      clearMap(st.weak);
    }
  for (uint32_t& c : m.own) ++c;
}

}  // namespace spvsim::check
