#include "src/check/race_checker.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <spirv/unified1/spirv.hpp11>

#include "spirv/error.h"
#include "src/check/race_memory.h"
#include "src/exec/memory_limit.h"
#include "src/exec/subgroup.h"

namespace spvsim::check {
namespace {

using race::Access;
using race::AtomicHistory;
using race::ByteHistory;
using race::Page;
using race::PageTable;
using race::RaceMemory;
using race::ReadRun;
using spv::Scope;

// Memory classes: which happens-before relation an access or a synchronisation uses.
constexpr int kLocal = 0, kGlobal = 1;
constexpr uint32_t kClassBit[2] = {uint32_t(spv::MemorySemanticsMask::WorkgroupMemory),
                                   uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory)};
constexpr uint32_t kAcquire = uint32_t(spv::MemorySemanticsMask::Acquire) |
                              uint32_t(spv::MemorySemanticsMask::AcquireRelease) |
                              uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent);
constexpr uint32_t kRelease = uint32_t(spv::MemorySemanticsMask::Release) |
                              uint32_t(spv::MemorySemanticsMask::AcquireRelease) |
                              uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent);
using race::forEachLiveRead;
using race::forEachPage;
using race::kMaxConcurrent;  // atomics beyond it: the oldest of the running work-group goes
using race::kPageBytes;
constexpr size_t kMaxHeld = 64;  // releases a work-item holds for its next acquire fence

// A vector clock in sparse form: work-item (launch-wide index + 1) -> clock.
using Clocks = std::unordered_map<uint32_t, uint32_t>;

void joinInto(Clocks& into, const Clocks& from) {
  for (const auto& [item, clock] : from) {
    uint32_t& c = into[item];
    c = std::max(c, clock);
  }
}

uint32_t lookup(const Clocks& c, uint32_t item) {
  auto it = c.find(item);
  return it == c.end() ? 0 : it->second;
}

// The scope an atomic access declared (a possibly legacy one: Workgroup).
uint32_t declaredScope(const Access& a) { return a.legacy ? uint32_t(Scope::Workgroup) : a.scope; }

// Where a work-item is: what scopes compare.
struct Place {
  uint64_t wg = 0;
  uint32_t sg = 0;
  uint32_t item = 0;
};

bool sameScope(uint32_t scope, const Place& a, const Place& b) {
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

// Legacy: ordered only because a possibly legacy atomic is checked as Device scope.
enum class Verdict { Ordered, Race, Scope, Legacy };

}  // namespace

// What a release publishes: the releaser's knowledge, per class, and its weak
// knowledge (what too-narrow synchronisation told it).
struct RaceChecker::Snapshot {
  uint32_t scope = 0;
  Place releaser;
  Clocks clocks[2];
  Clocks weak;
};

using SnapshotPtr = std::shared_ptr<const RaceChecker::Snapshot>;

struct RaceChecker::Impl {
  const LaunchContext& launch;
  uint64_t maxItems = 0;  // work-items of a full work-group

  // What the accesses left: plain reads as runs, per-byte writes and atomics
  // (src/check/race_memory.h), within the budget the launch leaves the checker.
  RaceMemory memory;
  std::vector<PageTable> global;  // per global region
  PageTable local;                // the local arena of the running work-group
  bool warnedBudget = false;
  std::vector<uint8_t> wgUsedGlobalBarrier;  // per work-group (linear)
  // Sync objects: atomic location (kernel pointer) -> release snapshots, one per
  // releasing scope domain.
  std::unordered_map<uint64_t, std::vector<SnapshotPtr>> syncs;

  // The work-group running now.
  WorkGroupContext* wg = nullptr;
  uint32_t items = 0;      // its work-items
  uint32_t firstItem = 0;  // launch-wide index + 1 of its local id 0
  std::vector<uint32_t> own;
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
  };
  std::vector<ItemState> state;

  // Write-write conflicts decided once the write's bytes are in memory (same values
  // are not reported, as Oclgrind does by default).
  struct PendingWrite {
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
  std::vector<PendingWrite> pending;

  explicit Impl(const LaunchContext& l) : launch(l), memory(l.observerMemory) {}

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

  SnapshotPtr snapshot(uint32_t item, uint32_t scope, uint32_t classes) const {
    auto s = std::make_shared<Snapshot>();
    s->scope = scope;
    s->releaser = placeOf(item);
    const ItemState& st = state[item - firstItem];
    for (int c = 0; c < 2; ++c) {
      if (!(classes & kClassBit[c])) continue;
      for (uint32_t j = 0; j < items; ++j)
        if (uint32_t v = j + firstItem == item ? own[j] : base[c][j])
          s->clocks[c][firstItem + j] = v;
      joinInto(s->clocks[c], wgClocks[c]);
      joinInto(s->clocks[c], st.clocks[c]);
    }
    s->weak = wgWeak;
    joinInto(s->weak, st.weak);
    return s;
  }

  void acquire(uint32_t item, uint32_t scope, const Snapshot& s) {
    ItemState& st = state[item - firstItem];
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
  void publish(uint64_t key, SnapshotPtr s, bool replace) {
    auto& list = syncs[key];
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

  // ---- memory ----
  // Where kernel pointer `p`'s `bytes` bytes are remembered: the page table, the offset
  // in it and the memory class; false for memory that cannot race (constant memory is
  // read-only, private memory the lane's own) and for accesses outside their object.
  bool locate(uint64_t p, uint64_t bytes, PageTable*& table, uint64_t& offset, int& c) {
    const Space s = pointerSpace(p);
    if (s == Space::Global) {
      c = kGlobal;
      if (pointerRegion(p) >= global.size()) return false;
      table = &global[pointerRegion(p)];
      offset = pointerOffset(p);
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

  Verdict judge(const Access& prior, const Access& cur, int c) const {
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
    if (c == kGlobal && g != wg->linearId && wgUsedGlobalBarrier[g] &&
        wgUsedGlobalBarrier[wg->linearId])
      return Verdict::Scope;
    return Verdict::Race;
  }

  // ---- atomic accesses of a byte ----
  // Whether `prior` needs no keeping once `cur` is recorded: every later access ordered
  // after cur is ordered after prior, and conflicts with cur whenever it would with prior
  // (an atomic: cur writes if prior did, and its scope is no narrower).
  bool implied(int c, const Access& prior, const Access& cur) const {
    if (prior.atomic &&
        !((cur.write || !prior.write) && cur.scope <= prior.scope && (!cur.legacy || prior.legacy)))
      return false;
    return prior.item == cur.item || knows(cur.item, c, prior.item) >= prior.clock;
  }

  // Adds atomic access `cur` to a byte's: `latest` alone, or the set `set`.
  void addTo(SubGroup& sg, int c, Access& latest, uint32_t& set, const Access& cur) {
    if (!set && (!latest.item || implied(c, latest, cur))) {
      latest = cur;
      return;
    }
    if (!set && !(set = memory.newSet(c))) {
      warnBudget(sg);
      latest = cur;
      return;
    }
    auto& as = memory.set(c, set);
    if (as.empty()) as.push_back(latest);
    std::erase_if(as, [&](const Access& a) { return implied(c, a, cur); });
    if (as.size() == kMaxConcurrent) {
      auto it =
          std::find_if(as.begin(), as.end(), [&](const Access& a) { return inThisGroup(a.item); });
      as.erase(it == as.end() ? as.begin() : it);
    }
    as.push_back(cur);
    latest = cur;
  }

  template <class F>
  void forEachAtomic(int c, const AtomicHistory& h, F&& f) {
    if (!h.set) {
      if (h.latest.item) f(h.latest);
      return;
    }
    for (const Access& a : memory.set(c, h.set)) f(a);
  }

  // ---- the state budget ----
  // One warning, at the first access the budget could not record: what it is, what was
  // used of it after how many work-groups, and what to raise.
  void warnBudget(SubGroup& sg) {
    if (warnedBudget) return;
    warnedBudget = true;
    const uint64_t groups = wgUsedGlobalBarrier.size(), done = wg->linearId;
    const uint64_t used = addBytes(memory.used(), memory.refused());
    // Work-groups usually touch memory alike: the state grows with the groups run.
    const uint64_t estimate = std::max(used, mulBytes(used / std::max<uint64_t>(done, 1), groups));
    LaneMask lanes;
    lanes.set(0);
    sg.report(
        sg.code[sg.pc - 1], DiagnosticKind::OutOfMemory,
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

  // ---- one access against the history of its bytes ----
  // Compares `cur` with the conflicting accesses the page holds for bytes [first, end),
  // passing each to `consider` (which returns true once the verdict is final). A plain
  // write against the last plain write comes last (`lastWrites`): that conflict is
  // dropped when the bytes do not change, and must not hide another.
  template <class F>
  void compare(const Page& page, uint32_t first, uint32_t end, const Access& cur, int c,
               bool lastWrites, F&& consider) {
    const bool plainWrite = cur.write && !cur.atomic;
    if (lastWrites) {
      if (plainWrite)
        for (uint32_t b = first; b < end; ++b)
          if (const ByteHistory* h = page.history(b)) consider(h->write);
      return;
    }
    if (!plainWrite)
      for (uint32_t b = first; b < end; ++b)
        if (const ByteHistory* h = page.history(b)) consider(h->write);
    if (cur.write)
      forEachLiveRead(page, first, end, [&](const ReadRun& r, uint32_t item) {
        return consider(Access{item, r.clock, r.src, 0, 0, 0, 0});
      });
    if (page.blocks)
      for (uint32_t b = first; b < end; ++b)
        if (const AtomicHistory* a = page.atomics(b)) forEachAtomic(c, *a, consider);
  }

  // Adds `cur` to the history of bytes [first, end) of the page.
  void remember(SubGroup& sg, Page& page, uint32_t first, uint32_t end, const Access& cur, int c) {
    if (!cur.write && !cur.atomic) {
      if (!memory.addRead(page, cur.item, cur.clock, cur.src, first, end - first)) warnBudget(sg);
      return;
    }
    // A plain write starts a new generation: the page's reads so far are before it.
    const uint64_t gen = cur.atomic ? 0 : ++page.gen;
    for (uint32_t b = first; b < end; ++b) {
      if (cur.atomic) {
        AtomicHistory* a = memory.atomics(page, b);
        if (!a) return warnBudget(sg);
        addTo(sg, c, a->latest, a->set, cur);
        continue;
      }
      ByteHistory* h = memory.history(page, b);
      if (!h) return warnBudget(sg);
      // Later accesses ordered after this write are ordered after what it was checked
      // against (or that was reported).
      h->write = cur;
      h->writeGen = gen;
      if (AtomicHistory* a = page.atomics(b)) {
        memory.dropSet(c, a->set);
        *a = AtomicHistory{};
      }
    }
    if (!cur.atomic) memory.wrote(page);
  }

  // ---- reports ----
  std::string describeItem(uint32_t item) const {
    const uint64_t g = groupOf(item);
    const uint32_t l = localOf(item);
    const auto& n = launch.numGroups;
    const std::array<uint64_t, 3> gid{g % n[0], (g / n[0]) % n[1], g / (n[0] * n[1])};
    std::array<uint64_t, 3> size{};
    for (int d = 0; d < 3; ++d)
      size[d] = std::min(launch.enqueuedLocal[d],
                         launch.globalSize[d] - gid[d] * launch.enqueuedLocal[d]);
    const std::array<uint64_t, 3> lid{l % size[0], (l / size[0]) % size[1],
                                      l / (size[0] * size[1])};
    std::array<uint64_t, 3> global{};
    for (int d = 0; d < 3; ++d)
      global[d] = gid[d] * launch.enqueuedLocal[d] + lid[d] + launch.globalOffset[d];
    const uint32_t w = launch.kernel->width;
    return fmt::format("work-item ({},{},{}) (work-group ({},{},{}), sub-group {}, lane {})",
                       global[0], global[1], global[2], gid[0], gid[1], gid[2], l / w, l % w);
  }

  std::string reason(Verdict v, const Access& prior, const Access& cur) const {
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
        return "lanes of one sub-group write different values to one address in the same "
               "instruction";
      return "they are lanes of one sub-group: spvsim runs them in lockstep, but the memory "
             "model does not order their accesses without a sub-group barrier (or a "
             "release/acquire pair)";
    }
    return "no work-group barrier covering this memory, nor a release/acquire pair, orders "
           "them";
  }

  void report(SubGroup& sg, const Inst& in, uint32_t lane, uint64_t p, uint64_t bytes,
              const Access& cur, const Access& prior, Verdict v) {
    const Region& r = launch.memory->regions(pointerSpace(p))[pointerRegion(p)];
    const auto verb = [](const Access& a) {
      return a.atomic ? (a.write ? "atomic write" : "atomic read") : (a.write ? "write" : "read");
    };
    std::string message = fmt::format(
        "{} of {} bytes at byte offset {} of {} ({} memory) by {} conflicts with an earlier {} "
        "by {} at {}: {}",
        verb(cur), bytes, pointerOffset(p), r.name, spaceName(pointerSpace(p)),
        describeItem(cur.item), verb(prior), describeItem(prior.item),
        launch.kernel->describeInstruction(prior.src), reason(v, prior, cur));
    LaneMask lanes;
    lanes.set(lane);
    const bool scope = v == Verdict::Scope || v == Verdict::Legacy;
    sg.report(in, scope ? DiagnosticKind::InsufficientScope : DiagnosticKind::DataRace,
              std::move(message), lanes,
              v == Verdict::Legacy ? Severity::Warning : Severity::Error);
  }

  void settle() {
    for (PendingWrite& w : pending)
      if (std::memcmp(w.before.data(), w.host, w.bytes) != 0) {
        Access cur{itemOf(*w.sg, w.lane), 0, w.in->src, 0, 1, 0};
        report(*w.sg, *w.in, w.lane, w.p, w.bytes, cur, w.other, w.verdict);
      }
    pending.clear();
  }

  void record(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host, uint64_t bytes,
              Access cur) {
    PageTable* table = nullptr;
    uint64_t offset = 0;
    int c = kGlobal;
    if (!locate(p, bytes, table, offset, c)) return;
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
    for (bool lastWrites : {false, true})
      forEachPage(offset, bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
        if (const Page* page = RaceMemory::find(*table, index))
          compare(*page, from, to, cur, c, lastWrites, consider);
      });
    forEachPage(offset, bytes, [&](uint64_t index, uint32_t from, uint32_t to) {
      if (Page* page = memory.page(*table, index))
        remember(sg, *page, from, to, cur, c);
      else
        warnBudget(sg);
    });
    if (first == Verdict::Ordered) return;
    // Two plain writes: decided when the new bytes are in memory.
    if (cur.write && other.write && !cur.atomic && !other.atomic) {
      pending.push_back(PendingWrite{
          &sg, &in, lane, p, host, std::vector<uint8_t>(host, host + bytes), other, first, bytes});
      return;
    }
    report(sg, in, lane, p, bytes, cur, other, first);
  }

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

  void tick(uint32_t item) { ++own[item - firstItem]; }

  // A relaxed read's release, kept for the work-item's next acquire fence. A spin loop
  // reads the same ones again and again: each is kept once, and at most kMaxHeld (the
  // oldest go first: losing one can only add a report, never hide a race).
  void holdForFence(ItemState& st, const SnapshotPtr& s) {
    if (std::find(st.pendingAcquire.begin(), st.pendingAcquire.end(), s) != st.pendingAcquire.end())
      return;
    if (st.pendingAcquire.size() == kMaxHeld) st.pendingAcquire.erase(st.pendingAcquire.begin());
    st.pendingAcquire.push_back(s);
  }
};

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

// The page tables' pointers for global and local memory (the pages themselves come out
// of LaunchContext::observerMemory as they are made).
uint64_t pageTableBytes(const LaunchContext& launch) {
  auto table = [](uint64_t bytes) {
    return mulBytes(bytes / kPageBytes + 1, sizeof(std::unique_ptr<Page>));
  };
  uint64_t total = table(launch.memory->localArenaBytes);
  for (const Region& r : launch.memory->global) total = addBytes(total, table(r.size));
  return total;
}

}  // namespace

RaceChecker::RaceChecker(const LaunchContext& launch) : impl_(std::make_unique<Impl>(launch)) {
  Impl& m = *impl_;
  m.maxItems = launch.enqueuedLocal[0] * launch.enqueuedLocal[1] * launch.enqueuedLocal[2];
  m.global.resize(launch.memory->global.size());
  for (size_t r = 0; r < m.global.size(); ++r) m.global[r].bytes = launch.memory->global[r].size;
  m.local.bytes = launch.memory->localArenaBytes;
  m.wgUsedGlobalBarrier.assign(checkedGroups(launch), 0);
}

RaceChecker::~RaceChecker() = default;

uint64_t RaceChecker::stateBytes(const LaunchContext& launch) {
  return addBytes(pageTableBytes(launch), checkedGroups(launch));
}

void RaceChecker::workGroupBegin(WorkGroupContext& wg, SubGroup*, size_t) {
  Impl& m = *impl_;
  m.settle();
  m.wg = &wg;
  m.items = uint32_t(wg.localSize[0] * wg.localSize[1] * wg.localSize[2]);
  m.firstItem = uint32_t(wg.linearId * m.maxItems + 1);
  m.memory.clear(m.local);
  m.memory.clearSets(kLocal);
  m.own.assign(m.items, 1);
  for (int c = 0; c < 2; ++c) {
    m.base[c].assign(m.items, 0);
    m.wgClocks[c].clear();
    m.barrierClocks[c].assign(m.items, {});
  }
  m.wgWeak.clear();
  m.state.assign(m.items, Impl::ItemState{});
  // Local sync objects belong to the work-group that ran before.
  std::erase_if(m.syncs, [](const auto& e) { return pointerSpace(e.first) == Space::Local; });
}

void RaceChecker::workGroupEnd(WorkGroupContext&) {
  impl_->settle();
  impl_->wg = nullptr;
}

void RaceChecker::access(SubGroup& sg, const MemoryAccess& a) {
  switch (a.kind) {
    case AccessKind::Read:
    case AccessKind::Write:
      return plain(sg, a.lane, a.pointer, a.host, a.bytes, a.kind == AccessKind::Write);
    case AccessKind::Copy:
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
  const uint64_t key = pointerSpace(p) == Space::Global || pointerSpace(p) == Space::Local ? p : 0;
  if (!key) return;
  // Acquire side: what the value read was published with.
  if (reads) {
    auto it = m.syncs.find(key);
    if (it != m.syncs.end())
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
  if (classes & kClassBit[kGlobal]) m.wgUsedGlobalBarrier[m.wg->linearId] = 1;
  // Only this work-group reaches its local memory, and the barrier orders every one of
  // its accesses so far before every later one: none of them can conflict any more.
  if (classes & kClassBit[kLocal]) {
    m.memory.clear(m.local);
    m.memory.clearSets(kLocal);
  }
  for (int c = 0; c < 2; ++c) {
    if (!(classes & kClassBit[c])) continue;
    m.base[c] = m.own;
    for (auto& clocks : m.barrierClocks[c]) clocks.clear();
    for (auto& st : m.state) {
      for (const auto& [of, clock] : st.clocks[c])
        if (!m.inThisGroup(of)) m.wgClocks[c][of] = std::max(m.wgClocks[c][of], clock);
      st.clocks[c].clear();
    }
  }
  for (auto& st : m.state) {
    joinInto(m.wgWeak, st.weak);
    st.weak.clear();
  }
  for (uint32_t& c : m.own) ++c;
}

}  // namespace spvsim::check
