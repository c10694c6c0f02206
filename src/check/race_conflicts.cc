// The race checker's memory side: where an access is remembered, how it is judged against
// the accesses each of its bytes remembers (plain reads as runs, writes and atomics per
// byte, src/check/race_memory.h), what it adds to that history, and the words of the
// reports. The happens-before order it consults is kept by race_checker.cc.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <spirv/unified1/spirv.hpp11>

#include "src/check/race_checker_impl.h"
#include "src/exec/memory_limit.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {
namespace {

using race::forEachLiveRead;
using race::forEachPage;
using race::kMaxConcurrent;  // atomics beyond it: the oldest of the accessing work-group goes

const char* scopeName(uint32_t scope) {
  switch (Scope(scope)) {
    case Scope::CrossDevice:
      return "all_svm_devices";
    case Scope::Device:
      return "device";
    case Scope::Workgroup:
      return "work_group";
    case Scope::Subgroup:
      return "sub_group";
    case Scope::Invocation:
      return "work_item";
    default:
      return "unknown";
  }
}

}  // namespace

// Where kernel pointer `p`'s `bytes` bytes are remembered: the page table, the offset
// in it and the memory class; false for memory that cannot race (constant memory is
// read-only, private memory the lane's own) and for accesses outside their object.
bool RaceChecker::Impl::locate(uint64_t p, uint64_t bytes, PageTable*& table, uint64_t& offset,
                               int& c) {
  const Space s = pointerSpace(p);
  if (s == Space::Global) {
    c = kGlobal;
    const uint64_t r = pointerRegion(p);
    if (r >= globalCount) return false;
    // Within the region itself (an access past it is reported elsewhere and not kept),
    // then at the region's place in its table.
    const uint64_t size = launch.memory->global[r].size;
    if (bytes > size || pointerOffset(p) > size - bytes) return false;
    table = &globalTables[globalSlots[r].table];
    offset = globalSlots[r].offset + pointerOffset(p);
  } else if (s == Space::Local) {
    c = kLocal;
    table = &local;
    offset = launch.memory->local[pointerRegion(p)].arenaOffset + pointerOffset(p);
  } else {
    return false;
  }
  if (bytes > table->bytes || offset > table->bytes - bytes) return false;
  // The table itself is counted in stateBytes.
  if (table->pages.empty()) table->pages.resize((table->bytes + kPageBytes - 1) / kPageBytes);
  return true;
}

Verdict RaceChecker::Impl::judge(const Access& prior, const Access& cur, int c) const {
  if (!prior.item || prior.item == cur.item) return Verdict::Ordered;
  // Two atomics of inclusive scopes never race (the common case: decided first, cheaply).
  Verdict atomics = Verdict::Race;
  if (prior.atomic && cur.atomic) {
    // Device-wide as checked (a possibly legacy atomic too): inclusive; declared scopes
    // differ only for legacy ones (Workgroup: the same work-group).
    const uint32_t device = uint32_t(Scope::Device);
    if (prior.scope <= device && cur.scope <= device) {
      if ((!prior.legacy && !cur.legacy) || groupOf(prior.item) == groupOf(cur.item))
        return Verdict::Ordered;
      atomics = Verdict::Legacy;
    } else {
      const Place a = placeOf(prior.item), b = placeOf(cur.item);
      if (!sameScope(prior.scope, a, b) || !sameScope(cur.scope, a, b))
        atomics = Verdict::Scope;
      else if (sameScope(declaredScope(prior), a, b) && sameScope(declaredScope(cur), a, b))
        return Verdict::Ordered;
      else
        atomics = Verdict::Legacy;
    }
  }
  if (knows(cur.item, c, prior.item) >= prior.clock) return Verdict::Ordered;
  if (atomics != Verdict::Race) return atomics;
  if (knowsWeakly(cur.item, prior)) return Verdict::Scope;
  // Barriers of too narrow a scope: sub-group barriers between two sub-groups' accesses
  // (had they been work-group barriers, the accesses would be ordered), or work-group
  // barriers in both of two work-groups.
  const Place a = placeOf(prior.item), b = placeOf(cur.item);
  if (a.wg == b.wg && a.sg != b.sg &&
      subGroupEpoch(c, prior.item, prior.clock) != subGroupEpoch(c, cur.item, ~0u))
    return Verdict::Scope;
  const uint64_t g = groupOf(prior.item);
  if (c == kGlobal && g != wg->linearId && shared.wgUsedGlobalBarrier[g] &&
      shared.wgUsedGlobalBarrier[wg->linearId])
    return Verdict::Scope;
  return Verdict::Race;
}

// Whether `prior` needs no keeping once `cur` is recorded: every later access ordered
// after cur is ordered after prior, and conflicts with cur whenever it would with prior
// (an atomic: cur writes if prior did, and its scope is no narrower).
bool RaceChecker::Impl::implied(int c, const Access& prior, const Access& cur) const {
  if (prior.atomic &&
      !((cur.write || !prior.write) && cur.scope <= prior.scope && (!cur.legacy || prior.legacy)))
    return false;
  return prior.item == cur.item || knows(cur.item, c, prior.item) >= prior.clock;
}

// Adds atomic access `cur` to a byte's: `latest` alone, or the set `set`.
void RaceChecker::Impl::addTo(SubGroup& sg, int c, Access& latest, uint32_t& set,
                              const Access& cur) {
  if (!set && (!latest.item || implied(c, latest, cur))) {
    latest = cur;
    return;
  }
  if (!set && !(set = sets(c).newSet(c))) {
    warnBudget(sg);
    latest = cur;
    return;
  }
  auto& as = sets(c).set(c, set);
  if (as.empty()) as.push_back(latest);
  std::erase_if(as, [&](const Access& a) { return implied(c, a, cur); });
  // Full: the oldest of cur's work-group goes, else the oldest (dropping one may hide a
  // race, never make one). With work-groups resident together, cur's is this part's.
  if (as.size() == kMaxConcurrent) {
    auto it =
        std::find_if(as.begin(), as.end(), [&](const Access& a) { return inThisGroup(a.item); });
    as.erase(it == as.end() ? as.begin() : it);
  }
  as.push_back(cur);
  latest = cur;
}

bool RaceChecker::Impl::sameAtomics(int c, const AtomicHistory& a, const AtomicHistory& b) {
  if (!(a.latest == b.latest) || bool(a.set) != bool(b.set)) return false;
  if (!a.set || a.set == b.set) return true;
  RaceMemory& s = sets(c);
  return s.set(c, a.set) == s.set(c, b.set);
}

// Makes `to` hold what `from` holds (its own set); false when the budget refuses a set.
bool RaceChecker::Impl::copyAtomics(int c, const AtomicHistory& from, AtomicHistory& to) {
  if (!from.set && to.set) return false;
  if (from.set) {
    RaceMemory& s = sets(c);
    if (!to.set && !(to.set = s.newSet(c))) return false;
    s.set(c, to.set) = s.set(c, from.set);
  }
  to.latest = from.latest;
  return true;
}

template <class F>
void RaceChecker::Impl::forEachAtomic(int c, const AtomicHistory& h, F&& f) {
  if (!h.set) {
    if (h.latest.item) f(h.latest);
    return;
  }
  for (const Access& a : sets(c).set(c, h.set)) f(a);
}

// One warning, at the first access the budget could not record: what it is, what was
// used of it after how many work-groups, and what to raise.
void RaceChecker::Impl::warnBudget(SubGroup& sg) {
  if (shared.warnedBudget) return;
  shared.warnedBudget = true;
  const uint64_t groups = shared.wgUsedGlobalBarrier.size(), done = wg->linearId;
  const uint64_t used = addBytes(memory.used(), memory.refused());
  // Work-groups usually touch memory alike: the state grows with the groups run.
  const uint64_t estimate = std::max(used, mulBytes(used / std::max<uint64_t>(done, 1), groups));
  LaneMask lanes;
  lanes.set(0);
  sg.report(sg.code[sg.pc - 1], DiagnosticKind::OutOfMemory,
            fmt::format("the race checker's state reached the memory left for it ({}: the memory "
                        "limit less the launch's buffers and work-group memory) with {} of the "
                        "launch's {} work-groups done; accesses it cannot record from here on are "
                        "not compared with later ones, so races may be missed. At this rate it "
                        "needs about {} for the whole launch: raise the limit by about {} with "
                        "--max-memory (spvsim) or SPVSIM_MAX_MEMORY (OpenCL ICD)",
                        formatBytes(memory.budget()), done, groups, formatBytes(estimate),
                        formatBytes(estimate - std::min(estimate, memory.budget()))),
            lanes, Severity::Warning);
}

// Compares `cur` with the conflicting accesses the page holds for bytes [first, end),
// passing each to `consider` (which returns true once the verdict is final). A plain
// write meets the last plain write after the reads and atomics, so that a read-write or
// atomic conflict, which says more, is the one reported.
template <class F>
void RaceChecker::Impl::compare(const Page& page, uint32_t first, uint32_t end, const Access& cur,
                                int c, F&& consider) {
  const bool plainWrite = cur.write && !cur.atomic;
  auto lastWrites = [&] {
    for (uint32_t b = first; b < end; ++b)
      if (const ByteHistory h = page.history(b); h.write.item) consider(h.write);
  };
  if (!plainWrite) lastWrites();
  if (cur.write)
    forEachLiveRead(page, first, end, [&](const ReadRun& r, uint32_t item) {
      return consider(Access{item, r.clock, r.src, 0, 0, 0, 0});
    });
  if (page.blocks) {
    // A multi-byte atomic leaves the same accesses in each of its bytes: considered once.
    const AtomicHistory* previous = nullptr;
    for (uint32_t b = first; b < end; ++b) {
      const AtomicHistory* a = page.atomics(b);
      if (a && !(previous && sameAtomics(c, *previous, *a))) forEachAtomic(c, *a, consider);
      previous = a;
    }
  }
  if (plainWrite) lastWrites();
}

// Adds `cur` to the history of bytes [first, end) of the page.
void RaceChecker::Impl::remember(SubGroup& sg, Page& page, uint32_t first, uint32_t end,
                                 const Access& cur, int c) {
  if (!cur.write && !cur.atomic) {
    if (!memory.addRead(page, cur.item, cur.clock, cur.src, first, end - first)) warnBudget(sg);
    return;
  }
  if (cur.atomic) {
    // Bytes that held the same accesses as the byte before them get its result, copied
    // (addTo depends on nothing else).
    AtomicHistory* last = nullptr;
    AtomicHistory lastBefore;
    std::vector<Access> lastBeforeSet;
    RaceMemory& s = sets(c);
    for (uint32_t b = first; b < end; ++b) {
      AtomicHistory* a = memory.atomics(page, b);
      if (!a) return warnBudget(sg);
      if (last && a->latest == lastBefore.latest && bool(a->set) == bool(lastBefore.set) &&
          (!a->set || s.set(c, a->set) == lastBeforeSet) && copyAtomics(c, *last, *a))
        continue;
      lastBefore = *a;
      if (a->set) lastBeforeSet = s.set(c, a->set);
      addTo(sg, c, a->latest, a->set, cur);
      last = a;
    }
    return;
  }
  // A plain write starts a new generation: the page's reads so far are before it. Later
  // accesses ordered after this write are ordered after what it was checked against (or
  // that was reported), so it replaces the bytes' last write and their atomics.
  if (!memory.recordWrite(page, first, end, cur, ++page.gen)) return warnBudget(sg);
  if (page.blocks) {
    RaceMemory& s = sets(c);
    for (uint32_t b = first; b < end; ++b)
      if (AtomicHistory* a = page.atomics(b)) {
        s.dropSet(c, a->set);
        *a = AtomicHistory{};
      }
  }
  memory.wrote(page);
}

// "write of 4 bytes at byte offset 8 of argument 1 (out) (global memory)".
std::string RaceChecker::Impl::describeAccess(const char* verb, uint64_t p, uint64_t bytes) const {
  const Region& r = launch.memory->regions(pointerSpace(p))[pointerRegion(p)];
  return fmt::format("{} of {} bytes at byte offset {} of {} ({} memory)", verb, bytes,
                     pointerOffset(p), r.name, spaceName(pointerSpace(p)));
}

Access RaceChecker::Impl::firstConflict(PageTable& table, uint64_t offset, uint64_t bytes,
                                        const Access& cur, int c,
                                        const std::function<bool(const Access&)>& unordered) {
  Access found;
  auto consider = [&](const Access& prior) {
    if (found.item) return true;
    if (!prior.item || (!prior.write && !cur.write) || !unordered(prior)) return false;
    found = prior;
    return true;
  };
  forEachPage(offset, bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
    if (const Page* page = RaceMemory::find(table, index))
      compare(*page, from, to, cur, c, consider);
  });
  return found;
}

void RaceChecker::Impl::rememberAt(SubGroup& sg, PageTable& table, uint64_t offset, uint64_t bytes,
                                   const Access& cur, int c) {
  forEachPage(offset, bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
    if (Page* page = memory.page(table, index))
      remember(sg, *page, from, to, cur, c);
    else
      warnBudget(sg);
  });
}

std::string RaceChecker::Impl::describeItem(uint32_t item) const {
  const uint64_t g = groupOf(item);
  const uint32_t l = localOf(item);
  const auto& n = launch.numGroups;
  const std::array<uint64_t, 3> gid{g % n[0], (g / n[0]) % n[1], g / (n[0] * n[1])};
  std::array<uint64_t, 3> size{};
  for (int d = 0; d < 3; ++d)
    size[d] =
        std::min(launch.enqueuedLocal[d], launch.globalSize[d] - gid[d] * launch.enqueuedLocal[d]);
  const std::array<uint64_t, 3> lid{l % size[0], (l / size[0]) % size[1], l / (size[0] * size[1])};
  std::array<uint64_t, 3> global{};
  for (int d = 0; d < 3; ++d)
    global[d] = gid[d] * launch.enqueuedLocal[d] + lid[d] + launch.globalOffset[d];
  const uint32_t w = launch.kernel->width;
  return fmt::format("work-item ({},{},{}) (work-group ({},{},{}), sub-group {}, lane {})",
                     global[0], global[1], global[2], gid[0], gid[1], gid[2], l / w, l % w);
}

std::string RaceChecker::Impl::reason(Verdict v, const Access& prior, const Access& cur) const {
  const Place a = placeOf(prior.item), b = placeOf(cur.item);
  if (v == Verdict::Legacy)
    return fmt::format(
        "both are atomic, with memory scopes ({} and {}) that do not both include the two "
        "work-items, but llvm-spirv maps OpenCL 1.x atomic_* on global memory to Workgroup "
        "scope (SPIRV-LLVM-Translator issue 934); OpenCL 1.2 makes them device-wide: "
        "treated as Device scope",
        scopeName(declaredScope(prior)), scopeName(declaredScope(cur)));
  if (v == Verdict::Scope) {
    if (prior.atomic && cur.atomic)
      return fmt::format(
          "both are atomic, but with memory scopes ({} and {}) that do not both include the "
          "two work-items",
          scopeName(prior.scope), scopeName(cur.scope));
    if (a.wg != b.wg && !knowsWeakly(cur.item, prior))
      return "the work-group barriers between them order only the work-items of one "
             "work-group";
    if (a.sg != b.sg && !knowsWeakly(cur.item, prior))
      return "the sub-group barriers between them order only the lanes of one sub-group";
    return "they are ordered only by synchronisation (fences, atomics) whose memory scope "
           "does not include both work-items";
  }
  if (a.wg != b.wg)
    return "work-items of different work-groups are ordered only by release/acquire "
           "atomics or fences of device scope";
  if (a.sg == b.sg) {
    if (prior.write && cur.write && prior.src == cur.src)
      return "lanes of one sub-group write to one address in the same instruction";
    return "they are lanes of one sub-group: spvsim runs them in lockstep, but the memory "
           "model does not order their accesses without a sub-group barrier (or a "
           "release/acquire pair)";
  }
  return "no work-group barrier covering this memory, nor a release/acquire pair, orders "
         "them";
}

void RaceChecker::Impl::report(SubGroup& sg, const Inst& in, uint32_t lane, uint64_t p,
                               uint64_t bytes, const Access& cur, const Access& prior, Verdict v,
                               bool unchanged) {
  std::string message =
      fmt::format("{} by {} conflicts with an earlier {} by {} at {}: {}",
                  describeAccess(accessVerb(cur), p, bytes), describeItem(cur.item),
                  accessVerb(prior), describeItem(prior.item),
                  launch.kernel->describeInstruction(prior.src), reason(v, prior, cur));
  if (unchanged)
    message +=
        " (the write stored the value the bytes already held: still a data race, as "
        "the memory model orders accesses, not values)";
  LaneMask lanes;
  lanes.set(lane);
  const bool scope = v == Verdict::Scope || v == Verdict::Legacy;
  sg.report(in, scope ? DiagnosticKind::InsufficientScope : DiagnosticKind::DataRace,
            std::move(message), lanes, v == Verdict::Legacy ? Severity::Warning : Severity::Error);
}

// Each by the part of its writer's work-group: the one whose knowledge judged it (which
// has not changed since: every event settles first).
void RaceChecker::Impl::settleWrites() {
  for (PendingWrite& w : shared.pending) {
    Access cur{w.item, 0, w.in->src, 0, 1, 0};
    const bool unchanged = std::memcmp(w.before.data(), w.host, w.bytes) == 0;
    w.owner->report(*w.sg, *w.in, w.lane, w.p, w.bytes, cur, w.other, w.verdict, unchanged);
  }
  shared.pending.clear();
}

void RaceChecker::Impl::record(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host,
                               uint64_t bytes, Access cur) {
  PageTable* table = nullptr;
  uint64_t offset = 0;
  int c = kGlobal;
  if (locate(p, bytes, table, offset, c))
    recordAt(sg, lane, p, host, bytes, cur, *table, offset, c);
}

void RaceChecker::Impl::recordAt(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host,
                                 uint64_t bytes, const Access& cur, PageTable& table,
                                 uint64_t offset, int c) {
  const Inst& in = sg.code[sg.pc - 1];
  // The first conflict found, but a race or scope error wins over a legacy warning.
  Verdict first = Verdict::Ordered;
  Access other;
  auto consider = [&](const Access& prior) {
    if (first != Verdict::Ordered && first != Verdict::Legacy) return true;
    if (!prior.item || (!prior.write && !cur.write)) return false;
    const Verdict w = judge(prior, cur, c);
    if (w == Verdict::Ordered || (w == Verdict::Legacy && first == Verdict::Legacy)) return false;
    first = w;
    other = prior;
    return w != Verdict::Legacy;
  };
  forEachPage(offset, bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
    if (const Page* page = RaceMemory::find(table, index))
      compare(*page, from, to, cur, c, consider);
  });
  rememberAt(sg, table, offset, bytes, cur, c);
  if (first == Verdict::Ordered) {
    if (!shared.copies.empty()) [[unlikely]]
      meetPendingCopies(sg, lane, p, bytes, cur, table, offset);
    return;
  }
  // Two plain writes race whatever they store (the memory model compares accesses, not
  // values); the report waits until the new bytes are in memory only to say whether they
  // equal what was there.
  if (cur.write && other.write && !cur.atomic && !other.atomic) {
    shared.pending.push_back(PendingWrite{this, cur.item, &sg, &in, lane, p, host,
                                          std::vector<uint8_t>(host, host + bytes), other, first,
                                          bytes});
    return;
  }
  report(sg, in, lane, p, bytes, cur, other, first);
}

void RaceChecker::access(SubGroup& sg, const MemoryAccess& a) {
  if ((a.kind == AccessKind::Read || a.kind == AccessKind::AtomicLoad) &&
      impl_->readOnly(a.pointer))
    return impl_->settle();
  switch (a.kind) {
    case AccessKind::Read:
    case AccessKind::Write:
      return plain(sg, a.lane, a.pointer, a.host, a.bytes, a.kind == AccessKind::Write);
    case AccessKind::Copy:
      if (impl_->copying) return impl_->copyElement(a);
      plain(sg, a.lane, a.source, a.sourceHost, a.bytes, false);
      return plain(sg, a.lane, a.pointer, a.host, a.bytes, true);
    case AccessKind::AtomicLoad:
      return atomic(sg, a.lane, a.pointer, a.host, uint32_t(a.bytes), AtomicKind::Load, a.scope,
                    a.semantics);
    case AccessKind::AtomicStore:
      return atomic(sg, a.lane, a.pointer, a.host, uint32_t(a.bytes), AtomicKind::Store, a.scope,
                    a.semantics);
    case AccessKind::AtomicRmw:
      return atomic(sg, a.lane, a.pointer, a.host, uint32_t(a.bytes), AtomicKind::Rmw, a.scope,
                    a.semantics);
    case AccessKind::AtomicFailedRmw:
      return atomic(sg, a.lane, a.pointer, a.host, uint32_t(a.bytes), AtomicKind::FailedRmw,
                    a.scope, a.semantics);
  }
}

void RaceChecker::plain(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host,
                        uint64_t bytes, bool write) {
  Impl& m = *impl_;
  m.settle();
  const uint32_t item = m.itemOf(sg, lane);
  Access cur{item, m.own[item - m.firstItem], sg.code[sg.pc - 1].src, 0, write, 0};
  m.record(sg, lane, p, host, bytes, cur);
}

}  // namespace spvsim::check
