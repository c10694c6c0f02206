// The loader on unusual modules: big-endian words, names holding control characters,
// and sizes that would make a small module allocate without bound.
#include <gtest/gtest.h>

#include <chrono>

#include "spirv/disassembly.h"
#include "spirv/error.h"
#include "spirv/loader.h"

namespace spvsim::spirv {
namespace {

// A kernel whose OpName and OpString hold a '#' that tests replace with other bytes.
const char* kNamed = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %file = OpString "dir/#k.cl"
               OpName %out "o#ut"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
   %ptr_uint = OpTypePointer CrossWorkgroup %uint
     %fntype = OpTypeFunction %void %ptr_uint
     %uint_7 = OpConstant %uint 7
          %k = OpFunction %void None %fntype
        %out = OpFunctionParameter %ptr_uint
      %entry = OpLabel
               OpLine %file 12 3
               OpStore %out %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)";

// The words with every '#' byte after the header (string literals) replaced by `c`.
std::vector<uint32_t> withByte(std::vector<uint32_t> words, char c) {
  for (size_t k = 5; k < words.size(); ++k)
    for (int b = 0; b < 4; ++b) {
      uint32_t& w = words[k];
      if (((w >> (8 * b)) & 0xff) == '#')
        w = (w & ~(0xffu << (8 * b))) | (uint32_t(uint8_t(c)) << (8 * b));
    }
  return words;
}

Id idNamed(const Module& m, const std::string& name) {
  for (const auto& [id, n] : m.names)
    if (n == name) return id;
  return 0;
}

TEST(LoaderLimits, BigEndianModulesAreByteSwapped) {
  const std::vector<uint32_t> words = assemble(kNamed);
  std::vector<uint32_t> swapped = words;
  for (uint32_t& w : swapped) w = __builtin_bswap32(w);
  ASSERT_EQ(swapped[0], 0x03022307u);  // the magic number as a big-endian file reads
  Module m = loadModule(swapped);
  ASSERT_EQ(m.entryPoints.size(), 1u);
  EXPECT_EQ(m.entryPoints[0].name, "k");
  EXPECT_EQ(m.entryPoints[0].signature.params[0].name, "o#ut");
  EXPECT_EQ(m.words, loadModule(words).words);
}

TEST(LoaderLimits, NamesAndStringsReachMessagesEscaped) {
  Module m = loadModule(withByte(assemble(kNamed), '\n'));
  const Id out = idNamed(m, "o\nut");
  ASSERT_NE(out, 0u) << "names keep their bytes for lookups";
  EXPECT_EQ(m.nameOf(out), "o\\nut");
  const Instruction& store = m.functions[0].blocks[0].instructions[0];
  EXPECT_EQ(m.describeLine(store.line), "dir/\\nk.cl:12");
  // One disassembly line per instruction: the newline inside the OpString's quotes does
  // not shift the lines that diagnostics quote.
  const std::vector<std::string> lines = disassembleLines(m, true);
  ASSERT_EQ(lines.size(), m.instructionWordOffsets.size());
  EXPECT_EQ(lines[store.index], "OpStore %" + std::to_string(out) + " %" +
                                    std::to_string(store.operands[1]) + " Aligned 4");
  for (const std::string& line : lines) EXPECT_EQ(line.find('\n'), std::string::npos) << line;
  const std::string text = disassembleWithLines(m);
  EXPECT_NE(text.find("\"dir/\\nk.cl\""), std::string::npos) << text;
  EXPECT_NE(text.find("; dir/\\nk.cl:12"), std::string::npos) << text;
  Module escape = loadModule(withByte(assemble(kNamed), '\x1b'));
  EXPECT_EQ(escape.nameOf(idNamed(escape, "o\x1but")), "o\\x1but");
}

// A module declaring huge arrays: `prefix` goes before the function.
std::vector<uint32_t> withTypes(const std::string& types) {
  std::string text = kNamed;
  text.insert(text.find("          %k = OpFunction"), types);
  return assemble(text);
}

TEST(LoaderLimits, LargeNullConstantsStayUnexpanded) {
  const auto start = std::chrono::steady_clock::now();
  Module m = loadModule(withTypes(R"(
   %uint_1g = OpConstant %uint 1073741824
       %arr = OpTypeArray %uint %uint_1g
      %null = OpConstantNull %arr
     %undef = OpUndef %arr
)"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  int lazy = 0;
  for (const auto& [id, c] : m.constants)
    if (m.type(c.type).size == 4ull << 30) {
      EXPECT_TRUE(c.zeroFill);
      EXPECT_TRUE(c.bytes.empty());
      ++lazy;
    }
  EXPECT_EQ(lazy, 2);
}

TEST(LoaderLimits, ExpandedConstantsAreBounded) {
  // A struct of two 128 MiB arrays built from (unexpanded) nulls: 256 MiB + 4 bytes.
  try {
    loadModule(withTypes(R"(
  %uint_32m = OpConstant %uint 33554432
       %arr = OpTypeArray %uint %uint_32m
         %s = OpTypeStruct %arr %arr %uint
      %null = OpConstantNull %arr
      %both = OpConstantComposite %s %null %null %uint_7
)"));
    FAIL() << "expected the constant budget to refuse the composite";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
    EXPECT_NE(std::string(e.what()).find("the module's constants take more than 256 MiB"),
              std::string::npos)
        << e.what();
  }
}

TEST(LoaderLimits, TypesBeyondTheLargestObjectAreRefused) {
  for (const char* types : {R"(
   %ulong = OpTypeInt 64 0
  %count = OpConstant %ulong 68719476736
    %arr = OpTypeArray %uint %count
)",
                            R"(
   %ulong = OpTypeInt 64 0
  %count = OpConstant %ulong 1099511627776
     %gi = OpConstant %uint 1073741824
  %inner = OpTypeArray %uint %gi
    %arr = OpTypeArray %inner %count
)"}) {
    try {
      loadModule(withTypes(types));
      FAIL() << "expected a type too large: " << types;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), DiagnosticKind::Unsupported);
      EXPECT_NE(std::string(e.what()).find("spvsim supports types of at most 2^37 bytes"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace spvsim::spirv
