#include "src/check/race_memory.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <new>
#include <unordered_set>

namespace spvsim::check::race {
namespace {

// Concurrent atomic accesses kept per byte: beyond that the oldest of the accessing
// work-group goes (src/check/race_conflicts.cc).
constexpr uint64_t kSetBytes = sizeof(std::vector<Access>) + kMaxConcurrent * sizeof(Access);
// A page's runs are swept once they doubled since the last sweep (and are this many).
constexpr size_t kSweepFrom = 32;
// How far back the page's last run looks for a run to fold into (reads of other
// arrays in the same page, or of other instructions, may come between).
constexpr size_t kFoldWindow = 4;

uint64_t pageBytes(const Page& p) {
  uint64_t n = sizeof(Page) + p.runs.capacity() * sizeof(ReadRun);
  if (p.blocks) {
    n += sizeof(*p.blocks);
    for (const Block& b : *p.blocks)
      n += b.entries() * sizeof(ByteHistory) + (b.atomics ? sizeof(*b.atomics) : 0);
  }
  return n;
}

// Whether any read of `r` is still since its byte's last write.
bool anyLive(const Page& p, const ReadRun& r) {
  auto live = [&](uint32_t x) { return p.readLive(x, r.gen); };
  for (uint32_t k = 0; k < r.count; ++k) {
    if (r.covers(k, r.lo, r.hi, live)) return true;
    if (r.stride == 0) return false;  // every work-item read the same bytes
  }
  return false;
}

struct PatternHash {
  size_t operator()(const ReadRun* r) const {
    uint64_t h = r->item;
    for (uint64_t v : {uint64_t(r->count), uint64_t(r->start), uint64_t(r->size),
                       uint64_t(uint16_t(r->stride)), uint64_t(r->reps), uint64_t(r->repStride)})
      h = h * 0x9e3779b97f4a7c15ull + v;
    return size_t(h ^ (h >> 29));
  }
};
struct PatternEqual {
  bool operator()(const ReadRun* a, const ReadRun* b) const { return a->samePattern(*b); }
};

}  // namespace

void BlockRelease::operator()(BlockArray* blocks) const { pool->release(blocks); }

namespace {
constexpr size_t kChunkBytes = size_t{2} << 20;  // one huge page
}  // namespace

BlockArray* BlockPool::make() {
  if (!free_.empty()) {
    BlockArray* b = free_.back();
    free_.pop_back();
    return new (b) BlockArray();
  }
  if (!left_) {
    chunks_.reserve(chunks_.size() + 1);  // before the chunk: nothing to free if it throws
    void* chunk = std::aligned_alloc(kChunkBytes, kChunkBytes);
    if (!chunk) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
    (void)madvise(chunk, kChunkBytes, MADV_HUGEPAGE);  // advice only
#endif
    chunks_.push_back(chunk);
    left_ = kChunkBytes / sizeof(BlockArray);
    // Room for every array to come back: release() (a deleter) must not allocate.
    try {
      free_.reserve(chunks_.size() * left_);
    } catch (...) {
      chunks_.pop_back();
      std::free(chunk);
      left_ = 0;
      throw;
    }
  }
  auto* at = static_cast<uint8_t*>(chunks_.back()) +
             (kChunkBytes / sizeof(BlockArray) - left_--) * sizeof(BlockArray);
  return new (at) BlockArray();
}

void BlockPool::release(BlockArray* blocks) {
  blocks->~BlockArray();
  free_.push_back(blocks);
}

BlockPool::~BlockPool() {
  for (void* chunk : chunks_) std::free(chunk);
}

bool RaceMemory::take(uint64_t bytes) {
  Budget& b = *budget_;
  if (bytes > b.limit || b.used > b.limit - bytes) {
    if (!b.refused) b.refused = bytes;
    return false;
  }
  b.used += bytes;
  return true;
}

template <class T>
bool RaceMemory::grow(std::vector<T>& v) {
  if (v.size() < v.capacity()) return true;
  const size_t more = std::max<size_t>(4, v.capacity());
  if (!take(more * sizeof(T))) return false;
  v.reserve(v.capacity() + more);
  return true;
}

Page* RaceMemory::page(PageTable& t, uint64_t index) {
  if (index >= t.pages.size()) return nullptr;
  auto& slot = t.pages[index];
  if (!slot && take(sizeof(Page))) slot = std::make_unique<Page>();
  return slot.get();
}

Block* RaceMemory::block(Page& p, uint32_t offset) {
  // A page's blocks in one allocation: a page written at all is usually written whole
  // (an output), and one allocation (and free) for its 16 blocks costs less than 17.
  if (!p.blocks) {
    if (!take(sizeof(*p.blocks))) return nullptr;
    p.blocks = std::unique_ptr<BlockArray, BlockRelease>(budget_->blocks.make(),
                                                         BlockRelease{&budget_->blocks});
  }
  return &(*p.blocks)[offset / kBlockBytes];
}

bool RaceMemory::entries(Block& b) {
  if (b.history) return true;
  const WriteRun r = b.run;
  const bool words = !r.first.item ||
                     (r.lo % kWordBytes == 0 && r.hi % kWordBytes == 0 && r.size % kWordBytes == 0);
  const uint32_t n = words ? kBlockBytes / kWordBytes : kBlockBytes;
  if (!take(n * sizeof(ByteHistory))) return false;
  const Block before{.run = r};
  b.history = std::make_unique<ByteHistory[]>(n);
  b.words = words;
  b.run = WriteRun{};
  for (uint32_t o = r.lo; r.first.item && o < r.hi; o += words ? kWordBytes : 1)
    b.history[words ? o / kWordBytes : o] = before.at(o);
  return true;
}

bool RaceMemory::perByte(Block& b) {
  if (!b.words) return true;
  if (!take((kBlockBytes - kBlockBytes / kWordBytes) * sizeof(ByteHistory))) return false;
  auto bytes = std::make_unique<ByteHistory[]>(kBlockBytes);
  for (uint32_t i = 0; i < kBlockBytes; ++i) bytes[i] = b.history[i / kWordBytes];
  b.history = std::move(bytes);
  b.words = false;
  return true;
}

bool RaceMemory::recordWrite(Page& p, uint32_t first, uint32_t end, const Access& w, uint64_t gen) {
  for (uint32_t at = first; at < end;) {
    Block* b = block(p, at);
    if (!b || !entries(*b)) return false;
    const uint32_t blockEnd = std::min(end, (at / kBlockBytes + 1) * kBlockBytes);
    // A write of part of a word gives the block's bytes their own entries.
    if (b->words && (at % kWordBytes || blockEnd % kWordBytes) && !perByte(*b)) return false;
    for (uint32_t x = at; x < blockEnd; x += b->words ? kWordBytes : 1) {
      ByteHistory& h = b->history[b->words ? x % kBlockBytes / kWordBytes : x % kBlockBytes];
      h.write = w;
      h.writeGen = gen;
    }
    at = blockEnd;
  }
  return true;
}

bool RaceMemory::recordWriteRun(Page& p, uint32_t first, uint32_t end, const Access& w,
                                uint32_t laneBytes, uint64_t gen) {
  for (uint32_t at = first; at < end;) {
    Block* b = block(p, at);
    if (!b) return false;
    const uint32_t blockEnd = std::min(end, (at / kBlockBytes + 1) * kBlockBytes);
    const uint32_t lo = at % kBlockBytes, hi = lo + (blockEnd - at);
    // One run per block while the block's bytes start a lane and this write covers every
    // byte that the block's last run wrote (nothing older stays behind it).
    const bool laneStart = (at - first) % laneBytes == 0;
    const bool covers = !b->run.first.item || (lo <= b->run.lo && hi >= b->run.hi);
    if (!b->history && laneStart && covers) {
      Access lane = w;
      lane.item += (at - first) / laneBytes;
      b->run = WriteRun{lane, gen, uint8_t(lo), uint8_t(hi), uint8_t(laneBytes)};
    } else {
      if (!entries(*b)) return false;
      const bool split = at % kWordBytes || blockEnd % kWordBytes || laneBytes % kWordBytes ||
                         (at - first) % kWordBytes;
      if (b->words && split && !perByte(*b)) return false;
      for (uint32_t x = at; x < blockEnd; x += b->words ? kWordBytes : 1) {
        ByteHistory& h = b->history[b->words ? x % kBlockBytes / kWordBytes : x % kBlockBytes];
        h.write = w;
        h.write.item += (x - first) / laneBytes;
        h.writeGen = gen;
      }
    }
    at = blockEnd;
  }
  return true;
}

AtomicHistory* RaceMemory::atomics(Page& p, uint32_t offset) {
  Block* b = block(p, offset);
  if (!b) return nullptr;
  if (!b->atomics) {
    if (!take(sizeof(*b->atomics))) return nullptr;
    b->atomics = std::make_unique<std::array<AtomicHistory, kBlockBytes>>();
  }
  return &(*b->atomics)[offset % kBlockBytes];
}

namespace {

// `count` reads of `bytes` from page offset `offset` on, `stride` apart, by work-items
// item, item + 1, ..., in the page's generation now.
ReadRun newRun(const Page& p, uint32_t item, uint32_t clock, uint32_t src, uint32_t offset,
               uint32_t bytes, uint32_t stride, uint32_t count) {
  ReadRun r;
  r.gen = p.gen;
  r.item = item;
  r.clock = clock;
  r.src = src;
  r.count = count;
  r.start = r.lo = uint16_t(offset);
  r.size = uint16_t(bytes);
  r.stride = int16_t(stride);
  r.hi = uint16_t(offset + (count - 1) * stride + bytes);
  return r;
}

}  // namespace

bool RaceMemory::addRead(Page& p, uint32_t item, uint32_t clock, uint32_t src, uint32_t offset,
                         uint32_t bytes) {
  // The next work-item of the last run, reading at the run's stride: one more in the run.
  if (!p.runs.empty()) {
    ReadRun& r = p.runs.back();
    if (r.gen == p.gen && r.reps == 1 && r.src == src && r.clock == clock && r.size == bytes &&
        item == r.item + r.count) {
      const int64_t step = int64_t(offset) - r.start;
      const bool next = r.count == 1 ? true : step == int64_t(r.count) * r.stride;
      if (next) {
        if (r.count == 1) r.stride = int16_t(step);  // |step| < kPageBytes
        ++r.count;
        r.lo = std::min<uint16_t>(r.lo, uint16_t(offset));
        r.hi = std::max<uint16_t>(r.hi, uint16_t(offset + bytes));
        foldLast(p);
        return true;
      }
    }
  }
  return addRun(p, newRun(p, item, clock, src, offset, bytes, 0, 1));
}

bool RaceMemory::addRun(Page& p, const ReadRun& r) {
  if (foldInto(p, r, p.runs.size())) return true;
  if (!grow(p.runs)) return false;
  p.runs.push_back(r);
  if (p.runs.size() >= std::max(kSweepFrom, 2 * p.runsAfterSweep)) sweep(p);
  return true;
}

bool RaceMemory::addReadRun(Page& p, uint32_t item, uint32_t clock, uint32_t src, uint32_t offset,
                            uint32_t bytes, uint32_t stride, uint32_t count) {
  if (count == 1) return addRead(p, item, clock, src, offset, bytes);
  const uint16_t hi = uint16_t(offset + (count - 1) * stride + bytes);
  // The work-items after the last run's, reading on at its stride: the run grows.
  if (!p.runs.empty()) {
    ReadRun& r = p.runs.back();
    const int64_t step = int64_t(offset) - r.start;
    if (r.gen == p.gen && r.reps == 1 && r.src == src && r.clock == clock && r.size == bytes &&
        item == r.item + r.count && (r.count == 1 || r.stride == int64_t(stride)) &&
        step == int64_t(r.count) * stride) {
      r.stride = int16_t(stride);
      r.count += count;
      r.lo = std::min<uint16_t>(r.lo, uint16_t(offset));
      r.hi = std::max<uint16_t>(r.hi, hi);
      foldLast(p);
      return true;
    }
  }
  return addRun(p, newRun(p, item, clock, src, offset, bytes, stride, count));
}

void RaceMemory::foldLast(Page& p) {
  const size_t n = p.runs.size();
  if (n >= 2 && foldInto(p, p.runs.back(), n - 1)) p.runs.pop_back();
}

bool RaceMemory::foldInto(Page& p, const ReadRun& last, size_t end) {
  if (last.reps != 1) return false;
  for (size_t i = end; i-- > 0 && i + kFoldWindow >= end;) {
    ReadRun& r = p.runs[i];
    if (r.gen != p.gen || r.item != last.item || r.count != last.count || r.stride != last.stride ||
        r.size != last.size || r.src != last.src || r.clock != last.clock)
      continue;
    const int64_t d = int64_t(last.start) - r.start;
    if (d == 0) return true;  // the same reads again (a loop re-reading them): nothing new
    if (r.reps == 1) {
      if (d < 0) continue;
      r.repStride = uint16_t(d);  // d < kPageBytes
    } else if (d != int64_t(r.reps) * r.repStride) {
      // One of the run's repetitions again, or no fold (d < kPageBytes: 32-bit division).
      const uint32_t u = uint32_t(d), stride = r.repStride;
      if (d > 0 && u % stride == 0 && u / stride < r.reps) return true;
      continue;
    }
    ++r.reps;
    r.lo = std::min(r.lo, last.lo);
    r.hi = std::max(r.hi, last.hi);
    return true;
  }
  return false;
}

void RaceMemory::sweep(Page& p) {
  if (p.blocks) std::erase_if(p.runs, [&](const ReadRun& r) { return !anyLive(p, r); });
  // Latest first: an earlier run of a pattern already seen is repeated by a later one.
  std::unordered_set<const ReadRun*, PatternHash, PatternEqual> seen;
  std::vector<bool> repeated(p.runs.size(), false);
  for (size_t i = p.runs.size(); i-- > 0;) repeated[i] = !seen.insert(&p.runs[i]).second;
  size_t kept = 0;
  for (size_t i = 0; i < p.runs.size(); ++i)
    if (!repeated[i]) p.runs[kept++] = p.runs[i];
  p.runs.resize(kept);
  p.runsAfterSweep = kept;
  p.writesSinceSweep = 0;
}

void RaceMemory::wrote(Page& p) {
  if (++p.writesSinceSweep > p.runs.size() && p.runs.size() >= kSweepFrom) sweep(p);
}

void RaceMemory::forget(PageTable& t) {
  for (auto& p : t.pages) {
    if (!p) continue;
    if (p->blocks) {
      give(pageBytes(*p) - sizeof(Page) - p->runs.capacity() * sizeof(ReadRun));
      p->blocks.reset();
    }
    p->runs.clear();
    p->runsAfterSweep = p->writesSinceSweep = 0;
  }
}

uint32_t RaceMemory::newSet(int c) {
  if (!freeSets_[c].empty()) {
    const uint32_t idx = freeSets_[c].back();
    freeSets_[c].pop_back();
    return idx + 1;
  }
  if (sets_[c].size() >= std::numeric_limits<uint32_t>::max() - 1 || !take(kSetBytes)) return 0;
  sets_[c].emplace_back().reserve(kMaxConcurrent);
  return uint32_t(sets_[c].size());
}

void RaceMemory::dropSet(int c, uint32_t& id) {
  if (!id) return;
  set(c, id).clear();
  freeSets_[c].push_back(id - 1);
  id = 0;
}

void RaceMemory::clearSets(int c) {
  give(sets_[c].size() * kSetBytes);
  sets_[c].clear();
  freeSets_[c].clear();
}

}  // namespace spvsim::check::race
