#include "spirv/cfg.h"

#include <fmt/core.h>

#include <unordered_map>

#include "spirv/error.h"

namespace spvsim::spirv {
namespace {

// Words that one operand of `kind` takes in a terminator's operand list.
size_t operandWords(OperandKind kind, uint32_t literalWords) {
  switch (kind) {
    case OperandKind::PairLiteralIntegerIdRef:
      return literalWords + 1;
    default:
      return 1;  // ids and single-word literals: all that terminators have
  }
}

// Successor labels of block-by-label `index` as block indices; false when one is missing.
bool addEdges(const std::vector<Id>& targets, const std::unordered_map<Id, int>& index,
              std::vector<int>& out, Id* missing) {
  for (Id t : targets) {
    auto it = index.find(t);
    if (it == index.end()) {
      *missing = t;
      return false;
    }
    out.push_back(it->second);
  }
  return true;
}

// The width of each OpSwitch selector of `function`, by the selector's id.
uint32_t selectorBits(const Module& m, const Function& f, Id selector) {
  Id type = 0;
  if (auto c = m.constants.find(selector); c != m.constants.end()) type = c->second.type;
  for (size_t k = 0; k < f.params.size(); ++k)
    if (f.params[k] == selector) type = f.paramTypes[k];
  for (const Block& b : f.blocks)
    for (const Instruction& i : b.instructions)
      if (i.result == selector) type = i.resultType;
  const Type* t = m.findType(type);
  if (!t || t->kind != TypeKind::Int)
    throw Error(DiagnosticKind::InvalidModule,
                fmt::format("OpSwitch selector %{} is not an integer", selector));
  return t->width;
}

}  // namespace

std::vector<Id> branchTargets(spv::Op op, std::span<const uint32_t> operands,
                              uint32_t selectorBits) {
  std::vector<Id> out;
  const InstructionInfo info = instructionInfo(op);
  if (!info.row || !info.isBranch()) return out;
  const uint32_t literalWords = selectorBits > 32 ? 2 : 1;
  size_t at = 0;  // into `operands`
  for (const OperandDesc& d : info.operands()) {
    do {
      const size_t n = operandWords(d.kind, literalWords);
      if (at + n > operands.size())  // a required operand missing: a malformed terminator
        return d.quantifier == Quantifier::One ? std::vector<Id>{} : out;
      if (d.successor) out.push_back(operands[at + n - 1]);  // the label ends a pair
      at += n;
    } while (d.quantifier == Quantifier::Many);
  }
  return out;
}

FunctionCfg functionCfg(const Module& module, const Function& function) {
  const size_t n = function.blocks.size();
  std::unordered_map<Id, int> index;
  for (size_t b = 0; b < n; ++b) index[function.blocks[b].label] = static_cast<int>(b);
  FunctionCfg cfg{Graph(n), std::vector<bool>(n, false)};
  for (size_t b = 0; b < n; ++b) {
    const auto& instructions = function.blocks[b].instructions;
    if (instructions.empty()) continue;
    const Instruction& term = instructions.back();
    const uint32_t bits = term.opcode == spv::Op::OpSwitch && !term.operands.empty()
                              ? selectorBits(module, function, term.operands[0])
                              : 32;
    const std::vector<Id> targets = branchTargets(term.opcode, term.operands, bits);
    cfg.exits[b] = targets.empty();
    Id missing = 0;
    if (!addEdges(targets, index, cfg.successors[b], &missing))
      throw Error(DiagnosticKind::InvalidModule,
                  fmt::format("branch to %{}, which is not a block of "
                              "function %{}",
                              missing, function.id));
  }
  return cfg;
}

std::optional<FunctionCfg> functionCfg(const Binary& binary, const FunctionSpan& function) {
  const size_t n = function.blocks.size();
  std::unordered_map<Id, int> index;
  for (size_t k = 0; k < n; ++k)
    index[binary.code[function.blocks[k].label].result] = static_cast<int>(k);
  FunctionCfg cfg{Graph(n), std::vector<bool>(n, false)};
  for (size_t k = 0; k < n; ++k) {
    const BinaryInstruction& term = binary.code[function.blocks[k].terminator];
    // The decoder sized OpSwitch's case literals from the selector's type.
    const uint32_t bits = term.operands.size() > 2 ? 32u * term.operands[2].words : 32u;
    const std::vector<Id> targets = branchTargets(term.op, term.tail(), bits);
    cfg.exits[k] = targets.empty();
    Id missing = 0;
    if (!addEdges(targets, index, cfg.successors[k], &missing)) return std::nullopt;
  }
  return cfg;
}

}  // namespace spvsim::spirv
