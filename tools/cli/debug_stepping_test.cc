// spvsim debug: step, next, finish, continue, backtrace, list, and the active mask and
// reconvergence stack through a divergent branch.
//
// testdata/debug/branch.cl with 8 work-items in one work-group, sub-groups of 4: lanes
// with an even i call twice(i + 1) (line 12), odd ones compute i + 1 + 100 (line 14);
// they reconverge at line 16. out[i] = x + vin[i].y with vin[i] = (4i, 4i+1, 4i+2, 4i+3).
#include <gtest/gtest.h>

#include "tools/cli/debug_test_util.h"

namespace spvsim::tools {
namespace {

using testing::contains;
using testing::debugSession;
using testing::kBranch;
using testing::kLanes;

TEST(DebugStepping, NextThroughABranchSplitsTheMaskAndReconverges) {
  const auto t = debugSession(kBranch,
                              "break branch.cl:11\n"
                              "continue\n"
                              "next\n"
                              "info simt\n"
                              "next\n"
                              "next\n"
                              "info simt\n"
                              "next\n"
                              "info simt\n"
                              "print x\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Breakpoint 1 at branch.cl:11");
  EXPECT_HAS(t.reply(2), "Breakpoint 1, branch.cl:11\n");
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 0 at branch.cl:11  ");
  EXPECT_HAS(t.reply(2), "lanes 0-3 active (4/4)  [####]");
  // The mask splits: lanes 0 and 2 (even i) take the `if`; 1 and 3 wait on the stack.
  EXPECT_HAS(t.reply(3), "sub-group 0 at branch.cl:12  ");
  EXPECT_HAS(t.reply(3), "lanes 0,2 active (2/4)  [#.#.]");
  EXPECT_HAS(t.reply(4), "#2  lanes 0,2        at branch.cl:12");
  EXPECT_HAS(t.reply(4), "#1  lanes 1,3        resume at branch.cl:14");
  EXPECT_HAS(t.reply(4), "-> reconverge at branch.cl:16");
  EXPECT_HAS(t.reply(4), "#0  lanes 0-3        resume at branch.cl:16");
  EXPECT_HAS(t.reply(4),
             "Running lanes 0,2 of the diverged lanes 0-3; 1 other group of them run before "
             "they reconverge at branch.cl:16\n");
  // next steps over the call to twice() to the end of the `if` (line 13).
  EXPECT_HAS(t.reply(5), "sub-group 0 at branch.cl:13  ");
  EXPECT_HAS(t.reply(5), "lanes 0,2 active (2/4)  [#.#.]");
  // The even lanes wait at the reconvergence point; the odd lanes run the `else`.
  EXPECT_HAS(t.reply(6), "sub-group 0 at branch.cl:14  ");
  EXPECT_HAS(t.reply(6), "lanes 1,3 active (2/4)  [.#.#]");
  EXPECT_HAS(t.reply(7), "#1  lanes 1,3        at branch.cl:14");
  EXPECT_LACKS(t.reply(7), "lanes 0,2");
  // All four reconverge at line 16: one entry, the kernel's (lowering starts at the body
  // that clang's kernel wrapper calls).
  EXPECT_HAS(t.reply(8), "sub-group 0 at branch.cl:16  ");
  EXPECT_HAS(t.reply(8), "lanes 0-3 active (4/4)  [####]");
  EXPECT_HAS(t.reply(9), "SIMT stack of sub-group 0, 1 entry, top (running) first:\n");
  EXPECT_HAS(t.reply(9), "#0  lanes 0-3        at branch.cl:16");
  // x = 2 * (i + 1) for even i, i + 1 + 100 for odd i.
  EXPECT_HAS(t.reply(10), "x (uint) = [0]=2 [1]=102 [2]=6 [3]=104\n");
}

// Under --reconvergence random the even side (lanes 0 and 2) may run as two groups: for
// every seed, the group running at line 12 is one or both of them, and `info simt` names
// the diverged set, 0-3, and the groups still to run (the odd side, and the other even
// lane where the side was split).
TEST(DebugStepping, RandomReconvergenceShowsTheGroupAndTheDivergedSet) {
  bool split = false;
  for (int seed = 1; seed <= 8; ++seed) {
    std::vector<std::string> args = kBranch;
    args.insert(args.end(), {"--reconvergence", "random:" + std::to_string(seed)});
    const auto t = debugSession(args, "break branch.cl:12\ncontinue\ninfo simt\n");
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_EQ(t.status, 0) << t.text;
    const std::string simt = t.reply(3);
    const bool both = contains(simt, "Running lanes 0,2 of the diverged lanes 0-3;");
    const bool one = contains(simt, "Running lanes 0 of the diverged lanes 0-3;") ||
                     contains(simt, "Running lanes 2 of the diverged lanes 0-3;");
    EXPECT_TRUE(both || one) << simt;
    EXPECT_HAS(simt, "reconverge at branch.cl:16\n");
    split = split || one;
  }
  EXPECT_TRUE(split) << "no seed split the even side";
}

TEST(DebugStepping, BacktraceAndFinishInACalledFunction) {
  const auto t = debugSession(kBranch,
                              "break twice\n"
                              "continue\n"
                              "backtrace\n"
                              "step\n"
                              "print v\n"
                              "finish\n"
                              "backtrace\n"
                              "finish\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Breakpoint 1 at function twice");
  EXPECT_HAS(t.reply(2), "Breakpoint 1, function twice\n");
  EXPECT_HAS(t.reply(2), "lanes 0,2 active (2/4)  [#.#.]");  // only even i call twice()
  EXPECT_HAS(t.reply(3), "#0  twice at ");
  EXPECT_HAS(t.reply(3), "#1  branchy at branch.cl:12  ");
  EXPECT_HAS(t.reply(3), "OpFunctionCall");
  EXPECT_LACKS(t.reply(3), "#2");  // no frame for clang's kernel wrapper
  // After the parameter is stored, v is x = i + 1 in the even lanes.
  EXPECT_HAS(t.reply(5), "v (uint) = [0]=1 [1]=- [2]=3 [3]=-\n");
  EXPECT_HAS(t.reply(6), "Run till exit from twice\n");
  EXPECT_HAS(t.reply(6), "sub-group 0 at branch.cl:12  OpStore");
  EXPECT_HAS(t.reply(6), "= [0]=2 [1]=- [2]=6 [3]=-\n");  // twice(1), twice(3)
  EXPECT_HAS(t.reply(6), "Value returned: %");
  EXPECT_HAS(t.reply(7), "#0  branchy at branch.cl:12");
  EXPECT_LACKS(t.reply(7), "twice");
  // branchy is the entry function: lowering starts at the body that clang's wrapper calls.
  EXPECT_HAS(t.reply(8), "error: the kernel's entry function has no caller");
}

TEST(DebugStepping, FinishInTheEntryFunctionIsRefused) {
  const auto t = debugSession(kLanes, "finish\nlanes\n");
  EXPECT_HAS(t.reply(1), "error: the kernel's entry function has no caller");
  EXPECT_HAS(t.reply(2), "sub-group 0: lanes 0-3 active (4/4)");
}

// lanes.spvasm has no line information: step and next run one instruction each.
TEST(DebugStepping, StepRunsOneInstructionOfAllActiveLanes) {
  const auto t = debugSession(kLanes,
                              "break %21\n"
                              "continue\n"
                              "print %21\n"
                              "step\n"
                              "print %21\n"
                              "step\n"
                              "step\n"
                              "print %22\n"
                              "next\n"
                              "print r\n"
                              "print i[2]\n"
                              "step 2\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(0), "The module has no source lines");
  EXPECT_HAS(t.reply(2), "sub-group 0 at %21 = OpIMul %uint %i %uint_3\n");
  EXPECT_HAS(t.reply(2), "lanes 1,3 active (2/4)  [.#.#]");  // odd i run the true branch first
  EXPECT_HAS(t.reply(3), "%21 (int) = [0]=- [1]=0 [2]=- [3]=0\n");  // not computed yet
  EXPECT_HAS(t.reply(4), "at OpBranch %26\n");
  EXPECT_HAS(t.reply(5), "%21 (int) = [0]=- [1]=3 [2]=- [3]=9\n");  // 3 * i
  // The branch reaches the reconvergence point: the even lanes run the false branch.
  EXPECT_HAS(t.reply(6), "at %22 = OpIAdd %uint %i %uint_100\n");
  EXPECT_HAS(t.reply(6), "lanes 0,2 active (2/4)  [#.#.]");
  EXPECT_HAS(t.reply(8), "%22 (int) = [0]=100 [1]=- [2]=102 [3]=-\n");  // i + 100
  // Reconverged at block %26: the phi r merges both.
  EXPECT_HAS(t.reply(9), "at %31 = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %out %19\n");
  EXPECT_HAS(t.reply(9), "lanes 0-3 active (4/4)  [####]");
  EXPECT_HAS(t.reply(10), "r (int) = [0]=100 [1]=3 [2]=102 [3]=9\n");
  EXPECT_HAS(t.reply(11), "i[2] (int) = 2\n");
  EXPECT_HAS(t.reply(12), "at OpReturn\n");
}

TEST(DebugStepping, ContinueToTheEndPrintsDiagnosticsAndDump) {
  std::vector<std::string> args = kBranch;
  args.push_back("--dump");
  const auto t = debugSession(args, "continue\nstep\ncontinue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Kernel branchy finished: all 1 work-group ran.\nNo diagnostics.\n");
  // out[i] = x + 4i + 1: 2+1, 102+5, 6+9, 104+13, 10+17, 106+21, 14+25, 108+29.
  EXPECT_HAS(t.reply(1), "arg0 uint[8] = 3 107 15 117 27 127 39 137\n");
  EXPECT_HAS(t.reply(2), "The kernel has finished; nothing is left to run");
  EXPECT_HAS(t.reply(3), "The kernel has finished; nothing is left to run");
}

TEST(DebugStepping, ListShowsSourceAndDisassembly) {
  const auto t = debugSession(kBranch, "break 16\ncontinue\nlist\nlist twice\n");
  EXPECT_HAS(t.reply(3), "branch.cl:\n");
  EXPECT_HAS(t.reply(3), "     15    }\n=>   16    uint4 v = vin[i];\n     17");
  EXPECT_HAS(t.reply(3), "SPIR-V, function branchy:\n");
  EXPECT_HAS(t.reply(3), "=> branch.cl:16 ");
  EXPECT_HAS(t.reply(3), "   branch.cl:14 OpBranch");  // the instructions before it
  EXPECT_HAS(t.reply(4), "SPIR-V, function twice:\n");
}

}  // namespace
}  // namespace spvsim::tools
