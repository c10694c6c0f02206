// Function variables: SPIR-V requires every Function-storage OpVariable at the start of
// the function's first block; llvm-spirv-15 leaves some where LLVM had the alloca. Each
// misplaced variable moves to the end of the first block's variables; an initializer
// becomes an OpStore where the variable was, so the variable is (re)initialised each
// time control passes there, as before.
#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

constexpr uint32_t kFunctionStorage = static_cast<uint32_t>(spv::StorageClass::Function);

bool isFunctionVariable(const BinaryInstruction& inst) {
  return inst.op == Op::OpVariable && inst.words.size() >= 4 && inst.word(3) == kFunctionStorage;
}

// Instructions the validator lets stand among the leading variables: line info, and
// OpenCL.DebugInfo.100 instructions, which spvsim validates without (spirv/validator.h).
bool transparent(const BinaryInstruction& inst, const std::unordered_set<Id>& debugSets) {
  return inst.op == Op::OpLine || inst.op == Op::OpNoLine || isExtInstOf(inst, debugSets);
}

// The index after the first block's leading variables.
size_t variablesEnd(const Binary& b, const BlockSpan& first, const std::unordered_set<Id>& sets) {
  size_t end = first.label + 1;
  for (size_t at = end; at < first.terminator; ++at) {
    if (isFunctionVariable(b.code[at]))
      end = at + 1;
    else if (!transparent(b.code[at], sets))
      break;
  }
  return end;
}

// Moves the misplaced variables of one function; returns how many.
uint32_t repairFunction(const Binary& b, const FunctionSpan& fn, const std::unordered_set<Id>& sets,
                        std::vector<BinaryInstruction>& out) {
  const size_t insertAt = variablesEnd(b, fn.blocks.front(), sets);
  std::vector<BinaryInstruction> moved, rest;
  for (size_t at = insertAt; at < fn.functionEnd; ++at) {
    const BinaryInstruction& inst = b.code[at];
    if (!isFunctionVariable(inst)) {
      rest.push_back(inst);
      continue;
    }
    moved.push_back(makeInstruction(Op::OpVariable, inst.type, inst.result, {kFunctionStorage}));
    if (inst.words.size() > 4)
      rest.push_back(makeInstruction(Op::OpStore, 0, 0, {inst.result, inst.word(4)}));
  }
  if (moved.empty()) return 0;
  out.insert(out.end(), b.code.begin() + fn.function, b.code.begin() + insertAt);
  out.insert(out.end(), moved.begin(), moved.end());
  out.insert(out.end(), rest.begin(), rest.end());
  return static_cast<uint32_t>(moved.size());
}

}  // namespace

uint32_t repairFunctionVariables(Binary& b) {
  std::optional<std::vector<FunctionSpan>> functions = functionSpans(b);
  if (!functions) return 0;
  const std::unordered_set<Id> sets = extInstImports(b, kOpenclDebugInfo);
  std::vector<BinaryInstruction> code;
  size_t copied = 0;
  uint32_t repaired = 0;
  for (const FunctionSpan& fn : *functions) {
    if (fn.blocks.empty()) continue;
    std::vector<BinaryInstruction> body;
    const uint32_t n = repairFunction(b, fn, sets, body);
    if (!n) continue;
    code.insert(code.end(), b.code.begin() + copied, b.code.begin() + fn.function);
    code.insert(code.end(), body.begin(), body.end());
    copied = fn.functionEnd;
    repaired += n;
  }
  if (!repaired) return 0;
  code.insert(code.end(), b.code.begin() + copied, b.code.end());
  b.code = std::move(code);
  return repaired;
}

}  // namespace spvsim::spirv
