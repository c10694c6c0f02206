// spirv/instruction_info.h: descriptor facts checked against the SPIR-V spec's
// instruction pages (3.49 "Instructions") and OpenCL.ExtendedInstructionSet.100.
#include "spirv/instruction_info.h"

#include <gtest/gtest.h>

#include <vector>

namespace spvsim::spirv {
namespace {

using spv::Op;
using K = OperandKind;
using Q = Quantifier;

std::vector<K> kinds(InstructionInfo info) {
  std::vector<K> out;
  for (const OperandDesc& d : info.operands()) out.push_back(d.kind);
  return out;
}

std::vector<size_t> successorOperands(InstructionInfo info) {
  std::vector<size_t> out;
  for (size_t k = 0; k < info.operands().size(); ++k)
    if (info.operands()[k].successor) out.push_back(k);
  return out;
}

TEST(InstructionInfo, IAddHasResultTypeAndTwoIdOperands) {
  const InstructionInfo i = instructionInfo(Op::OpIAdd);
  ASSERT_NE(i.row, nullptr);
  EXPECT_EQ(i.name(), "OpIAdd");
  EXPECT_TRUE(i.hasResult());
  EXPECT_TRUE(i.hasResultType());
  EXPECT_EQ(kinds(i), (std::vector<K>{K::IdResultType, K::IdResult, K::IdRef, K::IdRef}));
  EXPECT_FALSE(i.isTerminator());
  EXPECT_TRUE(i.isFunctionScopeOnly());
  EXPECT_TRUE(i.capabilities().empty());  // no capability needed
}

TEST(InstructionInfo, BranchConditionalGoesToOperandsOneAndTwo) {
  // Condition, True Label, False Label, Branch weights (LiteralInteger *).
  const InstructionInfo i = instructionInfo(Op::OpBranchConditional);
  EXPECT_TRUE(i.isTerminator());
  EXPECT_TRUE(i.isBranch());
  EXPECT_FALSE(i.hasResult());
  EXPECT_EQ(kinds(i), (std::vector<K>{K::IdRef, K::IdRef, K::IdRef, K::LiteralInteger}));
  EXPECT_EQ(i.operands()[3].quantifier, Q::Many);
  EXPECT_EQ(successorOperands(i), (std::vector<size_t>{1, 2}));
}

TEST(InstructionInfo, SwitchGoesToDefaultAndEachCaseLabel) {
  // Selector, Default, then (literal, label) pairs.
  const InstructionInfo i = instructionInfo(Op::OpSwitch);
  EXPECT_TRUE(i.isTerminator());
  EXPECT_TRUE(i.isBranch());
  EXPECT_EQ(kinds(i), (std::vector<K>{K::IdRef, K::IdRef, K::PairLiteralIntegerIdRef}));
  EXPECT_EQ(i.operands()[2].quantifier, Q::Many);
  EXPECT_EQ(successorOperands(i), (std::vector<size_t>{1, 2}));
}

TEST(InstructionInfo, StoreHasNoResult) {
  // Pointer, Object, optional Memory Operands.
  const InstructionInfo i = instructionInfo(Op::OpStore);
  EXPECT_FALSE(i.hasResult());
  EXPECT_FALSE(i.hasResultType());
  EXPECT_EQ(kinds(i), (std::vector<K>{K::IdRef, K::IdRef, K::MemoryAccess}));
  EXPECT_EQ(i.operands()[2].quantifier, Q::Optional);
  EXPECT_FALSE(i.isTerminator());
}

TEST(InstructionInfo, ReturnValueEndsTheBlockWithoutSuccessors) {
  const InstructionInfo i = instructionInfo(Op::OpReturnValue);
  EXPECT_TRUE(i.isTerminator());
  EXPECT_TRUE(i.isReturn());
  EXPECT_FALSE(i.isBranch());
  EXPECT_TRUE(successorOperands(i).empty());
  EXPECT_TRUE(isBlockTerminator(Op::OpUnreachable));
  EXPECT_TRUE(isBlockTerminator(Op::OpKill));
  EXPECT_FALSE(isBlockTerminator(Op::OpLabel));
  EXPECT_FALSE(isBlockTerminator(Op::OpLoopMerge));  // precedes the terminator
}

TEST(InstructionInfo, ScopeAndCapabilities) {
  // OpVariable may be global; OpLabel and OpFunctionCall only inside functions.
  EXPECT_FALSE(instructionInfo(Op::OpVariable).isFunctionScopeOnly());
  EXPECT_FALSE(instructionInfo(Op::OpTypeInt).isFunctionScopeOnly());
  EXPECT_FALSE(instructionInfo(Op::OpConstant).isFunctionScopeOnly());
  EXPECT_TRUE(instructionInfo(Op::OpLabel).isFunctionScopeOnly());
  EXPECT_TRUE(instructionInfo(Op::OpFunctionCall).isFunctionScopeOnly());
  // OpGroupAsyncCopy: Capability Kernel (= 6).
  const auto caps = instructionInfo(Op::OpGroupAsyncCopy).capabilities();
  EXPECT_EQ(std::vector<uint32_t>(caps.begin(), caps.end()),
            (std::vector<uint32_t>{uint32_t(spv::Capability::Kernel)}));
  EXPECT_EQ(instructionInfo(static_cast<Op>(0xfffe)).row, nullptr);
}

TEST(InstructionInfo, EnumerantParameters) {
  // Decoration SpecId takes one literal (the specialization constant's id); Restrict none.
  const auto specId = enumerantParameters(K::Decoration, uint32_t(spv::Decoration::SpecId));
  ASSERT_EQ(specId.size(), 1u);
  EXPECT_EQ(specId[0].kind, K::LiteralInteger);
  EXPECT_TRUE(enumerantParameters(K::Decoration, uint32_t(spv::Decoration::Restrict)).empty());
  // MemoryAccess Aligned (0x2) takes the alignment literal; it is a mask.
  EXPECT_EQ(enumerantParameters(K::MemoryAccess, 0x2).size(), 1u);
  EXPECT_TRUE(isBitEnum(K::MemoryAccess));
  EXPECT_TRUE(isValueEnum(K::Decoration));
}

TEST(InstructionInfo, OpenclStdOperands) {
  // exp = 19: one operand x. vloadn = 171: offset, p, literal n.
  const grammar::InstructionRow* exp = findOpenclStd(19);
  ASSERT_NE(exp, nullptr);
  EXPECT_EQ(InstructionInfo{exp}.name(), "exp");
  EXPECT_EQ(kinds(InstructionInfo{exp}), (std::vector<K>{K::IdRef}));
  const grammar::InstructionRow* vloadn = findOpenclStd(171);
  ASSERT_NE(vloadn, nullptr);
  EXPECT_EQ(kinds(InstructionInfo{vloadn}),
            (std::vector<K>{K::IdRef, K::IdRef, K::LiteralInteger}));
}

}  // namespace
}  // namespace spvsim::spirv
