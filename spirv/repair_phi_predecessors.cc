// Phi entries: LLVM gives a phi one entry per incoming *edge*, so a switch whose cases
// share a target lists its block several times (with the same value, as LLVM requires);
// llvm-spirv-15 copies that into OpPhi, where SPIR-V wants one entry per predecessor
// *block*. The repeated (value, parent) pairs are dropped; a parent listed with two
// different values is left for the validator (no module means that).
#include <unordered_map>

#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

constexpr size_t kFirstPair = 3;  // opcode word, result type, result id

// The phi without repeated (value, parent) pairs, or false if it has none or a parent
// comes with different values.
bool dedupe(BinaryInstruction& phi) {
  std::unordered_map<Id, Id> valueOf;  // parent -> value
  std::vector<uint32_t> words(phi.words.begin(), phi.words.begin() + kFirstPair);
  for (size_t at = kFirstPair; at + 1 < phi.words.size(); at += 2) {
    const Id value = phi.words[at], parent = phi.words[at + 1];
    const auto [it, fresh] = valueOf.emplace(parent, value);
    if (fresh)
      words.insert(words.end(), {value, parent});
    else if (it->second != value)
      return false;
  }
  if (words.size() == phi.words.size()) return false;
  words[0] = (static_cast<uint32_t>(words.size()) << 16) | static_cast<uint32_t>(spv::Op::OpPhi);
  phi.words = std::move(words);
  phi.operands.clear();  // re-parsed after the repair
  return true;
}

}  // namespace

uint32_t repairPhiPredecessors(Binary& b) {
  uint32_t n = 0;
  for (BinaryInstruction& inst : b.code)
    if (inst.op == spv::Op::OpPhi && inst.words.size() > kFirstPair && inst.words.size() % 2 == 1)
      n += dedupe(inst);
  return n;
}

}  // namespace spvsim::spirv
