#include "spirv/words.h"

#include <fmt/core.h>

#include "spirv/error.h"
#include "spirv/instruction_info.h"

namespace spvsim::spirv {

InstructionWalker::InstructionWalker(std::span<const uint32_t> module) : words_(module) {
  if (module.size() < kHeaderWords)
    throw Error(
        DiagnosticKind::InvalidModule,
        fmt::format("truncated module header ({} of {} words)", module.size(), kHeaderWords));
  if (module[0] != spv::MagicNumber)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("not a SPIR-V module: bad magic number 0x{:08x}", module[0]));
}

WordInstruction InstructionWalker::next() {
  const uint32_t first = words_[at_];
  const uint32_t count = first >> 16;
  const auto op = static_cast<spv::Op>(first & 0xffff);
  if (count == 0)
    throw Error(
        DiagnosticKind::InvalidModule,
        fmt::format("instruction at word {} has word count 0 (opcode {})", at_, first & 0xffff));
  if (count > words_.size() - at_) {
    const InstructionInfo info = instructionInfo(op);
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("truncated instruction at word {}: {} has word count {} but {} "
                            "words remain",
                            at_, info.row ? info.name() : std::string_view("an unknown opcode"),
                            count, words_.size() - at_));
  }
  WordInstruction inst{at_, op, words_.subspan(at_, count)};
  at_ += count;
  return inst;
}

}  // namespace spvsim::spirv
