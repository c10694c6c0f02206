// spirv/cfg.h: branch targets (OpSwitch with 32- and 64-bit selectors), orders and
// dominators of graphs small enough to work out by hand.
#include "spirv/cfg.h"

#include <gtest/gtest.h>

#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

TEST(BranchTargets, BranchAndConditional) {
  const std::vector<uint32_t> branch{7};
  EXPECT_EQ(branchTargets(Op::OpBranch, branch, 0), (std::vector<Id>{7}));
  // condition, true label, false label (branch weights are ignored).
  const std::vector<uint32_t> cond{3, 8, 9, 1, 2};
  EXPECT_EQ(branchTargets(Op::OpBranchConditional, cond, 0), (std::vector<Id>{8, 9}));
  EXPECT_TRUE(branchTargets(Op::OpReturn, {}, 0).empty());
}

TEST(BranchTargets, SwitchWithOneAndTwoWordLiterals) {
  // selector, default, then (literal, label): 32-bit literals take one word ...
  const std::vector<uint32_t> narrow{5, 10, 1, 11, 2, 12};
  EXPECT_EQ(branchTargets(Op::OpSwitch, narrow, 32), (std::vector<Id>{10, 11, 12}));
  // ... 64-bit ones two (low word first), so the same count of words is one case.
  const std::vector<uint32_t> wide{5, 10, 1, 0, 11, 2, 0, 12};
  EXPECT_EQ(branchTargets(Op::OpSwitch, wide, 64), (std::vector<Id>{10, 11, 12}));
  EXPECT_EQ(branchTargets(Op::OpSwitch, std::vector<uint32_t>{5, 10}, 64), (std::vector<Id>{10}));
}

TEST(BranchTargets, TruncatedOperandsReadNothingPastTheEnd) {
  EXPECT_TRUE(branchTargets(Op::OpBranch, {}, 0).empty());
  EXPECT_TRUE(branchTargets(Op::OpBranchConditional, std::vector<uint32_t>{1, 2}, 0).empty());
  EXPECT_EQ(branchTargets(Op::OpSwitch, std::vector<uint32_t>{5, 10, 1, 0}, 64),
            (std::vector<Id>{10}));
}

// The same 64-bit switch as SPIR-V words (assembled like spirv-as does), with case 7
// falling through into case 4294967296's block: the Module and the Binary CFG agree.
const char* kSwitch64 = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
     %fntype = OpTypeFunction %void %ulong
          %k = OpFunction %void None %fntype
          %x = OpFunctionParameter %ulong
      %entry = OpLabel
               OpSwitch %x %done 4294967296 %big 7 %small 12884901890 %done
      %small = OpLabel
               OpBranch %big
        %big = OpLabel
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(FunctionCfg, SwitchOnLongWithFallThroughOnModuleAndWords) {
  // Blocks: 0 entry, 1 small, 2 big, 3 done. Successors: default, then each case label.
  const Graph want{{3, 2, 1, 3}, {2}, {3}, {}};
  const std::vector<uint32_t> words = assemble(kSwitch64);
  Module m = loadModule(words);
  const FunctionCfg fromModule = functionCfg(m, m.functions.at(0));
  EXPECT_EQ(fromModule.successors, want);
  EXPECT_EQ(fromModule.exits, (std::vector<bool>{false, false, false, true}));
  const Binary b = decodeBinary(words);
  const std::optional<std::vector<FunctionSpan>> spans = functionSpans(b);
  ASSERT_TRUE(spans && spans->size() == 1);
  const std::optional<FunctionCfg> fromWords = functionCfg(b, spans->front());
  ASSERT_TRUE(fromWords);
  EXPECT_EQ(fromWords->successors, want);
  // Worked by hand: everything is dominated by the entry; small falls into big, big and
  // the entry's other edges meet at done.
  EXPECT_EQ(immediateDominators(want, 0), (std::vector<int>{0, 0, 0, 0}));
  EXPECT_EQ(immediatePostDominators(want, fromModule.exits), (std::vector<int>{3, 2, 3, -1}));
}

// 0 -> 1 -> {2, 3}; 2 -> 4; 3 -> 4; 4 -> 1 (a loop), 5 unreachable -> 4.
const Graph kLoop{{1}, {2, 3}, {4}, {4}, {1}, {4}};

TEST(Orders, PostOrderVisitsSuccessorsInOrder) {
  // DFS 0,1,2,4 (4's successor 1 is on the stack), back to 1, then 3.
  EXPECT_EQ(postOrder(kLoop, 0), (std::vector<int>{4, 2, 3, 1, 0}));
  EXPECT_EQ(reversePostOrder(kLoop, 0), (std::vector<int>{0, 1, 3, 2, 4}));
  EXPECT_TRUE(postOrder(kLoop, 7).empty());
}

TEST(Dominators, LoopWithDiamondAndUnreachableBlock) {
  // 4 is reached through 2 or 3, so 1 dominates it; 5 is unreachable.
  EXPECT_EQ(immediateDominators(kLoop, 0), (std::vector<int>{0, 0, 1, 1, 1, -1}));
}

TEST(Dominators, LoopExitLaidOutBeforeTheBody) {
  // What llvm-spirv emits: entry 0 -> {1 preheader, 3 exit}; 1 -> 4 body; 4 -> {4, 2};
  // 2 (the loop exit, laid out before the body) -> 3. idom(2) = 4 comes after 2.
  const Graph g{{1, 3}, {4}, {3}, {}, {4, 2}};
  EXPECT_EQ(immediateDominators(g, 0), (std::vector<int>{0, 0, 4, 0, 1}));
}

TEST(FunctionCfg, DecodedSwitchUsesTheSelectorWidth) {
  // A switch on a 64-bit value: its case literals are two words each.
  Module m = loadModule(assemble(R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
     %fntype = OpTypeFunction %void %ulong
          %k = OpFunction %void None %fntype
          %x = OpFunctionParameter %ulong
      %entry = OpLabel
               OpSwitch %x %done 4294967296 %big 7 %small
        %big = OpLabel
               OpBranch %done
      %small = OpLabel
               OpReturn
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)"));
  const Function& f = m.functions.at(0);
  FunctionCfg cfg = functionCfg(m, f);  // the selector's type says 64 bits
  EXPECT_EQ(cfg.successors[0], (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(cfg.successors[1], (std::vector<int>{3}));
  EXPECT_EQ(cfg.exits, (std::vector<bool>{false, false, true, true}));
}

}  // namespace
}  // namespace spvsim::spirv
