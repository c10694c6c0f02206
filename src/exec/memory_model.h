// The relaxed memory model (LaunchOptions::MemoryModel::Relaxed; src/DESIGN.md, "Relaxed
// memory model"): an operational model of the OpenCL 3.0 memory model in which each
// work-item's stores to global and local memory wait in a store buffer of its own and
// reach memory later, at points and in an order that a seeded generator picks. Stores to
// one address reach memory in program order (coherence); stores to different addresses
// may overtake each other. A work-item's own loads see its newest buffered store
// (read-your-writes, so CoWR and CoRR hold); release operations (release and seq_cst
// atomics, fences with release semantics, barriers with their fence flags) first move
// the issuing work-item's buffered stores to memory, for the memory their semantics
// name; read-modify-writes act on memory after the work-item's own stores to that
// address; the end of a work-group drains its local stores, the end of the launch all.
//
// Loads are never delayed or reordered and a store becomes visible to every other
// work-item at once, so outcomes that need load buffering (LB) or stores seen in
// different orders by different observers (IRIW) are allowed by OpenCL but never shown.
// Every scope is treated as device scope, so outcomes only a narrower scope allows are
// not shown either.
//
// A launch under this model runs serially (one host thread, work-groups in order) in the
// Reference tier, so that every access reaches the model through SubGroup::resolve or
// the atomic handlers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <unordered_map>
#include <vector>

namespace spvsim {

struct SubGroup;
struct WorkGroupContext;

// A store a work-item issued that other work-items may not see yet.
struct PendingStore {
  uint64_t group = 0;     // the work-item: linear work-group id
  uint32_t item = 0;      // and local linear id
  uint32_t subGroup = 0;  // the sub-group that issued it, and its step: the handler
  uint64_t step = 0;      // writes the bytes while that step runs
  uint64_t pointer = 0;   // the kernel pointer (what the debugger shows)
  uint8_t* host = nullptr;
  uint64_t born = 0;   // the model's tick when it was issued
  bool local = false;  // local memory; else global
  std::vector<uint8_t> bytes;
};

class RelaxedMemory {
 public:
  explicit RelaxedMemory(uint64_t seed);

  // A plain access (SubGroup::resolve) of `bytes` at kernel pointer `p`, host address
  // `host`, by `lane`: the host address the handler reads or writes instead. A write
  // gets a new buffered store (holding what the lane sees there now); a read gets memory,
  // or a copy of it with the lane's own buffered stores laid over it.
  uint8_t* plain(SubGroup& sg, uint32_t lane, uint64_t p, uint8_t* host, uint64_t bytes,
                 bool write);
  // An atomic's access, with its SPIR-V memory semantics: loads as plain reads; a
  // relaxed or release store is buffered (a release after draining the lane's stores to
  // the memory it names), a seq_cst one goes to memory after draining all of them; a
  // read-modify-write acts on memory after the lane's stores to that address (and its
  // release drains). Returns the host address the handler uses.
  enum class Atomic { Load, Store, Rmw };
  uint8_t* atomic(SubGroup& sg, uint32_t lane, uint64_t p, uint8_t* host, uint64_t bytes,
                  Atomic kind, uint32_t semantics);
  // An access the caller performs on memory itself (OpCopyMemory, pipe packets): the
  // lane's own stores that overlap it reach memory first.
  void direct(SubGroup& sg, uint32_t lane, uint64_t p, const uint8_t* host, uint64_t bytes);
  // OpMemoryBarrier and OpControlBarrier with these semantics, reached by the active
  // lanes: a release drains their stores to the memory the semantics name.
  void fence(SubGroup& sg, uint32_t semantics);
  // Every work-item of the work-group, all memory (a work-group's collective copy).
  void drainGroup(WorkGroupContext& wg);
  // The work-group ended: its local memory is gone, so its local stores drain now.
  void workGroupEnd(WorkGroupContext& wg);
  // The launch ended: everything drains, in a random order (per address in issue order).
  void drainAll();

  // The stores not yet in memory, oldest first (the debugger shows them).
  const std::vector<PendingStore>& pending() const { return pending_; }
  // Stores buffered since the launch began (--stats).
  uint64_t buffered() const { return buffered_; }

 private:
  struct Item {
    uint64_t group;
    uint32_t item;
  };
  static Item itemOf(const SubGroup& sg, uint32_t lane);
  static bool isItem(const PendingStore& s, Item it) {
    return s.group == it.group && s.item == it.item;
  }
  static uint64_t key(Item it) { return (it.group << 32) ^ it.item; }

  void enter(SubGroup& sg);  // a hook runs for `sg`'s current step
  void tick();
  bool inFlight(const PendingStore& s) const;
  size_t oldestBlocking(size_t i) const;
  void drainAt(size_t i);
  template <class Pred>
  void drainWhere(Pred&& pred);
  template <class Pred>
  void drainShuffled(Pred&& pred);
  void drainItem(Item it, uint32_t classes);
  void drainOverlapping(Item it, const uint8_t* host, uint64_t bytes);
  uint8_t* view(Item it, uint8_t* host, uint64_t bytes);
  uint8_t* buffer(SubGroup& sg, Item it, uint64_t p, uint8_t* host, uint64_t bytes);
  uint64_t next();

  std::vector<PendingStore> pending_;             // issue order
  std::unordered_map<uint64_t, uint32_t> items_;  // key(item) -> its pending stores
  std::deque<std::vector<uint8_t>> scratch_;      // views handed out in the current step
  uint64_t rng_;
  uint32_t drainChance_;  // of 16, at each tick: picked from the seed
  uint64_t ticks_ = 0, buffered_ = 0;
  // The step hooks run in: stores issued in it are still being written.
  WorkGroupContext* wg_ = nullptr;
  uint64_t group_ = ~uint64_t(0), step_ = 0;
  uint32_t subGroup_ = 0;
};

}  // namespace spvsim
