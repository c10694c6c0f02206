#include "spirv/dominators.h"

#include <algorithm>
#include <utility>

namespace spvsim::spirv {

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

std::vector<int> immediatePostDominators(const Graph& successors, const std::vector<bool>& exits) {
  const int n = static_cast<int>(successors.size());
  const int exit = n;
  // Reverse graph: exit -> exiting nodes; s -> b for every edge b -> s.
  Graph reverse(n + 1);
  for (int b = 0; b < n; ++b) {
    if (exits[b]) reverse[exit].push_back(b);
    for (int s : successors[b])
      if (s >= 0 && s < n) reverse[s].push_back(b);
  }
  const std::vector<int> idom = immediateDominators(reverse, exit);
  std::vector<int> result(n);
  for (int b = 0; b < n; ++b) result[b] = (idom[b] < 0 || idom[b] == exit) ? -1 : idom[b];
  return result;
}

}  // namespace spvsim::spirv
