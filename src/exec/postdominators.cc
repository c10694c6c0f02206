// Post-dominators are the dominators of the reverse CFG, rooted at a virtual exit that
// every returning block reaches (spirv/cfg.h computes dominators).
#include "src/exec/postdominators.h"

#include "spirv/cfg.h"

namespace spvsim {

std::vector<int> immediatePostDominators(const std::vector<std::vector<int>>& successors,
                                         const std::vector<bool>& exits) {
  const int n = static_cast<int>(successors.size());
  const int exit = n;
  // Reverse graph: exit -> returning blocks; s -> b for every CFG edge b -> s.
  spirv::Graph reverse(n + 1);
  for (int b = 0; b < n; ++b) {
    if (exits[b]) reverse[exit].push_back(b);
    for (int s : successors[b]) reverse[s].push_back(b);
  }
  const std::vector<int> idom = spirv::immediateDominators(reverse, exit);
  std::vector<int> result(n);
  for (int b = 0; b < n; ++b) result[b] = (idom[b] < 0 || idom[b] == exit) ? -1 : idom[b];
  return result;
}

}  // namespace spvsim
