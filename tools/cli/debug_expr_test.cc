// spvsim debug: expressions in print and in breakpoint conditions (C arithmetic per
// lane, memory through pointers, lanes, errors).
//
// testdata/debug/branch.cl, 8 work-items in sub-groups of 4, vin = range(0) as uint4:
// at line 17, sub-group 0 has i = 0..3, x = 2, 102, 6, 104 (even i: twice(i + 1), odd
// i: i + 101) and v = vin[i] = (4i, 4i+1, 4i+2, 4i+3); out is still all 0.
#include <gtest/gtest.h>

#include "tools/cli/debug_test_util.h"

namespace spvsim::tools {
namespace {

using testing::debugSession;
using testing::kBranch;

TEST(DebugExpr, ArithmeticPerLaneFollowsC) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "print x + 1\n"
                              "print x * 2 + i\n"
                              "print (x - 100) / 2\n"
                              "print x > 100 && i < 3\n"
                              "print !i\n"
                              "print 7 / 2\n"
                              "print -7 / 2\n"
                              "print -7 % 3\n"
                              "print 0xffffffff + 1\n"
                              "print -1 < 0u\n"
                              "print 1l << 40\n"
                              "print 1 / 4.0\n"
                              "print/x ~0u\n"
                              "print (i & 1) | 4\n"
                              "print v.y == 5\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "x + 1 (uint) = [0]=3 [1]=103 [2]=7 [3]=105\n");
  EXPECT_HAS(t.reply(4), "x * 2 + i (uint) = [0]=4 [1]=205 [2]=14 [3]=211\n");
  // uint arithmetic wraps: 2 - 100 = 2^32 - 98 = 4294967198, halved 2147483599.
  EXPECT_HAS(t.reply(5), "(x - 100) / 2 (uint) = [0]=2147483599 [1]=1 [2]=2147483601 [3]=2\n");
  EXPECT_HAS(t.reply(6), "x > 100 && i < 3 (int) = [0]=0 [1]=1 [2]=0 [3]=0\n");
  EXPECT_HAS(t.reply(7), "!i (int) = [0]=1 [1]=0 [2]=0 [3]=0\n");
  EXPECT_HAS(t.reply(8), "7 / 2 (int) = 3\n");
  EXPECT_HAS(t.reply(9), "-7 / 2 (int) = -3\n");  // C truncates toward zero
  EXPECT_HAS(t.reply(10), "-7 % 3 (int) = -1\n");
  EXPECT_HAS(t.reply(11), "0xffffffff + 1 (uint) = 0\n");  // 0xffffffff is an unsigned int
  EXPECT_HAS(t.reply(12), "-1 < 0u (int) = 0\n");          // -1 converts to 4294967295
  EXPECT_HAS(t.reply(13), "1l << 40 (long) = 1099511627776\n");
  EXPECT_HAS(t.reply(14), "1 / 4.0 (double) = 0.25\n");
  EXPECT_HAS(t.reply(15), "~0u (uint) = 0xffffffff\n");
  EXPECT_HAS(t.reply(16), "(i & 1) | 4 (uint) = [0]=4 [1]=5 [2]=4 [3]=5\n");
  EXPECT_HAS(t.reply(17), "v.s1 == 5 (int) = [0]=0 [1]=1 [2]=0 [3]=0\n");
}

TEST(DebugExpr, PointersIndexMemoryAndLanesAreChosenWithAt) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "print vin[3]\n"
                              "print vin[i].y\n"
                              "print vin[i + 5]\n"
                              "print out[i]\n"
                              "print x@1\n"
                              "print x[1]\n"
                              "print vin@2\n"
                              "print x@(i@3 - 1)\n"
                              "print $lane\n"
                              "print vin[$lane + 1].w\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "vin[3] (uint4, global memory, one for the work-group) = (12,13,14,15)\n");
  EXPECT_HAS(t.reply(4), "vin[i].s1 (uint) = [0]=1 [1]=5 [2]=9 [3]=13\n");
  // Lane 3 reads vin[8], one past the end of the 8 elements.
  EXPECT_HAS(t.reply(5),
             "vin[i + 5] (uint4) = [0]=(20,21,22,23) [1]=(24,25,26,27) [2]=(28,29,30,31) "
             "[3]=<out of bounds: vin points at global:vin+0, 8 uint4 elements from there "
             "(0-7)>\n");
  EXPECT_HAS(t.reply(6), "out[i] (uint) = [0]=0 [1]=0 [2]=0 [3]=0\n");
  EXPECT_HAS(t.reply(7), "x@1 (uint) = 102\n");
  EXPECT_HAS(t.reply(8), "x[1] (uint) = 102\n");              // x is no pointer: [1] is lane 1
  EXPECT_HAS(t.reply(9), "vin@2 (uint4*) = global:vin+0\n");  // the pointer of lane 2
  EXPECT_HAS(t.reply(10), "x@(i@3 - 1) (uint) = 6\n");        // lane 2
  EXPECT_HAS(t.reply(11), "$lane (uint) = 0\n");              // the first active lane
  EXPECT_HAS(t.reply(12), "vin[$lane + 1].s3 (uint, global memory, one for the work-group) = 7\n");
}

TEST(DebugExpr, MistakesAreClearErrors) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "print x / 0\n"
                              "print x / (i % 2)\n"
                              "print vin[8]\n"
                              "print 1 << 40\n"
                              "print v + 1\n"
                              "print 1.5 % 2\n"
                              "print x@4\n"
                              "print x@i\n"
                              "print nosuch + 1\n"
                              "print x +\n"
                              "print (x\n"
                              "print $foo\n"
                              "print x\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "error: x / 0: division by zero\n");
  EXPECT_HAS(t.reply(4),
             "x / (i % 2) (uint) = [0]=<division by zero> [1]=102 [2]=<division by zero> "
             "[3]=104\n");
  EXPECT_HAS(t.reply(5),
             "error: vin[8]: out of bounds: vin points at global:vin+0, 8 uint4 elements from "
             "there (0-7)\n");
  EXPECT_HAS(t.reply(6), "error: 1 << 40: shift count 40 is outside 0-31\n");
  EXPECT_HAS(t.reply(7), "error: v is a uint4: '+' takes numbers");
  EXPECT_HAS(t.reply(8), "error: 1.5 is a double: '%' takes integers\n");
  EXPECT_HAS(t.reply(9), "error: lane 4 does not exist: sub-group 0 has lanes 0-3\n");
  EXPECT_HAS(t.reply(10), "error: x@i: the lane must be one number for the sub-group");
  EXPECT_HAS(t.reply(11), "error: no variable or value named 'nosuch'");
  EXPECT_HAS(t.reply(12), "error: 'x +' is not a value: a value is missing at the end\n");
  EXPECT_HAS(t.reply(13), "error: '(x' is not a value: a '(' without its ')'\n");
  EXPECT_HAS(t.reply(14), "error: '$foo' is not a value: unknown '$foo'");
  EXPECT_HAS(t.reply(15), "x (uint) = [0]=2 [1]=102 [2]=6 [3]=104\n");  // still going
}

TEST(DebugExpr, ConditionsHoldPerLane) {
  // Line 11, all lanes active: i = 0..3 in sub-group 0 (squares 0 1 4 9), 4..7 in 1.
  const auto t = debugSession(kBranch,
                              "break 11 if i * i > 10 || i == 0\n"
                              "continue\n"
                              "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(2), "Breakpoint 1, branch.cl:11 (i * i > 10 || i == 0 holds in lane 0)\n");
  EXPECT_HAS(t.reply(2), "sub-group 0 at branch.cl:11");
  EXPECT_HAS(t.reply(3), "(i * i > 10 || i == 0 holds in lanes 0-3)\n");
  EXPECT_HAS(t.reply(3), "sub-group 1 at branch.cl:11");
  // Line 14 (odd lanes 1, 3): x = i + 1 and vin[i].x = 4i, so vin[i].x + x = 5i + 1:
  // 6 and 16 in sub-group 0, 26 and 36 in sub-group 1.
  const auto u = debugSession(kBranch, "break 14 if vin[i].x + x > 20\ncontinue\ncontinue\n");
  EXPECT_HAS(u.reply(2), "(vin[i].x + x > 20 holds in lanes 1,3)\n");
  EXPECT_HAS(u.reply(2), "sub-group 1 at branch.cl:14");
  EXPECT_HAS(u.reply(3), "Kernel branchy finished");
  // $lane in a condition is each lane's own number.
  const auto v = debugSession(kBranch, "break 14 if $lane == 3\ncontinue\ncontinue\ncontinue\n");
  EXPECT_HAS(v.reply(2), "($lane == 3 holds in lane 3)\n");
  EXPECT_HAS(v.reply(2), "sub-group 0 at branch.cl:14");
  EXPECT_HAS(v.reply(3), "($lane == 3 holds in lane 3)\n");
  EXPECT_HAS(v.reply(3), "sub-group 1 at branch.cl:14");
  EXPECT_HAS(v.reply(4), "Kernel branchy finished");
}

// The same expressions at -O2 (names bound to SSA values by DebugValue) give the same
// values; out[i] = x + vin[i].y is what the kernel stores (3, 107, 15, 117).
TEST(DebugExpr, TheSameValuesAtO2) {
  std::vector<std::string> args = kBranch;
  args.insert(args.end(), {"--build-options", "-O2"});
  const auto t = debugSession(args,
                              "break 17\n"
                              "continue\n"
                              "print x * 2 + i\n"
                              "print vin[i].y + x\n"
                              "break twice\n"
                              "continue\n"
                              "print v\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "x * 2 + i (uint) = [0]=4 [1]=205 [2]=14 [3]=211\n");
  EXPECT_HAS(t.reply(4), "vin[i].s1 + x (uint) = [0]=3 [1]=107 [2]=15 [3]=117\n");
  // Sub-group 1's even lanes (i = 4, 6) call twice(i + 1); its parameter reads back.
  EXPECT_HAS(t.reply(6), "sub-group 1 at branch.cl:4");
  EXPECT_HAS(t.reply(7), "v (uint) = [0]=5 [1]=- [2]=7 [3]=-\n");
}

}  // namespace
}  // namespace spvsim::tools
