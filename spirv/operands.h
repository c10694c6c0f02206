// Operand decoding from the grammar's descriptors (spirv/instruction_info.h): where each
// operand of an instruction starts, how many words it takes and its kind, as SPIR-V 2.3
// and the grammar define them. Literal widths that depend on a type (OpConstant's value,
// OpSwitch's case literals: two words for a 64-bit selector) come from the types and
// ids decoded before, so one decoder walks a whole module in order.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "spirv/instruction_info.h"
#include "spirv/words.h"

namespace spvsim::spirv {

struct Operand {
  uint16_t offset = 0;  // in words from the instruction's first word
  uint16_t words = 0;
  OperandKind kind = OperandKind::IdRef;  // pair kinds come as their two parts
};

class OperandDecoder {
 public:
  // All operands of `inst`, result type and id included. Throws
  // Error(DiagnosticKind::InvalidModule) naming the instruction for too few or too many words, an
  // unknown opcode, an unterminated string, or a literal whose width depends on an undeclared type;
  // and Error(DiagnosticKind::Unsupported) for an extended instruction set spvsim does not know.
  std::vector<Operand> decode(const WordInstruction& inst);

 private:
  struct ExtSet;
  struct Cursor;
  void decodeList(Cursor& c, std::span<const OperandDesc> list);
  void decodeOne(Cursor& c, OperandKind kind);
  void decodeExtInst(Cursor& c);
  uint32_t literalWords(Cursor& c, uint32_t type);
  void remember(const WordInstruction& inst, const std::vector<Operand>& operands);

  std::unordered_map<uint32_t, uint32_t> widthOfType_;  // OpTypeInt / OpTypeFloat
  std::unordered_map<uint32_t, uint32_t> typeOf_;       // result id -> result type
  std::unordered_map<uint32_t, int> extSetOf_;          // OpExtInstImport result -> ExtSet
};

}  // namespace spvsim::spirv
