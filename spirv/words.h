// The one walker over SPIR-V words: the header, then each instruction's opcode and word
// count, with bounds checks. Everything in spvsim that reads module words walks them
// with it (the loader's decoder in spirv/operands.h, the repairs through spirv/binary.h,
// the ICD's binary edits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <spirv/unified1/spirv.hpp11>

namespace spvsim::spirv {

inline constexpr size_t kHeaderWords = 5;

struct WordInstruction {
  size_t offset = 0;  // of the first word, in words from the start of the module
  spv::Op op = spv::Op::OpNop;
  std::span<const uint32_t> words;  // all of it, the opcode word first
};

// Walks the instructions after the header. The constructor throws
// Error(DiagnosticKind::InvalidModule) for a stream shorter than the header or with a bad magic
// number; next() for an instruction whose word count is zero or runs past the end of the stream.
class InstructionWalker {
 public:
  explicit InstructionWalker(std::span<const uint32_t> module);
  bool done() const { return at_ >= words_.size(); }
  WordInstruction next();

 private:
  std::span<const uint32_t> words_;
  size_t at_ = kHeaderWords;
};

// Calls f(WordInstruction) for each instruction; throws like InstructionWalker.
template <class F>
void forEachInstruction(std::span<const uint32_t> module, F&& f) {
  for (InstructionWalker walker(module); !walker.done();) f(walker.next());
}

}  // namespace spvsim::spirv
