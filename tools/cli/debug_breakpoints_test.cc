// spvsim debug: breakpoints at a source line, a result id and a function, conditional
// breakpoints, deleting them, and watchpoints on a buffer range.
//
// testdata/debug/branch.cl, 8 work-items in sub-groups of 4: i = 0..7; odd lanes run
// line 14 (x = x + 100) with x = i + 1 before it; out[i] is stored at line 17.
#include <gtest/gtest.h>

#include "tools/cli/debug_test_util.h"

namespace spvsim::tools {
namespace {

using testing::debugSession;
using testing::kBranch;
using testing::kLanes;

TEST(DebugBreakpoints, AtAFileLineStopsEverySubGroupThatReachesIt) {
  const auto t = debugSession(kBranch,
                              "break testdata/debug/branch.cl:14\n"
                              "continue\n"
                              "continue\n"
                              "info breakpoints\n"
                              "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Breakpoint 1 at branch.cl:14: ");
  EXPECT_HAS(t.reply(2), "Breakpoint 1, branch.cl:14\n");
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 0 at branch.cl:14  ");
  EXPECT_HAS(t.reply(2), "lanes 1,3 active (2/4)  [.#.#]");
  EXPECT_HAS(t.reply(3), "work-group (0,0,0) sub-group 1 at branch.cl:14  ");
  EXPECT_HAS(t.reply(4), "1    breakpoint  2     branch.cl:14\n");
  EXPECT_HAS(t.reply(5), "Kernel branchy finished");
}

TEST(DebugBreakpoints, ALineWithoutCodeMovesToTheNextLineWithCode) {
  const auto t = debugSession(kBranch, "break 7\ncontinue\n");  // line 7 is blank
  EXPECT_HAS(t.reply(1), "no code at branch.cl:7; using line 8\n");
  EXPECT_HAS(t.reply(2), "sub-group 0 at branch.cl:8  ");
}

TEST(DebugBreakpoints, AtAResultId) {
  const auto t = debugSession(kLanes, "break %22\ncontinue\nprint %22\nstep\nprint %22\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Breakpoint 1 at %22: %22 = OpIAdd %uint %i %uint_100\n");
  EXPECT_HAS(t.reply(2), "Breakpoint 1, %22\n");
  EXPECT_HAS(t.reply(2), "sub-group 0 at %22 = OpIAdd %uint %i %uint_100\n");
  EXPECT_HAS(t.reply(2), "lanes 0,2 active (2/4)  [#.#.]");  // even i: i + 100
  EXPECT_HAS(t.reply(5), "%22 (int) = [0]=100 [1]=- [2]=102 [3]=-\n");
}

// Ids by the names spvsim dis gives them: %i is OpName "i" (%10), %uint_100 the constant
// 100 (%14); a breakpoint at %i stops where i is computed.
TEST(DebugBreakpoints, AtAndPrintByDisName) {
  const auto t = debugSession(kLanes,
                              "break %i\ncontinue\nstep\nprint %i\nprint %10\nprint %uint_100\n"
                              "print %nosuch\n");
  EXPECT_HAS(t.reply(1), "Breakpoint 1 at %i: %i = OpUConvert %uint ");
  EXPECT_HAS(t.reply(4), "%i (int) = [0]=0 [1]=1 [2]=2 [3]=3\n");
  EXPECT_HAS(t.reply(5), "%i (int) = [0]=0 [1]=1 [2]=2 [3]=3\n");  // the number names it too
  EXPECT_HAS(t.reply(6), "%uint_100 (int) = ");
  EXPECT_HAS(t.reply(6), "100");
  EXPECT_HAS(t.reply(7), "no id is named %nosuch in the module");
}

TEST(DebugBreakpoints, AtAFunction) {
  const auto t = debugSession(kBranch, "break twice\ncontinue\ncontinue\ncontinue\n");
  EXPECT_HAS(t.reply(2), "Breakpoint 1, function twice\n");
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 0 at ");
  EXPECT_HAS(t.reply(2), "lanes 0,2 active (2/4)");
  EXPECT_HAS(t.reply(3), "work-group (0,0,0) sub-group 1 at ");
  EXPECT_HAS(t.reply(4), "Kernel branchy finished");
}

TEST(DebugBreakpoints, ConditionOnOneLaneOrAnyActiveLane) {
  // At line 14 x = i + 1: lane 3 of sub-group 0 (i = 3) has 4; sub-group 1 has i = 5, 7.
  const auto t = debugSession(kBranch,
                              "break 14 if x[3] == 4\n"
                              "continue\n"
                              "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Breakpoint 1 at branch.cl:14: ");
  EXPECT_HAS(t.reply(1), " if x[3] == 4\n");
  EXPECT_HAS(t.reply(2), "Breakpoint 1, branch.cl:14 (x[3] == 4 holds in lane 3)\n");
  EXPECT_HAS(t.reply(2), "sub-group 0 at branch.cl:14");
  EXPECT_HAS(t.reply(3), "Kernel branchy finished");  // sub-group 1's lane 3 has x = 8
  const auto u = debugSession(kBranch, "break 14 if x == 6\ncontinue\ncontinue\n");
  EXPECT_HAS(u.reply(2), "Breakpoint 1, branch.cl:14 (x == 6 holds in lane 1)\n");
  EXPECT_HAS(u.reply(2), "sub-group 1 at branch.cl:14");
  EXPECT_HAS(u.reply(3), "Kernel branchy finished");
  const auto v = debugSession(kBranch, "break 14 if x >= 2\ncontinue\n");
  EXPECT_HAS(v.reply(2), "(x >= 2 holds in lanes 1,3)\n");
}

TEST(DebugBreakpoints, DeleteOneOrAll) {
  const auto t = debugSession(kBranch,
                              "break 11\n"
                              "break 14\n"
                              "delete 1\n"
                              "info breakpoints\n"
                              "continue\n"
                              "delete\n"
                              "info breakpoints\n"
                              "continue\n"
                              "delete 7\n");
  EXPECT_HAS(t.reply(3), "Deleted 1.\n");
  EXPECT_HAS(t.reply(4), "2    breakpoint  0     branch.cl:14\n");
  EXPECT_LACKS(t.reply(4), "branch.cl:11");
  EXPECT_HAS(t.reply(5), "Breakpoint 2, branch.cl:14\n");  // line 11 no longer stops
  EXPECT_HAS(t.reply(6), "Deleted all breakpoints and watchpoints.\n");
  EXPECT_HAS(t.reply(7), "No breakpoints or watchpoints.\n");
  EXPECT_HAS(t.reply(8), "Kernel branchy finished");
  EXPECT_HAS(t.reply(9), "error: no breakpoint or watchpoint number 7\n");
}

TEST(DebugBreakpoints, WatchpointOnABufferRange) {
  // out[5] = x + v.y = 106 + 21, written by sub-group 1 (i = 4..7) at line 17.
  const auto t = debugSession(kBranch,
                              "watch out[5]\n"
                              "continue\n"
                              "continue\n"
                              "watch out[0:2]\n"
                              "info breakpoints\n");
  EXPECT_HAS(t.reply(1), "Watchpoint 1: out[5] (1 uint element, 4 bytes)\n");
  EXPECT_HAS(t.reply(2), "Watchpoint 1: out[5] changed by work-group (0,0,0) sub-group 1\n");
  EXPECT_HAS(t.reply(2), "  out[5]: 0 -> 127\n");
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 1 at branch.cl:18  ");
  EXPECT_HAS(t.reply(3), "Kernel branchy finished");
  EXPECT_HAS(t.reply(4), "Watchpoint 2: out[0:2] (2 uint elements, 8 bytes)\n");
  EXPECT_HAS(t.reply(5), "1    watchpoint  1     out[5]\n");
}

TEST(DebugBreakpoints, WatchpointSeesEveryElementTheStoreChanged) {
  // Sub-group 0 stores out[0..3] in one instruction: 3, 107, 15, 117.
  const auto t = debugSession(kBranch, "watch out[1:3]\ncontinue\n");
  EXPECT_HAS(t.reply(2),
             "Watchpoint 1: out[1:3] changed by work-group (0,0,0) sub-group 0\n"
             "  out[1]: 0 -> 107\n  out[2]: 0 -> 15\n");
}

TEST(DebugBreakpoints, MistakesAreReportedAndTheSessionGoesOn) {
  const auto t = debugSession(kBranch,
                              "break nosuch\n"
                              "break branch.cl:99\n"
                              "break other.cl:3\n"
                              "break %99999\n"
                              "break 14 if x ~ 3\n"
                              "break 14 if x[3] / (i - i) == 1\n"
                              "continue\n"
                              "watch nosuch[0]\n"
                              "watch out[8]\n"
                              "watch out[3:2]\n"
                              "watch vin\n"
                              "break\n"
                              "info breakpoints\n");
  EXPECT_HAS(t.reply(1), "error: no function 'nosuch' in kernel branchy");
  EXPECT_HAS(t.reply(2), "error: no code at branch.cl:99 or after it");
  EXPECT_HAS(t.reply(3), "error: no source file 'other.cl'");
  EXPECT_HAS(t.reply(4), "error: '%99999' is not a result id of this module");
  // Conditions are expressions (debug_expr_test checks them): '~' is unary only.
  EXPECT_HAS(t.reply(5), "error: condition 'x ~ 3' is not a value: unexpected '~ 3'");
  EXPECT_HAS(t.reply(6), "Breakpoint 1 at branch.cl:14");  // accepted; checked when reached
  // i - i is 0 in every lane: the condition divides by zero (in lane 3, which x[3] picks).
  EXPECT_HAS(t.reply(7),
             "Breakpoint 1, branch.cl:14 (cannot evaluate its condition: lane 3: division by "
             "zero)");
  // watch takes variables too: an unknown name is not one.
  EXPECT_HAS(t.reply(8), "error: no variable or value named 'nosuch'");
  EXPECT_HAS(t.reply(9), "error: 'out[8]' is outside out: it has 8 elements (0-7)\n");
  EXPECT_HAS(t.reply(10), "error: 'out[3:2]': a range is NAME[I] or NAME[I:J] with I < J");
  EXPECT_HAS(t.reply(11), "Watchpoint 2: vin[0:8] (8 uint4 elements, 128 bytes)");
  EXPECT_HAS(t.reply(12), "error: break: give a location");
  EXPECT_HAS(t.reply(13), "1    breakpoint  1     branch.cl:14 if x[3] / (i - i) == 1\n");
}

}  // namespace
}  // namespace spvsim::tools
