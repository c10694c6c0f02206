// Module-scope variables as constituents of constant composites: an array or struct
// initialiser holding the address of a program-scope variable at offset 0
// (`global int* ps[2] = {&x, &y[1]};`) comes from llvm-spirv-15 as
// `OpConstantComposite %arr %x %46` with the OpVariable itself as a constituent, which
// the validator refuses ("Constituent ... is not a constant or undef"), although an
// OpVariable initialiser may name a variable and a constituent may be an
// OpSpecConstantOp. Each such constituent becomes an `OpSpecConstantOp Bitcast` of the
// variable to its own type, placed just before the composite: the same address.
#include <unordered_map>
#include <unordered_set>

#include "spirv/opcode.h"
#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

// Module-scope OpVariable results and their pointer types.
std::unordered_map<Id, Id> moduleVariables(const Binary& b) {
  std::unordered_map<Id, Id> vars;
  for (const BinaryInstruction& inst : b.code) {
    if (inst.op == Op::OpFunction) break;
    if (inst.op == Op::OpVariable) vars.emplace(inst.result, inst.type);
  }
  return vars;
}

}  // namespace

uint32_t repairConstantVariablePointers(Binary& b) {
  const std::unordered_map<Id, Id> vars = moduleVariables(b);
  if (vars.empty()) return 0;
  std::vector<BinaryInstruction> code;
  code.reserve(b.code.size());
  uint32_t repaired = 0;
  bool inFunctions = false;
  for (BinaryInstruction& inst : b.code) {
    inFunctions |= inst.op == Op::OpFunction;
    if (!inFunctions && isConstantComposite(inst.op)) {
      for (size_t w = 3; w < inst.words.size(); ++w) {
        auto var = vars.find(inst.words[w]);
        if (var == vars.end()) continue;
        const Id cast = b.takeId();
        code.push_back(makeInstruction(Op::OpSpecConstantOp, var->second, cast,
                                       {uint32_t(Op::OpBitcast), var->first}));
        inst.words[w] = cast;
        ++repaired;
      }
    }
    code.push_back(std::move(inst));
  }
  if (repaired) b.code = std::move(code);
  return repaired;
}

}  // namespace spvsim::spirv
