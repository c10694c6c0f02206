// Runs one work-group: its sub-groups interleaved round-robin or in a seeded random
// order, switching at barriers, at yield points (atomics) and after a quantum of
// instructions; a work-group whose sub-groups can never progress is reported as a
// `deadlock` (see workgroup.cc).
#pragma once

#include <vector>

#include "src/exec/subgroup.h"

namespace spvsim {

// Runs until every sub-group is done or the work-group aborts (a fatal diagnostic,
// barrier divergence, deadlock, the instruction budget).
void runWorkGroup(WorkGroupContext& wg, std::vector<SubGroup>& subGroups, size_t count);

// Call when no sub-group is Running: releases the work-group barrier (or collective)
// that every sub-group not done waits at and returns true, or reports
// barrier-divergence (sub-groups at different barriers, or some finished) and returns
// false; false too when all are done.
bool releaseBarrier(WorkGroupContext& wg, std::vector<SubGroup>& subGroups, size_t count);

}  // namespace spvsim
