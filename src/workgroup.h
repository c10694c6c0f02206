// Runs one work-group: its sub-groups interleaved by a deterministic round-robin that
// switches at barriers and after a quantum of instructions.
#pragma once

#include <vector>

#include "src/subgroup.h"

namespace spvsim {

// Runs until every sub-group is done or the work-group aborts (a fatal diagnostic,
// barrier divergence, the instruction budget).
void runWorkGroup(WorkGroupContext& wg, std::vector<SubGroup>& subGroups, size_t count);

}  // namespace spvsim
