// spirv/dominators.h on graphs whose dominators and post-dominators are worked out by
// hand (each expectation's comment gives the reasoning).
#include "spirv/dominators.h"

#include <gtest/gtest.h>

namespace spvsim::spirv {
namespace {

TEST(Dominators, Diamond) {
  // 0 -> {1, 2} -> 3 (returns).
  const Graph g{{1, 2}, {3}, {3}, {}};
  EXPECT_EQ(immediateDominators(g, 0), (std::vector<int>{0, 0, 0, 0}));
  // Every path from 0, 1 and 2 goes through 3; 3 only reaches the virtual exit.
  EXPECT_EQ(immediatePostDominators(g, {false, false, false, true}),
            (std::vector<int>{3, 3, 3, -1}));
}

// for (...) { if (a) break; if (b) continue; body; }: 0 entry -> 1 header -> {2, 6 exit};
// 2 -> {6 break, 3}; 3 -> {5 continue target, 4 body}; 4 -> 5; 5 -> 1 (back edge).
const Graph kLoop{{1}, {2, 6}, {6, 3}, {5, 4}, {5}, {1}, {}};
const std::vector<bool> kLoopExits{false, false, false, false, false, false, true};

TEST(Dominators, LoopWithBreakAndContinue) {
  // 5 is reached from 3 and from 4 (dominated by 3): idom 3. 6 from 1 and 2: idom 1.
  EXPECT_EQ(immediateDominators(kLoop, 0), (std::vector<int>{0, 0, 1, 2, 3, 3, 1}));
}

TEST(PostDominators, LoopWithBreakAndContinue) {
  // 0 and 5 only go to 1; 4 only to 5; 3's both paths meet at 5; 1 and 2 may leave
  // straight to 6 (the break), so 6 is where they reconverge.
  EXPECT_EQ(immediatePostDominators(kLoop, kLoopExits), (std::vector<int>{1, 6, 6, 5, 5, 1, -1}));
}

TEST(Dominators, SwitchWithFallThrough) {
  // switch: 0 -> {3 default, 1 case 0, 2 case 1}; case 0 falls through to 2; 2 and 3
  // break to 4. 2 is entered from 0 and 1: idom 0; 4 from 2 and 3: idom 0.
  const Graph g{{3, 1, 2}, {2}, {4}, {4}, {}};
  EXPECT_EQ(immediateDominators(g, 0), (std::vector<int>{0, 0, 0, 0, 0}));
  // 1 always continues in 2; 0's three ways meet first at 4.
  EXPECT_EQ(immediatePostDominators(g, {false, false, false, false, true}),
            (std::vector<int>{4, 2, 4, 4, -1}));
}

TEST(PostDominators, EarlyReturnAndInfiniteLoop) {
  // 0 -> {1 returns, 2 -> 3 returns}: the paths from 0 meet only at the virtual exit.
  EXPECT_EQ(immediatePostDominators({{1, 2}, {}, {3}, {}}, {false, true, false, true})[0], -1);
  // 0 -> {1, 2}; 1 -> 1 forever; 2 returns: 1 reaches no exit, so reconverges there.
  EXPECT_EQ(immediatePostDominators({{1, 2}, {1}, {}}, {false, false, true})[1], -1);
  // A loop 0 -> 1 -> {1, 2}, 2 exits: 1 post-dominates 0, 2 post-dominates 1.
  EXPECT_EQ(immediatePostDominators({{1}, {1, 2}, {}}, {false, false, true}),
            (std::vector<int>{1, 2, -1}));
}

}  // namespace
}  // namespace spvsim::spirv
