// spirv/binary.h's edits of a module's words at known places: the leading instructions,
// inserting and replacing one instruction.
#include "spirv/binary.h"

#include <gtest/gtest.h>

#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

const char* kModule = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpSource OpenCL_C 120
               OpSourceExtension "ext"
               OpName %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
          %c = OpSpecConstant %uint 7
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
          %l = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(LeadingInstructions, StopAtTheFirstAfterTheSourceInstructions) {
  const std::vector<uint32_t> w = assemble(kModule);
  const std::vector<WordInstruction> leading = leadingInstructions(w);
  ASSERT_EQ(leading.size(), 7u);
  EXPECT_EQ(leading.front().offset, kHeaderWords);
  EXPECT_EQ(leading[4].op, spv::Op::OpEntryPoint);
  EXPECT_EQ(leading.back().op, spv::Op::OpSourceExtension);
  const size_t next = leading.back().offset + leading.back().words.size();
  EXPECT_EQ(w.at(next) & 0xffff, static_cast<uint32_t>(spv::Op::OpName));
  EXPECT_THROW(leadingInstructions(std::vector<uint32_t>{1, 2}), Error);
}

TEST(InsertInstruction, AddsWordsBeforeAnOffset) {
  std::vector<uint32_t> w = assemble(kModule);
  const size_t before = w.size();
  insertInstruction(w, kHeaderWords,
                    makeInstruction(spv::Op::OpCapability, 0, 0,
                                    {static_cast<uint32_t>(spv::Capability::Linkage)}));
  EXPECT_EQ(w.size(), before + 2);
  EXPECT_TRUE(decodeBinary(w).hasCapability(spv::Capability::Linkage));
  EXPECT_NO_THROW(loadModule(w));
  EXPECT_THROW(insertInstruction(w, 2, makeInstruction(spv::Op::OpNop, 0, 0, {})), Error);
  EXPECT_THROW(insertInstruction(w, w.size() + 1, makeInstruction(spv::Op::OpNop, 0, 0, {})),
               Error);
}

TEST(ReplaceInstruction, RewritesTheInstructionAtAnOffset) {
  const Module m = loadModule(assemble(kModule));
  const Constant& c = m.constants.begin()->second;
  std::vector<uint32_t> w = m.words;
  const size_t at = m.instructionWordOffsets.at(c.index);
  replaceInstruction(w, at, makeInstruction(spv::Op::OpSpecConstant, c.type, c.id, {42}));
  EXPECT_EQ(w.size(), m.words.size());
  EXPECT_EQ(w.at(at + 3), 42u);
  EXPECT_EQ(loadModule(w).constants.at(c.id).bytes.at(0), 42u);
  // A longer instruction moves what follows it.
  replaceInstruction(w, at, makeInstruction(spv::Op::OpSpecConstant, c.type, c.id, {42, 0}));
  EXPECT_EQ(w.size(), m.words.size() + 1);
  EXPECT_EQ(w.at(at) >> 16, 5u);
  EXPECT_THROW(replaceInstruction(w, 1, makeInstruction(spv::Op::OpNop, 0, 0, {})), Error);
  EXPECT_THROW(replaceInstruction(w, w.size(), makeInstruction(spv::Op::OpNop, 0, 0, {})), Error);
}

}  // namespace
}  // namespace spvsim::spirv
