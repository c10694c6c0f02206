// Immediate post-dominators of a function's blocks, with a virtual exit node.
#pragma once

#include <cstdint>
#include <vector>

namespace spvsim {

// `successors[b]` lists the successor blocks of block b; `exits[b]` is true when b
// leaves the function (return, unreachable). Returns ipdom[b], with -1 meaning the
// virtual exit (also for blocks that cannot reach an exit, e.g. infinite loops).
std::vector<int> immediatePostDominators(const std::vector<std::vector<int>>& successors,
                                         const std::vector<bool>& exits);

}  // namespace spvsim
