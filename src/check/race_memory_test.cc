// The race checker's memory (src/check/race_memory.h) against a plain model: reads and
// writes as sub-groups make them (runs of lanes at a stride, repeated in loops, clipped to
// the page, some of them divergent, whole sub-groups' reads some of the time in one
// addReadRun call) into one page; for every byte, the newest clock of
// each work-item's reads since the byte's last plain write must be what forEachLiveRead
// reports (that is all a later write is judged on: src/check/race_conflicts.cc).
#include "src/check/race_memory.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

namespace spvsim::check::race {
namespace {

struct ModelRead {
  uint32_t item, clock, first, end;  // page bytes [first, end)
  uint64_t seq;
};

class Model {
 public:
  void read(uint32_t item, uint32_t clock, uint32_t first, uint32_t end) {
    reads_.push_back({item, clock, first, end, ++seq_});
  }
  void write(uint32_t first, uint32_t end) {
    ++seq_;
    for (uint32_t b = first; b < end; ++b) lastWrite_[b] = seq_;
  }
  // Work-item -> newest clock of its reads of byte b since b's last write.
  std::map<uint32_t, uint32_t> liveReads(uint32_t b) const {
    std::map<uint32_t, uint32_t> out;
    for (const ModelRead& r : reads_)
      if (r.first <= b && b < r.end && r.seq > lastWrite_[b])
        out[r.item] = std::max(out[r.item], r.clock);
    return out;
  }

 private:
  std::vector<ModelRead> reads_;
  uint64_t lastWrite_[kPageBytes] = {};
  uint64_t seq_ = 0;
};

// One page of memory with no budget to speak of, as the tests below read and write it.
struct OnePage {
  RaceMemory memory{~uint64_t(0)};
  PageTable table = [] {
    PageTable t;
    t.bytes = kPageBytes;
    t.pages.resize(1);
    return t;
  }();
  Page& page = *memory.page(table, 0);
};

std::map<uint32_t, uint32_t> liveReads(const Page& page, uint32_t b) {
  std::map<uint32_t, uint32_t> out;
  forEachLiveRead(page, b, b + 1, [&](const ReadRun& r, uint32_t item) {
    out[item] = std::max(out[item], r.clock);
    return false;
  });
  return out;
}

// A plain write as the checker records it: a new generation for the page, given to
// each byte written (and maybe a sweep).
void write(RaceMemory& memory, Page& page, uint32_t first, uint32_t end) {
  ASSERT_TRUE(memory.recordWrite(page, first, end, Access{1, 1}, ++page.gen));
  memory.wrote(page);
}

TEST(RaceMemory, LiveReadsMatchAPlainModel) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    std::mt19937 rng(seed);
    auto pick = [&](uint32_t n) { return uint32_t(rng() % n); };
    OnePage one;
    RaceMemory& memory = one.memory;
    Page& page = one.page;
    Model model;
    std::vector<uint32_t> clocks(64, 1);
    const int32_t strides[] = {0, 1, 2, 4, 4, 8, 16, 64, -4, 12};
    uint32_t src = 0, lanes = 16, size = 4, trips = 1, step = 4;
    int32_t stride = 4;
    int64_t start = 0;
    for (int op = 0; op < 400; ++op) {
      if (pick(5) == 0) {  // a write
        const uint32_t first = pick(kPageBytes), end = std::min(kPageBytes, first + 1 + pick(64));
        write(memory, page, first, end);
        model.write(first, end);
        continue;
      }
      if (pick(8) == 0) clocks[pick(64)] += 1;  // a barrier or release somewhere
      // One instruction, maybe in a loop: lanes of a sub-group, consecutive work-items;
      // often the one before, by another sub-group (a table every sub-group reads).
      const uint32_t firstItem = 1 + 16 * pick(4);
      if (pick(3) != 0) {
        src = pick(6), lanes = 1 + pick(16), size = 1u << pick(5);
        stride = strides[pick(std::size(strides))];
        trips = pick(3) == 0 ? 1 + pick(12) : 1, step = 4 * (1 + pick(32));
        start = int64_t(pick(kPageBytes)) - 64;
      }
      int64_t base = start;
      for (uint32_t t = 0; t < trips; ++t, base += step) {
        // Half the time, a whole sub-group's read that may be one call (addReadRun):
        // every lane active at one clock, contiguous or of one address, inside the page.
        const uint32_t clock = clocks[firstItem - 1];
        bool whole = pick(2) == 0 && (stride == 0 || stride == int32_t(size)) && base >= 0 &&
                     base + int64_t(lanes - 1) * stride + size <= kPageBytes;
        for (uint32_t l = 0; whole && l < lanes; ++l) whole = clocks[firstItem + l - 1] == clock;
        if (whole) {
          ASSERT_TRUE(memory.addReadRun(page, firstItem, clock, src, uint32_t(base), size,
                                        uint32_t(stride), lanes));
          for (uint32_t l = 0; l < lanes; ++l) {
            const uint32_t first = uint32_t(base + int64_t(l) * stride);
            model.read(firstItem + l, clock, first, first + size);
          }
          continue;
        }
        for (uint32_t l = 0; l < lanes; ++l) {
          if (pick(16) == 0) continue;  // an inactive lane
          const int64_t at = base + int64_t(l) * stride;
          const int64_t first = std::max<int64_t>(at, 0);
          const int64_t end = std::min<int64_t>(at + size, kPageBytes);
          if (first >= end) continue;  // outside the page
          const uint32_t item = firstItem + l;
          ASSERT_TRUE(memory.addRead(page, item, clocks[item - 1], src, uint32_t(first),
                                     uint32_t(end - first)));
          model.read(item, clocks[item - 1], uint32_t(first), uint32_t(end));
        }
      }
      if (op % 50 == 49)
        for (uint32_t b = 0; b < kPageBytes; ++b)
          ASSERT_EQ(liveReads(page, b), model.liveReads(b)) << "seed " << seed << " byte " << b;
    }
  }
}

// A loop over an array by the same work-items folds into one run, not one per trip.
TEST(RaceMemory, ALoopOverAnArrayIsOneRun) {
  OnePage one;
  RaceMemory& memory = one.memory;
  Page& page = one.page;
  for (uint32_t k = 0; k < 64; ++k) {           // for (k...) sum += a[k] * b[lane] + c[k][lane]
    for (uint32_t lane = 0; lane < 16; ++lane)  // a[k]: the same for every lane
      ASSERT_TRUE(memory.addRead(page, 1 + lane, 1, 7, 4 * k, 4));
    for (uint32_t lane = 0; lane < 16; ++lane)  // b[lane]: the same every trip
      ASSERT_TRUE(memory.addRead(page, 1 + lane, 1, 8, 256 + 4 * lane, 4));
    for (uint32_t lane = 0; lane < 16; ++lane)  // c[k][lane], rows of 8 bytes overlapping
      ASSERT_TRUE(memory.addRead(page, 1 + lane, 1, 9, 320 + 8 * k + 4 * lane, 4));
  }
  EXPECT_EQ(page.runs.size(), 3u);
}

// The same loop with each sub-group's read given whole (addReadRun, as the checker does
// for a quiet read by lanes at one clock): the same three runs.
TEST(RaceMemory, ALoopOfWholeSubGroupReadsIsOneRun) {
  OnePage one;
  RaceMemory& memory = one.memory;
  Page& page = one.page;
  for (uint32_t k = 0; k < 64; ++k) {
    ASSERT_TRUE(memory.addReadRun(page, 1, 1, 7, 4 * k, 4, 0, 16));
    ASSERT_TRUE(memory.addReadRun(page, 1, 1, 8, 256, 4, 4, 16));
    ASSERT_TRUE(memory.addReadRun(page, 1, 1, 9, 320 + 8 * k, 4, 4, 16));
  }
  EXPECT_EQ(page.runs.size(), 3u);
}

// The next sub-group's lanes reading on continue the run: one run of 32 work-items.
TEST(RaceMemory, TheNextSubGroupContinuesAWholeRead) {
  OnePage one;
  RaceMemory& memory = one.memory;
  Page& page = one.page;
  ASSERT_TRUE(memory.addReadRun(page, 1, 1, 9, 0, 4, 4, 16));
  ASSERT_TRUE(memory.addReadRun(page, 17, 1, 9, 64, 4, 4, 16));
  ASSERT_EQ(page.runs.size(), 1u);
  EXPECT_EQ(page.runs[0].count, 32u);
  EXPECT_EQ(page.runs[0].hi, 128u);
}

// A block array given back is handed out again, empty: a page made after another was
// forgotten must not see its writes or atomics.
TEST(RaceMemory, ReusedBlockArraysStartEmpty) {
  BlockPool pool;
  BlockArray* first = pool.make();
  (*first)[3].run.first.item = 7;
  (*first)[5].atomics = std::make_unique<std::array<AtomicHistory, kBlockBytes>>();
  (*first)[5].words = false;
  pool.release(first);
  BlockArray* again = pool.make();
  EXPECT_EQ(again, first);
  for (const Block& b : *again) {
    EXPECT_EQ(b.run.first.item, 0u);
    EXPECT_FALSE(b.atomics);
    EXPECT_FALSE(b.history);
    EXPECT_TRUE(b.words);
  }
  // More arrays than one 2 MiB chunk holds: distinct, each usable.
  std::vector<BlockArray*> many;
  for (size_t i = 0; i < 3000; ++i) many.push_back(pool.make());
  std::sort(many.begin(), many.end());
  EXPECT_EQ(std::adjacent_find(many.begin(), many.end()), many.end());
  for (BlockArray* b : many) pool.release(b);
  pool.release(again);
}

// Past its budget the memory refuses, says how much it was asked for, and keeps what
// it had.
TEST(RaceMemory, TheBudgetRefuses) {
  RaceMemory memory(sizeof(Page) + 8 * sizeof(ReadRun));
  PageTable table;
  table.bytes = kPageBytes;
  table.pages.resize(1);
  Page* page = memory.page(table, 0);
  ASSERT_NE(page, nullptr);
  bool refused = false;
  for (uint32_t i = 0; i < 64 && !refused; ++i)
    refused = !memory.addRead(*page, 1 + i, 1, i, (i * 37) % 1000, 4);  // unrelated reads
  EXPECT_TRUE(refused);
  EXPECT_GT(memory.refused(), 0u);
  EXPECT_LE(memory.used(), memory.budget());
  EXPECT_FALSE(memory.recordWrite(*page, 0, 4, Access{1, 1}, ++page->gen));
  EXPECT_EQ(page->history(0).write.item, 0u);
}

// Writes of whole aligned words share one entry per word until a narrower write gives
// the block's bytes their own; a sub-group's contiguous write (recordWriteRun) leaves one
// run per block while the block's writes were all such runs, each covering what the last
// wrote. Whatever the forms, each byte's last write is the newest write that covered it,
// with the item of the lane that wrote it (a plain model of 64 bytes per byte), and a
// word-mode block takes a quarter of a byte-mode one's entries.
TEST(RaceMemory, EachByteKeepsItsLastWriteInEveryForm) {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    OnePage one;
    RaceMemory& memory = one.memory;
    Page& page = one.page;
    std::vector<uint32_t> last(kPageBytes, 0);  // the model: the item of each byte's write
    const bool narrow = seed % 2 == 0;          // odd seeds write whole words only
    const bool runs = seed % 3 != 0;            // and some seeds sub-group runs too
    uint32_t item = 1;
    for (uint32_t n = 0; n < 300; ++n) {
      if (runs && rng() % 2) {
        // A sub-group of 1-16 lanes writing 4, 8 or 16 bytes each (or, narrow, 1-3).
        const uint32_t lanes = 1 + rng() % 16;
        uint32_t lane = 4u << (rng() % 3);
        if (narrow && rng() % 4 == 0) lane = 1 + rng() % 3;
        uint32_t first = rng() % kPageBytes;
        if (!narrow) first -= first % 4;
        const uint32_t end = std::min(kPageBytes, first + lanes * lane);
        ASSERT_TRUE(memory.recordWriteRun(page, first, end, Access{item, 1}, lane, ++page.gen));
        for (uint32_t b = first; b < end; ++b) last[b] = item + (b - first) / lane;
        item += lanes;
        continue;
      }
      uint32_t first = rng() % kPageBytes, size = 4u << (rng() % 4);
      if (narrow && rng() % 8 == 0)
        size = 1 + rng() % 3;
      else
        first -= first % 4;
      const uint32_t end = std::min(kPageBytes, first + size);
      ASSERT_TRUE(memory.recordWrite(page, first, end, Access{item, 1}, ++page.gen));
      for (uint32_t b = first; b < end; ++b) last[b] = item;
      ++item;
    }
    bool anyBytes = false;
    for (uint32_t b = 0; b < kPageBytes; ++b) {
      ASSERT_EQ(page.history(b).write.item, last[b]) << "seed " << seed << " byte " << b;
      if (const Block* blk = page.block(b)) anyBytes |= !blk->words;
    }
    if (!narrow) {
      EXPECT_FALSE(anyBytes) << "seed " << seed;
    }
  }
}

// A block only whole sub-group writes touched keeps one run and no entries: a kernel
// writing its output once costs no per-word state.
TEST(RaceMemory, OutputWrittenByRunsKeepsNoEntries) {
  OnePage one;
  RaceMemory& memory = one.memory;
  Page& page = one.page;
  for (uint32_t sg = 0; sg < 16; ++sg)  // 16 sub-groups of 16 lanes, 4 bytes each
    ASSERT_TRUE(
        memory.recordWriteRun(page, sg * 64, sg * 64 + 64, Access{1 + 16 * sg, 1}, 4, ++page.gen));
  for (uint32_t b = 0; b < kPageBytes; ++b) {
    ASSERT_EQ(page.history(b).write.item, 1 + b / 4) << b;
    ASSERT_EQ(page.block(b)->entries(), 0u) << b;
  }
  // A write of one word in the middle: entries from then on, the rest of the run kept.
  ASSERT_TRUE(memory.recordWrite(page, 100, 104, Access{999, 2}, ++page.gen));
  EXPECT_EQ(page.history(100).write.item, 999u);
  EXPECT_EQ(page.history(99).write.item, 1 + 99 / 4);
  EXPECT_EQ(page.history(104).write.item, 1 + 104 / 4);
  EXPECT_EQ(page.block(100)->entries(), kBlockBytes / kWordBytes);
}

}  // namespace
}  // namespace spvsim::check::race
