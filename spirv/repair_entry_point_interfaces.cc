// Entry-point interfaces: an OpEntryPoint lists the module-scope variables its call tree
// uses (from SPIR-V 1.4 on all of them, before 1.4 the Input and Output ones), counting
// uses through module-scope instructions such as another variable's initializer.
// llvm-spirv-15 misses variables used only that way (`global int* p = &counter;`). The
// missing ones are appended, in declaration order; what executes does not change.
#include <algorithm>
#include <set>
#include <unordered_map>

#include "spirv/normalize.h"
#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

using spv::Op;
using spv::StorageClass;

constexpr uint32_t kVersion14 = 0x00010400;

using IdSet = std::set<Id>;

struct Interfaces {
  const Binary& b;
  std::unordered_map<Id, size_t> variables;    // interface variables -> declaration index
  std::unordered_map<Id, IdSet> moduleUses;    // module-scope id -> variables it reaches
  std::unordered_map<Id, IdSet> functionUses;  // function -> variables its body reaches
  std::unordered_map<Id, IdSet> callees;

  explicit Interfaces(const Binary& binary) : b(binary) {}

  bool isInterfaceVariable(const BinaryInstruction& inst) const {
    if (inst.op != Op::OpVariable || inst.words.size() < 4) return false;
    const auto sc = static_cast<StorageClass>(inst.word(3));
    if (b.version() >= kVersion14) return sc != StorageClass::Function;
    return sc == StorageClass::Input || sc == StorageClass::Output;
  }

  // The variables each module-scope id reaches through module-scope instructions (an
  // initializer, a constant address computation), in one pass: at module scope
  // definitions precede their uses (the forward references of pointer types never lead
  // to a variable). Only ids that reach one are recorded.
  void collectModuleUses(size_t firstFunction) {
    for (size_t at = 0; at < firstFunction; ++at) {
      const BinaryInstruction& inst = b.code[at];
      if (!inst.result) continue;
      if (isInterfaceVariable(inst)) variables[inst.result] = at;
      IdSet reach;
      if (variables.count(inst.result)) reach.insert(inst.result);
      forEachIdOperand(inst, [&](Id used) {
        if (auto it = moduleUses.find(used); it != moduleUses.end())
          reach.insert(it->second.begin(), it->second.end());
      });
      if (!reach.empty()) moduleUses[inst.result] = std::move(reach);
    }
  }

  void scanFunction(const FunctionSpan& fn) {
    const Id self = b.code[fn.function].result;
    IdSet& uses = functionUses[self];
    IdSet& calls = callees[self];
    for (size_t at = fn.function; at <= fn.functionEnd; ++at) {
      const BinaryInstruction& inst = b.code[at];
      if (inst.op == Op::OpFunctionCall) calls.insert(inst.word(3));
      forEachIdOperand(inst, [&](Id used) {
        if (auto it = moduleUses.find(used); it != moduleUses.end())
          uses.insert(it->second.begin(), it->second.end());
      });
    }
  }

  IdSet callTreeUses(Id entry) {
    IdSet seen{entry}, out;
    std::vector<Id> work{entry};
    while (!work.empty()) {
      const Id f = work.back();
      work.pop_back();
      const IdSet& u = functionUses[f];
      out.insert(u.begin(), u.end());
      for (Id c : callees[f])
        if (seen.insert(c).second) work.push_back(c);
    }
    return out;
  }
};

// Appends the missing variables to one OpEntryPoint; returns how many.
uint32_t completeEntryPoint(BinaryInstruction& ep, Interfaces& in) {
  if (ep.operands.size() < 3 || ep.words.size() < 4) return 0;
  IdSet listed;
  for (size_t k = 3; k < ep.operands.size(); ++k) listed.insert(ep.word(ep.operands[k].offset));
  std::vector<Id> missing;
  for (Id v : in.callTreeUses(ep.word(2)))
    if (!listed.count(v)) missing.push_back(v);
  if (missing.empty() || ep.words.size() + missing.size() > 0xffff) return 0;
  std::sort(missing.begin(), missing.end(),
            [&](Id a, Id b) { return in.variables.at(a) < in.variables.at(b); });
  ep.words.insert(ep.words.end(), missing.begin(), missing.end());
  return static_cast<uint32_t>(missing.size());
}

}  // namespace

uint32_t repairEntryPointInterfaces(Binary& b) {
  std::optional<std::vector<FunctionSpan>> functions = functionSpans(b);
  if (!functions) return 0;
  Interfaces in(b);
  in.collectModuleUses(functions->empty() ? b.code.size() : functions->front().function);
  if (in.variables.empty()) return 0;
  for (const FunctionSpan& fn : *functions) in.scanFunction(fn);
  uint32_t added = 0;
  for (BinaryInstruction& inst : b.code)
    if (inst.op == Op::OpEntryPoint) added += completeEntryPoint(inst, in);
  return added;
}

std::vector<uint32_t> withEntryPointInterfaces(const std::vector<uint32_t>& words,
                                               uint32_t* added) {
  if (added) *added = 0;
  std::optional<Binary> b = parseBinary(words);
  if (!b) return words;
  const uint32_t n = repairEntryPointInterfaces(*b);
  if (added) *added = n;
  return n ? b->encode() : words;
}

}  // namespace spvsim::spirv
