// Whether the sub-groups of one work-group can run apart: as separate units of work on
// any host threads, in any order (src/DESIGN.md, "Work-groups split into sub-groups").
#pragma once

#include "spirv/module.h"

namespace spvsim {

class Lowerer;

// Whether `inst` ties the sub-groups of a work-group together, or lets one wait on
// another: a work-group barrier or collective, an atomic, a volatile access, an async
// copy, a pipe or a device-side enqueue. Local memory and printf are the launch's to
// check (LaunchState).
bool tiesSubGroups(const Lowerer& lw, const spirv::Instruction& inst);

}  // namespace spvsim
