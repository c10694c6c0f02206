// The relaxed memory model's store buffers (src/exec/memory_model.h).
#include "src/exec/memory_model.h"

#include <algorithm>
#include <cstring>
#include <spirv/unified1/spirv.hpp11>

#include "src/exec/subgroup.h"

namespace spvsim {
namespace {

using Sem = spv::MemorySemanticsMask;
constexpr uint32_t bit(Sem s) { return uint32_t(s); }

// Memory classes as the semantics name them. Image memory is global memory (an image's
// storage is a Global region).
constexpr uint32_t kLocalClass = bit(Sem::WorkgroupMemory);
constexpr uint32_t kGlobalClass = bit(Sem::CrossWorkgroupMemory) | bit(Sem::ImageMemory);
constexpr uint32_t kAllClasses = kLocalClass | kGlobalClass;
constexpr uint32_t kReleases =
    bit(Sem::Release) | bit(Sem::AcquireRelease) | bit(Sem::SequentiallyConsistent);

// Bounds that keep the buffers small. Beyond them the oldest store drains: a store may
// reach memory at any time, so a bound only picks one of the schedules the model has.
constexpr size_t kMaxPending = 64;    // stores buffered in the whole launch
constexpr uint32_t kMaxPerItem = 16;  // by one work-item
// Ticks (modelled accesses) a store may wait: a spin-wait on a buffered flag ends, and
// the deadlock rule (src/exec/workgroup.cc) sees the drain as the write it is.
constexpr uint64_t kMaxAge = 256;
// The chance, of 16, that a tick drains a store, one per launch from the seed: some
// launches drain eagerly (near sequential consistency), some hold stores long.
constexpr uint32_t kDrainChances[] = {1, 4, 8, 12};

// Private memory belongs to one work-item and constant memory is never written: neither
// has anything to buffer. Raw SVM addresses (Space::Invalid) are global memory.
bool modelled(uint64_t p) {
  const Space s = pointerSpace(p);
  return s != Space::Private && s != Space::Constant;
}

uint32_t classOf(const PendingStore& s) { return s.local ? kLocalClass : kGlobalClass; }
bool releases(uint32_t semantics) { return semantics & kReleases; }
bool seqCst(uint32_t semantics) { return semantics & bit(Sem::SequentiallyConsistent); }
// An atomic orders the memory its semantics name, or all memory where they name none
// (what llvm-spirv emits for OpenCL C 2.0 atomics; the race checker reads them alike).
uint32_t atomicClasses(uint32_t semantics) {
  const uint32_t named = semantics & kAllClasses;
  return named ? named : kAllClasses;
}
// A fence or barrier orders the memory its flags name (none: no memory).
uint32_t fenceClasses(uint32_t semantics) { return semantics & kAllClasses; }

bool overlaps(const PendingStore& s, const uint8_t* host, uint64_t bytes) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(s.host), b = reinterpret_cast<uintptr_t>(host);
  return a < b + bytes && b < a + s.bytes.size();
}

}  // namespace

RelaxedMemory::RelaxedMemory(uint64_t seed) : rng_(seed ^ 0x6a09e667f3bcc909ull) {
  drainChance_ = kDrainChances[next() % std::size(kDrainChances)];
}

uint64_t RelaxedMemory::next() {  // splitmix64
  uint64_t x = rng_ += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

RelaxedMemory::Item RelaxedMemory::itemOf(const SubGroup& sg, uint32_t lane) {
  return {sg.wg->linearId, sg.firstLocalLinear + lane};
}

void RelaxedMemory::enter(SubGroup& sg) {
  if (sg.wg->linearId != group_ || sg.id != subGroup_ || sg.steps != step_) {
    group_ = sg.wg->linearId;
    subGroup_ = sg.id;
    step_ = sg.steps;
    scratch_.clear();  // the views of an earlier step are used up
  }
  wg_ = sg.wg;
}

bool RelaxedMemory::inFlight(const PendingStore& s) const {
  return s.group == group_ && s.subGroup == subGroup_ && s.step == step_;
}

// One chance to drain a random store (and the stores it must follow), then the bounds.
void RelaxedMemory::tick() {
  ++ticks_;
  if (pending_.empty()) return;
  if (next() % 16 < drainChance_) {
    const size_t i = oldestBlocking(next() % pending_.size());
    if (!inFlight(pending_[i])) drainAt(i);
  }
  while (!pending_.empty() && !inFlight(pending_.front()) &&
         (pending_.size() > kMaxPending || ticks_ - pending_.front().born > kMaxAge))
    drainAt(0);
}

// The store that must reach memory before pending_[i]: the oldest earlier store of the
// same work-item overlapping it, followed back as far as it goes (stores to one address
// drain in program order), or i itself.
size_t RelaxedMemory::oldestBlocking(size_t i) const {
  for (bool moved = true; moved;) {
    moved = false;
    const PendingStore& s = pending_[i];
    for (size_t j = 0; j < i; ++j) {
      if (isItem(pending_[j], {s.group, s.item}) && overlaps(pending_[j], s.host, s.bytes.size())) {
        i = j;
        moved = true;
        break;
      }
    }
  }
  return i;
}

void RelaxedMemory::drainAt(size_t i) {
  PendingStore& s = pending_[i];
  std::memcpy(s.host, s.bytes.data(), s.bytes.size());
  if (wg_) ++wg_->writes;  // memory changed: a spin-wait on it makes progress
  const auto it = items_.find(key({s.group, s.item}));
  if (it != items_.end() && --it->second == 0) items_.erase(it);
  pending_.erase(pending_.begin() + ptrdiff_t(i));
}

// Drains every store `pred` holds, each after the stores it must follow. Stores still
// being written (this step's) stay: the handler holds their bytes.
template <class Pred>
void RelaxedMemory::drainWhere(Pred&& pred) {
  for (size_t i = 0; i < pending_.size();) {
    if (!pred(pending_[i]) || inFlight(pending_[i])) {
      ++i;
      continue;
    }
    const size_t j = oldestBlocking(i);
    if (inFlight(pending_[j])) {
      ++i;
      continue;
    }
    drainAt(j);
    i = std::min(i, j);  // pending_[j] is gone: look at index j again
  }
}

// Drains every store `pred` holds in a random order (each after the stores it must
// follow): where others may look only afterwards (the end of a work-group or of the
// launch), the order of issue must not decide which of two work-items' stores to one
// address is last.
template <class Pred>
void RelaxedMemory::drainShuffled(Pred&& pred) {
  std::vector<size_t> candidates;
  for (;;) {
    candidates.clear();
    for (size_t i = 0; i < pending_.size(); ++i)
      if (pred(pending_[i]) && !inFlight(pending_[i])) candidates.push_back(i);
    if (candidates.empty()) return;
    const size_t j = oldestBlocking(candidates[next() % candidates.size()]);
    if (inFlight(pending_[j])) return;  // not reached: only a step's own stores are in flight
    drainAt(j);
  }
}

void RelaxedMemory::drainItem(Item it, uint32_t classes) {
  if (!items_.count(key(it))) return;
  drainWhere([&](const PendingStore& s) { return isItem(s, it) && (classOf(s) & classes); });
}

void RelaxedMemory::drainOverlapping(Item it, const uint8_t* host, uint64_t bytes) {
  if (!items_.count(key(it))) return;
  drainWhere([&](const PendingStore& s) { return isItem(s, it) && overlaps(s, host, bytes); });
}

// What work-item `it` reads at `host`: memory, or a copy of it with the work-item's own
// buffered stores laid over it, oldest first, so that the newest wins.
uint8_t* RelaxedMemory::view(Item it, uint8_t* host, uint64_t bytes) {
  if (!items_.count(key(it))) return host;
  std::vector<uint8_t>* copy = nullptr;
  const uintptr_t lo = reinterpret_cast<uintptr_t>(host), hi = lo + bytes;
  for (const PendingStore& s : pending_) {
    if (!isItem(s, it) || !overlaps(s, host, bytes)) continue;
    if (!copy) copy = &scratch_.emplace_back(host, host + bytes);
    const uintptr_t start = reinterpret_cast<uintptr_t>(s.host);
    const uintptr_t from = std::max(start, lo), to = std::min(start + s.bytes.size(), hi);
    std::memcpy(copy->data() + (from - lo), s.bytes.data() + (from - start), to - from);
  }
  return copy ? copy->data() : host;
}

// A new buffered store of `it`, holding what the work-item sees there now (a handler
// may write only part of it); returns where the handler writes its bytes.
uint8_t* RelaxedMemory::buffer(SubGroup& sg, Item it, uint64_t p, uint8_t* host, uint64_t bytes) {
  const auto count = items_.find(key(it));
  if (count != items_.end() && count->second >= kMaxPerItem) {
    const auto oldest = std::find_if(pending_.begin(), pending_.end(), [&](const PendingStore& s) {
      return isItem(s, it) && !inFlight(s);
    });
    if (oldest != pending_.end()) drainAt(size_t(oldest - pending_.begin()));
  }
  const uint8_t* now = view(it, host, bytes);
  PendingStore s;
  s.group = it.group;
  s.item = it.item;
  s.subGroup = sg.id;
  s.step = sg.steps;
  s.pointer = p;
  s.host = host;
  s.born = ticks_;
  s.local = pointerSpace(p) == Space::Local;
  s.bytes.assign(now, now + bytes);
  pending_.push_back(std::move(s));
  ++items_[key(it)];
  ++buffered_;
  return pending_.back().bytes.data();
}

uint8_t* RelaxedMemory::plain(SubGroup& sg, uint32_t lane, uint64_t p, uint8_t* host,
                              uint64_t bytes, bool write) {
  if (!modelled(p)) return host;
  enter(sg);
  tick();
  const Item it = itemOf(sg, lane);
  return write ? buffer(sg, it, p, host, bytes) : view(it, host, bytes);
}

uint8_t* RelaxedMemory::atomic(SubGroup& sg, uint32_t lane, uint64_t p, uint8_t* host,
                               uint64_t bytes, Atomic kind, uint32_t semantics) {
  if (!modelled(p)) return host;
  enter(sg);
  tick();
  const Item it = itemOf(sg, lane);
  switch (kind) {
    case Atomic::Load:
      return view(it, host, bytes);
    case Atomic::Store:
      if (seqCst(semantics)) {  // in the single order of seq_cst operations: in memory now
        drainItem(it, kAllClasses);
        return host;
      }
      if (releases(semantics)) drainItem(it, atomicClasses(semantics));
      return buffer(sg, it, p, host, bytes);
    case Atomic::Rmw:
      if (releases(semantics))
        drainItem(it, seqCst(semantics) ? kAllClasses : atomicClasses(semantics));
      drainOverlapping(it, host, bytes);  // it reads the newest value: its own stores first
      return host;
  }
  return host;
}

void RelaxedMemory::direct(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host,
                           uint64_t bytes) {
  if (!modelled(p)) return;
  enter(sg);
  tick();
  drainOverlapping(itemOf(sg, lane), host, bytes);
}

void RelaxedMemory::fence(SubGroup& sg, uint32_t semantics) {
  const uint32_t classes = fenceClasses(semantics);
  if (!releases(semantics) || !classes) return;  // an acquire waits for nothing here
  enter(sg);
  sg.forActive([&](uint32_t l) { drainItem(itemOf(sg, l), classes); });
}

void RelaxedMemory::drainGroup(WorkGroupContext& wg) {
  wg_ = &wg;
  group_ = ~uint64_t(0);  // between steps: nothing is being written
  drainShuffled([&](const PendingStore& s) { return s.group == wg.linearId; });
}

void RelaxedMemory::workGroupEnd(WorkGroupContext& wg) {
  wg_ = &wg;
  group_ = ~uint64_t(0);
  drainShuffled([&](const PendingStore& s) { return s.local && s.group == wg.linearId; });
  wg_ = nullptr;  // its context is reused for the next work-group
  scratch_.clear();
}

void RelaxedMemory::drainAll() {
  wg_ = nullptr;
  group_ = ~uint64_t(0);
  drainShuffled([](const PendingStore&) { return true; });
  scratch_.clear();
}

}  // namespace spvsim
