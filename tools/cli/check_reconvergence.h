// Where a random reconvergence run's sub-group operations first return other values than
// the ipdom run's (src/DESIGN.md "Reconvergence"; spvsim check's reconvergence-dependent
// warning names it): both runs are made again with the recorder of src/check/
// tangle_recorder.h, and their logs compared.
#pragma once

#include <cstdint>
#include <string>

#include "spirv/module.h"
#include "src/check/tangle_recorder.h"
#include "src/exec/lowered.h"

namespace spvsim::tools {

// Results a recorded run keeps (tools/cli/check_command.cc): a difference past them is
// not located.
inline constexpr size_t kTangleResultsKept = size_t{1} << 18;

// "the first sub-group operation whose result differs: `%25 = ...` (k.cl:5) in work-group
// (0,0,0), sub-group 0, lane 3 (the lane's 1st execution of it): 5 at ipdom, 3 at
// random:1", or what the comparison found when none differs.
std::string describeTangleDifference(const spirv::Module& module, const LoweredKernel& kernel,
                                     const check::TangleLog& ipdom, const check::TangleLog& random,
                                     uint64_t seed);

}  // namespace spvsim::tools
