// The editor of SPIR-V word streams in spvsim: words -> instructions as the walker
// (spirv/words.h) and the grammar's operand decoder (spirv/operands.h) read them (result
// type and id, every operand's kind and words), which the loader's repairs and the
// validator's validation-only rewrites edit and encode back. Words the decoder rejects
// give no Binary, so callers leave such modules unchanged and the validator reports them.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <spirv/unified1/spirv.hpp11>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "spirv/module.h"
#include "spirv/opcode.h"  // precedesDebugSection, for the editors of a Binary
#include "spirv/operands.h"
#include "spirv/words.h"

namespace spvsim::spirv {

struct BinaryInstruction {
  spv::Op op = spv::Op::OpNop;
  Id type = 0;                    // result type, 0 if none
  Id result = 0;                  // result id, 0 if none
  std::vector<uint32_t> words;    // all of it, the opcode word first
  std::vector<Operand> operands;  // all, result type and id included (parsed ones only)

  uint32_t word(size_t i) const { return i < words.size() ? words[i] : 0; }
  // The literal string that starts at word `at` (empty past the end).
  std::string string(size_t at) const;
  // The words after the opcode word, e.g. the operands of a terminator.
  std::vector<uint32_t> tail() const {
    return words.size() > 1 ? std::vector<uint32_t>(words.begin() + 1, words.end())
                            : std::vector<uint32_t>{};
  }
};

// An instruction made by an edit (its `operands` are not filled in: repairs re-parse).
// `rest` are the words after the result type and result id (where the opcode has them).
BinaryInstruction makeInstruction(spv::Op op, Id type, Id result, std::vector<uint32_t> rest);

// The words of a literal string operand (nul-terminated, zero-padded).
std::vector<uint32_t> encodeString(const std::string& s);

template <class F>
void forEachIdOperand(const BinaryInstruction& inst, F&& f) {
  for (const Operand& o : inst.operands)
    if (isIdOperand(o.kind) && o.offset < inst.words.size()) f(inst.words[o.offset]);
}

template <class F>
void forEachIdOperand(BinaryInstruction& inst, F&& f) {
  for (const Operand& o : inst.operands)
    if (isIdOperand(o.kind) && o.offset < inst.words.size()) f(inst.words[o.offset]);
}

struct Binary {
  std::array<uint32_t, kHeaderWords> header{};  // magic, version, generator, bound, schema
  std::vector<BinaryInstruction> code;

  uint32_t version() const { return header[1]; }
  uint32_t generator() const { return header[2]; }
  Id takeId() { return header[3]++; }  // a new result id (raises the bound)
  bool hasCapability(spv::Capability c) const;
  // result id -> index into `code` of its definition.
  std::unordered_map<Id, size_t> definitions() const;
  std::vector<uint32_t> encode() const;
};

// The instructions that open a module, up to the first that is neither before the debug
// section (precedesDebugSection) nor one of its source instructions (OpString, OpSource,
// OpSourceContinued, OpSourceExtension), read by the one walker, which stops there: a
// front end reads and edits capabilities, entry points and a producer's
// OpSourceExtension markers without a pass over the functions. Throws like
// InstructionWalker.
std::vector<WordInstruction> leadingInstructions(std::span<const uint32_t> words);

// Inserts `inst` (makeInstruction's words) before word `offset`, which must be where an
// instruction starts or the end of the module; throws Error(DiagnosticKind::InvalidModule)
// for an offset inside the header or past the end.
void insertInstruction(std::vector<uint32_t>& words, size_t offset, const BinaryInstruction& inst);
// Replaces the instruction that starts at word `offset` (an offset a walk or
// Module::instructionWordOffsets found) by `inst`; throws Error(DiagnosticKind::InvalidModule)
// when no instruction of `words` can start there (header, zero word count, overrun).
void replaceInstruction(std::vector<uint32_t>& words, size_t offset, const BinaryInstruction& inst);

// The result ids of the OpExtInstImport instructions that import `set`.
std::unordered_set<Id> extInstImports(const Binary& binary, std::string_view set);

// OpenCL.DebugInfo.100 instructions, which spvsim validates without (spirv/validator.h).
inline constexpr std::string_view kOpenclDebugInfo = "OpenCL.DebugInfo.100";
inline bool isExtInstOf(const BinaryInstruction& inst, const std::unordered_set<Id>& sets) {
  return inst.op == spv::Op::OpExtInst && sets.count(inst.word(3));
}

// Throws Error(DiagnosticKind::InvalidModule) naming what is malformed (bad header, truncated or
// unknown instructions, undefined types of literals, ...), or Error(DiagnosticKind::Unsupported).
Binary decodeBinary(std::span<const uint32_t> words);
// nullopt where decodeBinary throws.
std::optional<Binary> parseBinary(const std::vector<uint32_t>& words);

// Where a function's blocks are in Binary::code. Instructions between blocks (OpLine,
// OpNoLine) belong to the following block; the last block extends to OpFunctionEnd.
struct BlockSpan {
  size_t begin = 0, label = 0, terminator = 0, end = 0;  // [begin, end)
};
struct FunctionSpan {
  size_t function = 0, functionEnd = 0;  // OpFunction and OpFunctionEnd
  std::vector<BlockSpan> blocks;         // empty for declarations
};

// Every function in order; nullopt when the layout is not the one SPIR-V prescribes
// (an instruction outside a block, a block without terminator, no OpFunctionEnd, ...).
std::optional<std::vector<FunctionSpan>> functionSpans(const Binary& binary);

}  // namespace spvsim::spirv
