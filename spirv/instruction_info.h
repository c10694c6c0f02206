// Instruction descriptors generated from SPIRV-Headers' grammar (spirv/gen_grammar_tables.py):
// per opcode its name, result and result-type presence, operand kinds in order with
// their quantifiers, required capabilities and control-flow facts; the same for the
// extended sets spvsim reads (OpenCL.std, OpenCL.DebugInfo.100), and the operands that
// enumerants take (Decoration, ImageOperands, ...).
#pragma once

#include <cstdint>
#include <span>
#include <spirv/unified1/spirv.hpp11>
#include <string_view>

#include "spirv/grammar_tables.inc"

namespace spvsim::spirv {

using grammar::OperandDesc;
using grammar::OperandKind;
using grammar::Quantifier;

struct InstructionInfo {
  const grammar::InstructionRow* row;

  uint32_t opcode() const { return row->opcode; }
  std::string_view name() const { return row->name; }
  bool hasResult() const { return row->flags & grammar::kHasResult; }
  bool hasResultType() const { return row->flags & grammar::kHasType; }
  // Ends a block (SPIR-V 2.2.4 "Termination Instruction").
  bool isTerminator() const { return row->flags & grammar::kTerminator; }
  // A terminator that names the blocks it goes to (OperandDesc::successor marks them).
  bool isBranch() const { return row->flags & grammar::kBranch; }
  bool isReturn() const { return row->flags & grammar::kReturn; }
  // Appears only inside a function (arithmetic, memory access, control flow, calls...).
  bool isFunctionScopeOnly() const { return row->flags & grammar::kFunctionScope; }
  // All operands, result type and result id included, in the grammar's order.
  std::span<const OperandDesc> operands() const {
    return {grammar::kOperandPool + row->firstOperand, row->operandCount};
  }
  // Capabilities of which the module must declare one (empty: none needed).
  std::span<const uint32_t> capabilities() const {
    return {grammar::kCapabilityPool + row->firstCapability, row->capabilityCount};
  }
};

// Rows by number; nullptr for numbers the grammar lacks.
const grammar::InstructionRow* findInstruction(spv::Op op);
const grammar::InstructionRow* findOpenclStd(uint32_t number);
const grammar::InstructionRow* findOpenclDebugInfo(uint32_t number);

// The descriptor of a core opcode; `row` is nullptr for opcodes the grammar lacks.
inline InstructionInfo instructionInfo(spv::Op op) { return {findInstruction(op)}; }

// Whether `op` ends a block (false for unknown opcodes).
bool isBlockTerminator(spv::Op op);

// The operands that enumerant `value` of `kind` takes after it (Decoration SpecId:
// one literal); empty for most.
std::span<const OperandDesc> enumerantParameters(OperandKind kind, uint32_t value);
inline bool isBitEnum(OperandKind kind) { return grammar::kBitEnum[static_cast<size_t>(kind)]; }
inline bool isValueEnum(OperandKind kind) { return grammar::kValueEnum[static_cast<size_t>(kind)]; }

// Operand kinds that hold an id that the instruction uses (not its result id).
bool isIdOperand(OperandKind kind);

}  // namespace spvsim::spirv
