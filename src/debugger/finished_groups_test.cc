// FinishedGroups: the run of finished work-groups from 0, and those finished out of order
// above it, for launches of any size.
#include "src/debugger/finished_groups.h"

#include <gtest/gtest.h>

namespace spvsim::debugger {
namespace {

TEST(FinishedGroups, InOrderAndOutOfOrder) {
  FinishedGroups f;
  f.reset(5);
  EXPECT_EQ(f.firstUnfinished(), 0u);
  EXPECT_EQ(f.unfinished(), 5u);
  f.mark(2);  // out of order: 0 is still the lowest unfinished
  f.mark(3);
  EXPECT_TRUE(f.finished(2));
  EXPECT_FALSE(f.finished(1));
  EXPECT_EQ(f.firstUnfinished(), 0u);
  EXPECT_EQ(f.unfinished(), 3u);
  f.mark(0);
  EXPECT_EQ(f.firstUnfinished(), 1u);
  f.mark(1);  // 1, then 2 and 3 already finished: the lowest unfinished is 4
  EXPECT_EQ(f.firstUnfinished(), 4u);
  EXPECT_EQ(f.unfinished(), 1u);
  f.mark(3);  // again: no change
  EXPECT_EQ(f.unfinished(), 1u);
  f.mark(4);
  EXPECT_EQ(f.firstUnfinished(), 5u);
  EXPECT_EQ(f.unfinished(), 0u);
  f.reset(2);
  EXPECT_FALSE(f.finished(0));
  EXPECT_EQ(f.unfinished(), 2u);
}

TEST(FinishedGroups, AsManyGroupsAsSixtyFourBitsCount) {
  FinishedGroups f;
  const uint64_t count = ~uint64_t(0);
  f.reset(count);
  f.mark(count - 1);
  f.mark(0);
  EXPECT_TRUE(f.finished(count - 1));
  EXPECT_EQ(f.firstUnfinished(), 1u);
  EXPECT_EQ(f.unfinished(), count - 2);
}

}  // namespace
}  // namespace spvsim::debugger
