// spvsim debug: switching sub-groups and work-groups, sub-groups waiting at a barrier,
// stop-on-error, the instruction budget, and the session's exit status.
#include <gtest/gtest.h>

#include "tools/cli/debug_test_util.h"

namespace spvsim::tools {
namespace {

using testing::debugSession;
using testing::kBranch;
using testing::kRotate;

// rotate.cl: 2 work-groups of 8 work-items, sub-groups of 4; l = get_local_id(0).
TEST(DebugGroups, SwitchSubGroupsAndWorkGroups) {
  const auto t = debugSession(kRotate,
                              "break 9\n"
                              "continue\n"
                              "print l\n"
                              "subgroup 1\n"
                              "print l\n"
                              "workgroup 1,0,0\n"
                              "info workgroups\n"
                              "continue\n"
                              "print l\n"
                              "x scratch\n"
                              "workgroup 0\n"
                              "x scratch\n"
                              "subgroup 2\n"
                              "workgroup 2,0,0\n"
                              "workgroup x\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(0), "2 work-groups, sub-group size 4, 2 sub-groups per work-group.");
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 0 at rotate.cl:9  ");
  EXPECT_HAS(t.reply(3), "l (uint) = [0]=0 [1]=1 [2]=2 [3]=3\n");
  // Sub-group 1 waited at the barrier too; it stands after it.
  EXPECT_HAS(t.reply(4), "work-group (0,0,0) sub-group 1 at rotate.cl:9  ");
  EXPECT_HAS(t.reply(5), "l (uint) = [0]=4 [1]=5 [2]=6 [3]=7\n");
  // A work-group visited for the first time starts at the kernel's entry.
  EXPECT_HAS(t.reply(6), "work-group (1,0,0) sub-group 0 at ");
  EXPECT_HAS(t.reply(7), "  (0,0,0)  running: 2 sub-groups, 0 at a barrier, 0 done\n");
  EXPECT_HAS(t.reply(7), "* (1,0,0)  running: 2 sub-groups, 0 at a barrier, 0 done\n");
  EXPECT_HAS(t.reply(8), "work-group (1,0,0) sub-group 0 at rotate.cl:9  ");
  EXPECT_HAS(t.reply(9), "l (uint) = [0]=0 [1]=1 [2]=2 [3]=3\n");
  EXPECT_HAS(t.reply(10),
             "(int, local memory of work-group (1,0,0)):\n"
             "  [0] 0 10 20 30 40 50 60 70\n");
  // Back in work-group 0: its own local memory, state unchanged.
  EXPECT_HAS(t.reply(11), "work-group (0,0,0) sub-group 0 at rotate.cl:9  ");
  EXPECT_HAS(t.reply(12),
             "(int, local memory of work-group (0,0,0)):\n"
             "  [0] 0 10 20 30 40 50 60 70\n");
  EXPECT_HAS(t.reply(13), "error: work-group (0,0,0) has sub-groups 0-1\n");
  EXPECT_HAS(t.reply(14), "error: work-group (2,0,0) does not exist: the launch has 2x1x1");
  EXPECT_HAS(t.reply(15), "error: workgroup: 'x' is not a number\n");
}

// 2^40 work-groups (1048576 x 1048576 of one work-item): the session's per-group state
// follows the groups it visited, not the launch (a bit per group was 128 GiB, and
// std::bad_alloc). The last work-group can be visited; continuing group (0,0,0) to its
// end goes on with (1,0,0), the lowest unfinished one.
TEST(DebugGroups, ALaunchOfTrillionsOfWorkGroups) {
  const auto t = debugSession({"testdata/debug/branch.cl", "--global", "1048576,1048576", "--local",
                               "1,1", "--sub-group-size", "4", "--max-memory", "64M", "--arg",
                               "buffer:uint[8]", "--arg", "buffer:uint4[8]=range(0)"},
                              "info workgroups\n"
                              "workgroup 1048575,1048575,0\n"
                              "info workgroups\n"
                              "workgroup 0,0,0\n"
                              "break 17\n"
                              "continue\n"
                              "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(0), "1099511627776 work-groups, sub-group size 4");
  EXPECT_HAS(t.reply(1),
             "1099511627776 work-groups in the launch; started:\n"
             "* (0,0,0)  running: 1 sub-group");
  EXPECT_HAS(t.reply(2), "work-group (1048575,1048575,0) sub-group 0 at ");
  EXPECT_HAS(t.reply(3), "  (0,0,0)  running: 1 sub-group");
  EXPECT_HAS(t.reply(3), "* (1048575,1048575,0)  running: 1 sub-group");
  EXPECT_HAS(t.reply(1), "  1099511627775 not started yet\n");  // 2^40 - 1
  EXPECT_HAS(t.reply(3), "  1099511627774 not started yet\n");
  EXPECT_HAS(t.reply(6), "work-group (0,0,0) sub-group 0 at branch.cl:17");
  EXPECT_HAS(t.reply(7), "work-group (1,0,0) sub-group 0 at branch.cl:17");
}

TEST(DebugGroups, ContinueGoesOnWithTheNextWorkGroup) {
  const auto t = debugSession(kRotate,
                              "break 9\n"
                              "continue\n"
                              "continue\n"
                              "continue\n"
                              "info workgroups\n"
                              "workgroup 0,0,0\n"
                              "continue\n"
                              "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 0 at rotate.cl:9");
  EXPECT_HAS(t.reply(3), "work-group (0,0,0) sub-group 1 at rotate.cl:9");
  EXPECT_HAS(t.reply(4), "work-group (1,0,0) sub-group 0 at rotate.cl:9");
  EXPECT_HAS(t.reply(5),
             "2 work-groups in the launch; started:\n"
             "* (1,0,0)  running: 2 sub-groups, 0 at a barrier, 0 done\n"
             "  1 more finished (their state is released)\n");
  EXPECT_HAS(t.reply(6), "error: work-group (0,0,0) has finished; its sub-groups are gone\n");
  EXPECT_HAS(t.reply(7), "work-group (1,0,0) sub-group 1 at rotate.cl:9");
  EXPECT_HAS(t.reply(8), "Kernel rotate finished: all 2 work-groups ran.\n");
}

TEST(DebugGroups, InfoSubGroupsShowsOneWaitingAtTheBarrier) {
  const auto t = debugSession(kRotate,
                              "break 8\n"
                              "continue\n"
                              "step\n"
                              "info subgroups\n"
                              "step\n"
                              "info subgroups\n"
                              "step\n"
                              "step\n"
                              "info subgroups\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(2), "work-group (0,0,0) sub-group 0 at rotate.cl:8  OpControlBarrier");
  EXPECT_HAS(t.reply(3),
             "sub-group 0 waits at a work-group barrier: rotate.cl:8  OpControlBarrier");
  EXPECT_HAS(t.reply(4), "* 0   at barrier  lanes 0-3 active (4/4)  rotate.cl:8  OpControlBarrier");
  EXPECT_HAS(t.reply(4), "  1   running     lanes 0-3 active (4/4)  ");
  // Stepping a sub-group at a barrier runs the others: sub-group 1 hits the breakpoint.
  EXPECT_HAS(t.reply(5),
             "sub-group 0 waits at a work-group barrier: running the other "
             "sub-groups until it is released\n");
  EXPECT_HAS(t.reply(5), "Breakpoint 1, rotate.cl:8\n");
  EXPECT_HAS(t.reply(5), "work-group (0,0,0) sub-group 1 at rotate.cl:8  ");
  EXPECT_HAS(t.reply(6), "  0   at barrier  ");
  EXPECT_HAS(t.reply(6), "* 1   running     ");
  EXPECT_HAS(t.reply(7), "sub-group 1 waits at a work-group barrier: rotate.cl:8");
  // Both wait: the barrier is released and sub-group 1 stands after it.
  EXPECT_HAS(t.reply(8), "work-group (0,0,0) sub-group 1 at rotate.cl:9  ");
  EXPECT_HAS(t.reply(9), "  0   running     lanes 0-3 active (4/4)  rotate.cl:9");
  EXPECT_HAS(t.reply(9), "* 1   running     lanes 0-3 active (4/4)  rotate.cl:9");
}

// faults.cl `shifted`: out[i + 4] = 3i for i = 0..7 in one sub-group of 8; lanes 4-7
// store past the end of the 8-element buffer (line 6). Then out[i] = 3i + 1 (line 7).
TEST(DebugGroups, StopsOnAnOutOfBoundsStore) {
  const auto t = debugSession({"testdata/debug/faults.cl", "--kernel", "shifted", "--global", "8",
                               "--sub-group-size", "8", "--arg", "buffer:int[8]", "--dump"},
                              "continue\nprint v\nlanes\ncontinue\n");
  EXPECT_EQ(t.status, 2) << t.text;
  EXPECT_HAS(t.reply(1),
             "error: out-of-bounds: write of 4 bytes at byte offset 32 of argument 0 "
             "(out) (global memory, 32 bytes) [kernel shifted, work-group (0,0,0), "
             "sub-group 0, lanes 4-7, at ");
  EXPECT_HAS(t.reply(1), "faults.cl:6, in `OpStore ");
  EXPECT_HAS(t.reply(1),
             "Stopped on the error at faults.cl:6; the sub-group is past it.\n"
             "work-group (0,0,0) sub-group 0 at faults.cl:7  ");
  EXPECT_HAS(t.reply(2), "v (int) = [0]=0 [1]=3 [2]=6 [3]=9 [4]=12 [5]=15 [6]=18 [7]=21\n");
  // Not fatal: the run goes on and ends with the summary, as `spvsim run` reports it.
  EXPECT_HAS(t.reply(4), "Kernel shifted finished: all 1 work-group ran.\nerror: out-of-bounds:");
  EXPECT_HAS(t.reply(4), "arg0 int[8] = 1 4 7 10 13 16 19 22\n");
}

// faults.cl `spin` never ends while stop[0] == 0.
TEST(DebugGroups, TheInstructionBudgetEndsAnInfiniteLoop) {
  const auto t =
      debugSession({"testdata/debug/faults.cl", "--kernel", "spin", "--global", "4", "--arg",
                    "buffer:int[1]", "--arg", "buffer:int[4]", "--instruction-budget", "500"},
                   "continue\nstep\n");
  EXPECT_EQ(t.status, 2) << t.text;
  EXPECT_HAS(t.reply(1),
             "error: instruction-budget: work-group exceeded the instruction budget "
             "of 500 sub-group instructions");
  EXPECT_HAS(t.reply(1), "The error is fatal: the launch ends here");
  EXPECT_HAS(t.reply(1), "Kernel spin stopped by a fatal error.\n");
  EXPECT_HAS(t.reply(2), "The kernel has finished; nothing is left to run");
  // With the flag set the loop ends: no error.
  const auto u = debugSession(
      {"testdata/debug/faults.cl", "--kernel", "spin", "--global", "4", "--arg",
       "buffer:int[1]=fill(1)", "--arg", "buffer:int[4]", "--instruction-budget", "500", "--dump"},
      "continue\n");
  EXPECT_EQ(u.status, 0) << u.text;
  EXPECT_HAS(u.reply(1), "arg1 int[4] = 0 0 0 0\n");
}

TEST(DebugGroups, CommandMistakesLeaveTheSessionRunning) {
  const auto t = debugSession(kBranch,
                              "frobnicate\n"
                              "s x\n"
                              "n 0\n"
                              "finish now\n"
                              "info nothing\n"
                              "w\n"
                              "print/x\n"
                              "# a comment\n"
                              "lanes\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "error: unknown command 'frobnicate' (`help` lists the commands)\n");
  EXPECT_HAS(t.reply(2), "error: step: 'x' is not a positive count\n");
  EXPECT_HAS(t.reply(3), "error: next: '0' is not a positive count\n");
  EXPECT_HAS(t.reply(4), "error: finish takes no arguments\n");
  EXPECT_HAS(t.reply(5), "error: info nothing: the topics are");
  EXPECT_HAS(t.reply(6), "error: ambiguous command 'w': watch, workgroup, workitem\n");
  EXPECT_HAS(t.reply(9), "sub-group 0: lanes 0-3 active (4/4)  [####]\n");
}

TEST(DebugGroups, EndOfInputEndsTheSessionWithoutRunningTheRest) {
  const auto t = debugSession({"testdata/debug/faults.cl", "--kernel", "shifted", "--global", "8",
                               "--sub-group-size", "8", "--arg", "buffer:int[8]"},
                              "step\n");
  EXPECT_EQ(t.status, 0) << t.text;  // the out-of-bounds store never ran
  EXPECT_LACKS(t.text, "error:");
  const auto q = debugSession(kBranch, "quit\nlanes\n");
  EXPECT_EQ(q.replies.size(), 2u) << q.text;  // nothing after quit
}

TEST(DebugGroups, HelpListsTheCommands) {
  const auto t = debugSession(kBranch, "help\nhelp x\nhelp nosuch\n");
  for (const char* command : {"step [N]", "next [N]", "finish", "continue", "break LOC",
                              "watch NAME", "delete", "print", "lanes", "subgroup N", "workgroup X",
                              "backtrace", "list", "x NAME", "info simt", "info subgroups", "quit"})
    EXPECT_HAS(t.reply(1), command);
  EXPECT_HAS(t.reply(2), "  x NAME[I:J]");
  EXPECT_HAS(t.reply(2), "  x/NFU VALUE");
  EXPECT_LACKS(t.reply(2), "step");
  EXPECT_HAS(t.reply(3), "error: help: no command 'nosuch'");
}

}  // namespace
}  // namespace spvsim::tools
