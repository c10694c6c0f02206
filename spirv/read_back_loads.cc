#include "spirv/read_back_loads.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "spirv/cfg.h"
#include "spirv/opcode.h"

namespace spvsim::spirv {
namespace {

using spv::Op;

// One use of a value: the instruction and the index of the operand word.
struct Use {
  const Instruction* in = nullptr;
  size_t operand = 0;
};

// Pointer computations that two instructions repeat exactly when they have the same
// operands (clang -O0 casts one `out[i]` twice: once for the load, once for the store).
bool recomputable(Op op) { return op == Op::OpBitcast || isAccessChain(op); }

class FunctionReadBacks {
 public:
  FunctionReadBacks(const Module& module, const Function& fn) : module_(module), fn_(fn) {
    for (size_t k = 0; k < fn.blocks.size(); ++k)
      for (const Instruction& in : fn.blocks[k].instructions) {
        if (in.result) {
          defs_[in.result] = &in;
          blockOf_[in.result] = int(k);
        }
        // Every operand word that may be an id (the grammar's literals left out): a
        // literal taken for a use only makes a load the kernel's, never the compiler's.
        forEachIdOperand(in.opcode, in.operands.size(), [&](size_t i) {
          uses_[in.operands[i]].push_back({&in, i});
        });
      }
  }

  void collect(const Function& fn, std::vector<uint32_t>& out) const {
    for (const Block& b : fn.blocks)
      for (const Instruction& in : b.instructions)
        if (in.opcode == Op::OpLoad && in.result && !in.operands.empty() &&
            readsBack(in.result, in.operands[0]))
          out.push_back(in.index);
  }

 private:
  // Whether every use of `loaded` (read through `pointer`) puts its components back in place.
  bool readsBack(Id loaded, Id pointer) const {
    // Values that hold loaded components at their own positions, to follow.
    std::vector<Id> carriers{loaded};
    std::unordered_set<Id> seen{loaded};
    bool stored = false;
    while (!carriers.empty()) {
      const Id value = carriers.back();
      carriers.pop_back();
      auto it = uses_.find(value);
      if (it == uses_.end()) continue;
      for (const Use& u : it->second) {
        Id carried = 0;
        if (!carriesInPlace(*u.in, u.operand, value, pointer, carried, stored)) return false;
        if (carried && seen.insert(carried).second) carriers.push_back(carried);
      }
    }
    return stored;  // a load nothing stores back is dead, not a read-back: leave it be
  }

  // Whether use `operand` of `in` keeps `value`'s components in place: a store back
  // through `pointer` (sets `stored`), or an instruction whose result carries them
  // (`carried`). Debug-info instructions observe nothing.
  bool carriesInPlace(const Instruction& in, size_t operand, Id value, Id pointer, Id& carried,
                      bool& stored) const {
    switch (in.opcode) {
      case Op::OpStore:
        if (operand != 1 || in.operands[0] == value || !samePointer(in.operands[0], pointer))
          return false;
        stored = true;
        return true;
      case Op::OpCompositeInsert:  // object, composite, indices: only the composite
        if (operand != 1 || in.operands[0] == value) return false;
        for (size_t k = 2; k < in.operands.size(); ++k)
          if (in.operands[k] == value) return false;
        carried = in.result;
        return true;
      case Op::OpCopyObject:
        carried = in.result;
        return true;
      case Op::OpSelect:  // chooses, observes nothing; the condition is a use
        if (operand == 0) return false;
        carried = in.result;
        return true;
      case Op::OpPhi:  // (value, label) pairs: a loop may carry the vector (-O2)
        // Around a cycle that recomputes the pointer, a store could put one iteration's
        // value back at another iteration's address.
        if (operand % 2 != 0 || !definedOutsideCycles(pointer)) return false;
        carried = in.result;
        return true;
      case Op::OpVectorShuffle:
        if (!shuffleKeepsInPlace(in, value)) return false;
        carried = in.result;
        return true;
      case Op::OpExtInst:
        return isDebugInfo(in);
      default:
        return false;
    }
  }

  // Every result component taken from `value` is taken from its own position. (A
  // shuffle of `value` with itself is refused: positions could not tell which is which.)
  bool shuffleKeepsInPlace(const Instruction& in, Id value) const {
    if (in.operands.size() < 2 || in.operands[0] == in.operands[1]) return false;
    const bool first = in.operands[0] == value;
    const uint32_t firstCount = componentCount(in.operands[0]);
    if (firstCount == 0) return false;
    for (size_t k = 2; k < in.operands.size(); ++k) {
      const uint32_t c = in.operands[k];
      if (c == 0xffffffffu) continue;  // an undefined component takes nothing
      const bool fromFirst = c < firstCount;
      if (fromFirst != first) continue;
      if ((fromFirst ? c : c - firstCount) != k - 2) return false;
    }
    return true;
  }

  uint32_t componentCount(Id vector) const {
    Id type = 0;
    if (auto it = defs_.find(vector); it != defs_.end())
      type = it->second->resultType;
    else if (auto c = module_.constants.find(vector); c != module_.constants.end())
      type = c->second.type;
    if (!type) return 0;
    const Type& t = module_.type(type);
    return t.kind == TypeKind::Vector ? uint32_t(t.count) : 0;
  }

  // The same id, or two results of one pointer computation with the same operands.
  bool samePointer(Id a, Id b, int depth = 0) const {
    if (a == b) return true;
    if (depth > 4) return false;
    auto da = defs_.find(a), db = defs_.find(b);
    if (da == defs_.end() || db == defs_.end()) return false;
    const Instruction &x = *da->second, &y = *db->second;
    if (x.opcode != y.opcode || !recomputable(x.opcode) || x.resultType != y.resultType ||
        x.operands.size() != y.operands.size())
      return false;
    for (size_t k = 0; k < x.operands.size(); ++k)
      if (x.operands[k] != y.operands[k] &&
          (k != 0 || !samePointer(x.operands[k], y.operands[k], depth + 1)))
        return false;
    return true;
  }

  // Whether `id` is not computed in a block that can reach itself (its value is the same
  // on every path through the function).
  bool definedOutsideCycles(Id id) const {
    auto it = blockOf_.find(id);
    if (it == blockOf_.end()) return true;  // a parameter or module-scope value
    if (inCycle_.empty()) findCycles();
    return !inCycle_[it->second];
  }

  void findCycles() const {
    const Graph g = functionCfg(module_, fn_).successors;
    inCycle_.assign(g.size(), false);
    for (size_t start = 0; start < g.size(); ++start) {
      std::vector<bool> seen(g.size(), false);
      std::vector<int> work(g[start].begin(), g[start].end());
      while (!work.empty() && !inCycle_[start]) {
        const int b = work.back();
        work.pop_back();
        if (b == int(start)) inCycle_[start] = true;
        if (seen[b]) continue;
        seen[b] = true;
        work.insert(work.end(), g[b].begin(), g[b].end());
      }
    }
  }

  bool isDebugInfo(const Instruction& in) const {
    if (in.operands.empty()) return false;
    auto it = module_.extInstImports.find(in.extSet());
    return it != module_.extInstImports.end() &&
           std::string_view(it->second).starts_with("OpenCL.DebugInfo");
  }

  const Module& module_;
  const Function& fn_;
  std::unordered_map<Id, const Instruction*> defs_;
  std::unordered_map<Id, int> blockOf_;  // result id -> index of its block
  mutable std::vector<bool> inCycle_;    // by block index, computed on first need
  std::unordered_map<Id, std::vector<Use>> uses_;
};

}  // namespace

std::vector<uint32_t> readBackLoads(const Module& module) {
  std::vector<uint32_t> out;
  for (const Function& fn : module.functions) {
    if (fn.isImport) continue;
    FunctionReadBacks(module, fn).collect(fn, out);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace spvsim::spirv
