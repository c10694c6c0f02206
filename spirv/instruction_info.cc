#include "spirv/instruction_info.h"

#include <algorithm>
#include <iterator>

namespace spvsim::spirv {
namespace {

// The generator sorts rows by opcode.
template <size_t N>
const grammar::InstructionRow* findRow(const grammar::InstructionRow (&rows)[N], uint32_t opcode) {
  auto it =
      std::lower_bound(std::begin(rows), std::end(rows), opcode,
                       [](const grammar::InstructionRow& r, uint32_t v) { return r.opcode < v; });
  return it != std::end(rows) && it->opcode == opcode ? &*it : nullptr;
}

}  // namespace

const grammar::InstructionRow* findInstruction(spv::Op op) {
  return findRow(grammar::kCoreInstructions, static_cast<uint32_t>(op));
}

const grammar::InstructionRow* findOpenclStd(uint32_t number) {
  return findRow(grammar::kOpenclStdInstructions, number);
}

const grammar::InstructionRow* findOpenclDebugInfo(uint32_t number) {
  return findRow(grammar::kOpenclDebugInfoInstructions, number);
}

bool isBlockTerminator(spv::Op op) {
  const grammar::InstructionRow* row = findInstruction(op);
  return row && (row->flags & grammar::kTerminator);
}

std::span<const OperandDesc> enumerantParameters(OperandKind kind, uint32_t value) {
  for (const grammar::EnumParamsRow& r : grammar::kEnumParams)
    if (r.kind == kind && r.value == value)
      return {grammar::kOperandPool + r.firstOperand, r.operandCount};
  return {};
}

bool isIdOperand(OperandKind kind) {
  switch (kind) {
    case OperandKind::IdRef:
    case OperandKind::IdResultType:
    case OperandKind::IdMemorySemantics:
    case OperandKind::IdScope:
      return true;
    default:
      return false;
  }
}

}  // namespace spvsim::spirv
