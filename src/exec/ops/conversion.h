// Conversion handlers that other op families call (src/exec/ops/conversion.cc).
#pragma once

#include "src/exec/subgroup.h"

namespace spvsim::ops {

// OpSConvert int -> long and OpUConvert uint -> ulong on scalars, as lowering's handlers
// run them (the results' register shapes included).
void signExtend32To64(SubGroup& sg, const Inst& in);
void zeroExtend32To64(SubGroup& sg, const Inst& in);

}  // namespace spvsim::ops
