#include "spirv/cfg.h"

#include <fmt/core.h>

#include <algorithm>
#include <unordered_map>

#include "spirv/error.h"

namespace spvsim::spirv {

using spv::Op;

bool isBlockTerminator(Op op) {
  switch (op) {
    case Op::OpBranch:
    case Op::OpBranchConditional:
    case Op::OpSwitch:
    case Op::OpReturn:
    case Op::OpReturnValue:
    case Op::OpUnreachable:
    case Op::OpKill:
    case Op::OpTerminateInvocation:
    case Op::OpIgnoreIntersectionKHR:
    case Op::OpTerminateRayKHR:
    case Op::OpEmitMeshTasksEXT:
      return true;
    default:
      return false;
  }
}

std::vector<Id> branchTargets(Op op, std::span<const uint32_t> operands, uint32_t selectorBits) {
  std::vector<Id> out;
  switch (op) {
    case Op::OpBranch:
      if (!operands.empty()) out.push_back(operands[0]);
      break;
    case Op::OpBranchConditional:
      if (operands.size() < 3) break;
      out.push_back(operands[1]);
      out.push_back(operands[2]);
      break;
    case Op::OpSwitch: {
      // selector, default, then (literal, label) pairs.
      if (operands.size() < 2) break;
      out.push_back(operands[1]);
      const size_t step = (selectorBits > 32 ? 2 : 1) + 1;
      for (size_t k = 2; k + step <= operands.size(); k += step)
        out.push_back(operands[k + step - 1]);
      break;
    }
    default:
      break;
  }
  return out;
}

std::vector<int> postOrder(const Graph& successors, int root) {
  const int n = static_cast<int>(successors.size());
  std::vector<int> order;
  if (root < 0 || root >= n) return order;
  std::vector<char> seen(n, 0);
  std::vector<std::pair<int, size_t>> stack{{root, 0}};
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < successors[node].size()) {
      const int m = successors[node][next++];
      if (m >= 0 && m < n && !seen[m]) {
        seen[m] = 1;
        stack.push_back({m, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  return order;
}

std::vector<int> reversePostOrder(const Graph& successors, int root) {
  std::vector<int> order = postOrder(successors, root);
  std::reverse(order.begin(), order.end());
  return order;
}

std::vector<int> immediateDominators(const Graph& successors, int root) {
  const int n = static_cast<int>(successors.size());
  std::vector<int> idom(n, -1);
  const std::vector<int> order = postOrder(successors, root);
  if (order.empty()) return idom;
  std::vector<int> post(n, -1);
  for (size_t i = 0; i < order.size(); ++i) post[order[i]] = static_cast<int>(i);
  Graph predecessors(n);
  for (int b : order)
    for (int s : successors[b])
      if (s >= 0 && s < n) predecessors[s].push_back(b);
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (post[a] < post[b]) a = idom[a];
      while (post[b] < post[a]) b = idom[b];
    }
    return a;
  };
  idom[root] = root;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const int b = *it;
      if (b == root) continue;
      int best = -1;
      for (int p : predecessors[b])
        if (idom[p] != -1) best = best == -1 ? p : intersect(p, best);
      if (best != -1 && idom[b] != best) {
        idom[b] = best;
        changed = true;
      }
    }
  }
  return idom;
}

FunctionCfg functionCfg(const Function& function, const std::function<uint32_t(Id)>& selectorBits) {
  const size_t n = function.blocks.size();
  std::unordered_map<Id, int> index;
  for (size_t b = 0; b < n; ++b) index[function.blocks[b].label] = static_cast<int>(b);
  FunctionCfg cfg{Graph(n), std::vector<bool>(n, false)};
  for (size_t b = 0; b < n; ++b) {
    const auto& instructions = function.blocks[b].instructions;
    if (instructions.empty()) continue;
    const Instruction& term = instructions.back();
    const uint32_t bits =
        term.opcode == Op::OpSwitch && !term.operands.empty() ? selectorBits(term.operands[0]) : 0;
    std::vector<Id> targets = branchTargets(term.opcode, term.operands, bits);
    cfg.exits[b] = targets.empty();
    for (Id t : targets) {
      auto it = index.find(t);
      if (it == index.end())
        throw Error(
            DiagnosticKind::InvalidModule,
            fmt::format("branch to %{}, which is not a block of function %{}", t, function.id));
      cfg.successors[b].push_back(it->second);
    }
  }
  return cfg;
}

}  // namespace spvsim::spirv
