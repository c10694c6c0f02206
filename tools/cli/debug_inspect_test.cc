// spvsim debug: per-lane printing (scalars, vectors, components, pointers, one lane,
// formats), info locals, and memory examine of buffers and local memory.
#include <gtest/gtest.h>

#include "tools/cli/debug_test_util.h"

namespace spvsim::tools {
namespace {

using testing::debugSession;
using testing::kBranch;
using testing::kRotate;

// At line 17 of branch.cl, sub-group 0 (i = 0..3, all active): x = 2, 102, 6, 104 and
// v = vin[i] = (4i, 4i+1, 4i+2, 4i+3).
TEST(DebugInspect, PrintsEveryLaneOfScalarsVectorsAndPointers) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "print x\n"
                              "print v\n"
                              "print v.y\n"
                              "print v[2].w\n"
                              "print x[1]\n"
                              "print/x x\n"
                              "print out\n"
                              "print vin[3]\n"
                              "p i\n"
                              "print/d x[0]\n"
                              "print vin@3\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "x (uint) = [0]=2 [1]=102 [2]=6 [3]=104\n");
  EXPECT_HAS(t.reply(4),
             "v (uint4) = [0]=(0,1,2,3) [1]=(4,5,6,7) [2]=(8,9,10,11) [3]=(12,13,14,15)\n");
  EXPECT_HAS(t.reply(5), "v.s1 (uint) = [0]=1 [1]=5 [2]=9 [3]=13\n");
  EXPECT_HAS(t.reply(6), "v[2].s3 (uint) = 11\n");
  EXPECT_HAS(t.reply(7), "x[1] (uint) = 102\n");
  EXPECT_HAS(t.reply(8),
             "x (uint) = [0]=0x00000002 [1]=0x00000066 [2]=0x00000006 [3]=0x00000068\n");
  EXPECT_HAS(t.reply(9),
             "out (uint*) = [0]=global:out+0 [1]=global:out+0 [2]=global:out+0 "
             "[3]=global:out+0\n");
  // A pointer indexed is memory: element 3 of vin, the same for every lane. The lane of
  // a pointer is vin@3.
  EXPECT_HAS(t.reply(10),
             "vin[3] (uint4, global memory, one for the work-group) = (12,13,14,15)\n");
  EXPECT_HAS(t.reply(13), "vin@3 (uint4*) = global:vin+0\n");
  EXPECT_HAS(t.reply(11), "i (uint) = [0]=0 [1]=1 [2]=2 [3]=3\n");
  EXPECT_HAS(t.reply(12), "x[0] (uint) = 2\n");
}

// A Physical32 module (testdata/debug/pointers32.spvasm) shows pointers as the 32-bit
// addresses its memory holds: `in`, the first global buffer (16 bytes), is at 1 GiB plus
// its 64 KiB guard (src/exec/address32.h); its pointers still index and examine memory.
TEST(DebugInspect, Physical32PointersShowTheir32BitAddresses) {
  const auto t =
      debugSession({"testdata/debug/pointers32.spvasm", "--global", "4", "--sub-group-size", "4",
                    "--arg", "buffer:uint[4]=range(10)", "--arg", "buffer:uint[4]"},
                   "next 4\n"
                   "print %q\n"
                   "print %q[1]\n"
                   "x/1 %pv\n"
                   "x/2 %q\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(2),
             "[0]=0x40010000 (global:in+0) [1]=0x40010004 (global:in+4) [2]=0x40010008 "
             "(global:in+8) [3]=0x4001000c (global:in+12)\n");
  EXPECT_HAS(t.reply(3), "[0]=11 [1]=12 [2]=13 [3]=<out of bounds");
  EXPECT_HAS(t.reply(4), "(lane 0), 1 x global int*: 0x40010000 (global:in+0)\n");
  EXPECT_HAS(t.reply(5), "0x40010000 (global:in+0) (lane 0), 2 x int: 10 11\n");
}

// Built-in variables print from each lane's private memory (LaunchOptions::builtinStorage:
// a plain launch computes them into registers instead). Sub-group 0 holds work-items 0..3.
TEST(DebugInspect, BuiltInVariablesPrintPerLane) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "print __spirv_BuiltInGlobalInvocationId\n");
  EXPECT_EQ(t.status, 0) << t.text;
  EXPECT_HAS(t.reply(3), "[0]=(0,0,0) [1]=(1,0,0) [2]=(2,0,0) [3]=(3,0,0)\n");
}

// A by-value parameter is the callee's own copy: in `change` (testdata/debug/byval.cl)
// r starts as the caller's values and shows the callee's changes; the caller's frame
// shows its own r unchanged, during the call and after it returned.
TEST(DebugInspect, ByValueParametersAreTheCalleesCopies) {
  const auto t = debugSession(
      {"testdata/debug/byval.cl", "--global", "4", "--sub-group-size", "4", "--arg",
       "buffer:int[4]"},
      "break change\ncontinue\nprint r\nnext\nnext\nprint r\nup\nprint r\nfinish\nprint r\n");
  EXPECT_EQ(t.status, 0) << t.text;
  const std::string callers =
      "r (rec) = [0]={0, {0, 0, 0}} [1]={1, {1, 2, 3}} [2]={2, {2, 4, 6}} [3]={3, {3, 6, 9}}\n";
  EXPECT_HAS(t.reply(3), callers);  // the copy, as made at the call
  EXPECT_HAS(t.reply(6),
             "r (rec) = [0]={100, {0, 101, 0}} [1]={100, {1, 101, 3}} [2]={100, {2, 101, 6}} "
             "[3]={100, {3, 101, 9}}\n");
  EXPECT_HAS(t.reply(7), "#1  byval at byval.cl:17");
  EXPECT_HAS(t.reply(8), callers);
  EXPECT_HAS(t.reply(9), "(int) = [0]=201 [1]=201 [2]=201 [3]=201\n");  // 100 + 101
  EXPECT_HAS(t.reply(10), callers);
}

TEST(DebugInspect, InactiveLanesAreMarked) {
  // At line 14 only the odd lanes run; x = i + 1 there. The even lanes ran the `if` side
  // first, so lane 0 (inactive now) already holds twice(1).
  const auto t = debugSession(kBranch, "break 14\ncontinue\nprint x\nprint x[0]\nprint %1\n");
  EXPECT_HAS(t.reply(3), "x (uint) = [0]=- [1]=2 [2]=- [3]=4\n");
  EXPECT_HAS(t.reply(4), "x[0] (uint) = 2 (inactive lane)\n");
  EXPECT_HAS(t.reply(5), "error: %1 has no value in kernel branchy");  // OpExtInstImport
}

TEST(DebugInspect, ValuesByResultIdAndInAnotherFunction) {
  const auto t = debugSession(kBranch, "break twice\ncontinue\nstep\nprint t\nprint i\n");
  // twice's t is not computed yet; i belongs to branchy, which is suspended at the call.
  EXPECT_HAS(t.reply(4), "t (uint) = [0]=0 [1]=- [2]=0 [3]=-\n");
  EXPECT_HAS(t.reply(5), "i (uint, variable of function branchy) = [0]=0 [1]=- [2]=2 [3]=-\n");
}

// With -O2 clang binds names to SSA values (DebugValue); a name means the binding nearest
// before the instruction along the dominator tree. In branchy, i is bound in the entry
// block; x after the call to twice() in the `if` block, and nowhere before line 14's add
// in the `else` block.
TEST(DebugInspect, NamesInOptimisedCodeFollowTheDominatorTree) {
  std::vector<std::string> args = kBranch;
  args.insert(args.end(), {"--build-options", "-O2"});
  const auto t = debugSession(args,
                              "break twice\n"
                              "continue\n"
                              "finish\n"
                              "print x\n"
                              "print i\n"
                              "break 14\n"
                              "continue\n"
                              "print x\n"
                              "print i\n");
  EXPECT_HAS(t.reply(4), "x (uint) = [0]=2 [1]=- [2]=6 [3]=-\n");  // twice(i + 1)
  EXPECT_HAS(t.reply(5), "i (uint) = [0]=0 [1]=- [2]=2 [3]=-\n");
  EXPECT_HAS(t.reply(7), "sub-group 0 at branch.cl:14");
  EXPECT_HAS(t.reply(8), "error: 'x' has no value at this instruction (optimised code");
  EXPECT_HAS(t.reply(9), "i (uint) = [0]=- [1]=1 [2]=- [3]=3\n");
}

TEST(DebugInspect, InfoLocalsListsTheFunctionsVariables) {
  const auto t = debugSession(kBranch, "break 17\ncontinue\ninfo locals\n");
  EXPECT_HAS(t.reply(3), "out (uint*) = ");
  EXPECT_HAS(t.reply(3), "vin (uint4*) = ");
  EXPECT_HAS(t.reply(3), "i (uint) = [0]=0 [1]=1 [2]=2 [3]=3\n");
  EXPECT_HAS(t.reply(3), "x (uint) = [0]=2 [1]=102 [2]=6 [3]=104\n");
  EXPECT_HAS(t.reply(3), "v (uint4) = [0]=(0,1,2,3)");
}

TEST(DebugInspect, PrintMistakes) {
  const auto t = debugSession(kBranch,
                              "break 17\n"
                              "continue\n"
                              "print nosuch\n"
                              "print %99999\n"
                              "print x[4]\n"
                              "print x.y\n"
                              "print v.s4\n"
                              "print 3x\n"
                              "print/q x\n"
                              "print\n"
                              "print x\n");
  EXPECT_HAS(t.reply(3), "error: no variable or value named 'nosuch'");
  EXPECT_HAS(t.reply(4), "error: %99999 has no value in kernel branchy");
  EXPECT_HAS(t.reply(5), "error: lane 4 does not exist: sub-group 0 has lanes 0-3\n");
  EXPECT_HAS(t.reply(6), "error: x is a uint, not a vector: it has no components\n");
  EXPECT_HAS(t.reply(7), "error: v has 4 components; .s4 is not one\n");
  EXPECT_HAS(t.reply(8), "error: '3x' is not a value");
  EXPECT_HAS(t.reply(9), "error: print/q: the formats are /x (hex), /d (signed), /u (unsigned)\n");
  EXPECT_HAS(t.reply(10), "error: print: give a value");
  EXPECT_HAS(t.reply(11), "x (uint) = [0]=2 [1]=102 [2]=6 [3]=104\n");  // still going
}

// rotate.cl: every work-item l of a work-group (8 per group, sub-groups of 4) writes
// scratch[l] = 10 l and tile[l] = -l, then waits at the barrier on line 8.
TEST(DebugInspect, ExamineBuffersAndLocalMemory) {
  const auto t = debugSession(kRotate,
                              "break 8\n"
                              "continue\n"
                              "x scratch\n"
                              "x tile\n"
                              "x scratch[2:4]\n"
                              "x/2 scratch[1]\n"
                              "print tile\n"
                              "x out[6]\n"
                              "x/3b scratch\n"
                              "x arg0[14:16]\n"
                              "workgroup 1\n"
                              "x scratch[0:2]\n"
                              "workgroup 0\n"
                              "x/2dw scratch[1]\n"
                              "x/2xw scratch[1]\n"
                              "x/1th scratch[1]\n"
                              "x/2uq scratch[1]\n");
  EXPECT_EQ(t.status, 0) << t.text;
  // Only sub-group 0 (l = 0..3) has run so far.
  EXPECT_HAS(t.reply(3),
             "scratch[0:8] (int, local memory of work-group (0,0,0)):\n"
             "  [0] 0 10 20 30 0 0 0 0\n");
  EXPECT_HAS(t.reply(4),
             "tile[0:8] (int, local memory of work-group (0,0,0)):\n"
             "  [0] 0 -1 -2 -3 0 0 0 0\n");
  EXPECT_HAS(t.reply(5), "scratch[2:4] (int, local memory of work-group (0,0,0)):\n  [2] 20 30\n");
  EXPECT_HAS(t.reply(6), "local:scratch+0 (lane 1), 2 x int: 0 10\n");
  EXPECT_HAS(t.reply(7),
             "tile (int[8], local memory, one for the work-group) = "
             "{0, -1, -2, -3, 0, 0, 0, 0}\n");
  EXPECT_HAS(t.reply(8), "out[6:7] (int, global memory):\n  [6] 0\n");
  EXPECT_HAS(t.reply(9), "local:scratch+0 (lane 0), 3 x byte: 00 00 00\n");
  EXPECT_HAS(t.reply(10), "arg0[14:16] (int, global memory):\n  [14] 0 0\n");
  // Work-group (1,0,0) has its own local memory, untouched so far.
  EXPECT_HAS(t.reply(12), "scratch[0:2] (int, local memory of work-group (1,0,0)):\n  [0] 0 0\n");
  // gdb's x/NFU: scratch holds 0 10 20 30 (ints, little-endian) from its start.
  EXPECT_HAS(t.reply(14), "local:scratch+0 (lane 1), 2 x word: 0 10\n");
  EXPECT_HAS(t.reply(15), "local:scratch+0 (lane 1), 2 x word: 0x00000000 0x0000000a\n");
  EXPECT_HAS(t.reply(16), "local:scratch+0 (lane 1), 1 x halfword: 0000000000000000\n");
  EXPECT_HAS(t.reply(17), "error: x/2uq: 'q' is no format (x d u o t f c) or unit (b h w g)");
}

TEST(DebugInspect, ExamineMistakes) {
  const auto t = debugSession(kRotate,
                              "break 8\n"
                              "continue\n"
                              "x out[16]\n"
                              "x nosuch\n"
                              "x l\n"
                              "x/0 scratch\n"
                              "x/2 l\n"
                              "x/9 scratch[0]\n"
                              "x\n");
  EXPECT_HAS(t.reply(3), "error: 'out[16]' is outside out: it has 16 elements (0-15)\n");
  EXPECT_HAS(t.reply(4), "error: no buffer argument, local memory or variable named 'nosuch'\n");
  EXPECT_HAS(t.reply(5), "error: 'l' is private memory, one copy per lane");
  EXPECT_HAS(t.reply(6), "error: x/0: give a count 1..4096");
  EXPECT_HAS(t.reply(7), "error: x/2: l is a uint, not a pointer");
  // scratch is 32 bytes: 9 ints from its start do not fit.
  EXPECT_HAS(t.reply(8),
             "error: cannot read 36 bytes at local:scratch+0 as lane 0 sees memory: "
             "out of bounds\n");
  EXPECT_HAS(t.reply(9), "error: x: give NAME[I:J]");
}

}  // namespace
}  // namespace spvsim::tools
