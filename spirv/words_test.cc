// spirv/words.h: the walker on well-formed, truncated and zero-length instructions.
#include "spirv/words.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "spirv/error.h"

namespace spvsim::spirv {
namespace {

constexpr uint32_t word0(uint32_t count, spv::Op op) {
  return (count << 16) | static_cast<uint32_t>(op);
}

std::vector<uint32_t> header() { return {spv::MagicNumber, 0x00010000, 0, 10, 0}; }

std::string errorOf(const std::vector<uint32_t>& words) {
  try {
    forEachInstruction(words, [](const WordInstruction&) {});
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), DiagnosticKind::InvalidModule);
    return e.what();
  }
  return "";
}

TEST(Walker, VisitsEachInstructionAtItsOffset) {
  std::vector<uint32_t> w = header();
  w.insert(w.end(), {word0(2, spv::Op::OpCapability), 6,  // Kernel
                     word0(1, spv::Op::OpNop), word0(3, spv::Op::OpTypeInt), 1, 32});
  std::vector<size_t> offsets, sizes;
  std::vector<spv::Op> ops;
  forEachInstruction(w, [&](const WordInstruction& i) {
    offsets.push_back(i.offset);
    sizes.push_back(i.words.size());
    ops.push_back(i.op);
  });
  EXPECT_EQ(offsets, (std::vector<size_t>{5, 7, 8}));
  EXPECT_EQ(sizes, (std::vector<size_t>{2, 1, 3}));
  EXPECT_EQ(ops, (std::vector<spv::Op>{spv::Op::OpCapability, spv::Op::OpNop, spv::Op::OpTypeInt}));
}

TEST(Walker, HeaderOnlyModuleHasNoInstructions) {
  int n = 0;
  forEachInstruction(header(), [&](const WordInstruction&) { ++n; });
  EXPECT_EQ(n, 0);
}

TEST(Walker, RejectsShortHeaderAndBadMagic) {
  EXPECT_NE(errorOf({spv::MagicNumber, 0x10000}).find("truncated module header"),
            std::string::npos);
  std::vector<uint32_t> w = header();
  w[0] = 0x12345678;
  EXPECT_NE(errorOf(w).find("bad magic number 0x12345678"), std::string::npos);
}

TEST(Walker, RejectsZeroWordCount) {
  std::vector<uint32_t> w = header();
  w.insert(w.end(), {word0(1, spv::Op::OpNop), word0(0, spv::Op::OpNop)});
  EXPECT_NE(errorOf(w).find("instruction at word 6 has word count 0"), std::string::npos)
      << errorOf(w);
}

TEST(Walker, RejectsInstructionRunningPastTheEnd) {
  // OpTypeInt needs 4 words (opcode, result, width, signedness); 3 remain.
  std::vector<uint32_t> w = header();
  w.insert(w.end(), {word0(4, spv::Op::OpTypeInt), 1, 32});
  EXPECT_NE(errorOf(w).find("truncated instruction at word 5: OpTypeInt has word count 4 but "
                            "3 words remain"),
            std::string::npos)
      << errorOf(w);
}

}  // namespace
}  // namespace spvsim::spirv
