// spvsim debug: the gdb/cuda-gdb habits: tbreak, until, display, set var, lane and
// work-item focus, frame/up/down, break FUNCTION after the prologue, watchpoints on
// variables and local memory, restart.
//
// branch.cl (8 work-items, sub-groups of 4): i = 0..7, x = i + 1, even i call twice(x);
// out[i] = x + vin[i].y with vin = range(0) as uint4, so vin[i].y = 4i + 1.
#include <gtest/gtest.h>

#include "tools/cli/debug_test_util.h"

namespace spvsim::tools {
namespace {

using testing::debugSession;
using testing::kBranch;
using testing::kRotate;

// The counter hands out 2 sub-groups x 4 lanes x 4 iterations = 32 slots.
const std::vector<std::string> kOrder = {
    "testdata/debug/order.cl", "--global", "8",     "--local",        "8",
    "--sub-group-size",        "4",        "--arg", "buffer:uint[1]", "--arg",
    "buffer:uint[32]"};

TEST(DebugHabits, TemporaryBreakpointStopsOnce) {
  const auto t = debugSession(kBranch, "tbreak 14\ncontinue\ninfo breakpoints\ncontinue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(1), "Temporary breakpoint 1 at branch.cl:14: ");
  EXPECT_HAS(t.reply(2), "Temporary breakpoint 1, branch.cl:14\n");
  EXPECT_HAS(t.reply(2), "sub-group 0 at branch.cl:14");
  EXPECT_HAS(t.reply(3), "No breakpoints or watchpoints.\n");
  EXPECT_HAS(t.reply(4), "Kernel branchy finished");  // sub-group 1 does not stop
}

// order.cl: a loop over k = 0..3 on lines 4-7 (line 7 is its closing brace).
TEST(DebugHabits, UntilLeavesALoopOrRunsToALine) {
  const auto t = debugSession(kOrder,
                              "break 6\n"
                              "continue\n"
                              "delete\n"
                              "until\n"
                              "until\n"
                              "print k\n"
                              "until 99\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(4), "sub-group 0 at order.cl:7 ");  // the next line, later than 6
  EXPECT_HAS(t.reply(5), "sub-group 0 at order.cl:8 ");  // the loop's back edge is skipped
  EXPECT_HAS(t.reply(6), "k (int) = [0]=4 [1]=4 [2]=4 [3]=4\n");
  EXPECT_HAS(t.reply(7), "error: no code at order.cl:99 or after it");
  const auto u = debugSession(kOrder,
                              "break 6\ncontinue\ndelete\nuntil 4\nprint k\nuntil 6\n"
                              "print k\n");
  EXPECT_HAS(u.reply(4), "sub-group 0 at order.cl:4 ");  // ++k
  EXPECT_HAS(u.reply(5), "k (int) = [0]=0 [1]=0 [2]=0 [3]=0\n");
  EXPECT_HAS(u.reply(6), "sub-group 0 at order.cl:6 ");
  EXPECT_HAS(u.reply(7), "k (int) = [0]=1 [1]=1 [2]=1 [3]=1\n");
}

TEST(DebugHabits, DisplaysShowAtEveryStop) {
  const auto t = debugSession(kBranch,
                              "break 11\n"
                              "continue\n"
                              "display x\n"
                              "display/x i\n"
                              "next\n"
                              "undisplay 1\n"
                              "next\n"
                              "undisplay 5\n"
                              "display nosuch\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "1: x (uint) = [0]=1 [1]=2 [2]=3 [3]=4\n");
  EXPECT_HAS(t.reply(4), "2: i (uint) = [0]=0x00000000 [1]=0x00000001 [2]=0x00000002");
  // Line 12: the even lanes, about to call twice(x).
  EXPECT_HAS(t.reply(5),
             "lanes 0,2 active (2/4)  [#.#.]\n"
             "1: x (uint) = [0]=1 [1]=- [2]=3 [3]=-\n"
             "2: i (uint) = [0]=0x00000000 [1]=- [2]=0x00000002 [3]=-\n");
  EXPECT_LACKS(t.reply(7), "1: x");
  EXPECT_HAS(t.reply(7), "2: i (uint)");
  EXPECT_HAS(t.reply(8), "error: no display number 5\n");
  EXPECT_HAS(t.reply(9), "3: nosuch: no variable or value named 'nosuch'");
}

TEST(DebugHabits, SetVarWritesTheFocusedLaneOrAllAndChangesTheRun) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "set var x = 77\n"
                              "lane 2\n"
                              "set var x = x + 1\n"
                              "set var x@all = $lane * 10\n"
                              "set var v.y = 99\n"
                              "set var out[6] = 5\n"
                              "print out[6]\n"
                              "next\n"
                              "x out[0:4]\n"
                              "set var 3 = 4\n"
                              "set var v = 1\n"
                              "set var x = 1.5\n"
                              "set var x = -1\n"
                              "set x = 1\n"
                              "set var x[all] = i + 1\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "x (uint) = [0]=77 [1]=102 [2]=6 [3]=104\n");  // lane 0: first active
  EXPECT_HAS(t.reply(4), "Focus on lane 2 of sub-group 0: work-item (2,0,0), local id (2,0,0)\n");
  EXPECT_HAS(t.reply(5), "x (uint) = [0]=77 [1]=102 [2]=7 [3]=104\n");
  EXPECT_HAS(t.reply(6), "x (uint) = [0]=0 [1]=10 [2]=20 [3]=30\n");
  EXPECT_HAS(t.reply(7), "v.s1 (uint) = [0]=1 [1]=5 [2]=99 [3]=13\n");
  EXPECT_HAS(t.reply(8), "out[6] (uint, global memory, one for the work-group) = 5\n");
  EXPECT_HAS(t.reply(9), "out[6] (uint, global memory, one for the work-group) = 5\n");
  // out[i] = x + v.y with the values written: 0 + 1, 10 + 5, 20 + 99, 30 + 13.
  EXPECT_HAS(t.reply(11), "  [0] 1 15 119 43\n");
  EXPECT_HAS(t.reply(12), "error: 3 is not a variable or a memory element");
  EXPECT_HAS(t.reply(13), "error: v is a uint4: set var writes numbers");
  EXPECT_HAS(t.reply(14), "[2]=1 ");           // C converts 1.5 to 1
  EXPECT_HAS(t.reply(15), "[2]=4294967295 ");  // and -1 to 2^32 - 1
  EXPECT_HAS(t.reply(16), "error: set: the one form is set var NAME = VALUE");
  EXPECT_HAS(t.reply(17), "x (uint) = [0]=1 [1]=2 [2]=3 [3]=4\n");  // [all]: as @all
}

// gdb's words: threads are the sub-groups (`info threads`, `thread N`); `info line`.
TEST(DebugHabits, ThreadsAndLinesInGdbWords) {
  const auto t = debugSession(kRotate,
                              "break 8\n"
                              "continue\n"
                              "info line\n"
                              "info threads\n"
                              "thread 1\n"
                              "info line\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "Line 8 of \"rotate.cl\" in rotate; sub-group 0 is at `OpControlBarrier");
  EXPECT_HAS(t.reply(4), "Sub-groups of work-group (0,0,0):\n* 0   running");
  EXPECT_HAS(t.reply(5), "work-group (0,0,0) sub-group 1 at ");
  // Sub-group 1 has not run yet: it is at the kernel's first instruction, before any line.
  EXPECT_HAS(t.reply(6), "No line information at `");
}

TEST(DebugHabits, LaneAndWorkItemFocus) {
  const auto t = debugSession(kRotate,
                              "break 8\n"
                              "continue\n"
                              "lane\n"
                              "lane 3\n"
                              "print l\n"
                              "lane 4\n"
                              "workitem 13\n"
                              "print $lane\n"
                              "workitem 16\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "Focus: lane 0 of sub-group 0 (the first active lane");
  EXPECT_HAS(t.reply(4), "Focus on lane 3 of sub-group 0: work-item (3,0,0), local id (3,0,0)\n");
  EXPECT_HAS(t.reply(5), "l (uint) = 3 at lane 3; [0]=0 [1]=1 [2]=2 [3]=3\n");
  EXPECT_HAS(t.reply(6), "error: lane 4 does not exist: sub-group 0 has lanes 0-3\n");
  // Global id 13 with work-groups of 8: work-group 1, local id 5: sub-group 1, lane 1.
  EXPECT_HAS(t.reply(7), "work-group (1,0,0) sub-group 1 at ");
  EXPECT_HAS(t.reply(7), "Focus on lane 1 of sub-group 1: work-item (13,0,0), local id (5,0,0)\n");
  EXPECT_HAS(t.reply(8), "$lane (uint) = 1\n");
  EXPECT_HAS(t.reply(9), "error: work-item (16,0,0) is outside the NDRange");
}

TEST(DebugHabits, FramesAndBreakAtAFunctionAfterItsPrologue) {
  const auto t = debugSession(kBranch,
                              "break twice\n"
                              "continue\n"
                              "print v\n"
                              "up\n"
                              "print x\n"
                              "info locals\n"
                              "up\n"
                              "down 1\n"
                              "down\n"
                              "frame 1\n"
                              "backtrace\n"
                              "step\n"
                              "frame\n");
  EXPECT_EQ(t.status, 0) << t.text;
  // Lanes 0 and 2 call twice(i + 1): the parameter reads back at the stop.
  EXPECT_HAS(t.reply(3), "v (uint) = [0]=1 [1]=- [2]=3 [3]=-\n");
  EXPECT_HAS(t.reply(4), "#1  branchy at branch.cl:12  ");
  EXPECT_HAS(t.reply(5), "x (uint) = [0]=1 [1]=- [2]=3 [3]=-\n");  // branchy's, no note
  EXPECT_HAS(t.reply(6), "i (uint) = [0]=0 [1]=- [2]=2 [3]=-\n");
  // branchy is the outermost frame: no frame for clang's kernel wrapper.
  EXPECT_HAS(t.reply(7), "error: no frame 2: the call stack has frames 0-1\n");
  EXPECT_HAS(t.reply(8), "#0  twice at branch.cl:4  ");
  EXPECT_HAS(t.reply(9), "error: down: already at the innermost frame (#0)\n");
  EXPECT_HAS(t.reply(11), "=>#1  branchy at branch.cl:12");
  EXPECT_HAS(t.reply(13), "#0  twice at ");  // execution selects the innermost frame again
}

// info args: the parameters of the selected frame's function, in order, and no other
// variable; twice(v) and then its caller branchy(out, vin).
TEST(DebugHabits, InfoArgsListsTheParametersInOrder) {
  const auto t = debugSession(kBranch,
                              "break twice\n"
                              "continue\n"
                              "info args\n"
                              "up\n"
                              "info args\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "v (uint) = [0]=1 [1]=- [2]=3 [3]=-\n");
  EXPECT_LACKS(t.reply(3), "t (");  // a local, not a parameter
  const std::string caller = t.reply(5);
  const size_t out = caller.find("out ("), vin = caller.find("vin (");
  EXPECT_NE(out, std::string::npos) << caller;
  EXPECT_NE(vin, std::string::npos) << caller;
  EXPECT_LT(out, vin) << caller;  // parameter order
  EXPECT_LACKS(caller, "x (");
  EXPECT_LACKS(caller, "i (");
}

// rotate.cl: work-item l writes scratch[l] = 10 l (line 6) and tile[l] = -l (line 7).
TEST(DebugHabits, WatchpointsOnVariablesAndLocalMemory) {
  const auto t = debugSession(kRotate,
                              "break rotate\n"
                              "continue\n"
                              "delete\n"
                              "watch l\n"
                              "watch tile[1]\n"
                              "watch scratch[5]\n"
                              "continue\n"
                              "continue\n"
                              "continue\n"
                              "continue\n"
                              "watch 1 + 2\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(4), "Watchpoint 2: l (uint, lanes 0-3 of work-group (0,0,0) sub-group 0)\n");
  EXPECT_HAS(t.reply(5), "Watchpoint 3: tile[1] (int, local memory of work-group (0,0,0))\n");
  EXPECT_HAS(t.reply(6), "Watchpoint 4: scratch[5] (int, local memory of work-group (0,0,0))\n");
  EXPECT_HAS(t.reply(7),
             "Watchpoint 2: l changed by work-group (0,0,0) sub-group 0\n"
             "  lane 1: 0 -> 1\n  lane 2: 0 -> 2\n  lane 3: 0 -> 3\n");
  EXPECT_HAS(t.reply(8),
             "Watchpoint 3: tile[1] changed by work-group (0,0,0) sub-group 0\n"
             "  tile[1]: 0 -> -1\n");
  EXPECT_HAS(t.reply(9),
             "Watchpoint 4: scratch[5] changed by work-group (0,0,0) sub-group 1\n"
             "  scratch[5]: 0 -> 50\n");
  EXPECT_HAS(t.reply(10), "Watchpoint 2 (l) deleted: its work-group has finished.\n");
  EXPECT_HAS(t.reply(11), "error: 1 + 2 is computed, not a variable or memory");
}

TEST(DebugHabits, RestartRunsTheKernelAgainFromTheGivenBuffers) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "display x@3\n"
                              "continue\n"
                              "delete\n"
                              "continue\n"
                              "x out[0:2]\n"
                              "break 17\n"
                              "restart\n"
                              "x out[0:2]\n"
                              "info breakpoints\n"
                              "continue\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(6), "  [0] 3 107\n");  // out[0] = 2 + 1, out[1] = 102 + 5
  EXPECT_HAS(t.reply(8), "Restarted: the kernel runs again from its start");
  EXPECT_HAS(t.reply(8), "Stopped at the kernel's entry.");
  EXPECT_HAS(t.reply(9), "  [0] 0 0\n");
  EXPECT_HAS(t.reply(10), "2    breakpoint  0     branch.cl:17\n");
  EXPECT_HAS(t.reply(11), "Breakpoint 2, branch.cl:17\n");
  EXPECT_HAS(t.reply(11), "1: x@3 (uint) = 104\n");
}

// counter.cl: one work-item adds 1 to a program-scope variable that starts at 5. Each
// run from the start must see 5 again: 6 both times (7 the second time if restart left
// the variable as the first run did).
TEST(DebugHabits, RestartPutsProgramScopeVariablesBack) {
  const auto t = debugSession({"testdata/debug/counter.cl", "--global", "1", "--arg",
                               "buffer:int[1]", "--build-options", "-cl-std=CL2.0"},
                              "continue\nx out[0:1]\nrestart\ncontinue\nx out[0:1]\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(2), "  [0] 6\n");
  EXPECT_HAS(t.reply(3), "Restarted: the kernel runs again from its start");
  EXPECT_HAS(t.reply(5), "  [0] 6\n");
}

// uniform_index.cl at -O2: j (n + 2, the same in every lane) reads in[j]. Setting j to a
// different value in each lane must give each lane its own element: the executor forgets
// what it knew about registers' values across lanes (src/exec/register_shape.h), else the
// access would still take j as uniform.
TEST(DebugHabits, SetVarOfARegisterMakesItPerLaneAgain) {
  const auto t =
      debugSession({"testdata/debug/uniform_index.cl", "--build-options", "-O2 -g", "--global", "4",
                    "--local", "4", "--sub-group-size", "4", "--arg", "buffer:uint[16]=range(0)",
                    "--arg", "buffer:uint[4]", "--arg", "uint:3"},
                   "break 6\ncontinue\nprint j\nset var j@all = $lane * $lane + 1\n"
                   "continue\nx out[0:4]\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "j (uint) = [0]=5 [1]=5 [2]=5 [3]=5\n");
  EXPECT_HAS(t.reply(4), "j (uint) = [0]=1 [1]=2 [2]=5 [3]=10\n");
  EXPECT_HAS(t.reply(6), "  [0] 1 2 5 10\n");  // in = 0, 1, 2, ...: out[l] = j of lane l
}

// llvm-spirv's wrapper names the kernel's parameters; the body it calls runs as the entry
// function and the names still reach its registers.
TEST(DebugHabits, WrapperParameterNamesNameTheBodysValues) {
  const auto t = debugSession(
      {"testdata/debug/wrapped.spvasm", "--global", "4", "--local", "4", "--sub-group-size", "4",
       "--arg", "buffer:uint[4]", "--arg", "buffer:uint[4]=range(5)"},
      "stepi 4\nbacktrace\nprint src\nprint dst\ncontinue\nx dst[0:4]\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(2), "#0  scale at %18 = OpIMul");
  EXPECT_LACKS(t.reply(2), "#1");
  EXPECT_HAS(t.reply(3), "src (global int*) = [0]=global:src+0 [1]=global:src+0");
  EXPECT_HAS(t.reply(4), "dst (global int*) = [0]=global:dst+0");
  EXPECT_HAS(t.reply(6), "  [0] 16 19 22 25\n");  // src = 5, 6, 7, 8: 3 * src + 1
}

TEST(DebugHabits, HelpDescribesTheNewCommands) {
  const auto t = debugSession(kBranch, "help\nhelp down\nhelp set\n");
  for (const char* command : {"tbreak LOC", "until [LOC]", "watch EXPR", "display[/x|d|u] EXPR",
                              "undisplay", "set var X = EXPR", "lane [N]", "workitem X[,Y,Z]",
                              "frame [N]", "up [N]", "down [N]", "restart", "Ctrl-C"})
    EXPECT_HAS(t.reply(1), command);
  EXPECT_HAS(t.reply(2), "  down [N]            select the callee");
  EXPECT_LACKS(t.reply(2), "up [N]");
  EXPECT_HAS(t.reply(3), "set var X@all = EXPR");
}

// info stores: under --memory-model relaxed the stores of line 17 (out[i] = x + vin[i].y)
// wait in each work-item's store buffer until a later access drains them; worked by hand,
// out[i] = (even i: 2(i + 1); odd i: i + 101) + 4i + 1: 3, 107 (0x6b), 15 (0x0f), 117
// (0x75) for sub-group 0's work-items 0..3. Sequentially consistent: no buffers.
TEST(DebugHabits, InfoStoresShowsTheStoreBuffers) {
  std::vector<std::string> relaxed = kBranch;
  for (const char* a : {"--memory-model", "relaxed:1"}) relaxed.push_back(a);
  const auto t = debugSession(relaxed, "break 17\ncontinue\nnext\ninfo stores\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(
      t.reply(4),
      "4 stores wait in store buffers, oldest first (only the work-item that made one "
      "sees it):\n"
      "  work-group 0 local id 0 (sub-group 0): global 4 bytes at global:out+0: 03 00 00 00\n"
      "  work-group 0 local id 1 (sub-group 0): global 4 bytes at global:out+4: 6b 00 00 00\n"
      "  work-group 0 local id 2 (sub-group 0): global 4 bytes at global:out+8: 0f 00 00 00\n"
      "  work-group 0 local id 3 (sub-group 0): global 4 bytes at global:out+12: 75 00 00 "
      "00\n");
  const auto sc = debugSession(kBranch, "break 17\ncontinue\nnext\ninfo stores\n");
  EXPECT_HAS(sc.reply(4), "no store buffers: the memory model is sequentially consistent");
}

}  // namespace
}  // namespace spvsim::tools
