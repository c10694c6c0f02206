// spirv/operands.h through spirv/binary.h's decodeBinary: operand offsets, sizes and kinds
// as SPIR-V 2.2.1 and the grammar lay them out, literal widths from types, and errors.
#include "spirv/operands.h"

#include <gtest/gtest.h>

#include <string>

#include "spirv/binary.h"
#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

using K = OperandKind;

const BinaryInstruction& first(const Binary& b, spv::Op op) {
  for (const BinaryInstruction& i : b.code)
    if (i.op == op) return i;
  throw std::runtime_error("no such instruction");
}

std::vector<std::tuple<int, int, K>> layout(const BinaryInstruction& i) {
  std::vector<std::tuple<int, int, K>> out;
  for (const Operand& o : i.operands) out.emplace_back(o.offset, o.words, o.kind);
  return out;
}

const char* kModule = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
          %1 = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %big SpecId 3
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
        %big = OpSpecConstant %ulong 4294967296
        %one = OpConstant %uint 1
     %fntype = OpTypeFunction %void %ulong
          %k = OpFunction %void None %fntype
          %x = OpFunctionParameter %ulong
      %entry = OpLabel
          %e = OpExtInst %ulong %1 s_abs %x
               OpSwitch %x %done 4294967296 %a 7 %done
          %a = OpLabel
               OpBranch %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(Operands, LiteralWidthsFollowTheirTypes) {
  const Binary b = decodeBinary(assemble(kModule));
  // OpSpecConstant %ulong: type, result, then a two-word literal.
  EXPECT_EQ(
      layout(first(b, spv::Op::OpSpecConstant)),
      (std::vector<std::tuple<int, int, K>>{
          {1, 1, K::IdResultType}, {2, 1, K::IdResult}, {3, 2, K::LiteralContextDependentNumber}}));
  EXPECT_EQ(std::get<1>(layout(first(b, spv::Op::OpConstant))[2]), 1);  // 32-bit: one word
  // OpSwitch on a 64-bit selector: selector, default, (2-word literal, label) twice.
  EXPECT_EQ(layout(first(b, spv::Op::OpSwitch)),
            (std::vector<std::tuple<int, int, K>>{{1, 1, K::IdRef},
                                                  {2, 1, K::IdRef},
                                                  {3, 2, K::LiteralInteger},
                                                  {5, 1, K::IdRef},
                                                  {6, 2, K::LiteralInteger},
                                                  {8, 1, K::IdRef}}));
}

TEST(Operands, EnumerantParametersAndExtendedInstructions) {
  const Binary b = decodeBinary(assemble(kModule));
  // OpDecorate target, Decoration SpecId, its literal.
  EXPECT_EQ(layout(first(b, spv::Op::OpDecorate)),
            (std::vector<std::tuple<int, int, K>>{
                {1, 1, K::IdRef}, {2, 1, K::Decoration}, {3, 1, K::LiteralInteger}}));
  // OpExtInst type, result, set, s_abs, x.
  EXPECT_EQ(layout(first(b, spv::Op::OpExtInst)),
            (std::vector<std::tuple<int, int, K>>{{1, 1, K::IdResultType},
                                                  {2, 1, K::IdResult},
                                                  {3, 1, K::IdRef},
                                                  {4, 1, K::LiteralExtInstInteger},
                                                  {5, 1, K::IdRef}}));
  const BinaryInstruction& ep = first(b, spv::Op::OpEntryPoint);
  EXPECT_EQ(ep.operands[2].kind, K::LiteralString);
  EXPECT_EQ(ep.operands[2].words, 1);  // "k" and its nul fit one word
}

std::string decodeError(std::vector<uint32_t> words) {
  try {
    decodeBinary(words);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST(Operands, MalformedInstructionsAreNamed) {
  std::vector<uint32_t> words = assemble(kModule);
  // Shorten OpTypeVoid's word count to 1 (no result id) and insert nothing else: the
  // words that follow are then read as further instructions, so test on a copy that
  // ends right after it.
  size_t at = 5;
  while ((words[at] & 0xffff) != uint32_t(spv::Op::OpTypeVoid)) at += words[at] >> 16;
  std::vector<uint32_t> shortVoid(words.begin(), words.begin() + at + 1);
  shortVoid[at] = (1u << 16) | uint32_t(spv::Op::OpTypeVoid);
  EXPECT_NE(decodeError(shortVoid).find("malformed instruction OpTypeVoid"), std::string::npos)
      << decodeError(shortVoid);
  std::vector<uint32_t> longVoid(words.begin(), words.begin() + at + 3);
  longVoid[at] = (3u << 16) | uint32_t(spv::Op::OpTypeVoid);
  EXPECT_NE(decodeError(longVoid).find("1 word(s) after the last operand"), std::string::npos)
      << decodeError(longVoid);
  std::vector<uint32_t> unknown(words.begin(), words.begin() + at + 1);
  unknown[at] = (1u << 16) | 0xfffeu;
  EXPECT_NE(decodeError(unknown).find("unknown opcode 65534"), std::string::npos)
      << decodeError(unknown);
}

}  // namespace
}  // namespace spvsim::spirv
