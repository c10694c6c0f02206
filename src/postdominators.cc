// Cooper, Harvey and Kennedy's iterative dominator algorithm on the reverse CFG.
#include "src/postdominators.h"

#include <functional>

namespace spvsim {

std::vector<int> immediatePostDominators(const std::vector<std::vector<int>>& successors,
                                         const std::vector<bool>& exits) {
  const int n = static_cast<int>(successors.size());
  const int exit = n;
  // Reverse graph: exit -> returning blocks; s -> b for every CFG edge b -> s.
  std::vector<std::vector<int>> reverse(n + 1);
  for (int b = 0; b < n; ++b) {
    if (exits[b]) reverse[exit].push_back(b);
    for (int s : successors[b]) reverse[s].push_back(b);
  }
  // Postorder of the reverse graph from the exit (iterative DFS).
  std::vector<int> post(n + 1, -1), order;
  std::vector<char> seen(n + 1, 0);
  std::vector<std::pair<int, size_t>> stack{{exit, 0}};
  seen[exit] = 1;
  while (!stack.empty()) {
    auto& [node, next] = stack.back();
    if (next < reverse[node].size()) {
      int m = reverse[node][next++];
      if (!seen[m]) {
        seen[m] = 1;
        stack.push_back({m, 0});
      }
    } else {
      post[node] = static_cast<int>(order.size());
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<int> idom(n + 1, -2);  // -2: not yet known
  idom[exit] = exit;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (post[a] < post[b]) a = idom[a];
      while (post[b] < post[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      int b = *it;
      if (b == exit) continue;
      int best = -2;
      // Predecessors of b in the reverse graph: its CFG successors, and the exit.
      auto consider = [&](int p) {
        if (post[p] < 0 || idom[p] == -2) return;
        best = best == -2 ? p : intersect(p, best);
      };
      for (int s : successors[b]) consider(s);
      if (exits[b]) consider(exit);
      if (best != -2 && idom[b] != best) {
        idom[b] = best;
        changed = true;
      }
    }
  }
  std::vector<int> result(n);
  for (int b = 0; b < n; ++b) result[b] = (idom[b] < 0 || idom[b] == exit) ? -1 : idom[b];
  return result;
}

}  // namespace spvsim
