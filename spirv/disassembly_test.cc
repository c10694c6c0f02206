// Disassembly of modules SPIRV-Tools refuses to print as they are: llvm-spirv-15 -g writes
// OpenCL.DebugInfo.100 DebugTypePointer with Storage Class ~0 ("no address space"), which
// SPIRV-Tools 2023.1 refuses for the whole module. The expected lines are worked by hand
// from the module below and SPIRV-Tools' syntax for the instructions it can print.
#include "spirv/disassembly.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

const char* kModule = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
          %dbg = OpExtInstImport "OpenCL.DebugInfo.100"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %file = OpString "k.cl"
    %intname = OpString "int"
               OpName %out "out"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_uint
     %uint_7 = OpConstant %uint 7
    %uint_32 = OpConstant %uint 32
    %dbg_int = OpExtInst %void %dbg DebugTypeBasic %intname %uint_32 Signed
    %dbg_ptr = OpExtInst %void %dbg DebugTypePointer %dbg_int CrossWorkgroup None
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_uint
      %entry = OpLabel
               OpLine %file 3 1
               OpStore %out %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)";

constexpr uint32_t kDebugTypePointer = 3;  // OpenCL.DebugInfo.100
constexpr uint32_t kStorageClassWord = 6;  // opcode, type, result, set, number, base type
constexpr size_t kPointerIndex = 16;       // the 17th instruction of kModule

// kModule with its DebugTypePointer's Storage Class set to `value`.
std::vector<uint32_t> withStorageClass(uint32_t value) {
  std::vector<uint32_t> words = assemble(kModule);
  for (size_t at = 5; at < words.size(); at += words[at] >> 16)
    if ((words[at] & 0xffff) == uint32_t(spv::Op::OpExtInst) && words[at + 4] == kDebugTypePointer)
      words[at + kStorageClassWord] = value;
  return words;
}

TEST(Disassembly, ValidModuleUnchanged) {
  const Module m = loadModule(withStorageClass(uint32_t(spv::StorageClass::CrossWorkgroup)));
  const std::vector<std::string> lines = disassembleLines(m);
  ASSERT_EQ(lines.size(), m.instructionWordOffsets.size());
  EXPECT_EQ(lines[kPointerIndex],
            "%13 = OpExtInst %void %1 DebugTypePointer %12 CrossWorkgroup None");
}

// The storage class llvm-spirv writes for "no address space": the instruction is written
// from its words (ids named as elsewhere, the refused value as a number), every other line
// is SPIRV-Tools' own, and source lines still follow their instructions.
TEST(Disassembly, LlvmSpirvNoAddressSpacePointer) {
  const Module m = loadModule(withStorageClass(0xffffffffu));
  const std::vector<std::string> lines = disassembleLines(m);
  ASSERT_EQ(lines.size(), m.instructionWordOffsets.size());
  EXPECT_EQ(lines[kPointerIndex],
            "%13 = OpExtInst %void %1 DebugTypePointer %12 4294967295 0  ; SPIRV-Tools cannot "
            "print this instruction: Invalid storage class operand: 4294967295");
  EXPECT_EQ(lines[kPointerIndex - 1], "%12 = OpExtInst %void %1 DebugTypeBasic %4 %uint_32 Signed");
  EXPECT_EQ(lines[kPointerIndex + 5], "OpStore %out %uint_7 Aligned 4");
  const std::vector<std::string> raw = disassembleLines(m, true);
  EXPECT_EQ(raw[kPointerIndex].substr(0, raw[kPointerIndex].find("  ;")),
            "%13 = OpExtInst %6 %1 DebugTypePointer %12 4294967295 0");
  EXPECT_EQ(friendlyNames(m).at(5), "out");  // names still come from the whole module

  const std::string text = disassembleWithLines(m);
  EXPECT_NE(text.find("OpEntryPoint Kernel %2 \"k\""), std::string::npos) << text;
  EXPECT_NE(text.find("DebugTypePointer %12 4294967295 0"), std::string::npos) << text;
  EXPECT_NE(text.find("OpStore %out %uint_7 Aligned 4"), std::string::npos) << text;
  EXPECT_NE(text.find("; k.cl:3"), std::string::npos) << text;
}

// What the fallback does not cover (a core instruction) is an error naming SPIRV-Tools'
// reason, never an empty text.
TEST(Disassembly, RefusedCoreInstructionIsAnError) {
  Module m = loadModule(withStorageClass(uint32_t(spv::StorageClass::CrossWorkgroup)));
  const uint32_t ptr = m.instructionWordOffsets[11];  // %ptr_uint = OpTypePointer
  ASSERT_EQ(m.words[ptr] & 0xffff, uint32_t(spv::Op::OpTypePointer));
  m.words[ptr + 2] = 0xffffffffu;
  try {
    disassembleWithLines(m);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()),
              "SPIRV-Tools cannot disassemble the module: Invalid storage class operand: "
              "4294967295 (instruction 12)");
  }
  EXPECT_TRUE(friendlyNames(m).empty());  // names for messages degrade to numbers
}

}  // namespace
}  // namespace spvsim::spirv
