// What the race checker (src/check/race_checker.h) remembers of the accesses to global
// and local memory, and the host memory that takes.
//
// The race definition needs reads only when a write comes: a read conflicts with writes
// alone. So reads are not kept per byte. Each 1 KiB page of memory keeps its plain reads
// as runs: one run per instruction execution and page, however many work-items read in
// it (work-item k of the run read `size` bytes at start + k * stride; a run that the same
// work-items repeat at a fixed distance, a loop over an array, grows a second dimension
// instead of a new run). Per-byte state exists only for the 64-byte blocks that someone
// wrote or accessed atomically: the last plain write and the atomic accesses since it.
// A plain write does not erase reads: each page counts its plain writes (a generation),
// each run and each written byte carries the generation it was made in, and a run's read
// of a byte is one "since the last write" while the byte's write generation is not newer.
// Reads of memory nobody writes thus cost a run per instruction and page touched, and
// compare with nothing.
//
// Everything counts against a budget (LaunchContext::observerMemory: what --max-memory
// or SPVSIM_MAX_MEMORY leaves beside the launch's buffers and work-group memory); an
// allocation past it is refused (RaceMemory::refused) and the access goes unrecorded.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace spvsim::check::race {

// One recorded access to a byte.
struct Access {
  uint32_t item = 0;  // launch-wide work-item index + 1; 0: none
  uint32_t clock = 0;
  uint32_t src : 26 = 0;  // SPIR-V instruction index (for messages)
  uint32_t atomic : 1 = 0;
  uint32_t write : 1 = 0;
  uint32_t scope : 3 = 0;   // spv::Scope of an atomic, as checked
  uint32_t legacy : 1 = 0;  // a possibly legacy atomic: Workgroup scope checked as Device
  bool operator==(const Access&) const = default;
};

inline constexpr uint32_t kPageBytes = 1024, kBlockBytes = 64;
inline constexpr uint32_t kBlocksPerPage = kPageBytes / kBlockBytes;
// Concurrent atomic accesses kept per byte (RaceMemory::set).
inline constexpr size_t kMaxConcurrent = 16;

// Plain reads by work-items item .. item + count - 1 of one instruction at one clock:
// work-item k's j-th read (j < reps) is the `size` bytes at page offset
// start + k * stride + j * repStride. All of them lie in [lo, hi).
struct ReadRun {
  uint64_t gen = 0;  // the page's write generation when the run began
  uint32_t item = 0;
  uint32_t clock = 0;
  uint32_t src = 0;
  uint32_t count = 1;
  uint32_t reps = 1;
  uint16_t start = 0;
  uint16_t size = 0;
  int16_t stride = 0;
  uint16_t repStride = 0;
  uint16_t lo = 0, hi = 0;

  // Whether work-item k's reads cover a byte of [from, to); `live(b)` says which bytes count.
  template <class Live>
  bool covers(uint32_t k, uint32_t from, uint32_t to, Live&& live) const;
  // The work-items k in [first, last] whose reads may meet [from, to) (none: first > last).
  void candidates(uint32_t from, uint32_t to, int64_t& first, int64_t& last) const;
  bool samePattern(const ReadRun& o) const {
    return item == o.item && count == o.count && stride == o.stride && size == o.size &&
           start == o.start && reps == o.reps && repStride == o.repStride;
  }
};

// The last plain write to one byte (or to one aligned word: Block).
struct ByteHistory {
  Access write;
  uint64_t writeGen = 0;  // the page's write generation of `write` (0: none)
};

static_assert(sizeof(ByteHistory) == 24, "README.md names 24 bytes per byte written");
inline constexpr uint32_t kWordBytes = 4;

// The atomic accesses to one byte since its last plain write.
struct AtomicHistory {
  Access latest;     // the only one while `set` is 0
  uint32_t set = 0;  // 1 + index of its concurrent atomic accesses (RaceMemory::set)
};

// The last plain write of a run of bytes by one sub-group's contiguous write: lane k's
// `size` bytes at block offset lo + k * size, by work-item first.item + k, all else as
// `first` (the lanes' clocks were equal), in page generation `gen`.
struct WriteRun {
  Access first;  // item 0: none
  uint64_t gen = 0;
  uint8_t lo = 0, hi = 0, size = 0;
};

// The per-byte state of a 64-byte block; atomics only once one touched it. Its plain
// writes are kept in one of three forms:
// - while only whole contiguous writes of a sub-group (RaceMemory::recordWriteRun, what
//   kernels writing their outputs do) wrote it, and the last one covered every byte any
//   wrote: that one run (no history entries at all);
// - while every plain write covered whole aligned 4-byte words (what int, float and wider
//   accesses do): one entry per word, as the four bytes of a word always share their last
//   write (a quarter of the memory of the next form);
// - else one entry per byte (the first narrower write makes them).
struct Block {
  bool words = true;
  WriteRun run;                            // while `history` is empty
  std::unique_ptr<ByteHistory[]> history;  // kBlockBytes / kWordBytes entries, or kBlockBytes
  std::unique_ptr<std::array<AtomicHistory, kBlockBytes>> atomics;

  // The last plain write of the byte at `offset` (write.item 0: none).
  ByteHistory at(uint32_t offset) const {
    if (history) return history[words ? offset % kBlockBytes / kWordBytes : offset % kBlockBytes];
    const uint32_t o = offset % kBlockBytes;
    if (!run.first.item || o < run.lo || o >= run.hi) return {};
    ByteHistory h{run.first, run.gen};
    h.write.item += (o - run.lo) / run.size;
    return h;
  }
  uint32_t entries() const {
    return history ? (words ? kBlockBytes / kWordBytes : kBlockBytes) : 0;
  }
};

using BlockArray = std::array<Block, kBlocksPerPage>;
class BlockPool;
// Gives a page's blocks back to the pool they came from.
struct BlockRelease {
  BlockPool* pool = nullptr;
  void operator()(BlockArray* blocks) const;
};

struct Page {
  uint64_t gen = 0;  // plain writes to the page so far
  std::vector<ReadRun> runs;
  size_t runsAfterSweep = 0;
  size_t writesSinceSweep = 0;
  // Its blocks, allocated together at the first plain write or atomic access to any.
  std::unique_ptr<BlockArray, BlockRelease> blocks;

  const Block* block(uint32_t offset) const {
    return blocks ? &(*blocks)[offset / kBlockBytes] : nullptr;
  }
  // The last plain write of byte `offset` (write.item 0 and writeGen 0: none).
  ByteHistory history(uint32_t offset) const {
    const Block* b = block(offset);
    return b ? b->at(offset) : ByteHistory{};
  }
  AtomicHistory* atomics(uint32_t offset) const {
    const Block* b = block(offset);
    return b && b->atomics ? &(*b->atomics)[offset % kBlockBytes] : nullptr;
  }
  // Whether a read of byte `offset` made in generation `gen` is since the byte's last write.
  bool readLive(uint32_t offset, uint64_t gen) const { return history(offset).writeGen <= gen; }
};

template <class Live>
bool ReadRun::covers(uint32_t k, uint32_t from, uint32_t to, Live&& live) const {
  const int64_t base = int64_t(start) + int64_t(k) * stride;
  // The reps j whose bytes [base + j * repStride, + size) meet [from, to).
  int64_t first = 0, last = reps - 1;
  if (reps > 1) {
    const int64_t lowest = int64_t(from) - base - size + 1;  // smallest useful j * repStride
    first = std::max<int64_t>(0, lowest <= 0 ? 0 : (lowest + repStride - 1) / repStride);
    last = std::min<int64_t>(last, (int64_t(to) - 1 - base) / repStride);
  }
  for (int64_t j = first; j <= last; ++j) {
    const int64_t at = base + j * repStride;
    const int64_t a = std::max<int64_t>(at, from), b = std::min<int64_t>(at + size, to);
    for (int64_t x = a; x < b; ++x)
      if (live(uint32_t(x))) return true;
  }
  return false;
}

inline void ReadRun::candidates(uint32_t from, uint32_t to, int64_t& first, int64_t& last) const {
  first = 0, last = int64_t(count) - 1;
  if (reps != 1 || stride == 0) return;
  // Work-item k's bytes [start + k * stride, + size) meet [from, to) when
  // from - size < start + k * stride < to.
  const int64_t low = int64_t(from) - size + 1 - start, high = int64_t(to) - 1 - start;
  auto floorDiv = [](int64_t a, int64_t b) {
    return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
  };
  auto ceilDiv = [&](int64_t a, int64_t b) { return -floorDiv(-a, b); };
  if (stride > 0) {
    first = std::max<int64_t>(first, ceilDiv(low, stride));
    last = std::min<int64_t>(last, floorDiv(high, stride));
  } else {
    first = std::max<int64_t>(first, ceilDiv(high, stride));
    last = std::min<int64_t>(last, floorDiv(low, stride));
  }
}

// Calls f(page index, first, end) for the parts of [offset, offset + bytes) in each page.
template <class F>
void forEachPage(uint64_t offset, uint64_t bytes, F&& f) {
  for (uint64_t at = offset, end = offset + bytes; at < end;) {
    const uint32_t first = uint32_t(at % kPageBytes);
    const uint32_t last = uint32_t(std::min<uint64_t>(kPageBytes, first + (end - at)));
    f(at / kPageBytes, first, last);
    at += last - first;
  }
}

// Calls f(run, work-item) for every plain read of a byte of [first, end) of the page
// that is since the byte's last plain write, run by run, until f returns true.
template <class F>
void forEachLiveRead(const Page& page, uint32_t first, uint32_t end, F&& f) {
  for (const ReadRun& r : page.runs) {
    if (r.hi <= first || r.lo >= end) continue;
    auto live = [&](uint32_t x) { return page.readLive(x, r.gen); };
    // Stride 0: every work-item of the run read the same bytes.
    const bool same = r.stride == 0 && r.covers(0, first, end, live);
    int64_t from = 0, to = -1;
    r.candidates(first, end, from, to);
    for (int64_t k = from; k <= to; ++k) {
      if (r.stride == 0 ? !same : !r.covers(uint32_t(k), first, end, live)) continue;
      if (f(r, r.item + uint32_t(k))) return;
    }
  }
}

// One address space's pages (a global region, or the local arena), allocated on first use.
struct PageTable {
  std::vector<std::unique_ptr<Page>> pages;  // empty until the first access
  uint64_t bytes = 0;                        // the memory it shadows
};

// The pages' block arrays, carved from 2 MiB chunks that ask for transparent huge pages
// (src/files/host_buffer.h): a written buffer's race state is about the buffer's size,
// and in 4 KiB pages its first touch costs a fault per 4 KiB. Arrays given back are
// reused. It must outlive every page it gave blocks to.
class BlockPool {
 public:
  BlockPool() = default;
  BlockPool(const BlockPool&) = delete;
  BlockPool& operator=(const BlockPool&) = delete;
  ~BlockPool();
  // A fresh array (every block empty); throws std::bad_alloc as new does.
  BlockArray* make();
  void release(BlockArray* blocks);

 private:
  std::vector<void*> chunks_;
  size_t left_ = 0;  // arrays not yet handed out in the last chunk
  std::vector<BlockArray*> free_;
};

// Host memory the race checker may take, and what it took; one per launch, shared by
// the RaceMemory objects of its work-groups resident together, with the pool their
// pages' blocks come from.
struct Budget {
  uint64_t limit = 0;
  uint64_t used = 0;
  uint64_t refused = 0;  // the first allocation refused: how much it asked (0: none yet)
  BlockPool blocks;
};

class RaceMemory {
 public:
  explicit RaceMemory(uint64_t budget) : own_{budget}, budget_(&own_) {}
  // Charging `shared` (another RaceMemory's, or the launch's).
  explicit RaceMemory(Budget& shared) : budget_(&shared) {}
  RaceMemory(const RaceMemory&) = delete;
  RaceMemory& operator=(const RaceMemory&) = delete;

  // The table's page `index`, or nullptr where none was made.
  static Page* find(PageTable& t, uint64_t index) {
    return index < t.pages.size() ? t.pages[index].get() : nullptr;
  }
  // The page, made when missing; nullptr when the budget refuses it.
  Page* page(PageTable& t, uint64_t index);
  // Makes `w` (in generation `gen`) the last plain write of bytes [first, end) of the
  // page, their blocks made when missing; false when the budget refuses (bytes from the
  // refused block on keep their history).
  bool recordWrite(Page& p, uint32_t first, uint32_t end, const Access& w, uint64_t gen);
  // The same for one sub-group's contiguous write of [first, end): `laneBytes` (at most
  // kBlockBytes) per lane from `first` on, by work-items w.item, w.item + 1, ..., all at
  // w.clock. A block that only such writes touched keeps the last as one WriteRun.
  bool recordWriteRun(Page& p, uint32_t first, uint32_t end, const Access& w, uint32_t laneBytes,
                      uint64_t gen);
  // Byte `offset`'s atomics, its block and the block's atomics made when missing; nullptr
  // when the budget refuses.
  AtomicHistory* atomics(Page& p, uint32_t offset);
  // Records a plain read (page offset, bytes) by `item`; false when the budget refuses.
  bool addRead(Page& p, uint32_t item, uint32_t clock, uint32_t src, uint32_t offset,
               uint32_t bytes);
  // Records `count` plain reads of `bytes` each, at page offsets offset, offset + stride,
  // ... (stride: bytes, or 0 for one address), by work-items item, item + 1, ..., all at
  // `clock`: what `count` addRead calls record, as one run; false when the budget refuses.
  bool addReadRun(Page& p, uint32_t item, uint32_t clock, uint32_t src, uint32_t offset,
                  uint32_t bytes, uint32_t stride, uint32_t count);
  // After a plain write to the page: a write compares with every run of its page, so
  // once the writes since the last sweep outnumber the runs, the overwritten ones go.
  void wrote(Page& p);
  // Forgets every access the pages of `t` remember but keeps the pages and their runs'
  // room (still charged): local memory after a work-group barrier, which the next
  // interval's accesses fill again.
  void forget(PageTable& t);

  // Sets of concurrent atomic accesses, per memory class (0 local, 1 global).
  std::vector<Access>& set(int c, uint32_t id) { return sets_[c][id - 1]; }
  uint32_t newSet(int c);  // 1 + index, or 0 when the budget refuses
  void dropSet(int c, uint32_t& id);
  void clearSets(int c);

  uint64_t used() const { return budget_->used; }
  uint64_t budget() const { return budget_->limit; }
  // The first allocation the budget refused: how much it asked (0: none yet).
  uint64_t refused() const { return budget_->refused; }

 private:
  bool take(uint64_t bytes);
  Block* block(Page& p, uint32_t offset);
  bool perByte(Block& b);  // one entry per byte from now on; false when refused
  bool entries(Block& b);  // history entries (of its run) from now on; false when refused
  void give(uint64_t bytes) { budget_->used -= bytes; }
  // Charges a vector's change of capacity; false (and the vector as it was) when refused.
  template <class T>
  bool grow(std::vector<T>& v);
  // Tries to fold the page's last run into one of the runs just before it (same work-items,
  // instruction and clock, at a fixed distance).
  void foldLast(Page& p);
  // Whether `last` folds into one of the kFoldWindow runs before runs[end] (and does so).
  bool foldInto(Page& p, const ReadRun& last, size_t end);
  // Adds a new run (folded into one just before it where it can be); false when the budget
  // refuses.
  bool addRun(Page& p, const ReadRun& r);
  // Drops runs no read of which is since its byte's last write, and runs that a later run
  // of the same work-items repeats exactly (a later read by the same work-item orders
  // whatever the earlier one would).
  void sweep(Page& p);

  Budget own_;
  Budget* budget_;  // &own_, or a shared one
  std::vector<std::vector<Access>> sets_[2];
  std::vector<uint32_t> freeSets_[2];
};

}  // namespace spvsim::check::race
