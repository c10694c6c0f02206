// Dominators and post-dominators of a graph of blocks (Cooper, Harvey and Kennedy, "A
// Simple, Fast Dominance Algorithm"): the one routine behind the loader's block-order
// repair, lowering's reconvergence points and the debugger's variable bindings.
#pragma once

#include <vector>

namespace spvsim::spirv {

// successors[n] lists the nodes that node n branches to.
using Graph = std::vector<std::vector<int>>;

// The nodes reachable from `root` in post-order (depth-first, successors in order).
std::vector<int> postOrder(const Graph& successors, int root);
std::vector<int> reversePostOrder(const Graph& successors, int root);

// idom[root] == root; -1 for nodes that `root` does not reach.
std::vector<int> immediateDominators(const Graph& successors, int root);

// Immediate post-dominators: the dominators of the reversed graph rooted at a virtual
// exit that every node with exits[n] (return, unreachable) reaches. ipdom[n] == -1 means
// the virtual exit (also for nodes that reach no exit, e.g. in an infinite loop).
std::vector<int> immediatePostDominators(const Graph& successors, const std::vector<bool>& exits);

}  // namespace spvsim::spirv
