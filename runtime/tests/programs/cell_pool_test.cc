// The cells ICD objects live in (runtime/cell_pool.h): a released cell keeps what its
// object left in its first bytes, is reused only for the same size class and only after
// `quarantine` later releases, and create/release cycles reuse a bounded set of cells.
#include "runtime/cell_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace spvsim::rt {
namespace {

TEST(CellPool, ReleasedCellsWaitOutTheQuarantine) {
  CellPool pool(4);
  void* first = pool.allocate(100);
  const uint64_t tombstone = 0x5eed;
  std::memcpy(first, &tombstone, sizeof tombstone);
  pool.recycle(first, 100, sizeof tombstone);
  EXPECT_EQ(*static_cast<uint64_t*>(first), tombstone);  // still readable
  for (int i = 0; i < 4; ++i) {  // four more released after it: first still waits
    void* cell = pool.allocate(100);
    EXPECT_NE(cell, first);
    pool.recycle(cell, 100, 0);
  }
  EXPECT_EQ(pool.allocate(100), first);  // the oldest, now that 4 wait behind it
  pool.recycle(first, 100, 0);
}

TEST(CellPool, SizeClassesAreSeparate) {
  CellPool pool(0);
  void* small = pool.allocate(40);
  pool.recycle(small, 40, 0);
  void* large = pool.allocate(400);
  EXPECT_NE(large, small);
  EXPECT_EQ(pool.allocate(64), small);  // 40 and 64 bytes: one 64-byte class
  pool.recycle(small, 64, 0);
  pool.recycle(large, 400, 0);
}

TEST(CellPool, CreateAndReleaseCyclesUseABoundedSetOfCells) {
  CellPool pool(16);
  std::vector<void*> live;
  for (int i = 0; i < 3; ++i) live.push_back(pool.allocate(200));
  for (int i = 0; i < 100000; ++i) pool.recycle(pool.allocate(200), 200, 8);
  EXPECT_LE(pool.cellsCreated(), live.size() + 16 + 1);
  for (void* cell : live) pool.recycle(cell, 200, 8);
}

}  // namespace
}  // namespace spvsim::rt
