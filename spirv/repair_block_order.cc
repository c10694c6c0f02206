// Block order: SPIR-V requires every block to appear after its dominators (so that
// definitions precede their uses); llvm-spirv-15 lays out many loops' exit blocks before
// the loop body ("Block X appears in the binary before its dominator", "ID has not been
// defined"). A layout-only defect: each such function's blocks are laid out again, each
// block as early as its original position allows once its immediate dominator is placed,
// unreachable blocks last in their original order. Control flow is unchanged.
#include <functional>
#include <queue>

#include "spirv/cfg.h"
#include "spirv/repair.h"

namespace spvsim::spirv {
namespace {

bool dominatorsFirst(const std::vector<int>& idom) {
  for (size_t k = 1; k < idom.size(); ++k)
    if (idom[k] > static_cast<int>(k)) return false;
  return true;
}

// Blocks in dominance order, keeping the original order wherever it allows.
std::vector<int> newOrder(const std::vector<int>& idom) {
  const int n = static_cast<int>(idom.size());
  std::vector<std::vector<int>> children(n);
  for (int k = 1; k < n; ++k)
    if (idom[k] >= 0) children[idom[k]].push_back(k);
  std::priority_queue<int, std::vector<int>, std::greater<int>> ready;
  ready.push(0);
  std::vector<int> order;
  while (!ready.empty()) {
    const int k = ready.top();
    ready.pop();
    order.push_back(k);
    for (int c : children[k]) ready.push(c);
  }
  for (int k = 1; k < n; ++k)
    if (idom[k] < 0) order.push_back(k);
  return order;
}

}  // namespace

uint32_t repairBlockOrder(Binary& b) {
  std::optional<std::vector<FunctionSpan>> functions = functionSpans(b);
  if (!functions) return 0;
  std::vector<BinaryInstruction> code;
  code.reserve(b.code.size());
  size_t copied = 0;  // b.code[0, copied) is in `code`
  uint32_t repaired = 0;
  for (const FunctionSpan& fn : *functions) {
    if (fn.blocks.size() < 2) continue;
    std::optional<FunctionCfg> cfg = functionCfg(b, fn);
    if (!cfg) continue;
    const std::vector<int> idom = immediateDominators(cfg->successors, 0);
    if (dominatorsFirst(idom)) continue;
    const size_t first = fn.blocks.front().begin;
    code.insert(code.end(), b.code.begin() + copied, b.code.begin() + first);
    for (int k : newOrder(idom))
      code.insert(code.end(), b.code.begin() + fn.blocks[k].begin,
                  b.code.begin() + fn.blocks[k].end);
    copied = fn.blocks.back().end;
    ++repaired;
  }
  if (!repaired) return 0;
  code.insert(code.end(), b.code.begin() + copied, b.code.end());
  b.code = std::move(code);
  return repaired;
}

}  // namespace spvsim::spirv
