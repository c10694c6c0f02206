// Opcode facts against the SPIR-V specification's text (the grammar is where most of them
// come from; these expectations are read from the spec, section 3.37, not from it).
#include "spirv/opcode.h"

#include <gtest/gtest.h>

#include <set>

#include "spirv/disassembly.h"
#include "spirv/instruction_info.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

TEST(Opcode, EveryAtomicOfTheGrammarHasAnOperation) {
  std::set<Op> grammarAtomics;
  for (const grammar::InstructionRow& r : grammar::kCoreInstructions)
    if (r.cls == InstructionClass::Atomic) grammarAtomics.insert(Op(r.opcode));
  std::set<Op> formed;
  for (const AtomicForm& f : atomicForms()) {
    formed.insert(f.op);
    EXPECT_NE(f.operation, AtomicOperation::Unknown) << opcodeName(f.op);
    EXPECT_EQ(f.pointer, 0) << opcodeName(f.op);  // every atomic names its pointer first
    EXPECT_EQ(f.scope, 1) << opcodeName(f.op);
  }
  EXPECT_EQ(formed, grammarAtomics);
  EXPECT_EQ(formed.size(), 21u);  // 3.37.18 with the EXT float atomics
}

TEST(Opcode, AtomicOperandsFollowTheSpec) {
  // OpAtomicCompareExchange: Pointer, Memory, Equal, Unequal, Value, Comparator.
  const AtomicForm* cx = atomicForm(Op::OpAtomicCompareExchangeWeak);
  ASSERT_NE(cx, nullptr);
  EXPECT_EQ(cx->operation, AtomicOperation::CompareExchange);
  EXPECT_EQ(cx->semantics, 2);
  EXPECT_EQ(cx->unequal, 3);
  EXPECT_EQ(cx->value, 4);
  EXPECT_EQ(cx->comparator, 5);
  // OpAtomicStore: Pointer, Memory, Semantics, Value (no result).
  const AtomicForm* store = atomicForm(Op::OpAtomicStore);
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->value, 3);
  EXPECT_EQ(store->unequal, -1);
  // OpAtomicIIncrement and OpAtomicFlagClear: no value.
  EXPECT_EQ(atomicForm(Op::OpAtomicIIncrement)->value, -1);
  EXPECT_EQ(atomicForm(Op::OpAtomicFlagClear)->value, -1);
  EXPECT_EQ(atomicForm(Op::OpAtomicFMaxEXT)->operation, AtomicOperation::FMax);
  EXPECT_EQ(atomicForm(Op::OpLoad), nullptr);
  EXPECT_TRUE(isIntegerRmw(AtomicOperation::IIncrement));
  EXPECT_TRUE(isIntegerRmw(AtomicOperation::Xor));
  EXPECT_FALSE(isIntegerRmw(AtomicOperation::Exchange));
  EXPECT_FALSE(isIntegerRmw(AtomicOperation::FAdd));
  EXPECT_TRUE(isFloatRmw(AtomicOperation::FMin));
}

TEST(Opcode, Classes) {
  EXPECT_EQ(instructionClass(Op::OpIAdd), InstructionClass::Arithmetic);
  EXPECT_EQ(instructionClass(Op::OpGroupNonUniformBallot), InstructionClass::NonUniform);
  EXPECT_EQ(instructionClass(Op::OpSubgroupShuffleINTEL), InstructionClass::Group);
  EXPECT_EQ(instructionClass(Op(0xFFFF)), InstructionClass::None);
}

TEST(Opcode, ExecutionScopeIsTheFirstOperandOfBarriersAndGroupOperations) {
  for (Op op : {Op::OpControlBarrier, Op::OpGroupIAdd, Op::OpGroupBroadcast,
                Op::OpGroupNonUniformBallot, Op::OpGroupNonUniformShuffle, Op::OpGroupAsyncCopy,
                Op::OpGroupWaitEvents, Op::OpGroupReserveReadPipePackets})
    EXPECT_TRUE(hasExecutionScope(op)) << opcodeName(op);
  for (Op op : {Op::OpSubgroupShuffleINTEL, Op::OpSubgroupBlockReadINTEL, Op::OpAtomicIAdd,
                Op::OpMemoryBarrier, Op::OpReadPipe})
    EXPECT_FALSE(hasExecutionScope(op)) << opcodeName(op);
}

TEST(Opcode, ValuesMoveBetweenLanesInGroupOperationsOnly) {
  for (Op op : {Op::OpGroupBroadcast, Op::OpGroupAny, Op::OpGroupNonUniformShuffle,
                Op::OpGroupNonUniformIAdd, Op::OpSubgroupShuffleDownINTEL,
                Op::OpSubgroupBlockReadINTEL, Op::OpGroupReserveWritePipePackets})
    EXPECT_TRUE(movesValuesBetweenLanes(op)) << opcodeName(op);
  for (Op op : {Op::OpGroupAsyncCopy, Op::OpGroupWaitEvents, Op::OpControlBarrier, Op::OpReadPipe,
                Op::OpAtomicIAdd, Op::OpIAdd})
    EXPECT_FALSE(movesValuesBetweenLanes(op)) << opcodeName(op);
}

TEST(Opcode, OrderAcrossWorkItems) {
  for (Op op : {Op::OpReadPipe, Op::OpCommitWritePipe, Op::OpEnqueueKernel, Op::OpCreateUserEvent,
                Op::OpNamedBarrierInitialize, Op::OpMemoryNamedBarrier})
    EXPECT_TRUE(ordersAcrossWorkItems(op)) << opcodeName(op);
  for (Op op : {Op::OpControlBarrier, Op::OpAtomicLoad, Op::OpLoad})
    EXPECT_FALSE(ordersAcrossWorkItems(op)) << opcodeName(op);
}

TEST(Opcode, MemoryOperands) {
  EXPECT_EQ(dereferencedPointers(Op::OpLoad), 1u);
  EXPECT_EQ(dereferencedPointers(Op::OpStore), 1u);
  EXPECT_EQ(dereferencedPointers(Op::OpAtomicFlagClear), 1u);
  EXPECT_EQ(dereferencedPointers(Op::OpAtomicCompareExchange), 1u);
  EXPECT_EQ(dereferencedPointers(Op::OpCopyMemorySized), 2u);
  EXPECT_EQ(dereferencedPointers(Op::OpAccessChain), 0u);
  EXPECT_TRUE(isAccessChain(Op::OpInBoundsPtrAccessChain));
  EXPECT_FALSE(isAccessChain(Op::OpCompositeExtract));
}

TEST(Opcode, PointersPassedOn) {
  EXPECT_TRUE(passesPointerOperand(Op::OpPtrAccessChain, 0));
  EXPECT_FALSE(passesPointerOperand(Op::OpPtrAccessChain, 1));  // the element index
  EXPECT_FALSE(passesPointerOperand(Op::OpSelect, 0));          // the condition
  EXPECT_TRUE(passesPointerOperand(Op::OpSelect, 2));
  EXPECT_TRUE(passesPointerOperand(Op::OpPhi, 2));   // value, parent, value, parent
  EXPECT_FALSE(passesPointerOperand(Op::OpPhi, 3));  // a parent block
  EXPECT_TRUE(derivesPointer(Op::OpGenericCastToPtrExplicit));
  EXPECT_TRUE(derivesPointer(Op::OpSelect));
  EXPECT_FALSE(derivesPointer(Op::OpBitcast));  // may make a pointer of an integer
  EXPECT_FALSE(derivesPointer(Op::OpConvertUToPtr));
}

TEST(Opcode, ArithmeticFacts) {
  EXPECT_TRUE(isIntegerDivision(Op::OpUMod));
  EXPECT_FALSE(isIntegerDivision(Op::OpFDiv));
  EXPECT_TRUE(readsSignedOperands(Op::OpShiftRightArithmetic));
  EXPECT_FALSE(readsSignedOperands(Op::OpShiftRightLogical));
  EXPECT_TRUE(copiesBits(Op::OpVectorShuffle));
  EXPECT_FALSE(copiesBits(Op::OpIAdd));
}

TEST(Opcode, ModuleLayout) {
  for (Op op : {Op::OpCapability, Op::OpExtension, Op::OpExtInstImport, Op::OpMemoryModel,
                Op::OpEntryPoint, Op::OpExecutionMode, Op::OpExecutionModeId})
    EXPECT_TRUE(precedesDebugSection(op)) << opcodeName(op);
  for (Op op : {Op::OpExtInst, Op::OpString, Op::OpSource, Op::OpName, Op::OpDecorate})
    EXPECT_FALSE(precedesDebugSection(op)) << opcodeName(op);
  for (Op op : {Op::OpName, Op::OpMemberName, Op::OpDecorate, Op::OpDecorateId,
                Op::OpDecorateString, Op::OpMemberDecorate, Op::OpMemberDecorateString})
    EXPECT_TRUE(annotatesId(op)) << opcodeName(op);
  EXPECT_FALSE(annotatesId(Op::OpDecorationGroup));
  EXPECT_FALSE(annotatesId(Op::OpString));
  EXPECT_TRUE(mustBeUniqueType(Op::OpTypeInt));
  EXPECT_FALSE(mustBeUniqueType(Op::OpTypeStruct));
  EXPECT_TRUE(isConstantComposite(Op::OpSpecConstantComposite));
  EXPECT_TRUE(isMergeInstruction(Op::OpLoopMerge));
  EXPECT_FALSE(isMergeInstruction(Op::OpBranch));
}

}  // namespace
}  // namespace spvsim::spirv
